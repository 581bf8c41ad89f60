"""The shared engine comes back (issue 24): real `csapi serve --engine` on a real redis-server,
under a small steady load, while Redis is stopped and started again or drops every connection;
and the engine URL's password never shows (banner, 503 bodies, logs, errors).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import redis

from csapi.mock_server.engine import open_engine, redacted

from .redis_server import RedisServer
from .served import Served, csapi

KEY = "recovery-key"
SECRET = "s3cret-Pw-4242"


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    yield server
    server.stop()


class Load:
    """A few threads looping a read and a write on one server; every answer kept as (time it was
    sent, time it came back, status or 0 for a transport error)."""

    def __init__(self, served: Served, threads: int = 4):
        user = served.client.get("/__mock__/credentials").json()["users"][0]
        self.base_url = served.base_url
        self.auth = (str(user["id"]), user["token"])
        with self.client() as client:
            answer = client.post("/v1/collections", json={"name": "Load", "type": "private"})
            assert answer.status_code == 201, answer.text
            self.collection_id = answer.json()["id"]
        self.answers: list[tuple[float, float, int]] = []
        self.lock = threading.Lock()
        self.running = True
        self.threads = [threading.Thread(target=self._loop, args=(n,)) for n in range(threads)]
        for thread in self.threads:
            thread.start()

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.base_url, headers={"X-API-Key": KEY}, auth=self.auth, timeout=10)

    def _loop(self, n: int) -> None:
        with self.client() as client:
            k = 0
            while self.running:
                k += 1
                sent = time.monotonic()
                try:
                    if k % 2:
                        status = client.get(f"/v1/collections/{self.collection_id}").status_code
                    else:
                        body = {"type": "text", "content": "hello", "name": f"t{n}-{k}"}
                        status = client.post(
                            f"/v1/collections/{self.collection_id}/items", json=body
                        ).status_code
                except httpx.TransportError:
                    status = 0
                with self.lock:
                    self.answers.append((sent, time.monotonic(), status))
                time.sleep(0.005)

    def since(self, moment: float) -> list[tuple[float, float, int]]:
        with self.lock:
            return [answer for answer in self.answers if answer[0] >= moment]

    def stop(self) -> None:
        self.running = False
        for thread in self.threads:
            thread.join()


def failed(answers: list[tuple[float, float, int]]) -> list[tuple[float, float, int]]:
    return [answer for answer in answers if not 200 <= answer[2] < 300]


def serve(url: str) -> Served:
    return Served("--engine", url, "--fixtures", "empty", "--api-key", KEY)


def recover(load: Load, back: float, within: float = 10.0, calm: float = 1.5) -> float:
    """Seconds from `back` (Redis answering again) to the last request that was not 2xx, once the
    load has gone `calm` seconds without one (or `within` has passed)."""
    while True:
        time.sleep(0.1)
        now = time.monotonic()
        bad = failed(load.since(back))
        last = max((sent for sent, _, _ in bad), default=back)
        if now - last >= calm or now - back > within + calm:
            return last - back


def test_redis_stopped_and_started_again_under_load_is_2xx_again_within_seconds(
    redis_server: RedisServer,
) -> None:
    with serve(redis_server.url("restart")) as served:
        load = Load(served)
        try:
            time.sleep(0.5)
            assert load.answers and not failed(load.answers), failed(load.answers)[:5]
            for _ in range(2):  # twice: the second outage finds whatever the first one left
                redis_server.stop()
                down = time.monotonic()
                time.sleep(1.5)  # hundreds of requests meanwhile: each one a reconnect
                while_down = load.since(down + 0.2)
                assert while_down and {status for _, _, status in while_down} == {503}
                print(f"{len(while_down)} requests answered 503 while Redis was away")
                redis_server.start()
                back = time.monotonic()
                took = recover(load, back)
                assert took < 10, f"still failing {took:.1f} s after Redis came back"
                assert load.since(back + took + 0.05)
                print(f"2xx again {took:.2f} s after Redis was back")
        finally:
            load.stop()
        answer = served.client.get("/__mock__/credentials")  # and the state is all there
        assert answer.status_code == 200
        status, _, err = served.stop()
        assert status == 0, err
        assert "Too many connections" not in err


def test_200_dropped_connections_leave_every_request_2xx(redis_server: RedisServer) -> None:
    with serve(redis_server.url("kill")) as served:
        load = Load(served)
        killer = redis.Redis(port=redis_server.port)
        try:
            started = time.monotonic()
            for _ in range(200):  # as a Redis restart, failover or idle timeout does
                killer.client_kill_filter(_type="normal", skipme=True)
                time.sleep(0.01)
            after = time.monotonic()
            during = load.since(started)
            time.sleep(1)
            print(f"{len(failed(during))} of {len(during)} requests not 2xx while connections dropped")
            assert len(failed(during)) <= len(during) // 100  # a read or a write is sent again
            assert load.since(after) and not failed(load.since(after)), failed(load.since(after))[:5]
        finally:
            load.stop()
            killer.close()
        with load.client() as client:
            for _ in range(50):
                assert client.get(f"/v1/collections/{load.collection_id}").status_code == 200
        status, _, err = served.stop()
        assert status == 0, err
        assert "Too many connections" not in err


def test_the_engine_password_is_in_no_output(redis_server: RedisServer) -> None:
    admin = redis.Redis(port=redis_server.port)
    admin.acl_setuser(
        "csapi", enabled=True, passwords=[f"+{SECRET}"], keys=["*"], channels=["*"], commands=["+@all"]
    )
    admin.close()
    url = f"redis://csapi:{SECRET}@127.0.0.1:{redis_server.port}/0?prefix=pw&password={SECRET}"
    shown = redacted(url)
    assert SECRET not in shown and "127.0.0.1" in shown and "csapi" in shown
    with serve(url) as served:
        assert SECRET not in served.banner and "engine:" in served.banner
        assert served.client.get("/__mock__/credentials").status_code == 200
        # a second server with another key on the same engine is refused: its message neither
        other = csapi("serve", "--engine", url, "--api-key", "another", "--port", "0", timeout=30)
        assert other.returncode != 0 and "API key" in other.stderr + other.stdout
        assert SECRET not in other.stdout + other.stderr
        redis_server.stop()
        answer = served.client.get("/v1/users/me", headers={"X-API-Key": KEY})
        assert answer.status_code == 503
        assert answer.json()["code"] == "engine_unavailable" and SECRET not in answer.text
        assert SECRET not in served.client.get("/__mock__/credentials").text
        status, out, err = served.stop()
    assert SECRET not in out + err
    unreachable = csapi("serve", "--engine", url, "--port", "0", timeout=30)  # Redis is gone
    assert unreachable.returncode != 0 and "--engine" in unreachable.stderr
    assert SECRET not in unreachable.stdout + unreachable.stderr


@pytest.mark.parametrize(
    "url",
    [
        f"redis://:{SECRET}@localhost:6379/0",
        f"redis://user:{SECRET}@localhost:6379/0?prefix=x",
        f"redis://localhost/0?password={SECRET}&prefix=x",
        f"rediss://u:{SECRET}@[::1]:6380/1?PassWord={SECRET}",
        f"unix://user:{SECRET}@/run/redis.sock?db=0&password={SECRET}",
        f"redis://{SECRET}@localhost",  # a lone token is taken as a user name, but may be a password
        f"redis://u:p@ss{SECRET}@localhost",  # an unescaped @
        f"redis://u:{SECRET}@[::1/0",  # not a URL urllib reads
        f"redisx://u:{SECRET}@host",  # no engine for the scheme: the error says so without it
        f"u:{SECRET}@host",  # no scheme at all
    ],
)
def test_redacted_hides_every_password(url: str) -> None:
    shown = redacted(url)
    assert SECRET not in shown and "***" in shown
    try:
        open_engine(url).close()
    except ValueError as exc:
        assert SECRET not in str(exc)


def test_redacted_keeps_a_url_without_credentials() -> None:
    url = "redis://localhost:6379/0?prefix=x"
    assert redacted(url) == url


def test_a_write_sent_again_after_its_answer_was_lost_is_appended_once(redis_server: RedisServer) -> None:
    from csapi.mock_server.app import create_app

    engine = open_engine(redis_server.url("again"))
    try:
        create_app(api_key=KEY, fixtures="empty", engine=engine)
        keys = [engine.key["epoch"], engine.key["log"], engine.key["seq"]]
        after = engine.last_id
        args = [engine.epoch, after, '{"kind":"clear_faults","session":null,"args":{},"time":null}', "tok1"]
        first_id, first = engine._hot.run("append", keys, [*args, b"0"], again=None)  # its answer "lost"
        length = engine.client.xlen(engine.key["log"])
        again_id, again = engine._hot.run("append", keys, [*args, b"1"], again=None)
        assert again_id == first_id and again == first and engine.client.xlen(engine.key["log"]) == length
        other_id, _ = engine._hot.run("append", keys, [*args[:3], "tok2", b"1"], again=None)  # not applied
        assert other_id != first_id and engine.client.xlen(engine.key["log"]) == length + 1
        engine.catch_up()
        assert engine.applied == int(engine.client.get(engine.key["seq"]))
    finally:
        engine.close()
