"""Work connexion 3.3 repeats on every request that only needs doing once per operation.

- `AsyncOperation.fn` builds a new decorator for each request, and the decorator wraps the
  handler again on each call (inspect.signature of it included): ~20% of a small request.
  `use_fast_operations(app)` makes each operation wrap its handler once.
- Security handlers inspect the check function's signature on each call (`_accepts_kwarg`);
  `accepts_kwarg` remembers the answer.
- The parameter validator deep-copies each parameter and builds a jsonschema validator for
  every value of every request; `VALIDATOR_MAP` holds one that builds it once per parameter.

Nothing here changes what is validated or answered: the same decorators run, built once.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any

import connexion
from connexion.apps.asynchronous import AsyncApi, AsyncOperation
from connexion.context import receive, scope
from connexion.decorators import StarletteDecorator
from connexion.operations import AbstractOperation
from connexion.utils import inspect_function_arguments, is_null, is_nullable
from connexion.validators import VALIDATOR_MAP as CONNEXION_VALIDATORS
from connexion.validators import ParameterValidator as ConnexionParameterValidator
from jsonschema import Draft4Validator, ValidationError


class _Operation(AsyncOperation):
    @functools.cached_property
    def fn(self) -> Callable[[], Awaitable[Any]]:  # type: ignore[override]
        decorator = StarletteDecorator(pythonic_params=self.pythonic_params, jsonifier=self.jsonifier)
        decorated = decorator.decorate(self._fn)

        async def call() -> Any:  # what StarletteDecorator's own wrapper does, minus decorating
            parser = decorator.uri_parser
            request = decorator.framework.get_request(uri_parser=parser, scope=scope, receive=receive)
            return await decorated(request)

        return call


class _Api(AsyncApi):
    def make_operation(self, operation: AbstractOperation) -> AsyncOperation:
        return _Operation.from_operation(
            operation, pythonic_params=self.pythonic_params, jsonifier=self.jsonifier
        )


def use_fast_operations(app: connexion.AsyncApp) -> None:
    """Call before `add_api`. connexion has no option for its inner API class, hence the attribute."""
    app._middleware_app.api_cls = _Api  # type: ignore[attr-defined]


@functools.cache
def accepts_kwarg(func: Callable[..., Any], keyword: str) -> bool:
    """connexion's `AbstractSecurityHandler._accepts_kwarg`, remembered per function."""
    arguments, has_kwargs = inspect_function_arguments(func)
    return has_kwargs or keyword in arguments


class ParameterValidator(ConnexionParameterValidator):
    @staticmethod
    def validate_parameter(
        parameter_type: str, value: Any, param: dict[str, Any], param_name: str | None = None
    ) -> str | None:
        """connexion's own checks, in its order, with a validator made once per parameter."""
        if is_nullable(param) and is_null(value):
            return None
        if value is None:
            return f"Missing {parameter_type} parameter '{param['name']}'" if param.get("required") else None
        try:
            _validator(param).validate(value)
        except ValidationError as exception:
            return str(exception)
        return None


# parameter dicts live as long as the app's operations; the dict itself is kept so an id is never reused
_VALIDATORS: dict[int, tuple[dict[str, Any], Draft4Validator]] = {}


def _validator(param: dict[str, Any]) -> Draft4Validator:
    entry = _VALIDATORS.get(id(param))
    if entry is None or entry[0] is not param:
        validator = Draft4Validator(param.get("schema", param), format_checker=Draft4Validator.FORMAT_CHECKER)
        entry = _VALIDATORS[id(param)] = (param, validator)
    return entry[1]


VALIDATOR_MAP = {**CONNEXION_VALIDATORS, "parameter": ParameterValidator}
