"""Soak: `csapi serve` under 32 concurrent writing clients for minutes (issue 7, part 1).

    python -m benchmarks.soak [--minutes 10] [--clients 32] [--no-record]

Starts `csapi serve --fixtures default` in a subprocess on a free port, runs the workload of
benchmarks/workload.py (create, stack, move, reorder, tag, comment, like, copy, delete and
read items of four shared collections; the clients delete about as much as they create)
and samples the server's RSS (/proc/<pid>/status VmRSS) every 10 s; then the clients only
read for READ_ONLY seconds, when the RSS must stay put. At the end it checks that every
acknowledged write is in GET /__mock__/snapshot and every count the API gives equals a
recount of it.

Deletion is soft (docs/design.md): a deleted item stays in the state, so the data grows with
what was ever created even when the live data does not. To tell that from a leak, the
snapshots taken after the warm-up and at the end are each loaded into a Store in a fresh
process, and the growth of the server's RSS is set against the growth of the memory those
Stores hold (tracemalloc).

Figures go to benchmarks/results.md (its `soak` section). Exit status 1 if any request
failed (5xx, no answer, self-contradicting answer) or any check after the run did.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from benchmarks.record import machine, replace_section
from benchmarks.workload import Ledger, prepare, run_clients, verify

ROOT = Path(__file__).resolve().parents[1]
API_KEY = "soak-key"
SAMPLE_EVERY = 10.0
WARM_UP = 20.0
READ_ONLY = 120.0  # seconds of reads alone at the end (at most a fifth of the run)
# Python heap bytes a Store holding a state takes (with its search index, as serve builds it).
_LOAD = """
import gc, json, sys, tracemalloc
from csapi.mock_server.store import Store
data = json.load(open(sys.argv[1]))
tracemalloc.start()
store = Store(data=data)
store.search_index
del data
gc.collect()
print(tracemalloc.get_traced_memory()[0] // 1024)
"""


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(port: int, log: Any) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "csapi", "serve", "--port", str(port), "--api-key", API_KEY]
    server = subprocess.Popen([*command, "--fixtures", "default"], cwd=ROOT, stdout=log, stderr=log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"csapi serve exited with {server.returncode}")
        try:
            if (
                httpx.get(f"http://127.0.0.1:{port}/v1/ping", headers={"X-API-Key": API_KEY}).status_code
                == 200
            ):
                return server
        except httpx.HTTPError:
            time.sleep(0.2)
    server.kill()
    raise RuntimeError("csapi serve did not answer within 60 s")


def snapshot(base_url: str) -> dict[str, Any]:
    return httpx.get(f"{base_url}/__mock__/snapshot", timeout=120).raise_for_status().json()


def rows(state: dict[str, Any]) -> dict[str, int]:
    """Rows per table, and live items apart."""
    out = {name: len(table) for name, table in state.items() if isinstance(table, list)}
    out["live items"] = sum(row["deleted_at"] is None for row in state["items"])
    return out


def held_kib(state: dict[str, Any]) -> int:
    """KiB of Python objects a fresh Store holding this state takes (tracemalloc, the JSON dropped)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(state, fh)
    try:
        out = subprocess.run([sys.executable, "-c", _LOAD, fh.name], cwd=ROOT, capture_output=True, text=True)
        return int(out.stdout.strip())
    finally:
        Path(fh.name).unlink()


async def soak(base_url: str, pid: int, minutes: float, clients: int) -> dict[str, Any]:
    out: dict[str, Any] = {"rss_started": rss_kib(pid)}
    cast = await prepare(base_url, API_KEY)
    ledger = Ledger()  # one for both phases: the run deletes what the warm-up made, and is checked on it
    await run_clients(base_url, cast, ledger, clients=clients, seconds=WARM_UP, seed=1)
    out["warm_up"] = ledger.new_phase()
    out["first"] = snapshot(base_url)
    out["rss_start"] = rss_kib(pid)
    samples: list[tuple[float, int, int]] = []  # seconds, RSS KiB, requests so far
    began = time.monotonic()

    async def sample() -> None:
        while True:
            samples.append((time.monotonic() - began, rss_kib(pid), ledger.requests))
            seconds, rss, requests = samples[-1]
            print(f"  {seconds:6.0f} s  RSS {rss / 1024:7.1f} MiB  {requests} requests", flush=True)
            await asyncio.sleep(SAMPLE_EVERY)

    sampler = asyncio.create_task(sample())
    await run_clients(base_url, cast, ledger, clients=clients, seconds=minutes * 60, seed=2)
    out["seconds"] = time.monotonic() - began
    sampler.cancel()
    samples.append((out["seconds"], rss_kib(pid), ledger.requests))
    out["rss_end"] = rss_kib(pid)
    out["samples"] = samples
    out["run"] = ledger.new_phase()
    out["last"] = snapshot(base_url)
    # Reads alone: the data stays as it is, so the RSS must too (a leak per request would show).
    reads = min(READ_ONLY, minutes * 60 / 5)
    rss_before = rss_kib(pid)
    await run_clients(base_url, cast, ledger, clients=clients, seconds=reads, seed=3, reads_only=True)
    out["reads"] = {**ledger.summary(), "seconds": reads, "rss_before": rss_before, "rss_after": rss_kib(pid)}
    out["failures"] = out["warm_up"]["failure_messages"] + out["run"]["failure_messages"] + ledger.failures
    out["problems"] = await verify(base_url, cast, ledger)
    if snapshot(base_url) != out["last"]:
        out["problems"].append("the read-only phase changed the state")
    return out


def report(out: dict[str, Any], minutes: float, clients: int) -> str:
    run = out["run"]
    mib = 1024
    first, last = rows(out["first"]), rows(out["last"])
    statuses = ", ".join(f"{k}: {v}" for k, v in run["statuses"].items())
    rss = [s[1] for s in out["samples"]]
    trend = " ".join(f"{s[1] / mib:.0f}" for s in out["samples"][:: max(1, len(out["samples"]) // 12)])
    data_growth = (out["held_last"] - out["held_first"]) / mib
    server_growth = (out["rss_end"] - out["rss_start"]) / mib
    writes = ", ".join(f"{k} {v}" for k, v in run["acknowledged"].items() if not k.startswith("read"))
    latency = " / ".join(str(run["latency_ms"][k]) for k in ("p50", "p99", "max"))
    during = run["failures"] + out["warm_up"]["failures"] + out["reads"]["failures"]
    after = len(out["problems"])
    reads = out["reads"]
    read_growth = (reads["rss_after"] - reads["rss_before"]) / mib
    failures = during + after
    read_p99 = reads["latency_ms"]["p99"]
    rate = run["requests"] / out["seconds"]
    created = sum(run["acknowledged"].get(kind, 0) for kind in ("create item", "create stack", "copy"))
    per_item = (out["held_last"] - out["held_first"]) / max(created, 1)
    table = "\n".join(f"| {name} | {first.get(name, 0)} | {last.get(name, 0)} |" for name in last)
    return f"""## Soak (benchmarks/soak.py)

`python -m benchmarks.soak --minutes {minutes:g} --clients {clients}`: `csapi serve --fixtures default`
(one uvicorn process) and {clients} concurrent clients (httpx, one process) writing to the same four
collections for {out["seconds"] / 60:.1f} min after a {WARM_UP:.0f} s warm-up.

Machine: {machine()}.

| requests | per second | failures (5xx, no answer, inconsistent, checks after) | p50 / p99 / max latency |
|---|---|---|---|
| {run["requests"]} | {rate:.0f} | **{failures}** ({during} during, {after} after) | {latency} ms |

Statuses: {statuses} (4xx: clients acting on items another client had just moved or deleted).
Acknowledged writes: {writes}.

Server RSS (MiB): {out["rss_started"] / mib:.1f} at start, {out["rss_start"] / mib:.1f} after the warm-up,
{out["rss_end"] / mib:.1f} at the end (min {min(rss) / mib:.1f}, max {max(rss) / mib:.1f});
over the run, every ~{len(out["samples"]) // 12 * SAMPLE_EVERY or SAMPLE_EVERY:.0f} s: {trend}.

Retained data (rows of the state, after the warm-up -> at the end; deletion is soft, so items
grow with every item ever created, {created} in this run, while the live items stay bounded):

| table | after warm-up | end |
|---|---|---|
{table}

Growth of the server's RSS over the run: {server_growth:+.1f} MiB. A Store holding each of the two
states (loaded in a fresh process, measured with tracemalloc): {out["held_first"] / mib:.1f} ->
{out["held_last"] / mib:.1f} MiB ({data_growth:+.1f} MiB), that is {per_item:.2f} KiB per item created
(with its tags, comments and likes). Growth not explained by the retained data:
{server_growth - data_growth:+.1f} MiB.

Then {reads["seconds"]:.0f} s of reads alone ({reads["requests"]} requests, p99 {read_p99} ms,
nothing changes): server RSS {reads["rss_before"] / mib:.1f} -> {reads["rss_after"] / mib:.1f} MiB
({read_growth:+.1f} MiB).
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--no-record", action="store_true", help="print only; leave results.md alone")
    args = parser.parse_args(argv)
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryFile() as log:
        server = start_server(port, log)
        try:
            print(f"soak: serve pid {server.pid} on {base_url}, {args.clients} clients, {args.minutes:g} min")
            out = asyncio.run(soak(base_url, server.pid, args.minutes, args.clients))
        finally:
            server.terminate()
            server.wait(30)
        log.seek(0)
        server_log = log.read().decode("utf-8", "replace")
    out["held_first"] = held_kib(out["first"])
    out["held_last"] = held_kib(out["last"])
    text = report(out, args.minutes, args.clients)
    for failure in out["failures"] + out["problems"]:
        print("FAIL", failure)
    if "Traceback" in server_log:
        print("server log:\n" + server_log[-4000:])
    print(text)
    if not args.no_record:
        replace_section("soak", text)
    return 1 if out["failures"] or out["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
