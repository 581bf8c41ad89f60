"""Security: an operation's requirements (alternatives of schemes and scopes) and the schemes they name.

A requirement is read as the set of what it demands (each scheme by its definition, each scope), so
renaming a scheme changes nothing and a requirement that demands more than another is matched to
it. A scheme named on both sides is compared key by key (op_keys' "security-scheme" table): its
type, location, header name, HTTP scheme, OpenID URL or OAuth flow URLs changed is breaking (clients
send or fetch credentials as OLD says), its description a documentation change.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from ..refs import pointer
from ..walk import Operation
from .model import Effect, Finding
from .op_keys import Pair, compare_keys
from .sides import Side, canon, dict_, list_

_SCHEMES = ("components", "securitySchemes")
# What does not change the credentials a request carries: left out of a scheme's identity
_SOFT = ("description", "bearerFormat")


@dataclass
class Security:
    old: Side
    new: Side

    def compare(self, old: Operation, new: Operation) -> Iterator[Finding]:
        before, _ = self.old.security(old)
        after, where = self.new.security(new)
        if "security" not in new.node and "security" not in self.new.data:
            where = new.ptr
        yield from self._schemes(before, after)
        old_sets, new_sets = _requirements(self.old, before), _requirements(self.new, after)
        added = {text for demands, (text, _) in new_sets.items() if not any(o <= demands for o in old_sets)}
        removed = {text for demands, (text, _) in old_sets.items() if not any(n <= demands for n in new_sets)}
        old_by_text = {text: scopes for text, scopes in old_sets.values()}
        new_by_text = {text: scopes for text, scopes in new_sets.values()}
        for text in sorted(added | removed):
            if text in old_by_text and text in new_by_text:  # the same schemes: their scopes differ
                yield from _scopes(where, text, old_by_text[text], new_by_text[text])
            elif text in added:
                message = f"requirement added ({text}): servers must accept it"
                yield Finding(where, "security-requirement-added", message, Effect.LOOSEN)
            else:
                message = f"requirement removed ({text}): requests meeting only it are refused"
                yield Finding(where, "security-requirement-removed", message, Effect.TIGHTEN)

    def _schemes(self, before: list[Any], after: list[Any]) -> Iterator[Finding]:
        """Each scheme named on both sides, key by key (a change in it reaches every operation using it)."""
        names = {str(n) for r in before for n in dict_(r)} & {str(n) for r in after for n in dict_(r)}
        for name in sorted(names):
            site = pointer((*_SCHEMES, name))
            old_node, old_ptr = self.old.deref(_schemes(self.old).get(name), site)
            new_node, new_ptr = self.new.deref(_schemes(self.new).get(name), site)
            pair = Pair(dict_(old_node), dict_(new_node), old_ptr, new_ptr, (self.old, self.new))
            for finding in compare_keys("security-scheme", pair):
                if finding.rule == "security-scheme-changed":  # reported at the scheme, as before
                    yield replace(
                        finding, pointer=new_ptr, message=f"scheme {name} changed: {finding.message}"
                    )
                else:
                    yield replace(finding, message=f"scheme {name}: {finding.message}")


def _scopes(where: str, text: str, old: dict[str, set[str]], new: dict[str, set[str]]) -> Iterator[Finding]:
    """The scopes one requirement demands of each scheme: more is breaking, fewer an obligation."""
    for name in sorted(old.keys() | new.keys()):
        gained, lost = (
            sorted(new.get(name, set()) - old.get(name, set())),
            sorted(old.get(name, set()) - new.get(name, set())),
        )
        if gained:
            message = f"requirement ({text}): scope(s) {', '.join(gained)} of {name} now demanded"
            yield Finding(where, "security-scopes-added", message, Effect.TIGHTEN)
        if lost:
            message = f"requirement ({text}): scope(s) {', '.join(lost)} of {name} no longer demanded"
            yield Finding(where, "security-scopes-removed", message, Effect.LOOSEN)


def _schemes(document: Side) -> dict[str, Any]:
    return dict_(dict_(document.data.get("components")).get("securitySchemes"))


def scheme(document: Side, name: str) -> dict[str, Any]:
    """A security scheme's identity: its definition without documentation, extensions and the
    scopes its flows offer (compared key by key, `Security._schemes`)."""
    node, _ = document.deref(_schemes(document).get(name), "")
    identity = {k: v for k, v in dict_(node).items() if k not in _SOFT and not str(k).startswith("x-")}
    if isinstance(identity.get("scheme"), str):
        identity["scheme"] = identity["scheme"].lower()
    if isinstance(identity.get("flows"), dict):
        identity["flows"] = {
            kind: {k: v for k, v in dict_(flow).items() if k != "scopes" and not str(k).startswith("x-")}
            for kind, flow in identity["flows"].items()
            if not str(kind).startswith("x-")
        }
    return identity


def _requirements(
    document: Side, requirements: list[Any]
) -> dict[frozenset[str], tuple[str, dict[str, set[str]]]]:
    """Each requirement (an alternative) as the set of what it demands: schemes by definition, scopes;
    with its text (the scheme names) and the scopes it demands of each."""
    found: dict[frozenset[str], tuple[str, dict[str, set[str]]]] = {}
    for requirement in requirements or [{}]:
        demands: set[str] = set()
        scopes: dict[str, set[str]] = {}
        for name, wanted in dict_(requirement).items():
            definition = scheme(document, name) or {"undefined": name}
            demands.add(canon(definition))
            demands.update(canon([definition, scope]) for scope in list_(wanted))
            scopes[str(name)] = {str(scope) for scope in list_(wanted)}
        text = " AND ".join(sorted(dict_(requirement))) or "no credentials"
        found.setdefault(frozenset(demands), (text, scopes))
    return found
