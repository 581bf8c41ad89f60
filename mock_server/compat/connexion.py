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
    every value of every request; `validator_map(fast=True)` builds it once per parameter (and
    the JSON body validator one per body validator).
  - The operation's call (issue 17, item 4): the handler's parameter decorator finds the
    operation through the `operation` context proxy a dozen times per request and sanitizes
    every parameter name with three re.sub; `_ParameterDecorator` is given its operation and
    remembers the names. The request is built on the scope and receive themselves, not on their
    context proxies (each use of those was a context-variable look-up), with a URI parser made
    once per operation (it holds only the operation's definitions).
  - Request validation (`fast_middlewares()`, AsyncApp's documented `middlewares` with
    `_RequestValidationOperation` in place of connexion's): connexion builds a URI parser, a
    parameter validator and a body validator per request and matches the media type by
    fnmatch; here once per operation (and media type, bounded). connexion 3.3 also appends a
    path's parameters to each operation's list in place, once per middleware layer, so a path
    parameter was checked six times: each definition is checked once (`_distinct`).
  - `FastURIParser` (add_api's documented `uri_parser_class`): `param_schemas` computed once,
    not per parameter per request; `fast_jsonifier()` (AsyncApp's documented `jsonifier`):
    json's C encoder made once per encoder class, not per answer; the same bytes.
  - The response decorator (`_ResponseDecorator`) reads the operation's `produces` off its
    operation instead of through the `operation` context proxy (twice per answer); connexion's
    `_infer_content_type` otherwise, line for line.
  - Routing (compat/routing.py, given in `fast_middlewares()`): the Swagger UI and routing
    middlewares find a route by its path's segment count and literal segments, trying only the
    routes that path could match with starlette's own `matches`, in the router's order, instead of
    ~50 routes one regex at a time; anything without a full match (404, 405, a slash redirect)
    goes through connexion's own routers (tests/mock_server/test_routing.py compares the two).
  Nothing there changes what is validated or answered: the same decorators and validators
  run, built once, in the same order, raising the same problems. With `fast_paths=False` none
  of it is used.

Every cache here belongs to one app (it lives in a class made by `validator_map`, an operation
or a middleware of the app) or is bounded, so building apps does not grow the process.
"""

# ruff: noqa: E402  (the version check comes first: outside its range the imports below may fail)
# connexion has no types: to mypy the classes subclassed here are Any, which strict mode refuses.
# mypy: allow-subclassing-any

from __future__ import annotations

import asyncio
import collections.abc
import functools
import json
import logging
import types
import warnings
from collections.abc import Awaitable, Callable
from json.encoder import c_make_encoder, encode_basestring_ascii  # type: ignore[attr-defined]
from typing import Any

from ...openapi.compat import require

require("connexion", "3.3", "3.4")

# `import connexion` imports starlette's TestClient, which warns (StarletteDeprecationWarning, a
# UserWarning) that httpx is deprecated there; under -W error that import would fail.
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import connexion

from connexion.apps.asynchronous import AsyncApi, AsyncOperation
from connexion.context import _context, _receive, _scope, context
from connexion.datastructures import MediaTypeDict
from connexion.decorators import StarletteDecorator
from connexion.decorators.parameter import (
    CONTEXT_NAME,
    AsyncParameterDecorator,
    get_arguments,
    pythonic,
    sanitized,
    unwrap_decorators,
)
from connexion.decorators.response import AsyncResponseDecorator
from connexion.exceptions import BadRequestProblem, NonConformingResponseHeaders
from connexion.http_facts import FORM_CONTENT_TYPES
from connexion.json_schema import Draft4RequestValidator, Draft4ResponseValidator, format_error_with_path
from connexion.jsonifier import Jsonifier
from connexion.lifecycle import ConnexionRequest
from connexion.middleware.main import ConnexionMiddleware
from connexion.middleware.request_validation import (
    RequestValidationAPI,
    RequestValidationMiddleware,
    RequestValidationOperation,
)
from connexion.middleware.routing import RoutingMiddleware
from connexion.middleware.swagger_ui import SwaggerUIMiddleware
from connexion.operations import AbstractOperation, Swagger2Operation
from connexion.security import ApiKeySecurityHandler, BasicSecurityHandler
from connexion.uri_parsing import OpenAPIURIParser
from connexion.utils import extract_content_type, inspect_function_arguments, is_null, is_nullable
from connexion.validators import (
    VALIDATOR_MAP,
    JSONRequestBodyValidator,
    JSONResponseBodyValidator,
    TextResponseBodyValidator,
)
from connexion.validators import ParameterValidator as ConnexionParameterValidator
from jsonschema import Draft4Validator, ValidationError

from .jsonschema import FORMAT_CHECKER
from .routing import FastRoutingMiddleware, FastSwaggerUIMiddleware


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
            self.schema_validator().validate(body)
        except ValidationError as exception:
            detail = f"{exception.message}{format_error_with_path(exception)}"
            raise BadRequestProblem(detail=detail) from None
        return None

    def schema_validator(self) -> Draft4Validator:
        """A new validator for each body, as connexion does."""
        validator: Draft4Validator = Draft4RequestValidator(self.body_schema, format_checker=FORMAT_CHECKER)
        return validator


class _ResponseFormats:
    """Response validation (`validate_responses=True`) with the mock's formats: connexion builds
    its jsonschema validator in the public `validator` property."""

    def __init__(self, scope: Any, *, schema: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(scope, schema=schema, **kwargs)  # type: ignore[call-arg]
        self.body_schema = schema

    @property
    def validator(self) -> Draft4Validator:
        validator: Draft4Validator = Draft4ResponseValidator(self.body_schema, format_checker=FORMAT_CHECKER)
        return validator


class JSONResponseValidator(_ResponseFormats, JSONResponseBodyValidator):
    pass


class TextResponseValidator(_ResponseFormats, TextResponseBodyValidator):
    pass


def validator_map(*, fast: bool) -> dict[str, Any]:
    """The `validator_map` of one app: connexion's, with the mock's formats; `fast` adds a
    parameter validator that remembers its jsonschema validators (in a class of this app's own)."""
    json_body = _RememberingJSONBodyValidator if fast else JSONBodyValidator
    body = MediaTypeDict({**VALIDATOR_MAP["body"], "*/*json": json_body})
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


class _RememberingJSONBodyValidator(JSONBodyValidator):
    """One jsonschema validator per body validator; with the fast paths there is one of those per
    operation and media type (`_RequestValidationOperation`), not one per request."""

    @functools.cached_property
    def _kept_validator(self) -> Draft4Validator:
        return super().schema_validator()

    def schema_validator(self) -> Draft4Validator:
        return self._kept_validator


class FastURIParser(OpenAPIURIParser):
    """connexion's OpenAPI URI parser (given through add_api's documented `uri_parser_class`) with
    `param_schemas` computed once: connexion rebuilds that dict for every parameter of every
    request. The parameter definitions never change after the parser is made."""

    @functools.cached_property
    def param_schemas(self) -> dict[str, Any]:
        return {k: v.get("schema", {}) for k, v in self.param_defns.items()}


# connexion's parameter-name sanitizers are pure functions of the name; ~27 re.sub per request
_SANITIZERS = {
    False: functools.lru_cache(maxsize=1024)(sanitized),
    True: functools.lru_cache(maxsize=1024)(pythonic),
}


class _ParameterDecorator(AsyncParameterDecorator):
    """connexion's parameter decorator given its operation, instead of finding it through the
    `operation` context proxy at each of a dozen uses per request, and with remembered sanitizers.
    The wrapper is connexion's `wrapper`, `_maybe_get_body` and `prep_kwargs`, in their order."""

    def __init__(self, *, operation: AbstractOperation, framework: Any, pythonic_params: bool) -> None:
        super().__init__(framework=framework, pythonic_params=pythonic_params)
        self.operation = operation
        self.sanitize_fn = _SANITIZERS[bool(pythonic_params)]

    def __call__(self, function: Callable[..., Any]) -> Callable[..., Any]:
        arguments, has_kwargs = inspect_function_arguments(unwrap_decorators(function))
        op, sanitize = self.operation, self.sanitize_fn

        @functools.wraps(function)
        async def wrapper(request: ConnexionRequest) -> Any:
            body: Any = None
            body_name = sanitize(op.body_name(request.content_type))
            if (body_name in arguments or has_kwargs) or (
                request.mimetype in FORM_CONTENT_TYPES and isinstance(op, Swagger2Operation)
            ):
                body = request.get_body()
            while asyncio.iscoroutine(body):
                body = await body
            kwargs = get_arguments(
                op,
                path_params=request.path_params,
                query_params=request.query_params,
                body=body,
                files=await request.files(),
                arguments=arguments,
                has_kwargs=has_kwargs,
                sanitize=sanitize,
                content_type=request.mimetype,
            )
            kwargs = {sanitize(k): v for k, v in kwargs.items()}
            for key, value in _context.get().items():  # what the `context` proxy stands for
                if has_kwargs or key in arguments:
                    kwargs[key] = value
            if CONTEXT_NAME in arguments:
                kwargs[CONTEXT_NAME] = context
            return await function(**kwargs)

        return wrapper


class _ResponseDecorator(AsyncResponseDecorator):
    """connexion's response decorator given its operation: its `_infer_content_type` (connexion's,
    line for line) reads `produces` off the operation instead of through the `operation` context
    proxy, twice per answer."""

    def __init__(self, operation: AbstractOperation, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.operation = operation

    def _infer_content_type(self, data: Any, headers: dict[str, Any]) -> str | None:
        content_type: str | None = extract_content_type(headers)
        produces = list(set(self.operation.produces))
        if data is not None and not produces:
            produces = ["application/json"]
        if content_type:
            if content_type not in produces:
                raise NonConformingResponseHeaders(
                    f"Returned content type ({content_type}) is not defined in operation spec "
                    f"({self.operation.produces})."
                )
        elif len(produces) == 1:
            content_type = produces[0]
        elif produces:
            if isinstance(data, str):
                for produced_content_type in produces:
                    if "text/plain" in produced_content_type:
                        content_type = produced_content_type
            elif isinstance(data, bytes | types.GeneratorType | collections.abc.Iterator):
                for produced_content_type in produces:
                    if "application/octet-stream" in produced_content_type:
                        content_type = produced_content_type
            if content_type is None:
                raise NonConformingResponseHeaders(
                    "Multiple response content types are defined in the operation spec, but "
                    "the handler response did not specify which one to return."
                )
        return content_type


class _Operation(AsyncOperation):
    """connexion's AsyncOperation, its handler decorated once (connexion decorates it again on
    every request), the URI parser made once (it holds only the operation's definitions), and
    the request built on the request's scope and receive rather than on their context proxies
    (every use of those is a context-variable look-up)."""

    spec: AbstractOperation  # the operation as the document defines it (set by _Api)

    @functools.cached_property
    def fn(self) -> Callable[[], Awaitable[Any]]:
        decorator = StarletteDecorator(pythonic_params=self.pythonic_params, jsonifier=self.jsonifier)
        framework, spec = decorator.framework, self.spec
        function = decorator._sync_async_decorator(self._fn)
        function = _ParameterDecorator(
            operation=spec, framework=framework, pythonic_params=self.pythonic_params
        )(function)
        decorated = _ResponseDecorator(spec, framework=framework, jsonifier=self.jsonifier)(function)
        parser = spec.uri_parser_class(spec.parameters, spec.body_definition())

        async def call() -> Any:  # StarletteDecorator's wrapper, minus decorating
            return await decorated(ConnexionRequest(_scope.get(), _receive.get(), uri_parser=parser))

        return call


class _Api(AsyncApi):
    def make_operation(self, operation: AbstractOperation) -> AsyncOperation:
        made = _Operation.from_operation(
            operation, pythonic_params=self.pythonic_params, jsonifier=self.jsonifier
        )
        made.spec = operation
        return made


def use_fast_operations(app: connexion.AsyncApp) -> None:
    """Call before `add_api`. connexion has no option for its inner API class, hence the attribute."""
    app._middleware_app.api_cls = _Api


_UNSET: Any = object()


class _RequestValidationOperation(RequestValidationOperation):
    """connexion's request validation with what it builds per request from the operation alone
    (a URI parser, the parameter validator, the body validator of a media type and the check of
    that media type) built once. The same checks in the same order, the same problems raised."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._parameters: Any = None
        self._bodies: dict[tuple[str, str], Any] = {}  # (media type, encoding) -> validator or None
        self._accepted: set[str] = set()  # media types validate_mime_type let through

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        op = self._operation
        if self._parameters is None:
            parser = op._uri_parser_class(op.parameters, op.body_definition())
            self._parameters = self._validator_map["parameter"](
                _distinct(op.parameters),
                uri_parser=parser,
                strict_validation=self.strict_validation,
                security_query_params=self.security_query_params,
            )
        self._parameters.validate(scope)
        mime_type, encoding = self.extract_content_type(scope["headers"])
        if mime_type not in self._accepted:
            self.validate_mime_type(mime_type)  # raises as connexion does
            if len(self._accepted) < 16:  # a client chooses the header: a bound
                self._accepted.add(mime_type)
        validator = self._bodies.get((mime_type, encoding), _UNSET)
        if validator is _UNSET:
            validator = self._body_validator(mime_type, encoding)
            if len(self._bodies) < 16:
                self._bodies[(mime_type, encoding)] = validator
        if validator is None and op.body_schema(mime_type) and mime_type not in self._validator_map["body"]:
            log = logging.getLogger("connexion.middleware.validation")  # connexion's message, each time
            log.info(f"Skipping validation. No validator registered for content type: {mime_type}.")
        if validator is not None:
            receive, scope = await validator.wrap_receive(receive, scope=scope)
        await self.next_app(scope, receive, send)

    def _body_validator(self, mime_type: str, encoding: str) -> Any:
        """connexion's body validator for this media type, as its __call__ builds it; None if none."""
        op = self._operation
        schema = op.body_schema(mime_type)
        if not schema or mime_type not in self._validator_map["body"]:
            return None
        return self._validator_map["body"][mime_type](
            schema=schema,
            required=op.request_body.get("required", False),
            nullable=is_nullable(op.body_definition(mime_type)),
            encoding=encoding,
            strict_validation=self.strict_validation,
            uri_parser=op.uri_parser_class(op.parameters, op.body_definition()),
        )


def _distinct(parameters: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The parameters, each once. connexion 3.3 appends a path's parameters to its operation's
    list in place (`OpenAPIOperation.__init__`), once for each of its six layers that makes the
    operation: each check of a path parameter ran six times, on the same definition and value.
    The same dicts in the same order, so the first failing check is the same."""
    return list({id(p): p for p in parameters}.values())


class _RequestValidationAPI(RequestValidationAPI):
    def make_operation(self, operation: AbstractOperation) -> RequestValidationOperation:
        return _RequestValidationOperation(
            self.next_app,
            operation=operation,
            strict_validation=self.strict_validation,
            validator_map=self.validator_map,
        )


class _RequestValidationMiddleware(RequestValidationMiddleware):
    api_cls = _RequestValidationAPI


def fast_middlewares() -> list[Any]:
    """connexion's default middleware stack (AsyncApp's documented `middlewares`) with the request
    validation above and the routing of compat/routing.py in the places of its own."""
    replaced = {
        RequestValidationMiddleware: _RequestValidationMiddleware,
        RoutingMiddleware: FastRoutingMiddleware,
        SwaggerUIMiddleware: FastSwaggerUIMiddleware,
    }
    return [replaced.get(m, m) for m in ConnexionMiddleware.default_middlewares]


class FastJson:
    """The `json` module as connexion's Jsonifier uses it (its documented `json_` argument), with
    the C encoder of each encoder class made once instead of per answer: `json.dumps(data, cls=C)`
    builds an instance of C and a C encoder each call. Only for the exact call Jsonifier makes
    (`cls`, nothing else): the same bytes, since the encoder is made with dumps' own arguments."""

    loads = staticmethod(json.loads)

    def __init__(self) -> None:
        self._encoders: dict[type, Any] = {}

    def dumps(self, data: Any, **kwargs: Any) -> str:
        cls = kwargs.get("cls")
        if c_make_encoder is None or len(kwargs) != 1 or cls is None or isinstance(data, str):
            return json.dumps(data, **kwargs)
        encode = self._encoders.get(cls)
        if encode is None:
            encode = self._encoders[cls] = _c_encoder(cls())
        try:
            return "".join(encode(data, 0))
        except BaseException:
            # an error may leave the encoder's circular-reference markers set: make it again,
            # and raise what json.dumps raises
            del self._encoders[cls]
            return json.dumps(data, **kwargs)


def fast_jsonifier() -> Jsonifier:
    """AsyncApp's documented `jsonifier`: connexion's own, on FastJson."""
    return Jsonifier(json_=FastJson())


def _c_encoder(encoder: json.JSONEncoder) -> Any:
    """What `JSONEncoder.iterencode(o, _one_shot=True)` makes for dumps' default arguments."""
    return c_make_encoder(
        {},  # check_circular
        encoder.default,
        encode_basestring_ascii,  # ensure_ascii
        encoder.indent,
        encoder.key_separator,
        encoder.item_separator,
        encoder.sort_keys,
        encoder.skipkeys,
        encoder.allow_nan,
    )


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
