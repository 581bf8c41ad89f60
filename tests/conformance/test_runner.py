"""The run as a whole: preflight exit statuses, cleanup, reports, and the CLI's exit codes."""

from __future__ import annotations

import io
from pathlib import Path

from click.testing import CliRunner

from csapi.cli import main
from csapi.conformance.runner import EXIT_UNREACHABLE, run
from csapi.conformance.settings import Settings, User
from tests.conformance.conftest import API_KEY, Live


def test_an_unreachable_target_is_exit_3():
    out = io.StringIO()
    status = run(Settings("http://127.0.0.1:9", API_KEY, (User(1, "t"),)), out=out)
    assert status == EXIT_UNREACHABLE and "cannot reach" in out.getvalue()


def test_a_refused_key_is_exit_3(live: Live):
    out = io.StringIO()
    assert run(live.settings(api_key="wrong"), out=out) == EXIT_UNREACHABLE
    assert "refuses the API key" in out.getvalue()


def test_refused_credentials_are_exit_3(live: Live):
    out = io.StringIO()
    settings = live.settings()
    bad = live.settings(users=(settings.users[0], User(settings.users[1].id, "not-the-token")))
    assert run(bad, out=out) == EXIT_UNREACHABLE
    assert f"credentials of user {settings.users[1].id}" in out.getvalue()


def test_cli_bad_usage_is_exit_2():
    result = CliRunner().invoke(main, ["conform", "--base-url", "http://h", "--api-key", "k"], env={})
    assert result.exit_code == 2 and "--user is required" in result.output
    result = CliRunner().invoke(main, ["conform", "--base-url", "http://h", "--api-key", "k", "--user", "x"])
    assert result.exit_code == 2 and "ID:TOKEN" in result.output


def test_cli_unreachable_is_exit_3(tmp_path: Path):
    result = CliRunner().invoke(
        main, ["conform", "--base-url", "http://127.0.0.1:9", "--api-key", "k", "--user", "1:t"], env={}
    )
    assert result.exit_code == 3, result.output
