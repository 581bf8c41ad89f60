"""Everything the mock uses of connexion 3.3 beyond its documented API, behind the version check.

Two parts:

- Validators (both modes): connexion's own, checking formats with the mock's format checker
  (compat/jsonschema.py) instead of jsonschema's global one. They reach connexion through the
  documented `validator_map` and the hooks its docs name for custom validators (`_validate` of
  a body validator, the public `validate_parameter` and `validator`), and take from its
  undocumented `connexion.json_schema` (its Draft 4 validators, which know OpenAPI's `nullable`)
  and `connexion.utils`, so that what is validated, and how a failure reads, stay connexion's.
- Fast paths (`create_app(fast_paths=True)`, the default): connexion 3.3 repeats work on every
  request that only needs doing once per operation; these remove it through its internals:
  - `AsyncOperation.fn` builds a new decorator for each request, and the decorator wraps the
    handler again on each call (inspect.signature of it included): ~20% of a small request.
    `use_fast_operations(app)` makes each operation wrap its handler once.
  - Security handlers inspect the check function's signature on each call (`_accepts_kwarg`);
    `FAST_SECURITY_MAP`'s handlers remember the answer.
  - The parameter validator deep-copies each parameter and builds a jsonschema validator for
    every value of every request; `validator_map(fast=True)` builds it once per parameter.
  Nothing there changes what is validated or answered: the same decorators and validators
  run, built once. With `fast_paths=False` none of it is used.

Every cache here belongs to one app (it lives in a class made by `validator_map`) or is
bounded, so building apps does not grow the process.
"""

# ruff: noqa: E402  (the version check comes first: outside its range the imports below may fail)

from __future__ import annotations

import functools
import warnings
from collections.abc import Awaitable, Callable
from typing import Any

from ...openapi.compat import require

require("connexion", "3.3", "3.4")

# `import connexion` imports starlette's TestClient, which warns (StarletteDeprecationWarning, a
# UserWarning) that httpx is deprecated there; under -W error that import would fail.
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import connexion

from connexion.apps.asynchronous import AsyncApi, AsyncOperation
from connexion.context import receive, scope
from connexion.datastructures import MediaTypeDict
from connexion.decorators import StarletteDecorator
from connexion.exceptions import BadRequestProblem
from connexion.json_schema import Draft4RequestValidator, Draft4ResponseValidator, format_error_with_path
from connexion.operations import AbstractOperation
from connexion.security import ApiKeySecurityHandler, BasicSecurityHandler
from connexion.utils import inspect_function_arguments, is_null, is_nullable
from connexion.validators import (
    VALIDATOR_MAP,
    JSONRequestBodyValidator,
    JSONResponseBodyValidator,
    TextResponseBodyValidator,
)
from connexion.validators import ParameterValidator as ConnexionParameterValidator
from jsonschema import Draft4Validator, ValidationError

from .jsonschema import FORMAT_CHECKER


# ---------------------------------------------------------------------- validators (both modes)
class ParameterValidator(ConnexionParameterValidator):
    """connexion's parameter checks, in its order and words, with the mock's formats."""

    def validate_parameter(  # a staticmethod there, but always called on the instance
        self, parameter_type: str, value: Any, param: dict[str, Any], param_name: str | None = None
    ) -> str | None:
        if is_nullable(param) and is_null(value):
            return None
        if value is None:
            return f"Missing {parameter_type} parameter '{param['name']}'" if param.get("required") else None
        try:
            self.schema_validator(param).validate(value)
        except ValidationError as exception:
            return str(exception)
        return None

    def schema_validator(self, param: dict[str, Any]) -> Draft4Validator:
        """A new validator for each value, as connexion does."""
        return Draft4Validator(param.get("schema", param), format_checker=FORMAT_CHECKER)


