"""Settings of a conformance run: from the command line, the environment and a config file.

Precedence: command line, then `CSAPI_*` environment variables, then the config file
(YAML, `--config FILE` or `CSAPI_CONFIG`), then the defaults. A bad value anywhere is a
`UsageError` (exit status 2).

A key of the config file names a setting as the field (`base_url`), as the option (`base-url`;
`user` for `users`) or as the environment variable (`CSAPI_BASE_URL`, in any case); a list may
be a YAML list or, as in the environment, one string of comma-separated values. An unknown key
is refused, naming the nearest known one.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import yaml

ENV_PREFIX = "CSAPI_"
QUICK_MAX_EXAMPLES = 5
DEFAULT_MAX_EXAMPLES = 20
DEFAULT_SETTLE = 5.0  # seconds a view derived from writes (search, activity, counts, tags) may lag


class UsageError(Exception):
    """The settings cannot make a run (exit status 2)."""


@dataclass(frozen=True)
class User:
    id: int
    token: str

    @classmethod
    def parse(cls, text: str) -> User:
        user_id, sep, token = text.strip().partition(":")
        if not sep or not user_id.isdigit() or not token:
            raise UsageError(f"--user takes ID:TOKEN (e.g. 1:abc123), not {text!r}")
        return cls(int(user_id), token)


@dataclass(frozen=True)
class Settings:
    base_url: str
    api_key: str
    users: tuple[User, ...]
    team_id: int | None = None
    strict: bool = False
    read_only: bool = False
    quick: bool = False
    seed: int = 0
    max_examples: int = DEFAULT_MAX_EXAMPLES
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    junit_xml: Path | None = None
    report: Path | None = None
    coverage_json: Path | None = None
    prefix: str = "csapi-conform"
    timeout: float = 15.0
    settle: float = DEFAULT_SETTLE  # --settle: how long a check polls a derived view before failing
    document: Path | None = None  # default: the toolkit's own openapi/openapi.yaml
    accept: Path | None = (
        None  # --accept: known failures accepted, each with a reason (conformance/accept.py)
    )

    @property
    def examples(self) -> int:
        """Examples per operation for the generated checks (the --quick profile caps them)."""
        return min(self.max_examples, QUICK_MAX_EXAMPLES) if self.quick else self.max_examples

    def user(self, index: int) -> User | None:
        """The first (main actor), second or third user, if given."""
        return self.users[index] if index < len(self.users) else None


_LISTS = {"users", "include", "exclude"}
_BOOLS = {"strict", "read_only", "quick"}
_INTS = {"team_id", "seed", "max_examples"}
_PATHS = {"junit_xml", "report", "coverage_json", "document", "accept"}
_ALIASES = {"user": "users"}  # the option's name where it differs from the field's (--user)


def load_settings(
    cli: Mapping[str, Any], env: Mapping[str, str] | None = None, config_file: Path | None = None
) -> Settings:
    """Merge the three sources; only values that are set (not None, not empty) count."""
    env = os.environ if env is None else env
    config_file = config_file or (
        Path(env[f"{ENV_PREFIX}CONFIG"]) if env.get(f"{ENV_PREFIX}CONFIG") else None
    )
    merged: dict[str, Any] = {}
    for source in (_from_file(config_file), _from_env(env), dict(cli)):
        merged.update({k: v for k, v in source.items() if v not in (None, (), [], "")})
    for name in ("base_url", "api_key", "users"):
        if not merged.get(name):
            flag = "--" + name.replace("_", "-").removesuffix("s")
            raise UsageError(
                f"{flag} is required (or {ENV_PREFIX}{name.upper()}, or {name} in the config file)"
            )
    return _typed(merged)


def _from_env(env: Mapping[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in fields(Settings):
        value = env.get(ENV_PREFIX + f.name.upper())
        if value is not None:
            out[f.name] = (
                [p for p in value.replace(";", ",").split(",") if p.strip()] if f.name in _LISTS else value
            )
    return out


def _from_file(path: Path | None) -> dict[str, Any]:
    if path is None:
        return {}
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise UsageError(f"cannot read the config file {path}: {exc}") from None
    if not isinstance(data, dict):
        raise UsageError(f"the config file {path} must hold a mapping of settings")
    out: dict[str, Any] = {}
    given: dict[str, str] = {}  # setting -> the key that gave it
    for key, value in data.items():
        name = setting_of(str(key))
        if name is None:
            raise UsageError(f"unknown setting {key!r} in {path}{_nearest(str(key))}")
        if name in given:
            raise UsageError(f"{path} gives {name} twice: as {given[name]!r} and as {key!r}")
        given[name] = str(key)
        out[name] = value
    return out


def setting_of(key: str) -> str | None:
    """The setting a config file's key names (`base_url`, `base-url`, `CSAPI_BASE_URL`), or None."""
    known = {f.name for f in fields(Settings)}
    name = key.strip()
    if name[: len(ENV_PREFIX)].upper() == ENV_PREFIX:
        name = name[len(ENV_PREFIX) :].lower()  # the environment variable's name, in any case
    name = name.replace("-", "_")
    name = _ALIASES.get(name, name)
    return name if name in known else None


def _nearest(key: str) -> str:
    """`: did you mean X?` for the known key nearest to `key` (in its own spelling), or the settings."""
    names = sorted(f.name for f in fields(Settings))
    if key[: len(ENV_PREFIX)].upper() == ENV_PREFIX:
        near = difflib.get_close_matches(
            key.upper(), [ENV_PREFIX + n.upper() for n in names], n=1, cutoff=0.6
        )
    else:
        spellings = {*names, *_ALIASES}
        spellings |= {name.replace("_", "-") for name in spellings}
        near = difflib.get_close_matches(key, sorted(spellings), n=1, cutoff=0.6)
    return f": did you mean {near[0]}?" if near else f" (settings: {', '.join(names)})"


def _typed(values: dict[str, Any]) -> Settings:
    out: dict[str, Any] = {}
    for name, value in values.items():
        try:
            if name in _BOOLS:
                out[name] = _bool(value)
            elif name in _INTS:
                out[name] = int(value)
            elif name in _PATHS:
                out[name] = Path(value)
            elif name == "users":
                out[name] = tuple(u if isinstance(u, User) else User.parse(str(u)) for u in _as_list(value))
            elif name in _LISTS:
                out[name] = tuple(str(v).strip() for v in _as_list(value) if str(v).strip())
            elif name in ("timeout", "settle"):
                out[name] = float(value)
                if not 0 <= out[name] <= 600:
                    raise ValueError("seconds between 0 and 600")
            else:
                out[name] = str(value)
        except (TypeError, ValueError) as exc:
            raise UsageError(f"bad value for {name}: {value!r} ({exc})") from None
    out["base_url"] = out["base_url"].rstrip("/")
    if not out["base_url"].startswith(("http://", "https://")):
        raise UsageError(f"--base-url must start with http:// or https://, not {out['base_url']!r}")
    return Settings(**out)


def _as_list(value: Any) -> list[Any]:
    """A list as it is; a string as the environment's: values separated by commas (or semicolons)."""
    if isinstance(value, list | tuple):
        return list(value)
    if isinstance(value, str):
        return [part for part in value.replace(";", ",").split(",") if part.strip()]
    return [value]


def _bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ValueError("not a boolean")
