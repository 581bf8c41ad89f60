"""Durability of `csapi serve --state FILE` (issue 7, part 2): a kill -9 at any moment leaves the
old state or the new one, never a torn file; an unusable file stops serve (exit 4) and is never
written over; --autosave saves changes within its interval, in a thread, and nothing when
nothing changed; the shutdown save still happens. Real subprocesses where it matters."""

from __future__ import annotations

import asyncio
import copy
import json
import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from csapi import cli
from csapi.fixtures import generate
from csapi.mock_server import serve
from csapi.mock_server.serve import (
    ServeOptions,
    StateFileError,
    StateKeeper,
    build,
    load_state,
    save_state,
    temporaries,
)
from csapi.mock_server.store import Store
from tests.mock_server.served import ROOT, Served, csapi


def wait_for(condition: Callable[[], bool], timeout: float) -> float:
    """Seconds until `condition` held; fails after `timeout`."""
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > timeout:
            raise AssertionError(f"still not true after {timeout} s")
        time.sleep(0.02)
    return time.monotonic() - start


def collection_names(path: Path) -> list[str]:
    return [c["name"] for c in load_state(path)[0]["collections"]] if path.exists() else []


def without_key(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "api_key"}


# ---------------------------------------------------------------------- kill -9 while saving
def big_snapshot(base: dict[str, Any], extra_items: int, name: str) -> dict[str, Any]:
    """`base` plus `extra_items` copies of a note (a file of a few MB), in the form the store writes."""
    data = copy.deepcopy(base)
    model = next(i for i in data["items"] if i["parent_id"] is None and i["type"] != "stack")
    first = data["sequences"]["items"] + 1
    data["items"] += [{**model, "id": first + n, "name": f"{name} {n}"} for n in range(extra_items)]
    data["sequences"]["items"] = first + extra_items - 1
    data["collections"][0]["name"] = name
    return data


@pytest.fixture(scope="module")
def two_states(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, Any], dict[str, Any]]:
    folder = tmp_path_factory.mktemp("two-states")
    base = Store(data=generate("default", 0)).snapshot()
    a, b = big_snapshot(base, 4000, "state A"), big_snapshot(base, 4500, "state B")
    (folder / "a.json").write_text(json.dumps(a))
    (folder / "b.json").write_text(json.dumps(b))
    return folder / "a.json", folder / "b.json", a, b


