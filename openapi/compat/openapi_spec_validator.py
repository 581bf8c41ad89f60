"""The internals of openapi-spec-validator that `csapi validate` (lint.py) uses, behind one door.

openapi-spec-validator promises `OpenAPIV30SpecValidator(document).iter_errors()`: its meta-schema
pass (through its own backend, jsonschema-rs when installed) and its semantic checks in one stream,
each semantic error placed relative to the object it was looking at, not to the document. The linter
needs two things that stream does not give, both reached through undocumented names:

1. `META_SCHEMA_V30`, the OpenAPI 3.0 meta-schema the library bundles (`schemas.schema_v30`), so that
   lint.py runs it with jsonschema's pure-Python validator, whose errors keep the context of a failed
   oneOf/anyOf that lint.py reports from;
2. `SemanticValidator`: the semantic checks alone (`root_validator` over `schema_path`), with every
   error's path prefixed by where the checked object is in the document (its `keyword_validators`
   class map, each class wrapped).
"""

from __future__ import annotations

from . import require

require("openapi-spec-validator", "0.9", "0.10")  # before the imports below can fail in another release

from collections.abc import Callable, Iterator, Mapping  # noqa: E402
from typing import Any  # noqa: E402

from jsonschema.exceptions import ValidationError  # noqa: E402
from openapi_spec_validator import OpenAPIV30SpecValidator  # noqa: E402
from openapi_spec_validator.schemas import schema_v30  # noqa: E402
from openapi_spec_validator.validation.keywords import KeywordValidator  # noqa: E402

__all__ = ["META_SCHEMA_V30", "SemanticValidator"]

#: The OpenAPI 3.0 JSON Schema (loaded on first use).
META_SCHEMA_V30: Mapping[str, Any] = schema_v30


class SemanticValidator:
    """openapi-spec-validator's semantic checks of an OpenAPI 3.0 document, without its meta-schema pass.

    Each error's `path` starts at the document's root; it is a logical path, which may pass through
    `$ref`s (lint.py turns it into the location in the file). The checks assume a document the
    meta-schema accepts: on another one they may raise (including referencing's `Unresolvable`).
    """

    def __init__(self, document: Mapping[str, Any], base_uri: str) -> None:
        self._validator = _LocatedV30SpecValidator(document, base_uri=base_uri)

    def iter_errors(self) -> Iterator[ValidationError]:
        return self._validator.root_validator(self._validator.schema_path)


def _located(cls: type[KeywordValidator]) -> type[KeywordValidator]:
    """A subclass of keyword validator `cls` whose errors carry the path of the object it checked.

    Keyword validators call each other down the document, so an error comes up through several:
    the innermost, the one that knows the exact spot, prefixes it once.
    """
    # Every registered keyword validator defines `__call__(self, <the object's SchemaPath>, ...)`;
    # their base class declares none, so it is looked up on the class, unbound.
    check: Callable[..., Iterator[ValidationError]] = cls.__call__

    def __call__(self: KeywordValidator, *args: Any, **kwargs: Any) -> Iterator[ValidationError]:
        where = next((arg for arg in args if hasattr(arg, "parts") and hasattr(arg, "read_value")), None)
        for error in check(self, *args, **kwargs):
            if where is not None and not getattr(error, "_csapi_located", False):
                error.path.extendleft(reversed(where.parts))
                error._csapi_located = True  # type: ignore[attr-defined]  # our mark on their error
            yield error

    return type(f"Located{cls.__name__}", (cls,), {"__call__": __call__})


class _LocatedV30SpecValidator(OpenAPIV30SpecValidator):
    keyword_validators = {
        name: _located(validator) for name, validator in OpenAPIV30SpecValidator.keyword_validators.items()
    }


def as_the_validator_reads(document: Mapping[str, Any], version: str) -> dict[str, Any]:
    """A copy of `document` without what openapi-spec-validator 0.9 misreads in a valid document.

    - an `x-` extension directly in `paths` (allowed by OpenAPI 3.0 and 3.1) makes its semantic
      checks raise KeyError, as if it were a path;
    - its bundled OpenAPI 3.1 meta-schema (2022-10-07) refuses a Link Object's `server` field.
    Both are dropped from the copy only: what is compared is the document as written.
    """
    copy = dict(document)
    paths = copy.get("paths")
    if isinstance(paths, dict):
        copy["paths"] = {key: item for key, item in paths.items() if not str(key).startswith("x-")}
    if version.startswith("3.1"):
        copy = _without_link_servers(copy)
    return copy


def _without_link_servers(document: dict[str, Any]) -> dict[str, Any]:
    """`document` with `server` removed from every Link Object (copied on the way, never edited)."""

    def links(value: Any) -> Any:  # a map of Link Objects (or $refs)
        if not isinstance(value, dict):
            return value
        return {
            name: {k: v for k, v in link.items() if k != "server"} if isinstance(link, dict) else link
            for name, link in value.items()
        }

    def response(value: Any) -> Any:
        return (
            {**value, "links": links(value["links"])}
            if isinstance(value, dict) and "links" in value
            else value
        )

    def responses(value: Any) -> Any:
        return {code: response(item) for code, item in value.items()} if isinstance(value, dict) else value

    def path_item(item: Any) -> Any:
        if not isinstance(item, dict):
            return item
        return {
            method: {**op, "responses": responses(op["responses"])}
            if isinstance(op, dict) and "responses" in op
            else op
            for method, op in item.items()
        }

    out = dict(document)
    for key in ("paths", "webhooks"):
        if isinstance(out.get(key), dict):
            out[key] = {name: path_item(item) for name, item in out[key].items()}
    components = out.get("components")
    if isinstance(components, dict):
        components = dict(components)
        if isinstance(components.get("responses"), dict):
            components["responses"] = responses(components["responses"])
        if "links" in components:
            components["links"] = links(components["links"])
        if isinstance(components.get("pathItems"), dict):
            components["pathItems"] = {n: path_item(i) for n, i in components["pathItems"].items()}
        out["components"] = components
    return out
