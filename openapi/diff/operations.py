"""Operation rules: operations, parameters (path-item and operation level), request bodies,
responses, headers, links and security; schemas are compared by `schemas.Schemas`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from ..refs import at, esc, pointer
from ..walk import Operation
from . import evidence
from .evidence import Pair, Prover
from .model import Change, Classification, Direction, Effect, Finding, classify, combine
from .reasons import reason
from .schemas import Schemas
from .sides import Side, Stability, canon, dict_, list_

_LINKS = "links document how answers lead to other calls; no request or answer on the wire changes"


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
    stable: Stability = field(init=False)
    same_paths: bool = field(init=False)

    def __post_init__(self) -> None:
        self.stable = Stability(self.old, self.new)
        self.schemas = Schemas(self.old, self.new, self.stable)
        # links name their target's path parameters: with a path renamed, no operation is skipped
        labels = [{op.label for op in document.operations.values()} for document in (self.old, self.new)]
        self.same_paths = labels[0] == labels[1] and all(
            map(self.stable, ("/security", "/components/securitySchemes"))
        )

    def run(self) -> list[Change]:
        changes: list[Change] = []
        for key, operation in self.new.operations.items():
            before = self.old.operations.get(key)
            if before is None:
                message = f"operation {operation.label} added"
                finding = Finding(operation.ptr, "operation-added", message, fixed=Classification.OBLIGATION)
                changes.extend(self._place(operation, [_Placed(finding, Direction.REQUEST, "")]))
            else:
                self.pairs = []
                found = self._place(operation, list(self._operation(before, operation)))
                if self.prover is not None and self.pairs:
                    found = evidence.apply(
                        self.prover, operation, found, self.pairs, (self.old.data, self.new.data)
                    )
                changes.extend(found)
        for key, operation in self.old.operations.items():
            if key not in self.new.operations:
                message = f"operation {operation.label} removed"
                finding = Finding(operation.ptr, "operation-removed", message, fixed=Classification.BREAKING)
                changes.extend(self._place(operation, [_Placed(finding, Direction.REQUEST, "")]))
        return changes

    def _place(self, operation: Operation, placed: list[_Placed]) -> list[Change]:
        changes: dict[tuple[str, str, str, Classification], Change] = {}
        for entry in placed:
            finding = entry.finding
            classification = finding.fixed or classify(finding.effect, entry.direction)
            key = (finding.pointer, finding.rule, finding.message, classification)
            message = f"{entry.context}: {finding.message}" if entry.context else finding.message
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
                    entry.direction.value,
                    reason(finding, entry.direction, classification, entry.context),
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
        yield from self._parameters(old, new)
        yield from self._request_body(old, new)
        for finding, context in self._responses(old, new):
            yield _Placed(finding, response, context)
        for finding in self._security(old, new):
            yield _Placed(finding, request, "security")

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
            (old_node, old_ptr, _), (new_node, new_ptr, _) = before[key], after[key]
            context = f"{new_node.get('in')} parameter `{new_node.get('name')}`"
            for finding in self._parameter(old_node, old_ptr, new_node, new_ptr):
                yield _Placed(finding, request, context)

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
        for keyword in ("style", "explode"):
            if old.get(keyword) != new.get(keyword):
                message = (
                    f"{keyword} changed from {json.dumps(old.get(keyword))} to {json.dumps(new.get(keyword))}"
                )
                yield Finding(f"{new_ptr}/{keyword}", "parameter-style", message, Effect.BOTH)
        if bool(old.get("deprecated")) != bool(new.get("deprecated")):
            state = "deprecated" if new.get("deprecated") else "no longer deprecated"
            yield Finding(f"{new_ptr}/deprecated", "deprecated", f"parameter {state}")
        if "content" in old or "content" in new:
            yield from self._content(old, old_ptr, new, new_ptr, Direction.REQUEST)
        else:
            yield from self._schema(old.get("schema"), f"{old_ptr}/schema", new, new_ptr, Direction.REQUEST)

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
        if (before.get("required") is True) != (after.get("required") is True):
            required = after.get("required") is True
            effect = Effect.TIGHTEN if required else Effect.LOOSEN
            message = "now required" if required else "no longer required"
            yield _Placed(
                Finding(f"{new_ptr}/required", "request-body-required", message, effect), request, context
            )
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
                old_schema = dict_(old_media).get("schema")
                yield from self._schema(old_schema, f"{old_at}/schema", dict_(new_media), new_at, direction)

    def _schema(
        self, old_schema: Any, old_at: str, new: dict[str, Any], new_ptr: str, direction: Direction
    ) -> list[Finding]:
        """The changes of the schema of `new` (a parameter or media type); a `Pair` for the proof."""
        new_schema, new_at = new.get("schema"), f"{new_ptr}/schema"
        findings = self.schemas.compare(self.old.view(old_schema, old_at), self.new.view(new_schema, new_at))
        if findings and old_schema is not None and new_schema is not None:
            self.pairs.append(Pair(old_schema, new_schema, direction, new_at, tuple(findings)))
        return findings

    # -- responses
    def _responses(self, old: Operation, new: Operation) -> Iterator[tuple[Finding, str]]:
        before = {
            str(k).upper(): (v, f"{old.ptr}/responses/{esc(k)}")
            for k, v in dict_(old.node.get("responses")).items()
        }
        after = {
            str(k).upper(): (v, f"{new.ptr}/responses/{esc(k)}")
            for k, v in dict_(new.node.get("responses")).items()
        }
        for status in sorted(before.keys() | after.keys()):
            context = f"response {status.lower() if status == 'DEFAULT' else status}"
            if status not in before:
                success = status[:1] in "123"
                fixed = Classification.BREAKING if success else Classification.COMPATIBLE
                kind = "a success status" if success else "an error status"
                finding = Finding(after[status][1], "response-added", f"status added ({kind})", fixed=fixed)
                yield finding, context
            elif status not in after:
                message = "status removed"
                yield Finding(before[status][1], "response-removed", message, Effect.TIGHTEN), context
            else:
                old_node, old_ptr = self.old.deref(*before[status])
                new_node, new_ptr = self.new.deref(*after[status])
                for finding in self._response(old, dict_(old_node), old_ptr, new, dict_(new_node), new_ptr):
                    yield finding, context

    def _response(
        self,
        old_op: Operation,
        old: dict[str, Any],
        old_ptr: str,
        new_op: Operation,
        new: dict[str, Any],
        new_ptr: str,
    ) -> Iterator[Finding]:
        yield from self._headers(old, old_ptr, new, new_ptr)
        yield from self._content(old, old_ptr, new, new_ptr, Direction.RESPONSE)
        yield from self._links(old_op, old, old_ptr, new_op, new, new_ptr)

    def _headers(
        self, old: dict[str, Any], old_ptr: str, new: dict[str, Any], new_ptr: str
    ) -> Iterator[Finding]:
        def headers(
            document: Side, node: dict[str, Any], ptr: str
        ) -> dict[str, tuple[str, dict[str, Any], str, str]]:
            found = {}
            for name, header in dict_(node.get("headers")).items():
                if str(name).lower() != "content-type":  # OpenAPI: ignored in responses
                    site = f"{ptr}/headers/{esc(name)}"
                    target, at = document.deref(header, site)
                    found[str(name).lower()] = (str(name), dict_(target), at, site)
            return found

        before, after = headers(self.old, old, old_ptr), headers(self.new, new, new_ptr)
        for key in sorted(before.keys() | after.keys()):
            if key not in before:
                name, node, _, site = after[key]
                required = node.get("required") is True
                effect = Effect.TIGHTEN if required else Effect.NEUTRAL
                message = f"{'required' if required else 'optional'} header {name} added"
                yield Finding(site, "header-added", message, effect)
            elif key not in after:
                name, _, _, site = before[key]
                yield Finding(site, "header-removed", f"header {name} removed", Effect.LOOSEN)
            else:
                (_, old_node, old_at, _), (name, new_node, new_at, _) = before[key], after[key]
                if (old_node.get("required") is True) != (new_node.get("required") is True):
                    required = new_node.get("required") is True
                    effect = Effect.TIGHTEN if required else Effect.LOOSEN
                    message = f"header {name} {'now' if required else 'no longer'} required"
                    yield Finding(f"{new_at}/required", "header-required", message, effect)
                for finding in self.schemas.compare(
                    self.old.view(old_node.get("schema"), f"{old_at}/schema"),
                    self.new.view(new_node.get("schema"), f"{new_at}/schema"),
                ):
                    yield Finding(
                        finding.pointer, finding.rule, f"header {name}: {finding.message}", finding.effect
                    )

    def _links(
        self,
        old_op: Operation,
        old: dict[str, Any],
        old_ptr: str,
        new_op: Operation,
        new: dict[str, Any],
        new_ptr: str,
    ) -> Iterator[Finding]:
        before, after = dict_(old.get("links")), dict_(new.get("links"))
        for name in sorted(before.keys() | after.keys()):
            if name not in before:
                message = f"link {name} added"
                yield Finding(f"{new_ptr}/links/{esc(name)}", "link-added", message, why=_LINKS)
            elif name not in after:
                yield Finding(
                    f"{old_ptr}/links/{esc(name)}", "link-removed", f"link {name} removed", why=_LINKS
                )
            else:
                old_link, _ = self.old.deref(before[name], "")
                new_link, at = self.new.deref(after[name], f"{new_ptr}/links/{esc(name)}")
                if self._link(self.old, old_op, old_link) != self._link(self.new, new_op, new_link):
                    yield Finding(
                        at, "link-changed", f"link {name} changed (target or parameters)", why=_LINKS
                    )

    def _link(self, document: Side, source: Operation, link: Any) -> str:
        """A link's meaning: target operation by method and path shape, parameters by path position."""
        link = dict_(link)
        target = document.by_id.get(str(link.get("operationId")))
        if target is None and isinstance(link.get("operationRef"), str):
            node = at(document.data, unquote(link["operationRef"].partition("#")[2]))
            target = next((op for op in document.operations.values() if op.node is node), None)
        target_names = target.path_names if target else []

        def expression(value: Any) -> Any:
            if not isinstance(value, str):
                return value

            def position(match: re.Match[str]) -> str:
                name = match.group(1)
                return (
                    f"$request.path.{{{source.path_names.index(name)}}}"
                    if name in source.path_names
                    else match.group(0)
                )

            return re.sub(r"\$request\.path\.([A-Za-z0-9_.-]+)", position, value)

        parameters = {
            (f"{{{target_names.index(name)}}}" if name in target_names else name): expression(value)
            for name, value in dict_(link.get("parameters")).items()
        }
        meaning = {
            "target": list(target.key) if target else link.get("operationId") or link.get("operationRef"),
            "parameters": parameters,
            "requestBody": expression(link.get("requestBody")),
        }
        return canon(meaning)

    # -- security
    def _security(self, old: Operation, new: Operation) -> Iterator[Finding]:
        before, _ = self.old.security(old)
        after, where = self.new.security(new)
        if "security" not in new.node and "security" not in self.new.data:
            where = new.ptr
        old_sets, new_sets = self._requirements(self.old, before), self._requirements(self.new, after)
        added = {
            text: demands for demands, text in new_sets.items() if not any(o <= demands for o in old_sets)
        }
        removed = {
            text: demands for demands, text in old_sets.items() if not any(n <= demands for n in new_sets)
        }
        for text in sorted(added.keys() & removed.keys()):  # the same schemes by name, defined otherwise
            for name in text.split(" AND "):
                changed = self._scheme_change(name)
                if changed:
                    yield Finding(pointer(("components", "securitySchemes", name)), *changed)
        for text in sorted(added.keys() - removed.keys()):
            message = f"requirement added ({text}): servers must accept it"
            yield Finding(where, "security-requirement-added", message, Effect.LOOSEN)
        for text in sorted(removed.keys() - added.keys()):
            message = f"requirement removed ({text}): requests meeting only it are refused"
            yield Finding(where, "security-requirement-removed", message, Effect.TIGHTEN)

    def _scheme_change(self, name: str) -> tuple[str, str, Effect] | None:
        before, after = _scheme(self.old, name), _scheme(self.new, name)
        keys = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
        if not keys:
            return None
        what = "; ".join(f"{k} {json.dumps(before.get(k))} -> {json.dumps(after.get(k))}" for k in keys)
        return "security-scheme-changed", f"scheme {name} changed: {what}", Effect.BOTH

    def _requirements(self, document: Side, requirements: list[Any]) -> dict[frozenset[str], str]:
        """Each requirement (an alternative) as the set of what it demands: schemes by definition, scopes."""
        found: dict[frozenset[str], str] = {}
        for requirement in requirements or [{}]:
            demands: set[str] = set()
            for name, scopes in dict_(requirement).items():
                definition = _scheme(document, name) or {"undefined": name}
                demands.add(canon(definition))
                demands.update(canon([definition, scope]) for scope in list_(scopes))
            found[frozenset(demands)] = " AND ".join(sorted(dict_(requirement))) or "no credentials"
        return found


def _scheme(document: Side, name: str) -> dict[str, Any]:
    """A security scheme's definition, without its description and extensions."""
    schemes = dict_(dict_(document.data.get("components")).get("securitySchemes"))
    scheme, _ = document.deref(schemes.get(name), "")
    return {k: v for k, v in dict_(scheme).items() if k != "description" and not str(k).startswith("x-")}
