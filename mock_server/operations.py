"""The document's operations, found by method and path: what the journal, the controls and the
report know of each (its statuses, examples, counted answers and required headers).

The document lists no 5xx and no 429 (the spec is silent on both), yet every server may answer
them: FAULT_STATUSES count as documented for every operation, for the controls (control.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..openapi import path_template, resolve

FAULT_STATUSES = {
    429: "rate_limited",
    500: "internal_error",
    502: "bad_gateway",
    503: "service_unavailable",
    504: "gateway_timeout",
}
_METHODS = ("get", "put", "post", "delete", "patch")


@dataclass(frozen=True, eq=False)
class Operation:
    operation_id: str
    method: str  # lower case, as in the document
    template: str
    summary: str
    tag: str
    statuses: tuple[int, ...]  # documented, ascending
    examples: dict[str, dict[int, Any]]  # example name -> status -> value
    counted: frozenset[int]  # statuses documenting X-Total-Count
    required_headers: tuple[tuple[bytes, str], ...]  # (lower-case name, how to name it)

    def answers(self, status: int) -> bool:
        return status in self.statuses or status in FAULT_STATUSES

    def documented(self) -> str:
        listed = ", ".join(map(str, self.statuses))
        faults = ", ".join(str(s) for s in FAULT_STATUSES if s not in self.statuses)
        return f"{self.operation_id} documents {listed} (and {faults}, which any operation may answer)"

    def example_names(self) -> str:
        names = [f"{name} ({', '.join(map(str, sorted(by)))})" for name, by in self.examples.items()]
        return ", ".join(names) or "none"


LONGEST_REMEMBERED = 1024  # characters of a path `Operations.match` remembers


class Operations:
    """The operations of a document, found by method and path. The template of a path comes from
    `openapi.path_template`; each (method, path) asked for is remembered, up to `cache_size`."""

    def __init__(self, spec: dict[str, Any], cache_size: int = 4096):
        self._by_key: dict[tuple[str, str], Operation] = {}
        self.by_id: dict[str, Operation] = {}
        for template, item in spec.get("paths", {}).items():
            for method in _METHODS:
                if isinstance(item.get(method), dict) and "operationId" in item[method]:
                    operation = _operation(spec, template, method, item[method], item)
                    self._by_key[method.upper(), template] = operation
                    self.by_id[operation.operation_id] = operation
        self._paths: dict[tuple[str, str], Operation | None] = {}
        self._cache_size = cache_size

    def all(self) -> list[Operation]:
        return list(self.by_id.values())

    def match(self, method: str, path: str) -> Operation | None:
        key = (method, path)
        try:
            return self._paths[key]
        except KeyError:
            pass
        template = path_template(path)
        verb = "GET" if method == "HEAD" else method  # HEAD is answered as the GET (starlette)
        operation = self._by_key.get((verb, template)) if template is not None else None
        if len(path) > LONGEST_REMEMBERED:  # not remembered: 4096 keys of 64 KB would be 256 MB
            return operation
        if len(self._paths) >= self._cache_size:
            self._paths.clear()
        self._paths[key] = operation
        return operation

    def statuses_anywhere(self) -> set[int]:
        return {status for operation in self.by_id.values() for status in operation.statuses}


def _operation(
    spec: dict[str, Any], template: str, method: str, op: dict[str, Any], item: dict[str, Any]
) -> Operation:
    statuses: list[int] = []
    examples: dict[str, dict[int, Any]] = {}
    counted: set[int] = set()
    for key, response in op.get("responses", {}).items():
        if not str(key).isdigit():
            continue
        status = int(key)
        statuses.append(status)
        response = resolve(response, spec)
        if "X-Total-Count" in response.get("headers", {}):
            counted.add(status)
        media = response.get("content", {}).get("application/json", {})
        for name, example in media.get("examples", {}).items():
            example = resolve(example, spec)
            if isinstance(example, dict) and "value" in example:
                examples.setdefault(name, {})[status] = example["value"]
    return Operation(
        operation_id=op["operationId"],
        method=method,
        template=template,
        summary=op.get("summary", ""),
        tag=(op.get("tags") or [""])[0],
        statuses=tuple(sorted(statuses)),
        examples=examples,
        counted=frozenset(counted),
        required_headers=_required_headers(spec, op, item),
    )


def _required_headers(
    spec: dict[str, Any], op: dict[str, Any], item: dict[str, Any]
) -> tuple[tuple[bytes, str], ...]:
    """Headers every request must carry: those each security alternative needs, and the
    required header parameters."""
    schemes = spec.get("components", {}).get("securitySchemes", {})
    needed: set[str] | None = None
    for requirement in op.get("security", spec.get("security", [])):
        names = set()
        for scheme_name in requirement:
            scheme = resolve(schemes.get(scheme_name, {}), spec)
            if scheme.get("type") == "apiKey" and scheme.get("in") == "header":
                names.add(scheme["name"])
            elif scheme.get("type") == "http":
                names.add(f"Authorization ({str(scheme.get('scheme', '')).capitalize()})")
        needed = names if needed is None else needed & names
    headers = {name: f"the {name} header" for name in needed or ()}
    for parameter in [*item.get("parameters", []), *op.get("parameters", [])]:
        parameter = resolve(parameter, spec)
        if parameter.get("in") == "header" and parameter.get("required"):
            headers[parameter["name"]] = f"the {parameter['name']} header"
    return tuple(
        (name.split(" ")[0].lower().encode("latin-1"), label) for name, label in sorted(headers.items())
    )
