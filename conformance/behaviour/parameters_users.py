"""Query parameters of Get current user and the availability checks: each sent, its effect
checked against what the check itself made or read (rule table: conformance/rules/parameters.py;
the codes also stand for rows of conformance/rules/wording.py)."""

from __future__ import annotations

from ..http import LAYER, SERIAL, Session, ids_of, me, session
from ..registry import RunContext, check
from .parameters_common import honoured

R_INCLUDE = "spec 4.4 Get current user: include emails, teams, teams_total_count; spec 2.9"
R_AVAILABLE = (
    "spec 4.4 Get email / username availability; spec 2.13: codes email_available, username_available"
)


def unused_address(s: Session) -> str:
    return f"{s.target.name(f'e{next(SERIAL)}')}@example.com"


@check(LAYER, "users.get_current_user", "include=emails, teams, teams_total_count add them", R_INCLUDE)
def current_user_includes(ctx: RunContext) -> None:
    with session(ctx) as s:
        address = unused_address(s)
        made = s.body(s.call("POST", "/v1/emails", ok=(201,), json_body={"email": address}))
        s.register("email", f"/v1/emails/{made.get('id')}")
        emails = me(s, include="emails").get("emails")
        honoured(
            s,
            isinstance(emails, list) and made.get("id") in ids_of(emails),
            f"include=emails gives {emails!r:.300}, without the new address {address}",
        )
        teams = set(ids_of(s.body(s.call("GET", "/v1/teams"), list)))
        got = me(s, include=["teams", "teams_total_count"])
        listed = got.get("teams")
        honoured(
            s,
            isinstance(listed, list) and set(ids_of(listed)) == teams,
            f"include=teams gives {ids_of(listed or [])}, List teams {sorted(teams)}",
        )
        honoured(
            s,
            got.get("teams_total_count") == len(teams),
            f"include=teams_total_count gives {got.get('teams_total_count')!r}, List teams has {len(teams)}",
        )


def _available(s: Session, path: str, name: str, value: str, code: str, taken: str) -> None:
    free = s.call("GET", path, ok=(), params={name: value})
    body = free.json() if isinstance(free.json(), dict) else {}
    honoured(
        s,
        free.status == 200 and body.get("code") == code and isinstance(body.get("message"), str),
        f"GET {path}?{name}={value} (unused) answered {free.status} {body.get('code')!r}, "
        f"expected 200 with code {code}",
        free,
    )
    used = s.call("GET", path, ok=(), params={name: taken})
    body = used.json() if isinstance(used.json(), dict) else {}
    honoured(
        s,
        not (200 <= used.status < 300 and body.get("code") == code),
        f"GET {path}?{name}={taken} (the caller's own) answered {used.status} {code}",
        used,
    )


@check(
    LAYER,
    "users.get_email_availability",
    "an unused address is available, the caller's is not",
    R_AVAILABLE,
    writes=False,
)
def email_availability(ctx: RunContext) -> None:
    with session(ctx) as s:
        own = me(s).get("email")
        _available(s, "/v1/users/email", "email", unused_address(s), "email_available", str(own))


@check(
    LAYER,
    "users.get_username_availability",
    "an unused username is available, the caller's is not",
    R_AVAILABLE,
    writes=False,
)
def username_availability(ctx: RunContext) -> None:
    with session(ctx) as s:
        own = me(s).get("username")
        unused = f"zq{ctx.target.run_id}u{next(SERIAL)}"
        _available(s, "/v1/users/username", "username", unused, "username_available", str(own))
