"""`csapi validate`: is the OpenAPI document valid OpenAPI 3.0, and complete against the spec?

The document is what the mock server routes by and what the conformance suite tests with, so a
mistake in it silently weakens both. This module finds such mistakes in three layers, each reported
as a `Problem` that carries an RFC 6901 JSON pointer into the document, so a reader can jump
straight to the spot:

1. ``parse``: the file must be readable YAML (or JSON) whose top level is a mapping.
2. ``openapi-spec``: openapi-spec-validator, i.e. the OpenAPI 3.0 meta-schema plus its semantic checks
   (path parameters declared, schemas well formed, defaults valid, ...).
3. The toolkit's own rules, which openapi-spec-validator does not know about:
   ``operation-id``, ``summary``, ``tags``, ``success-response``, ``ref``, ``unused-component``,
   ``example`` and ``inventory`` (see the ``_rule_*`` functions).

Every rule runs even when an earlier layer failed, and every rule is written to tolerate any shape
of input: a broken document must give a list of problems, never a traceback.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlparse
from urllib.request import url2pathname

from jsonschema.exceptions import UnknownType, ValidationError, relevance
from jsonschema.validators import validator_for
from openapi_schema_validator import OAS30Validator
from referencing import Registry, Resource
from referencing.exceptions import NoSuchResource, Unresolvable

from . import load_inventory
from .compat.openapi_spec_validator import META_SCHEMA_V30, SemanticValidator
from .loader import DocumentError, load, one_line
from .refs import LOOP, MISSING, Parts, Resolver, follow, parts_of, pointer
from .walk import Operation, operations, path_items, shape

MAX_MESSAGE = 300
MAX_REF_HOPS = 32


@dataclass(frozen=True, order=True)
class Problem:
    """One finding: where (JSON pointer), which rule, and what is wrong. Sorts by pointer first."""

    pointer: str
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.pointer or '(document)'}: [{self.rule}] {self.message}"

    def as_dict(self) -> dict[str, str]:
        return {"pointer": self.pointer, "rule": self.rule, "message": self.message}


@dataclass(frozen=True)
class Report:
    """The verdict on one document; `operations` counts what was found, even in a broken document."""

    document: Path
    problems: tuple[Problem, ...]
    operations: int

    @property
    def valid(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        if self.valid:
            return f"OK: {self.document} is valid ({self.operations} operations)"
        return f"{len(self.problems)} problem(s) in {self.document}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "document": str(self.document),
            "valid": self.valid,
            "problems": [problem.as_dict() for problem in self.problems],
            "operations": self.operations,
        }


# --------------------------------------------------------------------------------------------------
# Entry points


def validate_document(path: str | Path, inventory: list[dict[str, str]] | None = None) -> list[Problem]:
    """All problems of the document at `path`, sorted by pointer; empty when the document is clean.

    `inventory` ([{method, path, name}]) replaces the spec's inventory, so rules can be tested on
    small documents.
    """
    return list(lint(path, inventory).problems)


def lint(path: str | Path, inventory: list[dict[str, str]] | None = None) -> Report:
    """Check the document at `path` and return the whole verdict (problems and operation count)."""
    path = Path(path)
    try:
        document = load(path)
    except DocumentError as exc:
        return Report(path, (Problem("", "parse", str(exc)),), 0)
    context = _Context(document, path.resolve(), load_inventory() if inventory is None else inventory)
    problems: set[Problem] = set()
    for rule, check in _CHECKS:
        problems.update(_guarded(rule, check, context))
    return Report(path, tuple(sorted(problems)), len(operations(document)))


def _guarded(rule: str, check: Callable[[_Context], Iterable[Problem]], context: _Context) -> list[Problem]:
    """Run one rule; a crash becomes a problem, because the linter must always answer."""
    try:
        return list(check(context))
    except Exception as exc:  # last line of defence: reported, not hidden
        return [Problem("", rule, f"internal error while checking: {_short(repr(exc))}")]


# --------------------------------------------------------------------------------------------------
# References (openapi.refs: the resolver the diff and the mock use too)


class _Context:
    """The parsed document with what every rule needs: its location, inventory and a ref resolver."""

    def __init__(self, document: dict[str, Any], path: Path, inventory: list[dict[str, str]]) -> None:
        self.document = document
        self.uri = path.as_uri()
        self.inventory = inventory
        self._files: dict[str, Any] = {self.uri: document}
        self.resolver = Resolver(document, self.uri, self._file)
        # `type: ignore[call-arg]` here and in `_retrieve`: referencing's attrs classes take the keywords
        # it documents (`Registry(retrieve=)`, `NoSuchResource(ref=)`), but its stubs (_attrs.pyi) mark
        # them with pyright's `__dataclass_transform__`, which mypy does not read: to mypy their
        # `__init__` has no parameters.
        retrieving: Registry[Any] = Registry(retrieve=self._retrieve)  # type: ignore[call-arg]
        self.registry = retrieving.with_resource(self.uri, Resource.opaque(document))

    def resolve(self, ref: Any) -> tuple[Any, str | None]:
        """(target, None) for a resolvable `$ref` value, else (`MISSING`, why not)."""
        target, _, why = self.resolver.lookup(ref)
        return target, why

    def deref(self, node: Any) -> Any:
        """`node` with its `$ref` chain followed; `MISSING` when a link is broken or loops."""
        return self.resolver.deref(node)

    def loops(self, node: Any) -> bool:
        """Whether following `node`'s `$ref`s comes back to a `$ref` already followed."""
        return self.resolver.chase(node).why == LOOP

    def schema_uri(self, parts: Parts) -> str:
        """Absolute URI of the schema at `parts` of the document, for a `$ref` a validator follows."""
        return f"{self.uri}#{quote(pointer(parts), safe='/~')}"

    def _file(self, uri: str) -> Any:
        if uri not in self._files:
            self._files[uri] = load(url2pathname(urlparse(uri).path))
        return self._files[uri]

    def _retrieve(self, uri: str) -> Resource[Any]:
        """Registry hook: other files of a split document, parsed like the main one."""
        if urlparse(uri).scheme != "file":
            raise NoSuchResource(ref=uri)  # type: ignore[call-arg]  # see __init__
        try:
            return Resource.opaque(self._file(uri))
        except DocumentError as exc:
            raise NoSuchResource(ref=uri) from exc  # type: ignore[call-arg]  # see __init__