@pytest.mark.parametrize("kills", [2, pytest.param(40, marks=pytest.mark.slow)])
def test_a_kill_9_while_saving_leaves_the_old_or_the_new_state(tmp_path: Path, two_states, kills: int):
    """A helper saves A, B, A, ... to one file; it is killed after a random number of saves, at a
    random moment of the next one. The file always holds A or B whole; only temporaries remain."""
    a_file, b_file, a, b = two_states
    path = tmp_path / "state.json"
    save_state(path, Store(data=copy.deepcopy(a)), "key-a")
    rng = random.Random(kills)
    seen, leftovers = set(), 0
    for _ in range(kills):
        helper = subprocess.Popen(
            [sys.executable, "-m", "tests.mock_server.save_loop", str(path), str(a_file), str(b_file)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert helper.stdout is not None
        assert helper.stdout.readline() == "ready\n"
        for _ in range(rng.randint(0, 2)):
            assert helper.stdout.readline().startswith("saved")
        time.sleep(rng.uniform(0, 0.3))  # a save of ~2 MB takes about that long: the kill lands mid-save
        helper.kill()
        helper.communicate()
        data, key = load_state(path)  # parses, whole
        assert without_key(data) == {"key-a": a, "key-b": b}[key]
        seen.add(key)
        others = [p for p in tmp_path.iterdir() if p != path]
        assert sorted(others) == sorted(temporaries(path))  # nothing else is ever left
        leftovers += len(others)
    if kills >= 40:
        assert seen == {"key-a", "key-b"} and leftovers > 0, (seen, leftovers)  # both moments were hit


# ---------------------------------------------------------------------- a real server
def _signed_in(served: Served) -> dict[str, Any]:
    user = served.client.get("/__mock__/credentials").json()["users"][0]
    return {"headers": {"X-API-Key": "k"}, "auth": (str(user["id"]), user["token"])}


def test_autosave_in_a_real_server_then_a_kill_9_keeps_a_prefix_of_the_writes(tmp_path: Path):
    """One server, --autosave 0.1: the new file appears at the first tick; reads alone never
    rewrite it; a write is saved within the interval; then writes as fast as they go, autosaves
    back to back, and a kill -9 at a random moment: the file holds the writes up to one moment."""
    path = tmp_path / "state.json"
    args = ["--state", str(path), "--fixtures", "empty", "--api-key", "k", "--autosave", "0.1"]
    with Served(*args) as served:
        wait_for(path.exists, 5)
        me = _signed_in(served)
        before = path.stat()
        for _ in range(5):
            assert served.client.get("/v1/collections", **me).status_code == 200
        time.sleep(0.6)  # six intervals of reads only
        after = path.stat()
        assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)

        body = {"name": "w-0", "type": "private"}
        assert served.client.post("/v1/collections", json=body, **me).status_code == 201
        assert wait_for(lambda: collection_names(path) == ["w-0"], 5) < 2  # 0.1 s, with slack for CI

        created = ["w-0"]
        deadline = time.monotonic() + random.uniform(0.2, 0.8)
        while time.monotonic() < deadline or len(collection_names(path)) < 2:
            name = f"w-{len(created)}"
            response = served.client.post("/v1/collections", json={"name": name, "type": "private"}, **me)
            assert response.status_code == 201
            created.append(name)
        served.kill()
    data, key = load_state(path)
    assert key == "k"
    Store(data=data)  # the store takes it, as serve would at its next start
    saved = [c["name"] for c in data["collections"]]
    assert len(saved) >= 2 and saved == created[: len(saved)]  # one consistent moment, nothing torn


# ---------------------------------------------------------------------- unusable files
BAD_FILES = {
    "not JSON": b"{not json",
    "binary": b"\xff\xfe\x00\x01",
    "empty": b"",
    "a list": b"[1, 2, 3]",
    "foreign JSON": b'{"hello": 1}',
    "another format": b'{"format": "something-else", "version": 1}',
    "a later version": b'{"format": "csapi-state", "version": 2, "accounts": [], "sequences": {}}',
    "rejected by the store": b'{"format": "csapi-state", "version": 1, "collections": [{"id": 1}]}',
    "a dangling reference": (
        b'{"format": "csapi-state", "version": 1, "emails": [{"id": 1, "user_id": 9, "email": "a@b.c"}]}'
    ),
    "a bad api_key": b'{"format": "csapi-state", "version": 1, "api_key": 5}',
}


@pytest.mark.parametrize("content", BAD_FILES.values(), ids=BAD_FILES.keys())
def test_an_unusable_state_file_is_exit_4_with_one_line_and_is_left_untouched(
    tmp_path: Path, content: bytes, monkeypatch
):
    import uvicorn

    def must_not_serve(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("serve started on an unusable state file")

    monkeypatch.setattr(uvicorn, "run", must_not_serve)
    path = tmp_path / "state.json"
    path.write_bytes(content)
    result = CliRunner().invoke(cli.main, ["serve", "--state", str(path), "--autosave", "1"])
    assert result.exit_code == serve.EXIT_STATE_FILE == 4, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and str(path) in lines[0], result.stderr
    assert path.read_bytes() == content
    assert [p.name for p in tmp_path.iterdir()] == ["state.json"]


def test_the_real_command_on_a_corrupt_file_exits_4_without_a_traceback(tmp_path: Path):
    path = tmp_path / "state.json"
    path.write_bytes(b'{"hello": 1}')
    result = csapi("serve", "--state", str(path), "--port", "1")
    assert result.returncode == 4
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
    assert "not a csapi state file" in result.stderr
    assert path.read_bytes() == b'{"hello": 1}'


def test_a_state_file_in_a_missing_folder_is_refused_at_start_not_lost_at_shutdown(tmp_path: Path):
    with pytest.raises(StateFileError, match="does not exist"):
        build(ServeOptions(state=tmp_path / "nowhere" / "state.json"))


def test_a_file_saved_before_the_format_marker_or_without_a_key_still_loads(tmp_path: Path, store):
    path = tmp_path / "state.json"
    data = {k: v for k, v in store.snapshot().items() if k not in ("format", "version")}
    path.write_text(json.dumps(data))
    assert load_state(path)[1] is None
    left = [tmp_path / ".state.json.x1y2.tmp", tmp_path / ".state.json.z3.tmp"]  # a killed save's
    for leftover in left:
        leftover.write_text('{"half": ')
    (tmp_path / "notes.txt").write_text("mine")
    app, restored, api_key = build(ServeOptions(state=path))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "state.json"]  # swept at start
    assert restored.snapshot() == store.snapshot()
    assert app.state.keeper.save() is True  # unchanged data, but the key in use is not in the file
    assert load_state(path) == ({**store.snapshot(), "api_key": api_key}, api_key)
    assert app.state.keeper.save() is False  # and now the file holds both


def test_save_state_writes_the_format_marker_and_keeps_the_file_private(tmp_path: Path, store):
    path = tmp_path / "state.json"
    path.write_text("{}")
    path.chmod(0o644)
    save_state(path, store, "k")
    data = json.loads(path.read_text())
    assert (data["format"], data["version"], data["api_key"]) == ("csapi-state", 1, "k")
    if os.name == "posix":
        assert path.stat().st_mode & 0o777 == 0o600  # it holds every credential


@pytest.mark.parametrize(
    "args",
    [["--autosave", "1"], ["--state", "s.json", "--autosave", "0"], ["--state", "s.json", "--autosave", "x"]],
)
def test_bad_autosave_options_are_usage_errors(args: list[str]):
    result = CliRunner().invoke(cli.main, ["serve", *args])
    assert result.exit_code == 2, result.output


# ---------------------------------------------------------------------- the keeper, in process
def keeper_for(path: Path, store: Store, messages: list[str] | None = None) -> StateKeeper:
    return StateKeeper(path, store, "k", None, (messages if messages is not None else []).append)


def test_save_in_thread_writes_only_what_changed(tmp_path: Path, store):
    path = tmp_path / "state.json"
    keeper = keeper_for(path, store)

    async def scenario() -> list[bool]:
        done = [await keeper.save_in_thread(), await keeper.save_in_thread()]
        store.create_user(plan="pro")
        return [*done, await keeper.save_in_thread(), await keeper.save_in_thread()]

    assert asyncio.run(scenario()) == [True, False, True, False]
    assert keeper.writes == 2
    assert without_key(load_state(path)[0]) == store.snapshot()


def test_a_capture_is_the_state_of_its_moment_while_the_store_moves_on(store):
    capture = store.capture()
    before = store.snapshot()
    account = store.create_user(plan="pro")
    store.accounts[1].members[99] = "manager"  # a dict field changed in place after the capture
    try:
        assert capture.render() == before
    finally:
        del store.accounts[1].members[99]
    assert account.id not in {a["id"] for a in capture.render()["accounts"]}


def test_shutdown_waits_for_a_save_in_progress(tmp_path: Path, store, monkeypatch):
    """Cancelling the autosave task mid-write lets the write end first, so the shutdown save
    that follows never races with it (an older state renamed over a newer one)."""
    path = tmp_path / "state.json"
    started, release = threading.Event(), threading.Event()
    real_write = serve.write_state

    def slow_write(*args: Any) -> None:
        started.set()
        release.wait(5)
        real_write(*args)

    monkeypatch.setattr(serve, "write_state", slow_write)
    keeper = keeper_for(path, store)

    async def scenario() -> bool:
        task = asyncio.create_task(keeper.autosave(0.01))
        await asyncio.to_thread(started.wait, 5)
        task.cancel()
        threading.Timer(0.2, release.set).start()
        await asyncio.gather(task, return_exceptions=True)
        return path.exists()

    assert asyncio.run(scenario()) is True
    assert keeper.writes == 1 and not keeper.changed()


def test_a_failed_autosave_is_reported_and_retried(tmp_path: Path, store, monkeypatch):
    path = tmp_path / "state.json"
    real_write, calls = serve.write_state, []

    def flaky_write(*args: Any) -> None:
        calls.append(1)
        if len(calls) == 1:
            raise OSError(28, "No space left on device")
        real_write(*args)

    monkeypatch.setattr(serve, "write_state", flaky_write)
    messages: list[str] = []
    keeper = keeper_for(path, store, messages)

    async def scenario() -> None:
        task = asyncio.create_task(keeper.autosave(0.01))
        await asyncio.to_thread(wait_for, path.exists, 5)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)

    asyncio.run(scenario())
    assert len(messages) == 1 and "No space left on device" in messages[0] and "retry" in messages[0]
    assert without_key(load_state(path)[0]) == store.snapshot()


