"""The mock's own layers in front of the read cache, as one ASGI layer with a short path for the
common request.

The layers, outermost first, each in its module: CORS (cors.py), the session (sessions.py), the
request journal (journal.py) and the controls (control.py). `Front` stacks them over the app below
(the read cache) for a request that asks one of them for something, an `Origin`, `X-Mock-Session`
or `Prefer` header, and for every request while the default session's controls are active (a
fault, `--latency`, `--error-rate`). Any other request, most of them, would pass CORS untouched,
get the default session and pass the controls: the short path does just that, after one scan of
the headers, with a second journal layer over the app below. The same answer and the same journal
entry, without three layers' work: next to what uvicorn does for a cached read, that work was a
tenth of the request's cost (`python -m benchmarks.ab`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Sequence
from typing import Any

from .control import PREFER, ControlMiddleware
from .cors import CORS, ORIGIN
from .journal import JournalMiddleware
from .sessions import HEADER, SESSION, SessionMiddleware, Sessions

NAMES = frozenset({ORIGIN, HEADER, PREFER})  # the request headers the layers act on


class Front:
    """ASGI middleware: CORS (unless `cors` is False; `cors_origins` limits it), the session of
    `sessions`, the journal and the controls (the default session's are the fallback of both), over
    `app`. Put it outside the read cache."""

    def __init__(
        self, app: Any, sessions: Sessions, cors: bool = True, cors_origins: Sequence[str] | None = None
    ):
        self.default = sessions.default
        self.controls = controls = sessions.default.controls
        layers: Any = ControlMiddleware(app, controls)
        layers = SessionMiddleware(JournalMiddleware(layers, controls), sessions)
        self.layers = CORS(layers, cors_origins) if cors else layers
        self.short = JournalMiddleware(app, controls)  # the same journal, without the controls

    # A plain function, not a coroutine: it hands on the awaitable of one path or the other.
    def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Awaitable[None]:
        if scope["type"] == "http" and not self.controls.active:
            for name, _ in scope["headers"]:
                if name in NAMES:  # one the layers act on: through them all
                    break
            else:
                scope[SESSION] = self.default
                return self.short(scope, receive, send)
        return self.layers(scope, receive, send)
