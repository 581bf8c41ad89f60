"""`csapi serve` in a real subprocess for the state and security tests: a free port, wait until
it answers, SIGTERM or SIGKILL it, read what it printed."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def csapi(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run `csapi ARGS` to its end (python -m csapi: the same entry point as the console script)."""
    command = [sys.executable, "-m", "csapi", *args]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout, env=_env())


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONUNBUFFERED": "1"}  # the banner reaches the pipe at once


class Served:
    """`csapi serve --port P ARGS` running; `stop()` or `kill()` ends it, and the tests must."""

    def __init__(self, *args: str, scheme: str = "http", verify: Any = None, timeout: float = 30):
        """`verify(banner)` gives httpx's `verify` from what serve printed (e.g. its CA)."""
        self.port = free_port()
        self.base_url = f"{scheme}://127.0.0.1:{self.port}"
        command = [sys.executable, "-m", "csapi", "serve", "--port", str(self.port), *args]
        self.process = subprocess.Popen(
            command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env()
        )
        assert self.process.stdout is not None
        lines = []
        while not lines or not lines[-1].startswith("  docs:"):  # printed before it listens
            line = self.process.stdout.readline()
            if not line:
                out, err = self.process.communicate()
                raise AssertionError(f"serve exited {self.process.returncode}:\n{''.join(lines)}{out}\n{err}")
            lines.append(line)
        self.banner = "".join(lines)
        tls = verify(self.banner) if verify is not None else True
        self.client = httpx.Client(base_url=self.base_url, verify=tls, timeout=10)
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                out, err = self.process.communicate()
                raise AssertionError(f"serve exited {self.process.returncode}:\n{out}\n{err}")
            try:
                self.client.get("/v1/ui/")
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    self.kill()
                    raise AssertionError("serve did not answer in time") from None
                time.sleep(0.05)

    def stop(self) -> tuple[int, str, str]:
        """SIGTERM: a graceful shutdown (the state is saved); (exit status, stdout, stderr)."""
        self.process.send_signal(signal.SIGTERM)
        return self._end()

    def kill(self) -> tuple[int, str, str]:
        """SIGKILL: no shutdown at all, as a crash or the OOM killer would do."""
        self.process.kill()
        return self._end()

    def _end(self) -> tuple[int, str, str]:
        self.client.close()
        out, err = self.process.communicate(timeout=30)
        return self.process.returncode, self.banner + out, err

    def __enter__(self) -> Served:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process.poll() is None:
            self.kill()
