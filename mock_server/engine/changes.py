"""Changes: every write to the mock's state as data, and the one place that applies them.

A `Change` names its kind (an API operation, or one of the admin API's writes), the session it
changes and its arguments, with everything that would otherwise make applying it differ from one
worker to the next: the clock's time (`time`: each store reads this instead of its clock while it
applies the change) and credentials drawn at random (`create_user`'s). So the same changes applied
in the same order to the same state give the same state, and the same answer, on every worker:
that is what a shared engine's log replicates (redis.py).

The embedded mock (no `--engine`) applies its admin writes through the same functions
(`apply`), on its own clock; its API operations stay the plain handler call of app.py.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ... import fixtures
from ..forms import Upload
from ..handlers import Ctx, handler_for
from ..sessions import Session, Sessions, data_rows


@dataclass(frozen=True, slots=True)
class Change:
    kind: str  # a key of APPLIERS
    session: str | None  # None: the default session
    args: dict[str, Any]
    time: datetime | None = None  # the clock's reading when it was made; None: the store's own clock


_READS = frozenset({"GET", "HEAD", "OPTIONS"})
# GETs that write when a parameter is true (log_access stamps last_accessed_at)
_WRITING_READS = {"collections.get_collection": "log_access"}


def writes(operation_id: str, method: str, params: dict[str, Any]) -> bool:
    """Whether a request to the operation changes the state, so a shared engine must log it."""
    if method not in _READS:
        return True
    flag = _WRITING_READS.get(operation_id)
    return flag is not None and bool(params.get(flag))


# ---------------------------------------------------------------------- the appliers
def operation(
    session: Session,
    sessions: Sessions,
    *,
    operation_id: str,
    params: dict[str, Any],
    caller_id: int | None,
    base_url: str,
    uploads: dict[str, Upload],
    render: bool = True,
) -> Any:
    """An API operation: its handler on the session's store, as app.py would call it (without
    rendering the answer when nobody reads it: `render`)."""
    store = session.store
    caller = store.accounts.get(caller_id) if caller_id is not None else None
    return handler_for(operation_id)(Ctx(store, caller, base_url, uploads, render), **params)


def reset(session: Session, sessions: Sessions, *, fixtures_name: str, seed: int) -> None:
    template = sessions.template  # the server's own set and seed: a copy, not generated again
    same = (fixtures_name, seed) == (template.fixtures, template.seed)
    data = template.data() if same else fixtures.generate(fixtures_name, seed)
    sessions.check_room(session, data_rows(data))  # a `large` reset counts (sessions.py)
    session.store.reset(data)


def restore(session: Session, sessions: Sessions, *, data: dict[str, Any]) -> None:
    sessions.check_room(session, data_rows(data))
    session.store.reset(data)


def create_user(
    session: Session, sessions: Sessions, *, plan: str, name: str | None, password: str, token: str
) -> Any:
    return session.store.create_user(plan=plan, name=name, password=password, token=token)


def add_fault(session: Session, sessions: Sessions, *, body: dict[str, Any]) -> Any:
    return session.controls.add_fault(body)


def delete_fault(session: Session, sessions: Sessions, *, fault_id: int) -> bool:
    return session.controls.delete_fault(fault_id)


def clear_faults(session: Session, sessions: Sessions) -> None:
    session.controls.clear_faults()


def fire_fault(session: Session, sessions: Sessions, *, fault_id: int) -> bool:
    return session.controls.fire(fault_id)


APPLIERS: dict[str, Callable[..., Any]] = {
    f.__name__: f
    for f in (operation, reset, restore, create_user, add_fault, delete_fault, clear_faults, fire_fault)
}


def apply(sessions: Sessions, change: Change, answered: bool = True) -> Any:
    """Apply one change to the registry's session it names; its result, or the ApiError it raises
    (raised the same way on every worker, so a refused change changes nothing anywhere). An
    operation's answer is rendered only when `answered` (the worker that took the request)."""
    session = sessions.replica(change.session)
    store = session.store
    args = change.args if answered or change.kind != "operation" else {**change.args, "render": False}
    if change.time is None:
        return APPLIERS[change.kind](session, sessions, **args)
    at = change.time
    clock = store.clock
    store.clock = lambda: at  # every reading while it applies: the writer's, on every worker
    try:
        result = APPLIERS[change.kind](session, sessions, **args)
    finally:
        store.clock = clock
        store.generation += 1  # the read cache's answers of this session are stale
    if session.name is not None:
        session.written = at.timestamp()
    sessions.expire_written(at.timestamp())
    return result


# ---------------------------------------------------------------------- on the wire
def encode(change: Change) -> str:
    """A change as JSON text (what the engine's log holds: no pickle, so the engine's content is
    never code)."""
    return json.dumps(
        {
            "kind": change.kind,
            "session": change.session,
            "args": change.args,
            "time": change.time.isoformat() if change.time is not None else None,
        },
        default=_default,
        separators=(",", ":"),
    )


def decode(text: str | bytes) -> Change:
    data = json.loads(text, object_hook=_object)
    time = datetime.fromisoformat(data["time"]) if data["time"] is not None else None
    return Change(data["kind"], data["session"], data["args"], time)


_UPLOAD = "__csapi_upload__"


def _default(value: Any) -> Any:
    if isinstance(value, Upload):
        return {_UPLOAD: [value.filename, value.media_type, value.size, value.digest]}
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"a change cannot carry {type(value).__name__}")


def _object(data: dict[str, Any]) -> Any:
    if len(data) == 1 and _UPLOAD in data:
        return Upload(*data[_UPLOAD])
    return data
