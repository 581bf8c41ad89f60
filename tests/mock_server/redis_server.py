"""A real `redis-server` for the shared-engine tests: a free port, a folder of its own, its append
only file synced on every write (so a restart keeps what it acknowledged), stopped and started
again on the same port to play the engine going away and coming back."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest
import redis

from .served import free_port

WHY_MISSING = "redis-server is not installed here (apt-get install redis-server; .ci/run installs it)"


def require_redis_server() -> str:
    found = shutil.which("redis-server")
    if found is None:
        pytest.skip(WHY_MISSING)
    return found


class RedisServer:
    def __init__(self, folder: Path):
        self.binary = require_redis_server()
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def url(self, prefix: str = "test") -> str:
        return f"redis://127.0.0.1:{self.port}/0?prefix={prefix}"

    def start(self) -> None:
        command = [
            self.binary,
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--dir", str(self.folder),
            "--appendonly", "yes",
            "--appendfsync", "always",
            "--save", "",
        ]  # fmt: skip
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis(port=self.port)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise AssertionError("redis-server did not start") from None
                time.sleep(0.02)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None

    def flush(self) -> None:
        redis.Redis(port=self.port).flushall()