def test_a_failed_shutdown_save_is_one_line_and_keeps_the_old_file(tmp_path: Path, store, monkeypatch):
    path = tmp_path / "state.json"
    save_state(path, store, "k")
    before = path.read_bytes()
    store.create_user()
    messages: list[str] = []
    keeper = keeper_for(path, store, messages)

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(serve.os, "fsync", full)
    keeper.save_at_shutdown()
    assert messages == [
        f"csapi: could not save the state to {path} ([Errno 28] No space left on device); "
        "the file is as it was"
    ]
    assert path.read_bytes() == before
    assert temporaries(path) == []


@pytest.mark.parametrize("records", [0, 1, 999, 1000, 1001, 2500])
def test_the_file_is_encoded_in_pieces_byte_for_byte_as_json_dumps(records: int):
    rows = [{"i": i, "s": 'é"\n'} for i in range(records)]
    data = {"format": "f", "rows": rows, "d": {"k": [1]}, "api_key": "k"}
    assert b"".join(serve._encode(data)) == json.dumps(data, separators=(",", ":")).encode()


# ---------------------------------------------------------------------- issue 24, item 5
def test_a_symlinked_state_file_writes_its_target_and_stays_a_link(tmp_path: Path, store):
    """The save renames over the target, its temporary file beside the target: the link (and a
    link to a link) stays, and the target holds the new state."""
    (tmp_path / "real").mkdir()
    (tmp_path / "links").mkdir()
    target = tmp_path / "real" / "state.json"
    middle = tmp_path / "links" / "middle.json"
    link = tmp_path / "links" / "state.json"
    middle.symlink_to(target)
    link.symlink_to(middle)
    save_state(link, store, "k")  # the target does not exist yet
    store.create_user()
    save_state(link, store, "k2")
    assert link.is_symlink() and middle.is_symlink() and os.readlink(link) == str(middle)
    assert json.loads(target.read_text())["api_key"] == "k2"
    assert load_state(link)[1] == "k2"
    assert sorted(p.name for p in (tmp_path / "links").iterdir()) == ["middle.json", "state.json"]
    assert [p.name for p in (tmp_path / "real").iterdir()] == ["state.json"]
    assert temporaries(link) == []


