"""A/B of `csapi serve`: this checkout against a baseline, the same wrk mixes in alternating rounds.

    git worktree add /tmp/base <rev>
    python -m benchmarks.ab --baseline "python /tmp/base/cli.py" --rounds 3
    python -m benchmarks.ab --baseline "python /tmp/base/cli.py" --mix mixed   # one mix only

`--baseline` is the command that runs the baseline's `csapi` (for a revision of the old layout,
its `cli.py`; for one of the `csapi` layout, a venv where that revision is installed: `.../bin/csapi`).
Both servers run at once with the `default` fixtures and the same seed (so the same data and
credentials); each mix of benchmarks/run.py (`--mix`, repeatable; default all three: the cached reads,
then the client-like mixed workload, then the writes, since the items written slow the later reads)
is measured in rounds, each on one side then on the other, and the verdict is the ratio of the
medians: what a change costs the request path, machine noise shared by both sides. Nothing is
written; the table goes to stdout.
"""

from __future__ import annotations

import argparse
import contextlib
import shlex
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from benchmarks.run import KEY, MIXES, Server, discover, free_port, load, spawn

ORDER = tuple(MIXES)  # run.py's order: the items a mix writes land where the cached reads read


def serve(name: str, command: list[str]) -> contextlib.AbstractContextManager[Server]:
    port = free_port()
    argv = [*command, "serve", "--port", str(port), "--api-key", KEY, "--fixtures", "default"]
    return spawn(name, argv, port, "/v1/ping")


def main(argv: list[str] | None = None) -> int:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--baseline", required=True, help="command running the baseline's csapi")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument(
        "--mix", action="append", choices=ORDER, help="only this mix (repeatable; default: all three)"
    )
    args = parser.parse_args(argv)
    mixes = [m for m in ORDER if m in (args.mix or ORDER)]
    if shutil.which("wrk") is None:  # before two servers start for nothing
        raise SystemExit("wrk is needed: apt-get install wrk")
    rps: dict[tuple[str, str, int], list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        folder = Path(tmp)
        sides = {
            "baseline": stack.enter_context(serve("baseline", shlex.split(args.baseline))),
            "this checkout": stack.enter_context(serve("this checkout", [sys.executable, "-m", "csapi"])),
        }
        plans = discover(sides["this checkout"].url)
        for mix in mixes:
            for _ in range(args.rounds):
                for connections in (2, 32):
                    for side, server in sides.items():
                        row = load(server, plans[mix], folder, connections, args.seconds, warmup=1)
                        rps.setdefault((side, mix, connections), []).append(row.rps)
    width = max(len(MIXES[m]) for m in mixes)
    print(f"\n{'mix':{width}} {'conn':>4} {'baseline req/s':>15} {'this req/s':>11} {'ratio':>6}")
    for mix in mixes:
        for connections in (2, 32):
            base = statistics.median(rps[("baseline", mix, connections)])
            this = statistics.median(rps[("this checkout", mix, connections)])
            print(f"{MIXES[mix]:{width}} {connections:>4} {base:>15.0f} {this:>11.0f} {this / base:>6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
