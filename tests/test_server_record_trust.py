"""Records anyone posts (``POST /api/replay``, ``POST /api/review``) get the tables' own
limits, bounded answers built off the event loop, and a fair share of the records
workers (docs/protocol.md, "Records sent to the server"; docs/hosting.md).

A real ``rummykit serve`` on loopback; clients of different addresses connect from
different loopback addresses (127.0.0.2, 127.0.0.3, ...).
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rummykit.server.posted import MAX_ANSWER, encoded
from server_helpers import Server, start
from test_server_record_limits import long_record

RECORDS = Path(__file__).parent / "records"


def post_from(
    server: Server, address: str, path: str, body: bytes, timeout: float = 120
) -> tuple[int, Any, float]:
    """POST ``body`` from the loopback ``address``: status, JSON, seconds taken."""
    conn = http.client.HTTPConnection(
        "127.0.0.1", server.port, timeout=timeout, source_address=(address, 0)
    )
    begun = time.monotonic()
    try:
        conn.request("POST", path, body, {"content-type": "application/json"})
        answer = conn.getresponse()
        data = answer.read()
        return answer.status, json.loads(data), time.monotonic() - begun
    finally:
        conn.close()


def peak_memory(server: Server) -> int:
    """The server process's peak resident memory (VmHWM), in bytes."""
    for line in Path(f"/proc/{server.proc.pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the file; a replay or review may take 4 CPU seconds."""
    folder = tmp_path_factory.mktemp("trust")
    running = start(f"sqlite:///{folder / 's.sqlite3'}", extra=("--record-seconds", "4"))
    yield running
    running.stop()


def test_a_finished_record_with_a_huge_player_name_is_refused_fast_and_the_server_stays_small(
    server: Server,
) -> None:
    doc = json.loads((RECORDS / "vatikanen" / "legal_going_out.json").read_text())
    small = json.dumps({"record": doc, "count": 200}).encode()
    status, answer, _ = post_from(server, "127.0.0.1", "/api/replay", small)  # workers warm
    assert status == 200 and answer["finished"], answer
    before = peak_memory(server)
    doc["players"][0] = "A" * 3_500_000
    body = json.dumps({"record": doc, "count": 200}).encode()
    outcome: list[tuple[int, Any, float]] = []
    asker = threading.Thread(
        target=lambda: outcome.append(post_from(server, "127.0.0.2", "/api/replay", body))
    )
    waits: list[float] = []
    asker.start()
    while asker.is_alive() or len(waits) < 5:
        begun = time.monotonic()
        server.get("/api/games")
        waits.append(time.monotonic() - begun)
        time.sleep(0.05)
    asker.join()
    status, answer, seconds = outcome[0]
    assert status == 400 and answer["error"] == "bad_record", (status, str(answer)[:200])
    assert "40" in answer["message"] and len(json.dumps(answer)) < 1000
    assert seconds < 3.0, f"the refusal took {seconds:.1f} s"
    grown = peak_memory(server) - before
    assert grown < 48 << 20, f"the server's peak memory grew {grown >> 20} MiB"
    assert max(waits) < 1.0, f"another client waited {max(waits):.1f} s"


def test_an_answer_over_the_bound_is_refused_with_too_large() -> None:
    status, body = encoded({"frames": ["x" * 1000] * 9000})
    assert status == 413 and len(body) < 1000
    assert json.loads(body)["error"] == "too_large"
    status, body = encoded({"frames": ["x" * 1000] * 100})
    assert status == 200 and len(body) < MAX_ANSWER and json.loads(body)["frames"][0] == "x" * 1000


def test_a_small_review_passes_six_long_ones_and_none_is_killed_for_its_wait(
    server: Server,
) -> None:
    """Six reviews of a second or more of CPU each (four from one address, two from
    another), with a time limit of 4 s: a small game's review from a third address answers
    in seconds, every long one is answered, and a fifth job of the busy address is refused
    (429) at once."""
    long = json.dumps({"record": long_record(200)}).encode()
    doc = json.loads((RECORDS / "vatikanen" / "legal_going_out.json").read_text())
    small = json.dumps({"record": doc}).encode()
    results: dict[str, tuple[int, Any, float]] = {}

    def ask(name: str, address: str, body: bytes) -> threading.Thread:
        def run() -> None:
            results[name] = post_from(server, address, "/api/review", body)

        thread = threading.Thread(target=run)
        thread.start()
        return thread

    threads = [ask(f"long{i}", "127.0.0.2" if i < 4 else "127.0.0.3", long) for i in range(6)]
    time.sleep(0.5)
    status, answer, seconds = post_from(server, "127.0.0.2", "/api/review", long)
    assert status == 429 and answer["error"] == "rate_limited", (status, answer)
    assert seconds < 1.0
    ask("small", "127.0.0.4", small).join()
    status, answer, seconds = results["small"]
    assert status == 200 and "turns" in answer, (status, answer)
    assert seconds < 4.0, f"the small review took {seconds:.1f} s"
    for thread in threads:
        thread.join()
    for i in range(6):
        status, answer, _ = results[f"long{i}"]
        assert status == 200 and "turns" in answer, (i, status, answer)
