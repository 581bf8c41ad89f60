"""The two sides of `csapi diff`: a file, or `git:REV` for the document as of a git revision."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from ..loader import DocumentError, loads, one_line


class SourceError(Exception):
    """A document side (`git:REV` or a file) cannot be read."""


def load_source(source: str, reference: str | Path) -> dict[str, Any]:
    """A document from a file path, or `git:REV` for the file at `reference` as of revision REV."""
    if not source.startswith("git:"):
        try:
            return loads(Path(source).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise SourceError(f"cannot read {source}: {one_line(str(exc))}") from exc
        except DocumentError as exc:
            raise SourceError(f"{source}: {exc}") from exc
    revision, reference = source.removeprefix("git:"), Path(reference).absolute()
    command = ["git", "-C", str(reference.parent), "show", f"{revision}:./{reference.name}"]
    try:
        shown = subprocess.run(command, capture_output=True, text=True, check=False)
    except OSError as exc:
        raise SourceError(f"cannot run git: {exc}") from exc
    if shown.returncode != 0:
        why = one_line(shown.stderr) or f"exit status {shown.returncode}"
        raise SourceError(f"git cannot show {reference.name} at {revision!r}: {why}")
    try:
        return loads(shown.stdout)
    except DocumentError as exc:
        raise SourceError(f"{reference.name} at {revision!r}: {exc}") from exc
