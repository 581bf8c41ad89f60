"""The version guard every compat module of the toolkit starts with.

Where csapi must touch a name a library does not promise to keep (connexion's, jsonschema's,
openapi-spec-validator's and schemathesis' internals), the use lives in one compat module per
library, and that module first calls `require` with the release range it was written and tested
for: the same range as the pin in pyproject.toml (a test keeps them equal). Outside the range,
importing the module fails with one line that names the range, instead of an AttributeError deep
in a request. It lives here because every package of the toolkit may import `openapi`.
"""

from __future__ import annotations

import re
from importlib.metadata import PackageNotFoundError, version


class IncompatibleVersion(ImportError):
    """An installed library is outside the range a compat module was written for."""


#: distribution -> (lowest release supported, first release not supported), filled by `require`.
RANGES: dict[str, tuple[str, str]] = {}


def require(distribution: str, lowest: str, below: str) -> str:
    """The installed version of `distribution`, if lowest <= it < below; else IncompatibleVersion."""
    RANGES[distribution] = (lowest, below)
    try:
        installed = version(distribution)
    except PackageNotFoundError:
        installed = "none"
    if installed == "none" or not _release(lowest) <= _release(installed) < _release(below):
        wanted = f"{distribution}>={lowest},<{below}"
        raise IncompatibleVersion(
            f"{distribution} {installed} is installed, but csapi works with {wanted}: pip install '{wanted}'"
        )
    return installed


def _release(text: str) -> tuple[int, ...]:
    """The release numbers of a version (`3.3.0rc1` -> (3, 3, 0)), padded for comparing."""
    numbers = re.match(r"\d+(?:\.\d+)*", text)
    parts = tuple(int(part) for part in numbers.group().split(".")) if numbers else (0,)
    return parts + (0,) * (4 - len(parts))
