"""Multi-file documents: every external `$ref` followed, each file it reaches bundled into one document.

A document may spread over files (`$ref: ./schemas/pet.yaml`, `$ref: common.yaml#/Error`, absolute
paths, `file://` URIs). The diff only ever follows local references, so `bundle` gathers the files:
each one's content goes under the root key `x-csapi-files`, keyed by its path relative to the root
document's directory (posix, `../` where it is beside it), and every external `$ref` becomes a local
one into that copy (`#/x-csapi-files/schemas~1pet.yaml/properties/name`). A file's own references
are read relative to that file; a file's local refs (`#/Pet`) point into its copy. Keys are relative
so that OLD and NEW in two directories, or at two git revisions, bundle the same file under the same
key: a file that did not change compares equal.

A change reported inside a bundled file is shown at the file's own pointer
(`schemas/pet.yaml#/properties/name`, `shown`), with `via` the pointer of the root document's `$ref`
that leads into the file from the change's operation (`located`).
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urldefrag, urlparse
from urllib.request import url2pathname

from ..loader import DocumentError, loads, loads_any
from ..refs import MISSING, Parts, at, follow, parts_of, pointer
from .model import Change

FILES = "x-csapi-files"

# Maps keyed by names, where `example` or `default` is a name and not a keyword (lint.py's rule).
_NAME_MAPS = frozenset(
    {
        "properties", "patternProperties", "definitions", "$defs", "dependentSchemas", "schemas",
        "responses", "parameters", "examples", "requestBodies", "headers", "links", "callbacks",
        "securitySchemes", "pathItems", "paths", "webhooks", "content", "encoding", "variables",
        "mapping",
    }
)  # fmt: skip
_DATA = frozenset({"example", "default", "enum", "const"})


class BundleError(Exception):
    """A reference that cannot be followed; the message says which and where it is written."""


Read = Callable[[str], str]  # the text of a file by key; raises BundleError saying why it cannot


def bundle(document: dict[str, Any], root: Path, name: str, read: Read) -> dict[str, Any]:
    """`document` (the file `name` in directory `root`) with its external files bundled in.

    Equal to `document` when it has no external reference.
    """
    return _Bundler(root, name, read).run(document)


class _Bundler:
    def __init__(self, root: Path, name: str, read: Read) -> None:
        self.root, self.name, self.read = root, name, read
        self.files: dict[str, Any] = {}
        self.pending: list[tuple[str, Any]] = []
        self.refs: list[tuple[str, Parts, str, str]] = []  # (file key, fragment, where written, as written)

    def run(self, document: dict[str, Any]) -> dict[str, Any]:
        body = {key: value for key, value in document.items() if key != FILES}
        data: dict[str, Any] = self.rewrite(body, self.name, ())
        while self.pending:
            key, content = self.pending.pop()
            self.files[key] = self.rewrite(content, key, ())
        if self.files:
            data[FILES] = self.files
        for key, parts, where, ref in self.refs:
            if follow(data if key == self.name else self.files[key], parts) is MISSING:
                raise BundleError(f"{where}: $ref {ref!r} points to nothing")
        return data

    def rewrite(self, node: Any, key: str, parts: Parts) -> Any:
        """`node` (at `parts` in file `key`) with every `$ref` local to the bundle."""
        if isinstance(node, list):
            return [self.rewrite(item, key, (*parts, index)) for index, item in enumerate(node)]
        if not isinstance(node, dict):
            return node
        copy: dict[str, Any] = {}
        for name, value in node.items():
            if name == "$ref" and isinstance(value, str):
                copy[name] = self.ref(value, key, (*parts, name))
            elif _is_data(name, value, parts):
                copy[name] = value
            elif name == "mapping" and parts[-1:] == ("discriminator",) and isinstance(value, dict):
                copy[name] = {
                    option: self.ref(target, key, (*parts, name, option)) if _names_a_file(target) else target
                    for option, target in value.items()
                }
            else:
                copy[name] = self.rewrite(value, key, (*parts, name))
        return copy

    def ref(self, ref: str, key: str, parts: Parts) -> str:
        """The local form of `ref`, written at `parts` in file `key`; its file queued for bundling."""
        where = place(key, parts, self.name)
        address, fragment = urldefrag(ref)
        target = self.target(address, key, where, ref)
        fragment_parts = parts_of(fragment)
        if fragment_parts is None:
            raise BundleError(f"{where}: $ref {ref!r}: the fragment is not a JSON pointer")
        self.refs.append((target, fragment_parts, where, ref))
        if (
            target == self.name
        ):  # the root document, however spelled: a local ref, kept as written when it was
            return ref if key == self.name and address == "" else "#" + pointer(fragment_parts)
        self.load(target, where, ref)
        return "#" + pointer((FILES, target, *fragment_parts))

    def target(self, address: str, key: str, where: str, ref: str) -> str:
        """The key of the file `address` names, read from file `key`."""
        if address == "":
            return key
        scheme = urlparse(address).scheme.lower()
        if scheme in ("http", "https"):
            raise BundleError(
                f"{where}: $ref {ref!r}: remote (http/https) references are not read; "
                "save the file beside the document and refer to it by its path"
            )
        if scheme == "file":
            return self.key_of(url2pathname(urlparse(address).path))
        if len(scheme) > 1:  # one letter is a Windows drive
            raise BundleError(f"{where}: $ref {ref!r}: {scheme}: references are not read, only file paths")
        path = unquote(address)
        return self.key_of(
            path if os.path.isabs(path) else os.path.join(self.root, posixpath.dirname(key), path)
        )

    def key_of(self, path: str) -> str:
        """The key of the file at `path`: relative to the root's directory, so `api/../api/x` is `x`."""
        return Path(os.path.relpath(os.path.normpath(path), self.root)).as_posix()

    def load(self, key: str, where: str, ref: str) -> None:
        if key in self.files:
            return
        try:
            text = self.read(key)
        except BundleError as exc:
            raise BundleError(f"{where}: $ref {ref!r}: {exc}") from None
        try:
            content: Any = loads(text)
        except DocumentError:
            try:
                content = loads_any(text)  # a file may hold a list or a scalar (a 3.1 boolean schema)
            except DocumentError as exc:
                raise BundleError(f"{where}: $ref {ref!r}: {key}: {exc}") from None
        self.files[key] = None  # taken: a cycle of files comes back here and stops
        self.pending.append((key, content))


