"""The server on a real PostgreSQL (``.ci/run`` installs and starts Debian's postgresql).

Each test gets a schema of its own in the test database (``pg_url``, conftest.py).
Two ``rummykit serve`` processes on one database: a table is served by one of
them at a time, handed over when a client reaches the other, and taken over by
the other within seconds when its process dies.
"""

from __future__ import annotations

import contextlib
import threading
import time

import pytest
from websockets.exceptions import ConnectionClosed

from protocol_client import Live, play_until_over, simple_move
from rummykit import games
from rummykit.record import parse_record, replay
from server_helpers import Server, start


def test_a_whole_game_on_postgresql_survives_a_sigkill(pg_url: str) -> None:
    server = start(pg_url, bot_delay=0.05)
    made = server.post("/api/tables", {"game": "vatikanen", "seats": ["human", "bot:greedy"]})
    assert isinstance(made, dict)
    token = server.post(f"/api/tables/{made['id']}/join", {"name": "Anna"})["token"]  # type: ignore[index]
    live = Live.open(server.ws, made["id"], token)
    live.until(lambda s: live.my_turn())
    live.act({"type": "draw"})
    seen = live.until(lambda s: s["version"] >= 3)
    server.kill()
    server = start(pg_url, port=server.port)  # bots at once from here on
    again = Live.open(server.ws, made["id"], token, version=seen["version"])
    assert again.state is not None and again.state["version"] >= seen["version"]
    assert again.log[: len(live.log)] == live.log
    play_until_over([again])
    checked = replay(parse_record(server.get(f"/api/tables/{made['id']}/record")))
    assert checked.ok and checked.finished
    again.close()
    server.stop()


def plays_through_the_router(
    servers: list[Server], table_id: str, token: str, stop: threading.Event
) -> None:
    """A player who plays the simplest move on each turn, connected to the first process
    until told to reconnect (4503), then to the next, as a router would send them."""
    reached = 0
    while not stop.is_set():
        try:
            live = Live.open(servers[reached].ws, table_id, token)
            while not stop.is_set():
                state = live.state
                if live.my_turn() and state is not None and live.acted != state["version"]:
                    live.act(simple_move(state["view"]))
                with contextlib.suppress(TimeoutError):
                    live.read(timeout=0.05)
        except ConnectionClosed:  # told to reconnect: the next process from now on
            reached = min(reached + 1, len(servers) - 1)
        except Exception:  # a process is gone, or busy a moment
            time.sleep(0.1)


def two_servers(pg_url: str, bot_delay: float = 0.0) -> tuple[Server, Server]:
    return start(pg_url, bot_delay=bot_delay), start(pg_url, bot_delay=bot_delay)


def test_a_table_is_served_by_one_process_and_handed_over_when_asked(pg_url: str) -> None:
    """Clients of one table reach one process (a router by table id does that); one that
    reaches another process gets the table handed over: the first process lets it go (its
    clients are told to reconnect, 4503), and play goes on at the second."""
    first, second = two_servers(pg_url)
    try:
        made = first.post("/api/tables", {"game": "vatikanen", "seats": ["human", "human"]})
        assert isinstance(made, dict)
        table_id = made["id"]
        # the lobby of either process lists it at once: lists read the database
        listed = second.get("/api/tables")
        assert isinstance(listed, dict) and table_id in [t["id"] for t in listed["tables"]]
        anna = first.post(f"/api/tables/{table_id}/join", {"name": "Anna", "seat": 0})
        bo = first.post(f"/api/tables/{table_id}/join", {"name": "Bo", "seat": 1})
        assert isinstance(anna, dict) and isinstance(bo, dict)
        here = Live.open(first.ws, table_id, anna["token"])
        here.until(lambda s: s["status"] == "playing")
        version = here.state["version"]  # type: ignore[index]
        time.sleep(10.5)  # presence.HOLD: a table just taken is not let go at once
        there = Live.open(second.ws, table_id, bo["token"])
        assert there.state is not None and there.state["version"] == version
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                here.read(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4503
        here = Live.open(second.ws, table_id, anna["token"], version=version)
        for live in (here, there):
            live.until(lambda s: s["status"] == "playing")
        summary = second.get(f"/api/tables/{table_id}")
        assert isinstance(summary, dict)
        assert [s["connected"] for s in summary["seats"]] == [True, True]
        play_until_over([here, there], timeout=600)
        record = second.get(f"/api/tables/{table_id}/record")
        checked = replay(parse_record(record))
        assert checked.ok and checked.finished
        rebuilt = games.get("vatikanen").from_record(parse_record(record))
        for live in (here, there):  # each saw every action, as its seat sees it
            assert live.log == rebuilt.view(live.seat)["log"]
        here.close()
        there.close()
    finally:
        first.stop()
        second.stop()


def test_another_process_takes_over_a_table_within_ten_seconds_when_its_process_dies(
    pg_url: str,
) -> None:
    """A table whose bots are playing, with nobody connected (its player has just played
    his turn and left): its process is killed, and another process (which no client asks)
    finds it due and plays the bots' turns."""
    first, second = two_servers(pg_url, bot_delay=0.2)
    try:
        seats = ["human", "bot:basic", "bot:basic", "bot:basic"]
        made = first.post("/api/tables", {"game": "kontrakt", "seats": seats, "grace": 0})
        assert isinstance(made, dict)
        table_id = made["id"]
        token = first.post(f"/api/tables/{table_id}/join", {"name": "Bo"})["token"]  # type: ignore[index]
        live = Live.open(first.ws, table_id, token)
        live.until(lambda s: live.my_turn())
        while live.my_turn():  # Bo plays his turn; then the three bots have theirs
            version = live.state["version"]  # type: ignore[index]
            live.act(simple_move(live.state["view"]))  # type: ignore[index]
            live.until(lambda s, v=version: s["version"] > v)
        before = live.state["version"]  # type: ignore[index]
        live.close()  # Bo leaves (a table with nobody there plays only its bots' turns)
        first.kill()
        killed = time.monotonic()
        while True:  # the second process moves the table on by itself
            summary = second.get(f"/api/tables/{table_id}")
            assert isinstance(summary, dict)
            if summary["version"] > before + 2 or summary["status"] == "over":
                break
            assert time.monotonic() - killed < 10, "nobody took the table over"
            time.sleep(0.2)
    finally:
        second.stop()


def terminate(pg_url: str, server: Server, purpose: str) -> None:
    """End the server's database connection for ``purpose`` ("lock" or "listen") from
    the database's side, as a failover or an administrator would (pg_terminate_backend:
    allowed for a backend of one's own role)."""
    import psycopg

    name = f"rummykit-{purpose} {server.proc.pid}"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s",
            (name,),
        ).fetchall()
    assert rows == [(True,)], f"no one connection named {name!r}: {rows}"


