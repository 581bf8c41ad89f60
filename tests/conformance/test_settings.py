"""Settings of csapi conform: command line over environment over config file, and bad usage."""

from pathlib import Path

import pytest

from csapi.conformance.settings import QUICK_MAX_EXAMPLES, UsageError, User, load_settings

BASE = {"base_url": "http://127.0.0.1:8000/", "api_key": "k", "users": ("1:tok",)}


def test_command_line_values_make_settings():
    settings = load_settings({**BASE, "users": ("1:a", "2:b"), "team_id": 4, "strict": True}, env={})
    assert settings.base_url == "http://127.0.0.1:8000"  # trailing slash dropped
    assert settings.users == (User(1, "a"), User(2, "b"))
    assert settings.team_id == 4 and settings.strict is True
    assert settings.user(1) == User(2, "b") and settings.user(2) is None


def test_environment_fills_what_the_command_line_leaves_out():
    env = {
        "CSAPI_BASE_URL": "https://api.example.com",
        "CSAPI_API_KEY": "env-key",
        "CSAPI_USERS": "1:a,2:b,3:c",
        "CSAPI_STRICT": "true",
        "CSAPI_MAX_EXAMPLES": "7",
        "CSAPI_EXCLUDE": "Search,activity.list_activity",
    }
    settings = load_settings({"api_key": "cli-key", "strict": None}, env=env)
    assert settings.api_key == "cli-key"  # the command line wins
    assert settings.base_url == "https://api.example.com"
    assert [u.id for u in settings.users] == [1, 2, 3]
    assert settings.strict is True and settings.max_examples == 7
    assert settings.exclude == ("Search", "activity.list_activity")


def test_a_config_file_is_the_last_resort(tmp_path: Path):
    config = tmp_path / "conform.yaml"
    config.write_text(
        "base_url: http://h:1\napi_key: file-key\nusers: ['5:x']\nseed: 3\njunit_xml: out.xml\n"
    )
    settings = load_settings({}, env={"CSAPI_SEED": "9"}, config_file=config)
    assert settings.api_key == "file-key" and settings.users == (User(5, "x"),)
    assert settings.seed == 9  # the environment beats the file
    assert settings.junit_xml == Path("out.xml")


def test_the_config_file_can_come_from_the_environment(tmp_path: Path):
    config = tmp_path / "c.yaml"
    config.write_text("base_url: http://h:1\napi_key: k\nusers: ['1:t']\n")
    assert load_settings({}, env={"CSAPI_CONFIG": str(config)}).base_url == "http://h:1"


@pytest.mark.parametrize(
    ("values", "says"),
    [
        ({"api_key": "k", "users": ("1:t",)}, "--base-url is required"),
        ({"base_url": "http://h", "users": ("1:t",)}, "--api-key is required"),
        ({"base_url": "http://h", "api_key": "k"}, "--user is required"),
        ({**BASE, "users": ("one:t",)}, "ID:TOKEN"),
        ({**BASE, "users": ("1",)}, "ID:TOKEN"),
        ({**BASE, "base_url": "ftp://h"}, "http:// or https://"),
        ({**BASE, "strict": "perhaps"}, "bad value for strict"),
    ],
)
def test_bad_usage_is_a_usage_error(values, says):
    with pytest.raises(UsageError, match=says):
        load_settings(values, env={})


def test_unknown_keys_in_the_config_file_are_refused(tmp_path: Path):
    config = tmp_path / "c.yaml"
    config.write_text("base_url: http://h\nbase_urll: typo\n")
    with pytest.raises(UsageError, match="unknown setting.*base_urll"):
        load_settings({}, env={}, config_file=config)


def test_quick_caps_the_examples():
    assert load_settings({**BASE, "max_examples": 50, "quick": True}, env={}).examples == QUICK_MAX_EXAMPLES
    assert load_settings({**BASE, "max_examples": 50}, env={}).examples == 50


@pytest.mark.parametrize(
    "key",
    ["base_url", "base-url", "CSAPI_BASE_URL", "csapi_base_url", "Csapi_Base_Url"],
)
def test_a_config_key_may_be_the_field_the_option_or_the_environment_variable(tmp_path: Path, key: str):
    config = tmp_path / "c.yaml"
    config.write_text(f"{key}: http://h:1\napi_key: k\nusers: ['1:t']\n")
    assert load_settings({}, env={}, config_file=config).base_url == "http://h:1"


def test_every_setting_takes_every_spelling_in_the_config_file(tmp_path: Path):
    config = tmp_path / "c.yaml"
    config.write_text(
        "CSAPI_BASE_URL: http://h:1\n"
        "CSAPI_API_KEY: k\n"
        "CSAPI_USERS: 11:token-a,12:token-b\n"  # as the environment variable holds them
        "CSAPI_TEAM_ID: 42\n"
        "csapi_strict: true\n"
        "read-only: yes\n"
        "CSAPI_QUICK: 'on'\n"
        "seed: 3\n"
        "max-examples: 9\n"
        "CSAPI_SETTLE: 2.5\n"
        "include: Search, items.list_items\n"
        "CSAPI_EXCLUDE: [activity.list_activity]\n"
        "junit-xml: out.xml\n"
        "CSAPI_REPORT: r.html\n"
        "coverage_json: c.json\n"
        "accept: known.yaml\n"
    )
    settings = load_settings({}, env={}, config_file=config)
    assert settings.users == (User(11, "token-a"), User(12, "token-b")) and settings.team_id == 42
    assert settings.strict and settings.read_only and settings.quick
    assert (settings.seed, settings.max_examples, settings.settle) == (3, 9, 2.5)
    assert settings.include == ("Search", "items.list_items")
    assert settings.exclude == ("activity.list_activity",)
    assert settings.junit_xml == Path("out.xml") and settings.report == Path("r.html")
    assert settings.coverage_json == Path("c.json") and settings.accept == Path("known.yaml")


def test_user_is_the_option_s_name_for_users(tmp_path: Path):
    config = tmp_path / "c.yaml"
    config.write_text("base_url: http://h:1\napi_key: k\nuser: ['1:t', '2:u']\n")
    assert [u.id for u in load_settings({}, env={}, config_file=config).users] == [1, 2]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("base_urll: http://h\n", "unknown setting 'base_urll' in .*: did you mean base_url\\?"),
        (
            "CSAPI_BASE_URLL: http://h\n",
            "unknown setting 'CSAPI_BASE_URLL' in .*: did you mean CSAPI_BASE_URL\\?",
        ),
        ("csapi_api_kee: k\n", "did you mean CSAPI_API_KEY\\?"),
        ("max-example: 3\n", "did you mean max-examples\\?"),
        ("colour: blue\n", "unknown setting 'colour' in .* \\(settings: accept, api_key, "),
        (
            "base_url: http://h\nCSAPI_BASE_URL: http://i\n",
            "gives base_url twice: as 'base_url' and as 'CSAPI_BASE_URL'",
        ),
    ],
)
def test_unknown_or_repeated_config_keys_are_refused_naming_the_nearest(tmp_path: Path, text: str, says: str):
    config = tmp_path / "c.yaml"
    config.write_text(text)
    with pytest.raises(UsageError, match=says):
        load_settings({}, env={}, config_file=config)


def test_accept_comes_from_the_environment_too():
    assert load_settings(BASE, env={"CSAPI_ACCEPT": "known.yaml"}).accept == Path("known.yaml")