def _is_data(name: str, value: Any, parts: Parts) -> bool:
    """Whether the member `name` of the object at `parts` is data (an example, enum, extension)."""
    if parts and str(parts[-1]) in _NAME_MAPS:
        return False
    if name in _DATA or name.startswith("x-"):
        return True
    if name == "examples" and isinstance(value, list):  # a 3.1 schema's examples: values
        return True
    return name == "value" and len(parts) > 1 and str(parts[-2]) == "examples"


def _names_a_file(target: Any) -> bool:
    """A discriminator mapping value that is a reference to another file (not a schema name)."""
    return isinstance(target, str) and not target.startswith("#") and ("/" in target or "#" in target)


def place(key: str, parts: Parts, name: str) -> str:
    """Where something is written: a pointer in the root document (file `name`), else `file#pointer`."""
    return pointer(parts) if key == name else f"{key}#{pointer(parts)}"


# --------------------------------------------------------------------------------------------------
# Changes inside bundled files: shown at the file's pointer, with the root's `$ref` that leads there

_BUNDLED = re.compile(r"#?/" + re.escape(FILES) + r"/([^/\s'\"`,)]+)((?:/[^\s'\"`,)]*)?)")


def shown(ptr: str) -> str:
    """`/x-csapi-files/schemas~1pet.yaml/properties/name` as `schemas/pet.yaml#/properties/name`."""
    parts = parts_of(ptr)
    if not parts or parts[0] != FILES or len(parts) < 2:
        return ptr
    rest = pointer(parts[2:])
    return f"{parts[1]}#{rest}" if rest else str(parts[1])


