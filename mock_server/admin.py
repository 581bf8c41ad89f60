"""The mock-only admin API under /__mock__/ (docs/design.md): no auth, off with `serve --no-admin`.

Client tests use it to learn credentials, reset or snapshot the state, create users and
read the notifications the mock recorded instead of sending them; all of it in the session the
request names with `X-Mock-Session` (sessions.py), the default one without it.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

from .. import fixtures
from . import control, journal
from .engine import Change, Engine, apply
from .errors import InvalidInput
from .guards import read_json
from .sessions import SESSION, Session, Sessions
from .store import format_time
from .store.accounts import new_password, new_token
from .store.records import Account

PREFIX = "/__mock__"


def user_credentials(user: Account) -> dict[str, Any]:
    return {
        "id": user.id,
        "username": user.username,
        "email": user.email,
        "password": user.password,
        "token": user.token,
        "plan": user.plan,
    }


def mount(app: Any, sessions: Sessions, api_key: str, engine: Engine | None = None) -> None:
    """Add the admin routes to a connexion app. Each acts on the request's session
    (`X-Mock-Session`, sessions.py): its store and, for the journal's and the faults' routes of
    journal.py and control.py, its controls. The API key is the server's. Every write is a change
    (engine/changes.py), through the shared `engine`'s log when there is one."""

    def submit(request: Request, kind: str, **args: Any) -> Any:
        name = _session(request).name
        if engine is not None:
            return engine.submit(name, kind, **args)
        return apply(sessions, Change(kind, name, args))

    async def get_credentials(request: Request) -> JSONResponse:
        store = _session(request).store
        return JSONResponse(fixtures.credentials({"accounts": store.dump("accounts")}, api_key))

    async def reset(request: Request) -> JSONResponse:
        body = await _json(request)
        name, seed = body.get("fixtures", "default"), body.get("seed", 0)
        if name not in fixtures.NAMES or not isinstance(seed, int) or isinstance(seed, bool):
            raise InvalidInput(f"fixtures must be one of {', '.join(fixtures.NAMES)} and seed an integer")
        submit(request, "reset", fixtures_name=name, seed=seed)
        return JSONResponse({"code": "reset", "message": f"State reset to the {name} fixtures, seed {seed}."})

    async def create_user(request: Request) -> JSONResponse:
        body = await _json(request)
        plan, name = body.get("plan", "free"), body.get("name")
        if plan not in ("free", "pro") or (name is not None and not isinstance(name, str)):
            raise InvalidInput("plan must be free or pro, and name a string")
        secret = {"password": new_password(), "token": new_token()}  # drawn once, for every replica
        user = submit(request, "create_user", plan=plan, name=name, **secret)
        return JSONResponse(user_credentials(user), status_code=201)

    async def get_snapshot(request: Request) -> JSONResponse:
        return JSONResponse(_session(request).store.snapshot())

    async def put_snapshot(request: Request) -> JSONResponse:
        submit(request, "restore", data=await _json(request))
        return JSONResponse({"code": "restored", "message": "State restored from the snapshot."})

    async def notifications(request: Request) -> JSONResponse:
        store = _session(request).store
        return JSONResponse(
            [
                {**_plain(n), "created_at": format_time(n.created_at)}
                for n in sorted(store.notifications.values(), key=lambda n: n.id)
            ]
        )

    routes = [
        ("/credentials", get_credentials, ["GET"]),
        ("/reset", reset, ["POST"]),
        ("/users", create_user, ["POST"]),
        ("/snapshot", get_snapshot, ["GET"]),
        ("/snapshot", put_snapshot, ["PUT"]),
        ("/notifications", notifications, ["GET"]),
        *journal.admin_routes(_controls),
        *control.admin_routes(_controls, submit),
    ]
    for path, endpoint, methods in routes:
        app.add_url_rule(PREFIX + path, endpoint.__name__, endpoint, methods=methods)
    # Another method would fall through to the API's catch-all mount and be a 404: answer 405.
    allowed: dict[str, list[str]] = {}
    for path, _, methods in routes:
        allowed.setdefault(path, []).extend(methods)
    for path, methods in allowed.items():
        others = [m for m in ("GET", "PUT", "POST", "DELETE", "PATCH", "OPTIONS") if m not in methods]
        app.add_url_rule(PREFIX + path, f"not_allowed{path}", _not_allowed(methods), methods=others)


def _session(request: Request) -> Session:
    session: Session = request.scope[SESSION]
    return session


def _controls(request: Request) -> control.Controls:
    return _session(request).controls


def _not_allowed(methods: list[str]) -> Any:
    async def not_allowed(request: Request) -> JSONResponse:
        message = f"{request.method} is not allowed here; use {', '.join(methods)}."
        body = {"code": "method_not_allowed", "message": message}
        return JSONResponse(body, status_code=405, headers={"Allow": ", ".join(methods)})

    return not_allowed


async def _json(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        body = read_json(raw)  # malformed, too deep, an integer of 5000 digits: a 400, said
    except ValueError as exc:
        raise InvalidInput(str(exc)) from None
    if not isinstance(body, dict):
        raise InvalidInput("the body must be a JSON object")
    return body


def _plain(record: Any) -> dict[str, Any]:
    return {name: getattr(record, name) for name in record.__dataclass_fields__}
