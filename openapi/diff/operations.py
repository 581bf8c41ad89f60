"""Operation rules: operations (of `paths`, 3.1 `webhooks` and `callbacks`), parameters (path-item
and operation level), request bodies, responses, headers, links and security (op_security.py);
schemas are compared by `schemas.Schemas`, the keys no rule here judges by op_keys.py's tables, what
lies outside operations by op_document.py.

Webhooks and callbacks are operations the API server calls: the server sends the request and the
receiver (the client's side) answers. Their roles are inverted: a request tightened or loosened is
classified as a response is (a receiver that follows OLD reads it) and a response as a request is
(the API server that follows NEW reads what the receiver answers), with reasons naming the receiver.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from .. import walk
from ..refs import at, esc, pointer
from ..walk import Operation
from . import evidence, op_document
from .evidence import Pair, Prover
from .model import Change, Classification, Direction, Effect, Finding, combine, judge
from .op_keys import Pair as Keys
from .op_keys import compare_keys, extension, reference_siblings
from .op_links import links
from .op_security import Security
from .reasons import reason
from .schemas import TEXT_WHY, Schemas
from .sides import Side, Stability, dict_, list_

_SUCCESS_REMOVED = (
    "a client waits for an answer no server sends any more (it follows OLD and expects this status)"
)
_INVERTED = "the API server sends this request and the receiver answers: "
_WEBHOOK_ADDED = (
    "the API server must send it to the receivers that subscribe to it; existing receivers, which never "
    "subscribed to it, get nothing new"
)
_WEBHOOK_REMOVED = "a receiver that relies on it is no longer called"
_CALLBACK_ADDED = "the API server must now call it; a receiver that does not expect it can ignore the call"
_CALLBACK_REMOVED = "a receiver that relies on this callback is no longer called"


def _body_added(new: dict[str, Any], new_ptr: str) -> Finding:
    """A response that had no `content` at all now has one: the answer must now carry a body (its
    schema is new), not merely "a media type added". The answering side must do more: an obligation
    for an API server (clients that expect no body ignore one), breaking for a webhook's receiver."""
    types = ", ".join(sorted(str(k) for k in dict_(new.get("content"))))
    return Finding(f"{new_ptr}/content", "response-body-added", f"a body added ({types})", Effect.TIGHTEN)


def _flip(direction: Direction) -> Direction:
    return Direction.RESPONSE if direction is Direction.REQUEST else Direction.REQUEST


def _receiver(text: str) -> str:
    """A reason said of an operation the API server calls: the client is the receiver, the server the API."""
    text = re.sub(r"\bclients\b", "receivers", text)
    text = re.sub(r"\ba client\b", "a receiver", text)
    text = re.sub(r"\bservers\b", "the API server", text)
    text = re.sub(r"\ba server\b", "the API server", text)
    return _INVERTED + text


def _success(status: str) -> bool:
    """1xx-3xx, one status or a range ("2XX")."""
    return status[:1] in ("1", "2", "3")


@dataclass
class _Placed:
    finding: Finding
    direction: Direction
    context: str


