"""Settings of a conformance run: from the command line, the environment and a config file.

Precedence: command line, then `CSAPI_*` environment variables, then the config file
(YAML, `--config FILE` or `CSAPI_CONFIG`), then the defaults. A bad value anywhere is a
`UsageError` (exit status 2).
"""

from __future__ import annotations

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
_PATHS = {"junit_xml", "report", "coverage_json", "document"}


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
    known = {f.name for f in fields(Settings)}
    unknown = sorted(set(map(str, data)) - known)
    if unknown:
        raise UsageError(f"unknown setting(s) in {path}: {', '.join(unknown)}")
    return data


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
                out[name] = tuple(str(v).strip() for v in _as_list(value))
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
    return list(value) if isinstance(value, list | tuple) else [value]


def _bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ValueError("not a boolean")
