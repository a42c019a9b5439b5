"""Records people send (``POST /api/replay``, ``POST /api/review``) are bounded in size and
in time, cost what the record holds, and run in a worker of their own that never holds
up a table's bots (docs/protocol.md, docs/hosting.md).

The records are long Kontrakt games played to no end by the simplest moves (nobody
melds: the stock is turned over again and again), as an attacker would make them.
"""

from __future__ import annotations

import asyncio
import http.client
import itertools
import json
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from protocol_client import HttpError, Live, simple_move
from rummykit import games
from rummykit.server.replay import replay_request
from rummykit.server.review import review_request
from rummykit.server.workers import BoundedPool, JobTimeout
from server_helpers import Server, start
from test_server_faults import alive, bots_playing_alone

MAX_RECORD = 4 << 20
"""docs/protocol.md: a record's body may be up to 4 MiB."""


def long_record(actions: int, seed: int = 1) -> dict[str, Any]:
    """A two-seat Kontrakt record of ``actions`` actions (a deal ends only when the stock
    cannot be turned over)."""
    spec = games.get("kontrakt")
    game = spec.new(["Anna", "Bo"], seed=seed)
    for _ in range(actions):
        seat = game.to_act
        assert seat is not None
        game.apply(spec.action_from_json({**simple_move(dict(game.view(seat))), "seat": seat}))
    assert not game.over
    return dict(game.to_record().to_json())


@pytest.fixture(scope="module")
def records_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the file; its bots think a tenth of a second."""
    folder = tmp_path_factory.mktemp("records")
    running = start(f"sqlite:///{folder / 's.sqlite3'}", bot_delay=0.1)
    yield running
    running.stop()


def post_raw(server: Server, path: str, body: bytes, *, chunked: bool = False) -> tuple[int, Any]:
    """POST ``body`` as it is (in chunks, without a length, if ``chunked``): status, JSON."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        headers = {"content-type": "application/json"}
        if chunked:
            pieces = (body[i : i + 65536] for i in range(0, len(body), 65536))
            conn.request("POST", path, pieces, headers, encode_chunked=True)
        else:
            conn.request("POST", path, body, headers)
        answer = conn.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        conn.close()


@pytest.mark.parametrize("path", ["/api/replay", "/api/review"])
def test_a_record_body_over_4_mib_is_refused_and_one_under_is_read(
    records_server: Server, path: str
) -> None:
    record = long_record(16_000)  # some 0.8 MB
    body = json.dumps({"record": record}).encode()
    assert 600_000 < len(body) < MAX_RECORD
    status, answer = post_raw(records_server, path, body)
    if path == "/api/replay":
        positions = sum(1 + len(deal["actions"]) for deal in record["deals"])
        assert status == 200 and answer["positions"] == positions
    else:  # read, and refused for what it holds: a review takes 5,000 actions at most
        assert status == 400 and "5000" in answer["error"] + answer["message"]
    padded = body[:-1] + b', "pad": "' + b"x" * (MAX_RECORD - len(body)) + b'"}'
    assert len(padded) > MAX_RECORD
    for chunked in (False, True):
        status, answer = post_raw(records_server, path, padded, chunked=chunked)
        assert status == 400 and answer["error"] == "bad_request", answer
        assert "4 MiB" in answer["message"]


def test_a_replay_costs_the_records_length_and_the_positions_sent(
    records_server: Server,
) -> None:
    """CPU time inside the replay, in this process: a record twice as long costs about twice
    as much, and sending 200 of its positions costs little next to reading it."""
    short, long = long_record(4_000), long_record(8_000)

    def cpu(record: dict[str, Any], start: int, count: int) -> float:
        body = json.dumps({"record": record, "start": start, "count": count}).encode()
        best = float("inf")
        for _ in range(3):
            begun = time.process_time()
            answer = replay_request(body)
            best = min(best, time.process_time() - begun)
            assert len(answer["frames"]) == count  # type: ignore[arg-type]
        return best

    once, twice = cpu(short, 3_800, 200), cpu(long, 7_800, 200)
    assert twice < 3.0 * once, f"{once:.3f} s, then {twice:.3f} s for twice the record"
    read_only = cpu(long, 0, 0)
    assert twice < 2.0 * read_only + 0.1, f"200 positions: {twice:.3f} s; none: {read_only:.3f} s"


def test_a_record_job_past_its_time_is_stopped_and_its_worker_replaced() -> None:
    body = json.dumps({"record": long_record(1_000)}).encode()  # seconds of reviewing

    async def run() -> None:
        pool = BoundedPool(1, seconds=1.0)
        try:
            worker = await pool.run(os.getpid)
            begun = time.monotonic()
            with pytest.raises(JobTimeout):
                await pool.run(review_request, body)
            assert time.monotonic() - begun < 2.5
            deadline = time.monotonic() + 5
            while alive(worker):
                assert time.monotonic() < deadline, "the worker past its time still runs"
                await asyncio.sleep(0.05)
            fresh = await pool.run(os.getpid)
            assert fresh != worker
            small = json.dumps({"record": long_record(10), "count": 3}).encode()
            answer = await pool.run(replay_request, small)
            assert answer["positions"] > 10
        finally:
            pool.shutdown()

    asyncio.run(run())


def test_a_slow_record_job_never_holds_up_the_bots_of_a_table(records_server: Server) -> None:
    """A review that takes its worker seconds, and meanwhile the bots of a table with nobody
    at it play on: the table's versions keep growing, with no long pause."""
    server = records_server
    table_id = bots_playing_alone(server)
    watcher = Live.open(server.ws, table_id, None)
    watcher.until(lambda s: s["version"] >= 4, timeout=30)
    body = {"record": long_record(800)}  # a few seconds of the records worker
    outcome: dict[str, Any] = {}

    def review() -> None:
        begun = time.monotonic()
        try:
            outcome["answer"] = server.post("/api/review", body)
        except HttpError as exc:
            outcome["answer"] = exc.body
        outcome["seconds"] = time.monotonic() - begun

    asker = threading.Thread(target=review)
    seen: list[tuple[float, int]] = []
    asker.start()
    while asker.is_alive():
        try:
            message = watcher.read(timeout=0.2)
        except TimeoutError:
            continue
        except ConnectionClosed as exc:  # a change the store could not take at once under
            # load: the table is reloaded and its clients reconnect (4503), as they must
            assert exc.rcvd is not None and exc.rcvd.code == 4503, exc
            watcher = Live.open(server.ws, table_id, None)
            continue
        if message["type"] == "state":
            seen.append((time.monotonic(), message["version"]))
    asker.join()
    watcher.close()
    assert isinstance(outcome["answer"], dict) and "turns" in outcome["answer"], outcome
    assert outcome["seconds"] > 1.5, "the review was too quick to show anything"
    versions = [v for _, v in seen]
    assert versions == sorted(versions) and len(set(versions)) >= 5, versions
    gaps = [b[0] - a[0] for a, b in itertools.pairwise(seen)]
    assert max(gaps) < 1.5, f"the bots stopped for {max(gaps):.1f} s"