@dataclass
class Differ:
    old: Side
    new: Side
    prover: Prover | None = None
    pairs: list[Pair] = field(init=False, default_factory=list)
    schemas: Schemas = field(init=False)
    text_schemas: Schemas = field(init=False)
    stable: Stability = field(init=False)
    same_paths: bool = field(init=False)
    security: Security = field(init=False)
    inverted: bool = field(init=False, default=False)  # comparing an operation the API server calls

    def __post_init__(self) -> None:
        self.stable = Stability(self.old, self.new)
        self.schemas = Schemas(self.old, self.new, self.stable)
        self.text_schemas = Schemas(self.old, self.new, self.stable, text=True)  # style-encoded parameters
        self.security = Security(self.old, self.new)
        # links name their target's path parameters: with a path renamed, no operation is skipped
        labels = [{op.label for op in document.operations.values()} for document in (self.old, self.new)]
        self.same_paths = labels[0] == labels[1] and all(
            map(self.stable, ("/security", "/components/securitySchemes"))
        )

    def run(self) -> list[Change]:
        changes: list[Change] = []
        for sides, inverted in (
            ((self.old.operations, self.new.operations), False),
            (self._webhooks(), True),
        ):
            before, after = sides
            for key, operation in after.items():
                if key in before:
                    changes.extend(self._compare(before[key], operation, inverted))
                else:
                    changes.extend(self._added(operation, inverted))
            changes.extend(
                change
                for key, operation in before.items()
                if key not in after
                for change in self._removed(operation)
            )
        changes.extend(op_document.changes(self.old, self.new))
        return changes

    def _webhooks(self) -> tuple[dict[tuple[str, str], Operation], dict[tuple[str, str], Operation]]:
        before = {op.key: op for op in walk.webhooks(self.old.data)}
        return before, {op.key: op for op in walk.webhooks(self.new.data)}

    def _added(self, operation: Operation, inverted: bool) -> list[Change]:
        message = f"operation {operation.label} added"
        if operation.prefix.startswith("WEBHOOK"):
            finding = Finding(
                operation.ptr, "webhook-added", message, fixed=Classification.OBLIGATION, why=_WEBHOOK_ADDED
            )
        elif operation.prefix:
            finding = Finding(
                operation.ptr, "callback-added", message, fixed=Classification.OBLIGATION, why=_CALLBACK_ADDED
            )
        else:
            finding = Finding(operation.ptr, "operation-added", message, fixed=Classification.OBLIGATION)
        return self._place(operation, [_Placed(finding, Direction.REQUEST, "")])

    def _removed(self, operation: Operation) -> list[Change]:
        message = f"operation {operation.label} removed"
        if operation.prefix.startswith("WEBHOOK"):
            finding = Finding(
                operation.ptr, "webhook-removed", message, fixed=Classification.BREAKING, why=_WEBHOOK_REMOVED
            )
        elif operation.prefix:
            finding = Finding(
                operation.ptr,
                "callback-removed",
                message,
                fixed=Classification.BREAKING,
                why=_CALLBACK_REMOVED,
            )
        else:
            finding = Finding(operation.ptr, "operation-removed", message, fixed=Classification.BREAKING)
        return self._place(operation, [_Placed(finding, Direction.REQUEST, "")])

    def _compare(self, before: Operation, after: Operation, inverted: bool) -> list[Change]:
        """The changes of an operation in both documents (and of its callbacks), with the proof's word."""
        self.pairs, self.inverted = [], inverted
        found = self._place(after, list(self._operation(before, after)))
        if self.prover is not None and self.pairs:
            found = evidence.apply(self.prover, after, found, self.pairs, (self.old.data, self.new.data))
        self.inverted = False
        return found + self._callbacks(before, after)

    def _callbacks(self, before: Operation, after: Operation) -> list[Change]:
        """Callbacks matched by name, expression and method; compared like webhooks (roles inverted)."""
        if before.ptr == after.ptr and self.stable(after.ptr):
            return []
        old = {(name, op.path, op.method): op for name, op in walk.callbacks(self.old.data, before)}
        new = {(name, op.path, op.method): op for name, op in walk.callbacks(self.new.data, after)}
        changes: list[Change] = []
        for key, operation in new.items():
            if key in old:
                changes.extend(self._compare(old[key], operation, True))
            else:
                changes.extend(self._added(operation, True))
        for key, operation in old.items():
            if key not in new:
                changes.extend(self._removed(operation))
        return changes

    def _place(self, operation: Operation, placed: list[_Placed]) -> list[Change]:
        changes: dict[tuple[str, str, str, Classification], Change] = {}
        for entry in placed:
            finding = entry.finding
            # an operation the API server calls: a request is read by the receiver, as a response is
            direction = _flip(entry.direction) if self.inverted else entry.direction
            classification, why = judge(finding, direction)
            key = (finding.pointer, finding.rule, finding.message, classification)
            message = f"{entry.context}: {finding.message}" if entry.context else finding.message
            text = why or reason(finding, direction, classification, entry.context)
            changes.setdefault(
                key,
                Change(
                    operation.label,
                    operation.operation_id,
                    operation.summary,
                    finding.pointer,
                    finding.rule,
                    message,
                    classification,
                    direction.value,
                    _receiver(text) if self.inverted else text,
                ),
            )
        return sorted(changes.values(), key=lambda change: (change.pointer, change.rule, change.message))

    def _operation(self, old: Operation, new: Operation) -> Iterator[_Placed]:
        request, response = Direction.REQUEST, Direction.RESPONSE
        item_parameters = pointer((*new.item.parts, "parameters"))
        if self.same_paths and old.ptr == new.ptr and self.stable(new.ptr) and self.stable(item_parameters):
            return
        if old.operation_id != new.operation_id:
            message = f"operationId changed from {old.operation_id!r} to {new.operation_id!r}"
            finding = Finding(f"{new.ptr}/operationId", "operation-id-changed", message)
            yield _Placed(finding, request, "")
        if bool(old.node.get("deprecated")) != bool(new.node.get("deprecated")):
            state = "deprecated" if new.node.get("deprecated") else "no longer deprecated"
            yield _Placed(Finding(f"{new.ptr}/deprecated", "deprecated", f"operation {state}"), request, "")
        keys = Keys(old.node, new.node, old.ptr, new.ptr, (self.old, self.new))
        for finding in compare_keys("operation", keys):
            yield _Placed(finding, request, "")
        yield from self._parameters(old, new)
        yield from self._request_body(old, new)
        for finding, context in self._responses(old, new):
            yield _Placed(finding, response, context)
        for finding in self.security.compare(old, new):
            yield _Placed(finding, request, "security")
        for finding in self._callback_extensions(old, new):
            yield _Placed(finding, request, "callbacks")

    def _callback_extensions(self, old: Operation, new: Operation) -> Iterator[Finding]:
        """`x-*` keys of a callback object (its other keys are expressions: compared as operations)."""
        before, after = dict_(old.node.get("callbacks")), dict_(new.node.get("callbacks"))
        for name in sorted(before.keys() & after.keys(), key=str):
            old_node, old_at = self.old.deref(before[name], f"{old.ptr}/callbacks/{esc(name)}")
            new_node, new_at = self.new.deref(after[name], f"{new.ptr}/callbacks/{esc(name)}")
            keys = Keys(dict_(old_node), dict_(new_node), old_at, new_at, (self.old, self.new))
            for key in sorted(k for k in keys.old.keys() | keys.new.keys() if str(k).startswith("x-")):
                if keys.differs(key):
                    yield extension(keys, key)

    # -- parameters
    def _params(
        self, document: Side, operation: Operation
    ) -> dict[tuple[str, Any], tuple[dict[str, Any], str, str]]:
        """(in, name or path position) -> (parameter, its pointer, where it is listed)."""
        found: dict[tuple[str, Any], tuple[dict[str, Any], str, str]] = {}
        item_ptr = pointer(operation.item.parts)
        listed = [(f"{item_ptr}/parameters", operation.item.node.get("parameters"))]
        listed.append((f"{operation.ptr}/parameters", operation.node.get("parameters")))
        names = operation.path_names
        for base, entries in listed:
            for index, entry in enumerate(list_(entries)):
                site = f"{base}/{index}"
                node, ptr = document.deref(entry, site)
                if not isinstance(node, dict):
                    continue
                name, where = str(node.get("name", "")), str(node.get("in", ""))
                if where == "path" and name in names:
                    key: tuple[str, Any] = ("path", names.index(name))
                else:
                    key = (where, name.lower() if where == "header" else name)
                found[key] = (node, ptr, site)
        return found

    def _parameters(self, old: Operation, new: Operation) -> Iterator[_Placed]:
        request = Direction.REQUEST
        before, after = self._params(self.old, old), self._params(self.new, new)
        for key in sorted(before.keys() | after.keys(), key=str):
            if key not in before:
                node, _, site = after[key]
                context = f"{node.get('in')} parameter `{node.get('name')}`"
                required = node.get("required") is True
                effect = Effect.TIGHTEN if required else Effect.LOOSEN
                message = f"new {'required' if required else 'optional'} parameter"
                yield _Placed(Finding(site, "parameter-added", message, effect), request, context)
                continue
            if key not in after:
                node, _, site = before[key]
                context = f"{node.get('in')} parameter `{node.get('name')}`"
                was_required = node.get("required") is True
                effect = combine(Effect.TIGHTEN, Effect.LOOSEN if was_required else Effect.NEUTRAL)
                message = f"{'required' if was_required else 'optional'} parameter removed"
                yield _Placed(Finding(site, "parameter-removed", message, effect), request, context)
                continue
            (old_node, old_ptr, old_site), (new_node, new_ptr, new_site) = before[key], after[key]
            context = f"{new_node.get('in')} parameter `{new_node.get('name')}`"
            for finding in self.siblings(
                at(self.old.data, old_site), old_site, at(self.new.data, new_site), new_site
            ):
                yield _Placed(finding, request, context)
            for finding in self._parameter(old_node, old_ptr, new_node, new_ptr):
                yield _Placed(finding, request, context)

    def siblings(self, old: Any, old_site: str, new: Any, new_site: str) -> Iterator[Finding]:
        return reference_siblings(old, old_site, new, new_site, (self.old, self.new))

    def _parameter(
        self, old: dict[str, Any], old_ptr: str, new: dict[str, Any], new_ptr: str
    ) -> Iterator[Finding]:
        if old.get("in") == "path" and old.get("name") != new.get("name"):
            names = f"`{old.get('name')}` to `{new.get('name')}`"
            message = f"path parameter renamed from {names} (the URL is the same)"
            yield Finding(f"{new_ptr}/name", "path-parameter-renamed", message)
        before, after = old.get("required") is True, new.get("required") is True
        if before != after:
            effect = Effect.TIGHTEN if after else Effect.LOOSEN
            message = "now required" if after else "no longer required"
            yield Finding(f"{new_ptr}/required", "parameter-required", message, effect)
        yield from compare_keys("parameter", Keys(old, new, old_ptr, new_ptr, (self.old, self.new)))
        if ("content" in old) != ("content" in new):
            yield from self._serialization(old, old_ptr, new, new_ptr)
        elif "content" in old:
            yield from self._content(old, old_ptr, new, new_ptr, Direction.REQUEST)
        else:
            yield from self._schema(
                old.get("schema"), f"{old_ptr}/schema", new, new_ptr, Direction.REQUEST, self.text_schemas
            )

    def _serialization(
        self, old: dict[str, Any], old_ptr: str, new: dict[str, Any], new_ptr: str
    ) -> Iterator[Finding]:
        """A parameter moved between `schema` (style-encoded) and `content` (a media type, e.g. JSON in a
        query): the value is written otherwise on the wire; its schemas are still compared."""
        now = "a media type (content)" if "content" in new else "a schema and its style"
        where = f"{new_ptr}/{'content' if 'content' in new else 'schema'}"
        yield Finding(where, "parameter-serialization", f"now described by {now}", Effect.BOTH)
        (old_node, old_at), (new_node, new_at) = _described(old, old_ptr), _described(new, new_ptr)
        yield from self._schema(
            old_node.get("schema"), f"{old_at}/schema", new_node, new_at, Direction.REQUEST
        )

    # -- bodies
    def _request_body(self, old: Operation, new: Operation) -> Iterator[_Placed]:
        request, context = Direction.REQUEST, "request body"
        before, old_ptr = self.old.deref(old.node.get("requestBody"), f"{old.ptr}/requestBody")
        after, new_ptr = self.new.deref(new.node.get("requestBody"), f"{new.ptr}/requestBody")
        if not isinstance(before, dict) and not isinstance(after, dict):
            return
        if not isinstance(before, dict):
            required = after.get("required") is True
            effect = Effect.TIGHTEN if required else Effect.LOOSEN
            finding = Finding(
                f"{new.ptr}/requestBody",
                "request-body-added",
                f"{'required' if required else 'optional'} body added",
                effect,
            )
            yield _Placed(finding, request, context)
            return
        if not isinstance(after, dict):
            finding = Finding(
                f"{old.ptr}/requestBody",
                "request-body-removed",
                "no body is accepted any more",
                Effect.TIGHTEN,
            )
            yield _Placed(finding, request, context)
            return
        written = (old.node.get("requestBody"), f"{old.ptr}/requestBody")
        for finding in self.siblings(*written, new.node.get("requestBody"), f"{new.ptr}/requestBody"):
            yield _Placed(finding, request, context)
        if (before.get("required") is True) != (after.get("required") is True):
            required = after.get("required") is True
            effect = Effect.TIGHTEN if required else Effect.LOOSEN
            message = "now required" if required else "no longer required"
            yield _Placed(
                Finding(f"{new_ptr}/required", "request-body-required", message, effect), request, context
            )
        for finding in compare_keys(
            "request-body", Keys(before, after, old_ptr, new_ptr, (self.old, self.new))
        ):
            yield _Placed(finding, request, context)
        for finding in self._content(before, old_ptr, after, new_ptr, request):
            yield _Placed(finding, request, context)

    def _content(
        self, old: dict[str, Any], old_ptr: str, new: dict[str, Any], new_ptr: str, direction: Direction
    ) -> Iterator[Finding]:
        before = {
            str(k).lower(): (v, f"{old_ptr}/content/{esc(k)}") for k, v in dict_(old.get("content")).items()
        }
        after = {
            str(k).lower(): (v, f"{new_ptr}/content/{esc(k)}") for k, v in dict_(new.get("content")).items()
        }
        removed = Effect.TIGHTEN if direction is Direction.REQUEST else Effect.BOTH
        for media_type in sorted(before.keys() | after.keys()):
            if media_type not in before:
                yield Finding(
                    after[media_type][1], "media-type-added", f"media type {media_type} added", Effect.LOOSEN
                )
            elif media_type not in after:
                yield Finding(
                    before[media_type][1], "media-type-removed", f"media type {media_type} removed", removed
                )
            else:
                (old_media, old_at), (new_media, new_at) = before[media_type], after[media_type]
                yield from _case(old_at, new_at, "media type names are case-insensitive")
                keys = Keys(
                    dict_(old_media), dict_(new_media), old_at, new_at, (self.old, self.new), direction
                )
                yield from compare_keys("media-type", keys)
                old_schema = dict_(old_media).get("schema")
                yield from self._schema(old_schema, f"{old_at}/schema", dict_(new_media), new_at, direction)

    def _schema(
        self,
        old_schema: Any,
        old_at: str,
        new: dict[str, Any],
        new_ptr: str,
        direction: Direction,
        schemas: Schemas | None = None,
    ) -> list[Finding]:
        """The changes of the schema of `new` (a parameter or media type); a `Pair` for the proof.

        `schemas`: the comparer (`text_schemas` for a parameter encoded by its style). The proof
        generates JSON values, so it does not judge a type a text parameter reads as a string."""
        schemas = schemas or self.schemas
        new_schema, new_at = new.get("schema"), f"{new_ptr}/schema"
        findings = schemas.compare(self.old.view(old_schema, old_at), self.new.view(new_schema, new_at))
        as_text = any(finding.why.startswith(TEXT_WHY) for finding in findings)
        if findings and old_schema is not None and new_schema is not None and not as_text:
            travels = _flip(direction) if self.inverted else direction  # who generates, who checks
            self.pairs.append(Pair(old_schema, new_schema, travels, new_at, tuple(findings)))
        return findings

    # -- responses
    def _responses(self, old: Operation, new: Operation) -> Iterator[tuple[Finding, str]]:
        old_map, new_map = dict_(old.node.get("responses")), dict_(new.node.get("responses"))
        extensions = Keys(
            old_map, new_map, f"{old.ptr}/responses", f"{new.ptr}/responses", (self.old, self.new)
        )
        for name in sorted(k for k in old_map.keys() | new_map.keys() if str(k).startswith("x-")):
            if extensions.differs(name):
                yield extension(extensions, name), "responses"
        before = {
            str(k).upper(): (v, f"{old.ptr}/responses/{esc(k)}")
            for k, v in old_map.items()
            if not str(k).startswith("x-")
        }
        after = {
            str(k).upper(): (v, f"{new.ptr}/responses/{esc(k)}")
            for k, v in new_map.items()
            if not str(k).startswith("x-")
        }
        for status in sorted(before.keys() | after.keys()):
            context = f"response {status.lower() if status == 'DEFAULT' else status}"
            if status not in before:
                yield self._status_added(status, after[status][1]), context
            elif status not in after:
                if _success(status):
                    message = "status removed (a success status)"
                    finding = Finding(
                        before[status][1],
                        "response-removed",
                        message,
                        fixed=Classification.BREAKING,
                        why=_SUCCESS_REMOVED,
                    )
                    yield finding, context
                else:
                    message = "status removed"
                    yield Finding(before[status][1], "response-removed", message, Effect.TIGHTEN), context
            else:
                old_node, old_ptr = self.old.deref(*before[status])
                new_node, new_ptr = self.new.deref(*after[status])
                for finding in self.siblings(*before[status], *after[status]):
                    yield finding, context
                for finding in self._response(old, dict_(old_node), old_ptr, new, dict_(new_node), new_ptr):
                    yield finding, context

    def _status_added(self, status: str, where: str) -> Finding:
        """A success status added: a client may get one it was not told to expect (breaking); where
        the receiver answers (a webhook), the API server must now accept it (an obligation)."""
        success = _success(status)
        kind = "a success status" if success else "an error status"
        if not success:
            fixed = Classification.COMPATIBLE
        else:
            fixed = Classification.OBLIGATION if self.inverted else Classification.BREAKING
        why = (
            "the API server must now accept this answer; receivers that follow OLD never give it"
            if self.inverted and success
            else ""
        )
        return Finding(where, "response-added", f"status added ({kind})", fixed=fixed, why=why)

    def _response(
        self,
        old_op: Operation,
        old: dict[str, Any],
        old_ptr: str,
        new_op: Operation,
        new: dict[str, Any],
        new_ptr: str,
    ) -> Iterator[Finding]:
        yield from compare_keys("response", Keys(old, new, old_ptr, new_ptr, (self.old, self.new)))
        yield from self._headers(old, old_ptr, new, new_ptr)
        if not dict_(old.get("content")) and dict_(new.get("content")):
            yield _body_added(new, new_ptr)
        else:
            yield from self._content(old, old_ptr, new, new_ptr, Direction.RESPONSE)
        yield from links(self.old, self.new, old_op, old, old_ptr, new_op, new, new_ptr)

    def _headers(
        self, old: dict[str, Any], old_ptr: str, new: dict[str, Any], new_ptr: str
    ) -> Iterator[Finding]:
        def headers(
            document: Side, node: dict[str, Any], ptr: str
        ) -> dict[str, tuple[str, dict[str, Any], str, str, Any]]:
            found = {}
            for name, header in dict_(node.get("headers")).items():
                if str(name).lower() != "content-type":  # OpenAPI: ignored in responses
                    site = f"{ptr}/headers/{esc(name)}"
                    target, at = document.deref(header, site)
                    found[str(name).lower()] = (str(name), dict_(target), at, site, header)
            return found

        before, after = headers(self.old, old, old_ptr), headers(self.new, new, new_ptr)
        for key in sorted(before.keys() | after.keys()):
            if key not in before:
                name, node, _, site, _ = after[key]
                required = node.get("required") is True
                effect = Effect.TIGHTEN if required else Effect.NEUTRAL
                message = f"{'required' if required else 'optional'} header {name} added"
                yield Finding(site, "header-added", message, effect)
            elif key not in after:
                name, _, _, site, _ = before[key]
                yield Finding(site, "header-removed", f"header {name} removed", Effect.LOOSEN)
            else:
                (_, old_node, old_at, old_site, old_written) = before[key]
                (name, new_node, new_at, new_site, new_written) = after[key]
                yield from _case(old_site, new_site, "HTTP header names are case-insensitive")
                for finding in self.siblings(old_written, old_site, new_written, new_site):
                    yield replace(finding, message=f"header {name}: {finding.message}")
                if (old_node.get("required") is True) != (new_node.get("required") is True):
                    required = new_node.get("required") is True
                    effect = Effect.TIGHTEN if required else Effect.LOOSEN
                    message = f"header {name} {'now' if required else 'no longer'} required"
                    yield Finding(f"{new_at}/required", "header-required", message, effect)
                keys = Keys(old_node, new_node, old_at, new_at, (self.old, self.new), Direction.RESPONSE)
                found = list(compare_keys("header", keys))
                if "content" in old_node or "content" in new_node:
                    found.extend(self._content(old_node, old_at, new_node, new_at, Direction.RESPONSE))
                else:
                    found.extend(
                        self.schemas.compare(
                            self.old.view(old_node.get("schema"), f"{old_at}/schema"),
                            self.new.view(new_node.get("schema"), f"{new_at}/schema"),
                        )
                    )
                for finding in found:
                    yield replace(finding, message=f"header {name}: {finding.message}")
        yield from self._content_type_headers(old, old_ptr, new, new_ptr)

    def _content_type_headers(
        self, old: dict[str, Any], old_ptr: str, new: dict[str, Any], new_ptr: str
    ) -> Iterator[Finding]:
        """A `Content-Type` response header is ignored (OpenAPI: the media types say it): said, not silent."""
        before, after = dict_(old.get("headers")), dict_(new.get("headers"))
        keys = Keys(before, after, f"{old_ptr}/headers", f"{new_ptr}/headers", (self.old, self.new))
        for name in sorted(k for k in before.keys() | after.keys() if str(k).lower() == "content-type"):
            if keys.differs(name):
                why = "OpenAPI ignores a Content-Type response header: the media types of `content` say it"
                yield Finding(
                    keys.at(name),
                    "no-effect",
                    f"header {name} changed",
                    fixed=Classification.COMPATIBLE,
                    why=why,
                )


def _described(parameter: dict[str, Any], ptr: str) -> tuple[dict[str, Any], str]:
    """The node holding a parameter's schema (itself, or its one media type) and its pointer."""
    for media_type, node in dict_(parameter.get("content")).items():
        return dict_(node), f"{ptr}/content/{esc(media_type)}"
    return parameter, ptr


def _case(old_ptr: str, new_ptr: str, why: str) -> Iterator[Finding]:
    """A name matched case-insensitively but written otherwise: said, as a compatible change."""
    before, after = old_ptr.rsplit("/", 1)[-1], new_ptr.rsplit("/", 1)[-1]
    if before != after:
        message = f"{before.replace('~1', '/')} written {after.replace('~1', '/')}"
        yield Finding(new_ptr, "name-case", message, fixed=Classification.COMPATIBLE, why=why)
