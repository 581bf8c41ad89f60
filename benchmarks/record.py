"""Writing figures into benchmarks/results.md: each script owns one marked section of it
(`<!-- begin:NAME -->` ... `<!-- end:NAME -->`) and replaces only that, so scripts run by
different people never overwrite each other's figures."""

from __future__ import annotations

import os
import platform
import re
from datetime import UTC, datetime
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results.md"
_HEADER = "# Benchmark results\n\nEach section is written by its script; rerun the script to refresh it.\n"


def machine() -> str:
    """One line: when, CPUs and their model, Python, OS."""
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f"{when}; nproc {os.cpu_count()} ({model}); Python {platform.python_version()}; "
        f"{platform.system()} {platform.release()}"
    )


def replace_section(name: str, body: str, path: Path = RESULTS) -> None:
    """Put `body` between the markers of section `name`, adding the section (or the file) if absent."""
    begin, end = f"<!-- begin:{name} -->", f"<!-- end:{name} -->"
    block = f"{begin}\n{body.strip()}\n{end}"
    text = path.read_text(encoding="utf-8") if path.exists() else _HEADER
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.DOTALL)
    if pattern.search(text):
        text = pattern.sub(lambda _: block, text, count=1)
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)  # a reader never sees half a file
