"""`csapi serve`: run the mock with uvicorn, print how to call it, keep its state in a file.

With `--state FILE` the state (and the API key) is loaded from FILE at start when it
exists, and written back atomically on shutdown, so a developer's data survives a restart.
"""

from __future__ import annotations

import base64
import json
import os
import secrets
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mock_server.errors import InvalidInput
from mock_server.store import Store


class StateFileError(Exception):
    """The state file exists but cannot be used; it is left as it is."""


@dataclass
class ServeOptions:
    host: str = "127.0.0.1"
    port: int = 8000
    seed: int = 0
    fixtures: str = "default"
    api_key: str | None = None
    admin: bool = True
    state: Path | None = None
    validate_responses: bool = False


def load_state(path: Path) -> tuple[dict[str, Any], str | None]:
    """(snapshot, API key saved with it) from a state file written by `save_state`."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise StateFileError(f"{path} is not a csapi state file: {exc}") from None
    if not isinstance(data, dict):
        raise StateFileError(f"{path} is not a csapi state file")
    return data, data.get("api_key")


def save_state(path: Path, store: Store, api_key: str) -> None:
    """Write atomically: a temporary file in the same folder, fsync, then rename over."""
    data = {**store.snapshot(), "api_key": api_key}
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent or Path("."))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, separators=(",", ":"))
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def build(options: ServeOptions) -> tuple[Any, Store, str]:
    """The app, its store and API key, from the options (and the state file if any)."""
    from fixtures import generate
    from mock_server.app import create_app

    api_key = options.api_key
    if options.state is not None and options.state.exists():
        data, saved_key = load_state(options.state)
        try:
            store = Store(data=data)
        except InvalidInput as exc:
            raise StateFileError(f"{options.state}: {exc.message}") from None
        api_key = api_key or saved_key
    else:
        store = Store(data=generate(options.fixtures, options.seed))
    api_key = api_key or secrets.token_hex(16)
    store.search_index  # noqa: B018  # build it now, not during the first search request

    def save() -> None:
        if options.state is not None:
            save_state(options.state, store, api_key)

    app = create_app(
        store,
        api_key=api_key,
        admin=options.admin,
        validate_responses=options.validate_responses,
        on_shutdown=save,
    )
    return app, store, api_key


def banner(base_url: str, store: Store, api_key: str, admin: bool) -> str:
    """What a client developer needs to make a first call, ready to paste."""
    lines = [f"csapi mock server on {base_url}", f"  API key:  {api_key}"]
    user = next((a for a in store.accounts.values() if not a.is_team), None)
    if user is not None:
        basic = base64.b64encode(f"{user.id}:{user.token}".encode()).decode()
        lines += [
            f"  user:     id {user.id} ({user.username}, plan {user.plan}), token {user.token}",
            f"  try:      curl -s -H 'X-API-Key: {api_key}' -u {user.id}:{user.token} "
            f"{base_url}/v1/collections",
            f"  header:   Authorization: Basic {basic}",
        ]
    lines.append(f"  docs:     {base_url}/v1/ui/")
    if admin:
        lines.append(f"  all credentials: curl -s {base_url}/__mock__/credentials")
    return "\n".join(lines)


def run(options: ServeOptions, echo: Any = print) -> None:
    """Serve until interrupted; the app saves the state on its way down (lifespan shutdown)."""
    import uvicorn

    app, store, api_key = build(options)
    echo(banner(f"http://{options.host}:{options.port}", store, api_key, options.admin))
    uvicorn.run(app, host=options.host, port=options.port, log_level="warning")