def test_a_real_server_saves_through_a_symlinked_state_file(tmp_path: Path):
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "state.json"
    link = tmp_path / "state.json"
    link.symlink_to(target)
    with Served("--state", str(link), "--fixtures", "empty", "--api-key", "k") as served:
        new = served.client.post("/__mock__/users", json={"plan": "pro"}).json()
        status, _, err = served.stop()
    assert (status, err) == (0, "")
    assert link.is_symlink()
    assert new["id"] in [account["id"] for account in json.loads(target.read_text())["accounts"]]
    with Served("--state", str(link), "--api-key", "k") as served:  # and it loads back through it
        assert new in served.client.get("/__mock__/credentials").json()["users"]
        served.stop()
    assert link.is_symlink()


def _break_folder(folder: Path) -> None:
    for child in folder.iterdir():
        child.unlink()
    folder.rmdir()


def _in_the_way(folder: Path) -> None:
    """The state file's name taken by a folder: the rename over it fails (root or not)."""
    (folder / "state.json").unlink(missing_ok=True)
    (folder / "state.json").mkdir()
    (folder / "state.json" / "x").write_text("x")


ROOT_USER = hasattr(os, "geteuid") and os.geteuid() == 0


def _read_only(folder: Path) -> None:
    folder.chmod(0o500)


@pytest.mark.parametrize(
    "breaks",
    [
        _break_folder,
        _in_the_way,
        pytest.param(
            _read_only,
            marks=pytest.mark.skipif(ROOT_USER, reason="root writes in a read-only folder anyway"),
        ),
    ],
)
def test_a_failed_save_at_shutdown_exits_non_zero_with_one_line(tmp_path: Path, breaks: Any):
    """The folder removed, or the file unwritable, while serving: SIGTERM saves, fails, says so
    in one line naming the file and why (no traceback), and the exit status is not 0."""
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "state.json"
    with Served("--state", str(path), "--fixtures", "empty", "--api-key", "k") as served:
        assert served.client.post("/__mock__/users", json={"plan": "pro"}).status_code == 201
        breaks(folder)
        try:
            status, _, err = served.stop()
        finally:
            folder.chmod(0o700) if folder.exists() else None
    assert status == serve.EXIT_UNSAVED != 0
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"csapi: could not save the state to {path} (")
    assert "Traceback" not in err


def test_a_save_at_shutdown_with_nothing_changed_exits_0(tmp_path: Path):
    path = tmp_path / "state.json"
    with Served("--state", str(path), "--fixtures", "empty", "--api-key", "k") as served:
        assert served.stop()[0] == 0
    with Served("--state", str(path), "--api-key", "k") as served:
        path.parent.chmod(0o500)  # nothing to save: nothing fails
        try:
            status, _, err = served.stop()
        finally:
            path.parent.chmod(0o700)
    assert (status, err) == (0, "")
