"""How long `csapi diff` takes on the project's own document, as a user runs it (a subprocess).

Issue 23 sets the bar on a 2-core machine: under 2 s without the payload proof, under 15 s with it.
Four runs, each the median of `--repeat` (3) on this machine in one sitting:

- the document against itself (reading, bundling, validating both sides: the floor);
- against its OpenAPI 3.1 migration (tests/diff/migrate.py), which must report nothing;
- against an edit of seven schema changes, breaking ones among them, without the proof;
- the same with the proof (every changed schema searched for a payload that breaks).

    python -m benchmarks.diff                 # prints the table and writes its section of results.md
    python -m benchmarks.diff --no-write      # prints only
"""

from __future__ import annotations

import argparse
import copy
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.record import machine, replace_section
from csapi.openapi import DOCUMENT_PATH, document
from tests.diff.migrate import to_31

LIMITS = {"without the proof": 2.0, "with the proof": 15.0}


def edited(doc: dict[str, Any]) -> dict[str, Any]:
    """Seven schema edits a team might make in one pull request, requests and responses both."""
    new = copy.deepcopy(doc)
    schemas = new["components"]["schemas"]
    item = schemas["Item"]["properties"]
    item.pop("mime", None)  # a response field removed
    item["name"]["maxLength"] = 80  # a response bound added
    schemas["CollectionCreate"]["allOf"][1]["required"].append("description")  # a request field required
    schemas["CommentCreate"]["properties"]["body"]["maxLength"] = 500  # a request bound added
    schemas["Collection"]["properties"]["view_mode"]["enum"].append("board")  # a response enum widened
    schemas["TagCreate"]["properties"]["name"] = {"type": "string", "pattern": "^[a-z0-9-]+$"}
    schemas["User"]["properties"]["email"] = {"type": "string", "format": "email", "nullable": True}
    return new


def timed(old: Path, new: Path, *extra: str, repeat: int) -> tuple[float, int]:
    """The median wall time of `csapi diff OLD NEW` and its exit status."""
    times, status = [], 0
    for _ in range(repeat):
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "csapi", "diff", str(old), str(new), "--fail-on", "none", *extra],
            capture_output=True,
            text=True,
            check=False,
        )
        times.append(time.perf_counter() - started)
        status = done.returncode
        if status not in (0, 1):
            raise SystemExit(f"csapi diff failed ({status}): {done.stderr.strip()}")
    return statistics.median(times), status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-write", action="store_true", help="print only; leave results.md alone")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        migrated, edit = root / "openapi-3.1.json", root / "edited.json"
        migrated.write_text(json.dumps(to_31(document())), encoding="utf-8")
        edit.write_text(json.dumps(edited(document())), encoding="utf-8")
        runs = [
            ("itself", DOCUMENT_PATH, "--no-proof", "without the proof"),
            ("its 3.1 migration", migrated, "--no-proof", "without the proof"),
            ("seven schema edits", edit, "--no-proof", "without the proof"),
            ("seven schema edits", edit, "", "with the proof"),
        ]
        rows = []
        for name, new, flag, kind in runs:
            seconds, _ = timed(DOCUMENT_PATH, new, *([flag] if flag else []), repeat=args.repeat)
            limit = LIMITS[kind]
            within = "yes" if seconds < limit else "NO"
            rows.append(f"| {name} | {kind} | {seconds:.2f} s | {limit:.0f} s | {within} |")
    body = "\n".join(
        [
            "## csapi diff on the project's document (benchmarks/diff.py)",
            "",
            machine(),
            "",
            "| OLD = openapi/openapi.yaml, NEW = | | median | limit | within |",
            "|---|---|---|---|---|",
            *rows,
        ]
    )
    print(body)
    if not args.no_write:
        replace_section("diff", body)


if __name__ == "__main__":
    main()