def test_a_process_that_loses_its_lock_connection_stops_serving_its_tables_at_once(
    pg_url: str,
) -> None:
    """The connection holding a process's table locks is terminated: the locks are gone, so
    the process closes the table's connections at once (4503: reconnect through the router)
    and no longer plays it, and the other process serves it live."""
    first, second = two_servers(pg_url, bot_delay=0.2)
    stop = threading.Event()
    try:
        seats = ["human", "human", "bot:basic"]
        made = first.post("/api/tables", {"game": "kontrakt", "seats": seats, "grace": 0})
        assert isinstance(made, dict)
        table_id = made["id"]
        token = first.post(f"/api/tables/{table_id}/join", {"name": "Bo"})["token"]  # type: ignore[index]
        al = first.post(f"/api/tables/{table_id}/join", {"name": "Al"})["token"]  # type: ignore[index]
        bo = Live.open(first.ws, table_id, token)
        bo.until(lambda s: s["status"] == "playing")
        bo.close()  # Bo leaves: with no grace a bot stands in for him while Al is there
        args = ([first, second], table_id, al, stop)
        threading.Thread(target=plays_through_the_router, args=args, daemon=True).start()
        here = Live.open(first.ws, table_id, None)  # a spectator of the first process
        here.until(lambda s: s["version"] > bo.state["version"] + 2)  # type: ignore[index]
        terminate(pg_url, first, "lock")
        deadline = time.monotonic() + 3  # the lock connection is looked at every second
        with pytest.raises(ConnectionClosed) as closed:
            while time.monotonic() < deadline:  # the bots play on meanwhile
                here.read(timeout=max(0.1, deadline - time.monotonic()))
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4503
        # reconnected (as a router would); the first process's own due loop may have taken
        # the free table back meanwhile (it has bots to move): the second asks for it and
        # gets it once the first's hold of a table just loaded is over, as a client that
        # is told "try again" would
        end = time.monotonic() + 20
        while True:
            there = Live.open(second.ws, table_id, None)
            if there.state is not None or time.monotonic() > end:
                break
            there.close()
            time.sleep(0.5)
        assert there.state is not None
        version = there.state["version"]
        # moving, and not closed: a commit of the first process would have made the
        # second's conflict and let the table go (4503)
        there.until(lambda s: s["version"] > version + 2 or s["status"] == "over", 20)
        there.close()
    finally:
        stop.set()
        first.stop()
        second.stop()


def test_a_process_whose_listen_connection_is_lost_still_hands_its_tables_over(
    pg_url: str,
) -> None:
    """The LISTEN connection is terminated: the process connects again (with backoff) and
    lets a table go when another process asks for it, as before."""
    first, second = two_servers(pg_url)
    try:
        made = first.post("/api/tables", {"game": "vatikanen", "seats": ["human", "human"]})
        assert isinstance(made, dict)
        table_id = made["id"]
        anna = first.post(f"/api/tables/{table_id}/join", {"name": "Anna", "seat": 0})
        bo = first.post(f"/api/tables/{table_id}/join", {"name": "Bo", "seat": 1})
        assert isinstance(anna, dict) and isinstance(bo, dict)
        here = Live.open(first.ws, table_id, anna["token"])
        here.until(lambda s: s["status"] == "playing")
        time.sleep(0.3)
        terminate(pg_url, first, "listen")
        time.sleep(10.5)  # presence.HOLD: a table just taken is not let go at once
        there = Live.open(second.ws, table_id, bo["token"])
        assert there.state is not None and there.state["status"] == "playing"
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                here.read(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4503
        there.close()
    finally:
        first.stop()
        second.stop()