class JSONBodyValidator(JSONRequestBodyValidator):
    """connexion's JSON body validator with the mock's formats.

    `_validate` is the hook connexion's docs (Custom validators) have subclasses override; its
    body here is connexion's own, on a validator given the mock's format checker. Form bodies
    need no such class: guards.py turns every form body into JSON before connexion sees it.
    """

    def __init__(self, *, schema: dict[str, Any], nullable: bool = False, **kwargs: Any) -> None:
        super().__init__(schema=schema, nullable=nullable, **kwargs)
        self.body_schema, self.body_nullable = schema, nullable

    def _validate(self, body: Any) -> dict[str, Any] | None:
        if not self.body_nullable and body is None:
            raise BadRequestProblem("Request body must not be empty")
        try:
            Draft4RequestValidator(self.body_schema, format_checker=FORMAT_CHECKER).validate(body)
        except ValidationError as exception:
            detail = f"{exception.message}{format_error_with_path(exception)}"
            raise BadRequestProblem(detail=detail) from None
        return None


class _ResponseFormats:
    """Response validation (`validate_responses=True`) with the mock's formats: connexion builds
    its jsonschema validator in the public `validator` property."""

    def __init__(self, scope: Any, *, schema: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(scope, schema=schema, **kwargs)  # type: ignore[call-arg]
        self.body_schema = schema

    @property
    def validator(self) -> Draft4Validator:
        return Draft4ResponseValidator(self.body_schema, format_checker=FORMAT_CHECKER)


class JSONResponseValidator(_ResponseFormats, JSONResponseBodyValidator):
    pass


class TextResponseValidator(_ResponseFormats, TextResponseBodyValidator):
    pass


def validator_map(*, fast: bool) -> dict[str, Any]:
    """The `validator_map` of one app: connexion's, with the mock's formats; `fast` adds a
    parameter validator that remembers its jsonschema validators (in a class of this app's own)."""
    body = MediaTypeDict({**VALIDATOR_MAP["body"], "*/*json": JSONBodyValidator})
    response = MediaTypeDict(
        {**VALIDATOR_MAP["response"], "*/*json": JSONResponseValidator, "text/plain": TextResponseValidator}
    )
    parameter = _remembering_parameter_validator() if fast else ParameterValidator
    return {"parameter": parameter, "body": body, "response": response}


# ---------------------------------------------------------------------- fast paths (internals)
def _remembering_parameter_validator() -> type[ParameterValidator]:
    """A ParameterValidator class with its own cache: one validator per parameter of this app.

    connexion makes a ParameterValidator per request, with the operation's parameter dicts; they
    live as long as the app, and so does this class (the app's validator_map holds it), so the
    cache goes with the app. The parameter dict itself is kept so that its id is never reused.
    """
    validators: dict[int, tuple[dict[str, Any], Draft4Validator]] = {}

    class RememberingParameterValidator(ParameterValidator):
        def schema_validator(self, param: dict[str, Any]) -> Draft4Validator:
            entry = validators.get(id(param))
            if entry is None or entry[0] is not param:
                entry = validators[id(param)] = (param, super().schema_validator(param))
            return entry[1]

    return RememberingParameterValidator


class _Operation(AsyncOperation):
    @functools.cached_property
    def fn(self) -> Callable[[], Awaitable[Any]]:
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
    app._middleware_app.api_cls = _Api


@functools.lru_cache(maxsize=64)  # the check functions are module-level: a handful of entries
def accepts_kwarg(func: Callable[..., Any], keyword: str) -> bool:
    """connexion's `AbstractSecurityHandler._accepts_kwarg`, remembered per function."""
    arguments, has_kwargs = inspect_function_arguments(func)
    return has_kwargs or keyword in arguments


class FastApiKeySecurityHandler(ApiKeySecurityHandler):
    _accepts_kwarg = staticmethod(accepts_kwarg)


class FastBasicSecurityHandler(BasicSecurityHandler):
    _accepts_kwarg = staticmethod(accepts_kwarg)


#: connexion's `security_map` for the fast paths: its API key and Basic handlers, remembering.
FAST_SECURITY_MAP: dict[str, type] = {"apiKey": FastApiKeySecurityHandler, "basic": FastBasicSecurityHandler}