_NAME_MAPS = frozenset(
    {
        "properties",
        "examples",
        "responses",
        "headers",
        "links",
        "callbacks",
        "encoding",
        "content",
        "schemas",
        "parameters",
        "requestBodies",
        "securitySchemes",
        "variables",
        "mapping",
        "paths",
    }
)


def _is_literal(parts: Parts) -> bool:
    """Whether the value at `parts` is data (an example, default, enum or extension), not OpenAPI.

    A `$ref` inside an example is just a member of the example. In maps keyed by names (a schema's
    `properties`, `responses`, `examples`, ...) `default` or `example` is a name, not a keyword.
    """
    if not parts:
        return False
    key, parent = str(parts[-1]), (str(parts[-2]) if len(parts) > 1 else "")
    if parent in _NAME_MAPS:
        return False
    if key in ("example", "default", "enum") or key.startswith("x-"):
        return True
    return key == "value" and len(parts) > 2 and str(parts[-3]) == "examples"


def _mappings(node: Any, parts: Parts = ()) -> Iterator[tuple[Parts, dict[str, Any]]]:
    """Every mapping in `node` that is OpenAPI (not literal data), with its parts, depth first."""
    if _is_literal(parts):
        return
    if isinstance(node, dict):
        yield parts, node
        for key, value in node.items():
            yield from _mappings(value, (*parts, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _mappings(value, (*parts, index))


def _dict(value: Any) -> dict[str, Any]:
    """`value` if it is a mapping, else an empty one: rules skip what the meta-schema reports."""
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


# --------------------------------------------------------------------------------------------------
# Walking the document


def _inline(container: Any, parts: Parts) -> Iterator[tuple[Parts, dict[str, Any]]]:
    """Entries of a map (or list) that are written in place; `$ref` entries are checked at their target."""
    entries = container.items() if isinstance(container, dict) else enumerate(_list(container))
    for key, value in entries:
        if isinstance(value, dict) and "$ref" not in value:
            yield (*parts, key), value


def _responses(document: dict[str, Any]) -> Iterator[tuple[Parts, dict[str, Any]]]:
    for operation in operations(document):
        yield from _inline(operation.node.get("responses"), (*operation.parts, "responses"))
    yield from _inline(_dict(document.get("components")).get("responses"), ("components", "responses"))


def _request_bodies(document: dict[str, Any]) -> Iterator[tuple[Parts, dict[str, Any]]]:
    for operation in operations(document):
        body = operation.node.get("requestBody")
        if isinstance(body, dict) and "$ref" not in body:
            yield (*operation.parts, "requestBody"), body
    components = _dict(document.get("components")).get("requestBodies")
    yield from _inline(components, ("components", "requestBodies"))


def _parameters(document: dict[str, Any]) -> Iterator[tuple[Parts, dict[str, Any]]]:
    """Parameters and headers: objects with `schema` plus `example`/`examples` of their own."""
    for item in path_items(document):
        yield from _inline(item.node.get("parameters"), (*item.parts, "parameters"))
    for operation in operations(document):
        yield from _inline(operation.node.get("parameters"), (*operation.parts, "parameters"))
    components = _dict(document.get("components"))
    yield from _inline(components.get("parameters"), ("components", "parameters"))
    yield from _inline(components.get("headers"), ("components", "headers"))
    for parts, response in _responses(document):
        yield from _inline(response.get("headers"), (*parts, "headers"))


def _media_types(document: dict[str, Any]) -> Iterator[tuple[Parts, dict[str, Any]]]:
    owners = [*_responses(document), *_request_bodies(document), *_parameters(document)]
    for parts, owner in owners:
        yield from _inline(owner.get("content"), (*parts, "content"))


_SUBSCHEMA_LISTS = ("allOf", "anyOf", "oneOf")
_SUBSCHEMAS = ("items", "not", "additionalProperties")


def _schemas(schema: Any, parts: Parts) -> Iterator[tuple[Parts, dict[str, Any]]]:
    """A schema written in place and all its in-place subschemas."""
    if not isinstance(schema, dict) or "$ref" in schema:
        return
    yield parts, schema
    for name, subschema in _dict(schema.get("properties")).items():
        yield from _schemas(subschema, (*parts, "properties", name))
    for keyword in _SUBSCHEMAS:
        yield from _schemas(schema.get(keyword), (*parts, keyword))
    for keyword in _SUBSCHEMA_LISTS:
        for index, subschema in enumerate(_list(schema.get(keyword))):
            yield from _schemas(subschema, (*parts, keyword, index))


def _all_schemas(document: dict[str, Any]) -> Iterator[tuple[Parts, dict[str, Any]]]:
    components = _dict(_dict(document.get("components")).get("schemas"))
    for name, schema in components.items():
        yield from _schemas(schema, ("components", "schemas", name))
    for parts, owner in [*_media_types(document), *_parameters(document)]:
        yield from _schemas(owner.get("schema"), (*parts, "schema"))


# --------------------------------------------------------------------------------------------------
# Layer 2: openapi-spec-validator


def _rule_openapi_spec(context: _Context) -> Iterator[Problem]:
    """openapi-spec-validator's verdict, each error placed at a real pointer into the document.

    Its meta-schema pass reports where in the document; its semantic pass (`SemanticValidator`, see
    compat/openapi_spec_validator.py) reports logical paths from the root, and `_real_parts` turns
    paths that pass through a `$ref` into the referenced location.
    """
    validator = SemanticValidator(context.document, context.uri)
    structural = [_problem_from(context, error) for error in _meta_schema_errors(context.document)]
    yield from structural
    seen = {problem.pointer for problem in structural}
    try:
        for error in validator.iter_errors():
            problem = _problem_from(context, error, about_target=True)
            if problem.pointer not in seen:  # the same fault seen by both passes, reported once
                yield problem
    except Unresolvable as exc:
        yield Problem("", "openapi-spec", f"validation stopped at the unresolvable $ref {exc.ref!r}")
    except Exception as exc:  # it assumes a structurally valid document
        if not structural:
            yield Problem("", "openapi-spec", f"validation stopped: {_short(repr(exc))}")


def _meta_schema_errors(document: dict[str, Any]) -> Iterator[ValidationError]:
    """The OpenAPI 3.0 meta-schema check, with the pure-Python backend for its detailed context."""
    yield from validator_for(META_SCHEMA_V30)(META_SCHEMA_V30).iter_errors(document)


def _problem_from(context: _Context, error: ValidationError, about_target: bool = False) -> Problem:
    """`about_target`: the error is about what a final `$ref` points to, not the `$ref` object."""
    error = _most_specific(error)
    parts = _real_parts(context.document, tuple(error.absolute_path), about_target)
    return Problem(pointer(parts), "openapi-spec", _error_message(error))


def _most_specific(error: ValidationError) -> ValidationError:
    """For a failed oneOf/anyOf (e.g. "Schema or Reference"), the deepest error of the alternatives.

    The alternative that got furthest into the value is the one the author meant; when none got
    past the value itself, the oneOf error stays and its message lists what each alternative missed.
    """
    while error.context:
        depth = max(len(sub.path) for sub in error.context)
        if depth == 0:
            break
        error = max((sub for sub in error.context if len(sub.path) == depth), key=relevance)
    return error


def _error_message(error: ValidationError) -> str:
    """The error's message; for an unresolved alternative, what each alternative missed."""
    if error.context:
        reasons = sorted({_short(sub.message, 120) for sub in error.context if not sub.path})
        if reasons:
            return _short(f"matches none of the allowed forms: {'; '.join(reasons)}")
    return _short(error.message)


def _real_parts(document: Any, parts: Parts, about_target: bool = False) -> Parts:
    """A logical path (which may pass through local `$ref`s) as the location it names in the file."""
    real: list[str | int] = []
    node = document
    for part in parts:
        node, real = _through_ref(document, node, part, real)
        node = follow(node, (part,))
        if node is MISSING:
            return parts
        real.append(part)
    if about_target:
        node, real = _through_ref(document, node, None, real)
    return tuple(real)


def _through_ref(
    document: Any, node: Any, part: str | int | None, real: list[str | int]
) -> tuple[Any, list[str | int]]:
    """Jump to the target of `node`'s local `$ref` unless `part` is a member of `node` itself.

    `part` None means the caller wants the target itself.
    """
    for _ in range(MAX_REF_HOPS):
        is_ref = isinstance(node, dict) and isinstance(node.get("$ref"), str)
        if not is_ref or (part is not None and str(part) in node):
            break
        target_parts = parts_of(node["$ref"][1:]) if node["$ref"].startswith("#") else None
        if target_parts is None or follow(document, target_parts) is MISSING:
            break
        node, real = follow(document, target_parts), list(target_parts)
    return node, real


# --------------------------------------------------------------------------------------------------
# Layer 3: the toolkit's rules


def _rule_operation_ids(context: _Context) -> Iterator[Problem]:
    """Every operation names its handler by a unique operationId (the mock server routes by it)."""
    owners: dict[str, list[Operation]] = {}
    for operation in operations(context.document):
        operation_id = operation.node.get("operationId")
        if operation_id is None:
            yield Problem(pointer(operation.parts), "operation-id", f"{operation.label} has no operationId")
        elif not isinstance(operation_id, str) or not operation_id.strip():
            yield Problem(
                pointer((*operation.parts, "operationId")),
                "operation-id",
                "operationId must be a non-empty string",
            )
        else:
            owners.setdefault(operation_id, []).append(operation)
    for operation_id, sharing in owners.items():
        for operation in sharing if len(sharing) > 1 else []:
            others = ", ".join(other.label for other in sharing if other is not operation)
            yield Problem(
                pointer((*operation.parts, "operationId")),
                "operation-id",
                f"operationId {operation_id!r} of {operation.label} is also used by {others}",
            )


def _rule_summaries(context: _Context) -> Iterator[Problem]:
    """Every operation has a summary: it is the readable name in docs and conformance reports."""
    for operation in operations(context.document):
        summary = operation.node.get("summary")
        if not isinstance(summary, str) or not summary.strip():
            yield Problem(pointer(operation.parts), "summary", f"{operation.label} has no summary")


def _rule_tags(context: _Context) -> Iterator[Problem]:
    """Every operation has a tag: handlers and reports are grouped by resource."""
    for operation in operations(context.document):
        tags = operation.node.get("tags")
        if tags is None or tags == []:
            yield Problem(pointer(operation.parts), "tags", f"{operation.label} has no tags")
        elif not isinstance(tags, list) or not all(isinstance(tag, str) and tag for tag in tags):
            yield Problem(pointer((*operation.parts, "tags")), "tags", "tags must be a list of names")


def _rule_success_responses(context: _Context) -> Iterator[Problem]:
    """Every operation has a 2xx response with a body schema: every operation here returns JSON.

    Without the schema neither the mock can shape its answer nor the conformance suite check one.
    """
    for operation in operations(context.document):
        responses = _dict(operation.node.get("responses"))
        successes = [code for code in responses if str(code).startswith("2")]
        if not successes:
            yield Problem(
                pointer((*operation.parts, "responses")),
                "success-response",
                f"{operation.label} has no 2xx response",
            )
        elif not any(_has_body_schema(context, responses[code]) for code in successes):
            yield Problem(
                pointer((*operation.parts, "responses", successes[0])),
                "success-response",
                f"no 2xx response of {operation.label} has a content schema",
            )


def _has_body_schema(context: _Context, response: Any) -> bool:
    content = _dict(_dict(context.deref(response)).get("content"))
    return any(isinstance(media, dict) and "schema" in media for media in content.values())


def _rule_refs(context: _Context) -> Iterator[Problem]:
    """Every `$ref` of the document points to something (in the document or a file beside it)."""
    for parts, mapping in _mappings(context.document):
        if "$ref" in mapping:
            _target, why = context.resolve(mapping["$ref"])
            if why is None and context.loops(mapping):
                why = f"following {mapping['$ref']!r} leads back to it (a cycle of $refs)"
            if why is not None:
                yield Problem(pointer((*parts, "$ref")), "ref", f"unresolvable $ref: {why}")


def _rule_unused_components(context: _Context) -> Iterator[Problem]:
    """Every component is used by some operation; an unused one is dead text or a forgotten link."""
    used = _used_components(context.document)
    for kind, entries in _dict(context.document.get("components")).items():
        if str(kind).startswith("x-"):
            continue
        for name in _dict(entries):
            if (kind, name) not in used:
                yield Problem(
                    pointer(("components", kind, name)),
                    "unused-component",
                    f"components/{kind}/{name} is not used by any operation",
                )


def _used_components(document: dict[str, Any]) -> set[tuple[str, str]]:
    """(kind, name) of components reachable from `paths` through local `$ref`s, and named schemes."""
    components = _dict(document.get("components"))
    used: set[tuple[str, str]] = set(_security_schemes_named(document))
    pending: list[tuple[Parts, Any]] = [(("paths",), document.get("paths"))]
    while pending:
        for ref in _refs_in(*pending.pop()):
            parts = parts_of(ref[1:]) if ref.startswith("#") else None
            if not parts or len(parts) < 3 or parts[0] != "components":
                continue
            kind, name = str(parts[1]), str(parts[2])
            if (kind, name) not in used:
                used.add((kind, name))
                pending.append((("components", kind, name), _dict(components.get(kind)).get(name)))
    return used


def _refs_in(parts: Parts, node: Any) -> Iterator[str]:
    """`$ref` values in `node` (found at `parts`), and discriminator mappings (refs as plain strings)."""
    for _parts, mapping in _mappings(node, parts):
        if isinstance(mapping.get("$ref"), str):
            yield mapping["$ref"]
        for target in _dict(_dict(mapping.get("discriminator")).get("mapping")).values():
            if isinstance(target, str):
                yield target if "#" in target or "/" in target else f"#/components/schemas/{target}"


def _security_schemes_named(document: dict[str, Any]) -> Iterator[tuple[str, str]]:
    requirements = [*_list(document.get("security"))]
    for operation in operations(document):
        requirements.extend(_list(operation.node.get("security")))
    for requirement in requirements:
        for name in _dict(requirement):
            yield "securitySchemes", name


def _rule_examples(context: _Context) -> Iterator[Problem]:
    """Every example matches its schema: the mock serves examples and clients copy them."""
    for parts, owner in [*_media_types(context.document), *_parameters(context.document)]:
        if "schema" in owner:
            yield from _owner_examples(context, parts, owner)
    for parts, schema in _all_schemas(context.document):
        if "example" in schema:
            yield from _check_example(context, schema["example"], parts, (*parts, "example"))


def _owner_examples(context: _Context, parts: Parts, owner: dict[str, Any]) -> Iterator[Problem]:
    """The `example` and `examples` of a media type, parameter or header, against its `schema`."""
    schema_parts = (*parts, "schema")
    if "example" in owner:
        yield from _check_example(context, owner["example"], schema_parts, (*parts, "example"))
    for name, example in _dict(owner.get("examples")).items():
        where: Parts = (*parts, "examples", name)
        if isinstance(example, dict) and "$ref" not in example:
            where = (*where, "value")
        example = context.deref(example)
        if isinstance(example, dict) and "value" in example:  # `externalValue` is not fetched
            yield from _check_example(context, example["value"], schema_parts, where)


def _check_example(context: _Context, value: Any, schema_parts: Parts, where: Parts) -> Iterator[Problem]:
    """Validate with OpenAPI 3.0 semantics (`nullable`, formats), `$ref`s resolved in the document."""
    if context.deref(follow(context.document, schema_parts)) is MISSING:
        return  # no schema to check against: the `ref` rule reports the broken link
    validator = OAS30Validator(
        {"$ref": context.schema_uri(schema_parts)},
        registry=context.registry,
        format_checker=OAS30Validator.FORMAT_CHECKER,
    )
    try:
        errors = sorted(
            validator.iter_errors(value), key=lambda error: (pointer(error.absolute_path), error.message)
        )
    except Exception as exc:  # a broken schema: the openapi-spec or ref rule says why
        yield Problem(pointer(where), "example", f"cannot check the example: {_reason(exc)}")
        return
    for error in errors:
        location = f" at {pointer(error.absolute_path)}" if error.absolute_path else ""
        message = f"example does not match its schema{location}: {_short(error.message)}"
        yield Problem(pointer(where), "example", message)


def _reason(exc: Exception) -> str:
    """Why a schema could not be applied, without the schema itself (jsonschema's messages embed it)."""
    if isinstance(exc, UnknownType):
        return f"its schema has the unknown type {exc.type!r}"
    ref = getattr(exc, "ref", None) or getattr(exc.__cause__, "ref", None)
    if not ref:
        return _short(f"{type(exc).__name__}: {exc}")
    shown = f"#{ref}" if ref.startswith("/") else ref  # a pointer into the document
    return f"unresolvable $ref {shown!r}"


def _rule_inventory(context: _Context) -> Iterator[Problem]:
    """The document has exactly the spec's operations: method plus path shape (parameter names blanked)."""
    present = {op.key: op for op in operations(context.document)}
    wanted = {(str(entry["method"]).upper(), shape(str(entry["path"]))): entry for entry in context.inventory}
    for key in sorted(wanted.keys() - present.keys()):
        entry = wanted[key]
        message = f"missing operation {key[0]} {entry['path']} ({entry.get('name', '?')})"
        yield Problem(pointer(("paths",)), "inventory", message)
    for key in sorted(present.keys() - wanted.keys()):
        operation = present[key]
        message = f"{operation.label} is not an operation of the spec (not in the inventory)"
        yield Problem(pointer(operation.parts), "inventory", message)


_CHECKS: tuple[tuple[str, Callable[[_Context], Iterable[Problem]]], ...] = (
    ("openapi-spec", _rule_openapi_spec),
    ("operation-id", _rule_operation_ids),
    ("summary", _rule_summaries),
    ("tags", _rule_tags),
    ("success-response", _rule_success_responses),
    ("ref", _rule_refs),
    ("unused-component", _rule_unused_components),
    ("example", _rule_examples),
    ("inventory", _rule_inventory),
)


# --------------------------------------------------------------------------------------------------
# Messages


def _short(text: str, limit: int = MAX_MESSAGE) -> str:
    """One line, at most `limit` characters: validator messages can embed whole objects."""
    text = one_line(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"
