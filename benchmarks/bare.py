"""The practical upper limit of a Python server here: Starlette answering fixed bytes.

It replays, for each (method, path with ids as {id}, query) of the benchmark's plans, the
status, body and X-Total-Count the mock gave once (captured by run.py into the JSON file
named by $CSAPI_BARE_ANSWERS). No validation, no auth, no store: only what any Python
ASGI server must do to answer the same JSON.

    CSAPI_BARE_ANSWERS=answers.json uvicorn benchmarks.bare:app --port 8003
"""

from __future__ import annotations

import json
import os
import re

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

_ID = re.compile(r"/\d+")


def answer_key(method: str, path: str, query: str) -> str:
    return f"{method} {_ID.sub('/{id}', path)}?{query}"


def _load() -> dict[str, tuple[int, bytes, dict[str, str]]]:
    with open(os.environ["CSAPI_BARE_ANSWERS"], encoding="utf-8") as fh:
        answers = json.load(fh)
    return {key: (a["status"], a["body"].encode(), a["headers"]) for key, a in answers.items()}


ANSWERS = _load() if "CSAPI_BARE_ANSWERS" in os.environ else {}


async def replay(request: Request) -> Response:
    await request.body()  # read it, as any real server would
    key = answer_key(request.method, request.url.path, request.url.query)
    status, body, headers = ANSWERS.get(key, (404, b'{"code":"not_found","message":"-"}', {}))
    return Response(body, status_code=status, media_type="application/json", headers=headers)


app = Starlette(routes=[Route("/{path:path}", replay, methods=["GET", "POST", "PUT", "DELETE"])])