def shown_in(text: str) -> str:
    """`text` with every pointer or `$ref` into a bundled file shown at the file's pointer."""
    if FILES not in text:
        return text
    return _BUNDLED.sub(lambda match: shown(f"/{FILES}/{match.group(1)}{match.group(2)}"), text)


def located(changes: list[Change], old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    """`changes` with those inside bundled files shown at the file's pointer and their `via`."""
    if FILES not in old and FILES not in new:
        return changes
    return [_located(change, old, new) for change in changes]


def _located(change: Change, old: dict[str, Any], new: dict[str, Any]) -> Change:
    parts = parts_of(change.pointer)
    if not parts or parts[0] != FILES or len(parts) < 2:
        return replace(change, message=shown_in(change.message), reason=shown_in(change.reason))
    document = new if at(new, change.pointer) is not MISSING else old  # where the changed thing is
    reached = change.rule != "unused-component-changed"  # a part no reference reaches has no `via`
    return replace(
        change,
        pointer=shown(change.pointer),
        via=via(document, change.operation, str(parts[1])) if reached else "",
        message=shown_in(change.message),
        reason=shown_in(change.reason),
    )


def via(document: dict[str, Any], operation: str, key: str) -> str:
    """The pointer of the root document's `$ref` that leads into file `key` from `operation`.

    Searched in the operation, then its path item, then the whole document; references followed.
    """
    into = "#" + pointer((FILES, key))
    for parts in (*_operation_parts(document, operation), ()):
        node = follow(document, parts)
        if not parts:
            node = {name: value for name, value in document.items() if name != FILES}
        found = next(_refs_into(document, node, parts, into, "", set()), None)
        if found:
            return found
    return ""


def _operation_parts(document: dict[str, Any], operation: str) -> Iterator[Parts]:
    """Parts of the operation labelled `operation` ("METHOD /path", "WEBHOOK name METHOD"), then its item."""
    words = operation.split(" ")
    if len(words) >= 3 and words[0] == "WEBHOOK":
        item: Parts = ("webhooks", " ".join(words[1:-1]))
        yield (*item, words[-1].lower())
        yield item
        return
    if len(words) != 2:
        return
    method, path = words[0].lower(), words[1]
    paths = document.get("paths")
    if not isinstance(paths, dict):
        return
    blank = _blank(path)
    for name in sorted(paths, key=lambda name: name != path):  # the path as written, else renamed params
        if name == path or _blank(name) == blank:
            yield ("paths", name, method)
            yield ("paths", name)
            return


def _blank(path: str) -> str:
    return re.sub(r"\{[^}]*\}", "{}", path)


def _refs_into(
    document: dict[str, Any], node: Any, parts: Parts, into: str, entry: str, seen: set[str]
) -> Iterator[str]:
    """The root `$ref` locations (objects holding them) from which `node` reaches a ref into `into`.

    `entry`: the last `$ref` written in the root document on the way here.
    """
    if isinstance(node, list):
        for index, item in enumerate(node):
            yield from _refs_into(document, item, (*parts, index), into, entry, seen)
        return
    if not isinstance(node, dict):
        return
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#"):
        here = entry if parts[:1] == (FILES,) else pointer(parts)
        if ref == into or ref.startswith(into + "/"):
            yield here
            return
        target = parts_of(ref[1:])
        if ref not in seen and target is not None:
            seen.add(ref)
            yield from _refs_into(document, follow(document, target), target, into, here, seen)
    for name, value in node.items():
        if name != "$ref" and not _is_data(name, value, parts):
            yield from _refs_into(document, value, (*parts, name), into, entry, seen)
