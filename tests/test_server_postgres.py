"""The server on a real PostgreSQL (``.ci/run`` installs and starts Debian's postgresql).

Each test gets a schema of its own in the test database; two ``rummykit
serve`` processes on one database serve the same tables: a client on either
sees every action at once, and when the process that runs a table's bots is
killed, the other takes the table over.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator

import pytest

from protocol_client import Live, play_until_over
from rummykit import games
from rummykit.record import parse_record, replay
from server_helpers import Server, postgres_url, start


@pytest.fixture
def pg_url() -> Iterator[str]:
    """The test database, with a new schema (dropped afterwards) as the search path."""
    import psycopg

    base = postgres_url()
    assert base is not None
    schema = f"t_{secrets.token_hex(6)}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in base else "?"
    yield f"{base}{sep}options=-csearch_path%3D{schema}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")


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
    server = start(pg_url, bot_delay=0.05, port=server.port)
    again = Live.open(server.ws, made["id"], token, version=seen["version"])
    assert again.state is not None and again.state["version"] >= seen["version"]
    assert again.log[: len(live.log)] == live.log
    play_until_over([again])
    checked = replay(parse_record(server.get(f"/api/tables/{made['id']}/record")))
    assert checked.ok and checked.finished
    again.close()
    server.stop()


def two_servers(pg_url: str) -> tuple[Server, Server]:
    return start(pg_url, bot_delay=0.05), start(pg_url, bot_delay=0.05)


@pytest.mark.parametrize("game", ["vatikanen", "kontrakt"])
def test_two_processes_on_one_database_share_every_table(pg_url: str, game: str) -> None:
    first, second = two_servers(pg_url)
    try:
        bot = "bot:greedy" if game == "vatikanen" else "bot:basic"
        made = first.post("/api/tables", {"game": game, "seats": ["human", "human", bot]})
        assert isinstance(made, dict)
        table_id = made["id"]
        deadline = time.monotonic() + 10
        while True:  # the other process hears of the new table
            try:
                second.get(f"/api/tables/{table_id}")
                break
            except Exception:
                assert time.monotonic() < deadline, "the second process never saw the table"
                time.sleep(0.1)
        anna = first.post(f"/api/tables/{table_id}/join", {"name": "Anna", "seat": 0})
        bo = second.post(f"/api/tables/{table_id}/join", {"name": "Bo", "seat": 1})
        assert isinstance(anna, dict) and isinstance(bo, dict)
        here = Live.open(first.ws, table_id, anna["token"])
        there = Live.open(second.ws, table_id, bo["token"])
        for live in (here, there):
            live.until(lambda s: s["status"] == "playing")
        summary = first.get(f"/api/tables/{table_id}")
        assert isinstance(summary, dict)
        assert [s["connected"] for s in summary["seats"]] == [True, True, True]  # Bo is there
        play_until_over([here, there], timeout=600)
        records = [server.get(f"/api/tables/{table_id}/record") for server in (first, second)]
        assert records[0] == records[1]  # both processes hold the same table
        checked = replay(parse_record(records[0]))
        assert checked.ok and checked.finished
        rebuilt = games.get(game).from_record(parse_record(records[0]))
        for live in (here, there):  # each saw every action, as its seat sees it
            assert live.log == rebuilt.view(live.seat)["log"]
        here.close()
        there.close()
    finally:
        first.stop()
        second.stop()


def test_the_other_process_takes_over_the_bots_of_a_process_that_died(pg_url: str) -> None:
    first, second = two_servers(pg_url)
    try:
        made = first.post("/api/tables", {"game": "kontrakt", "seats": ["human", "bot:basic"]})
        assert isinstance(made, dict)
        table_id = made["id"]
        time.sleep(0.5)
        token = second.post(f"/api/tables/{table_id}/join", {"name": "Bo"})["token"]  # type: ignore[index]
        live = Live.open(second.ws, table_id, token)
        live.until(lambda s: s["status"] == "playing")
        first.kill()  # the owner of the table, who ran its bot
        play_until_over([live], timeout=300)  # the bot keeps playing, from the second process
        assert live.state is not None and live.state["status"] == "over"
        live.close()
    finally:
        second.stop()
