"""`csapi serve` pieces: the state file (saved atomically, loaded with its API key, a corrupt
one refused), build() and its shutdown save, the banner; and `csapi fixtures`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from csapi import cli
from csapi.mock_server import serve
from csapi.mock_server.engine import redacted
from csapi.mock_server.serve import ServeOptions, StateFileError, build, load_state, save_state
from tests.mock_server.conftest import PRO, World, basic


def test_save_and_load_state_round_trip(tmp_path: Path, store, world: World):
    path = tmp_path / "state.json"
    save_state(path, store, "saved-key")
    assert [p.name for p in tmp_path.iterdir()] == ["state.json"]  # no temporary file left
    data, api_key = load_state(path)
    assert api_key == "saved-key"
    assert {k: v for k, v in data.items() if k != "api_key"} == store.snapshot()


def test_save_state_replaces_the_previous_file(tmp_path: Path, store, world: World):
    path = tmp_path / "state.json"
    path.write_text("old", encoding="utf-8")
    save_state(path, store, "k")
    assert load_state(path)[0]["collections"][0]["name"] == "Trips"
    assert [p.name for p in tmp_path.iterdir()] == ["state.json"]


def test_a_failed_save_keeps_the_old_file_and_leaves_no_temporary_file(tmp_path: Path, store, monkeypatch):
    path = tmp_path / "state.json"
    save_state(path, store, "first")
    before = path.read_bytes()

    def broken_fsync(fd: int) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(serve.os, "fsync", broken_fsync)  # after the temporary file is written
    with pytest.raises(OSError, match="disk full"):
        save_state(path, store, "second")
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["state.json"]


def test_build_restores_the_data_and_the_api_key(tmp_path: Path, store, world: World):
    path = tmp_path / "state.json"
    save_state(path, store, "saved-key")
    app, restored, api_key = build(ServeOptions(state=path))
    assert api_key == "saved-key"
    assert restored.snapshot() == store.snapshot()
    user = restored.accounts[PRO]
    headers = {"X-API-Key": "saved-key", "Authorization": basic(PRO, user.token)}
    with app.test_client(base_url="http://127.0.0.1") as client:  # serve checks Host
        response = client.get("/v1/collections", headers=headers)
        assert [c["name"] for c in response.json()] == ["Trips", "Team board", "Recipes"]
    _, _, explicit = build(ServeOptions(state=path, api_key="given-key"))
    assert explicit == "given-key"  # --api-key wins over the saved one


def test_build_without_a_state_file_starts_from_fixtures_and_saves_on_shutdown(tmp_path: Path):
    path = tmp_path / "state.json"
    app, store, api_key = build(ServeOptions(state=path, fixtures="empty", api_key="k"))
    assert sorted(store.accounts) == [1, 2, 3, 4]
    assert not path.exists()
    with app.test_client(base_url="http://127.0.0.1") as client:  # runs the lifespan: startup, then shutdown
        user = store.accounts[PRO]
        headers = {"X-API-Key": "k", "Authorization": basic(PRO, user.token)}
        created = client.post("/v1/collections", headers=headers, json={"name": "Kept", "type": "private"})
        assert created.status_code == 201
    data, saved_key = load_state(path)
    assert saved_key == "k"
    assert [c["name"] for c in data["collections"]] == ["Kept"]
    _, again, _ = build(ServeOptions(state=path))
    assert [c.name for c in again.collections.values()] == ["Kept"]


@pytest.mark.parametrize(
    "content",
    [
        b"{not json",
        b"[1, 2, 3]",
        b'{"format": "something-else"}',
        b'{"format": "csapi-state", "version": 1, "collections": [{"id": 1}]}',
        b'{"format": "csapi-state", "version": 1, "emails": [{"id": 1, "user_id": 9, "email": "a@b.c"}]}',
        b"\xff\xfe\x00",
    ],
)
def test_a_corrupt_state_file_raises_state_file_error_and_is_left_alone(tmp_path: Path, content):
    path = tmp_path / "state.json"
    path.write_bytes(content)
    with pytest.raises(StateFileError, match="state.json"):
        build(ServeOptions(state=path))
    assert path.read_bytes() == content


def test_serve_with_a_corrupt_state_file_is_a_clean_cli_error(tmp_path: Path):
    path = tmp_path / "state.json"
    path.write_text("{not json", encoding="utf-8")
    result = CliRunner().invoke(cli.main, ["serve", "--state", str(path)])
    assert result.exit_code == serve.EXIT_STATE_FILE == 4
    assert "state.json" in result.output
    assert "Traceback" not in result.output


def test_banner_shows_how_to_call(store):
    text = serve.banner("http://127.0.0.1:8000", store, "the-key", admin=True)
    user = store.accounts[PRO]
    assert "the-key" in text
    assert user.token in text
    assert basic(PRO, user.token) in text
    assert "http://127.0.0.1:8000/__mock__/credentials" in text
    assert "__mock__" not in serve.banner("http://127.0.0.1:8000", store, "the-key", admin=False)


def test_banner_names_the_engine_without_its_password(store):
    text = serve.banner(
        "http://127.0.0.1:8000", store, "k", admin=True, engine="redis://:s3cret@db:6379/0", workers=2
    )
    assert "engine:   redis://:***@db:6379/0 (2 workers here, one shared state)" in text
    assert "s3cret" not in text
    assert redacted("rediss://me:pw@db/1?prefix=x") == "rediss://me:***@db/1?prefix=x"
    assert redacted("unix:///run/redis.sock") == "unix:///run/redis.sock"
    assert "engine:" not in serve.banner("http://127.0.0.1:8000", store, "k", admin=True)


def test_csapi_fixtures_prints_a_data_set_as_json():
    result = CliRunner().invoke(cli.main, ["fixtures", "--size", "empty", "--seed", "0"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["format"] == "csapi-state"
    assert [(a["id"], a["kind"], a["plan"]) for a in data["accounts"]] == [
        (1, "user", "pro"),
        (2, "user", "free"),
        (3, "user", "free"),
        (4, "team", "team"),
    ]
    assert data["collections"] == [] and data["items"] == []
    again = CliRunner().invoke(cli.main, ["fixtures", "--size", "empty", "--seed", "0"])
    assert again.output == result.output  # seeded: the same bytes


def test_csapi_fixtures_rejects_an_unknown_size():
    result = CliRunner().invoke(cli.main, ["fixtures", "--size", "huge"])
    assert result.exit_code == 2
