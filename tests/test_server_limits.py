"""The bounds a public server keeps on what grows with use (PROTOCOL.md, "Limits of a public
server"): spectators apart from seats, tables made per client address, abandoned tables.

The server is a real ``rummykit serve`` on loopback; the abandoned tables are
removed by the store itself, on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from protocol_client import Live
from rummykit.server.store import (
    ChatRow,
    PostgresStore,
    SqliteStore,
    Store,
    TableMeta,
    TableRow,
    open_store,
)
from server_helpers import Server, start

SPECTATORS = 32
"""docs/protocol.md: a table takes 32 spectators."""


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server that lets one address make three tables an hour."""
    folder = tmp_path_factory.mktemp("limited")
    running = start(f"sqlite:///{folder / 's.sqlite3'}", extra=("--tables-per-hour", "3"))
    yield running
    running.stop()


def make_table(server: Server, address: str | None = None) -> tuple[int, dict[str, Any]]:
    """``POST /api/tables`` (from ``address``, as a front end forwards it): status, body."""
    headers = {"content-type": "application/json"}
    if address is not None:
        headers["x-forwarded-for"] = address
    body = json.dumps({"game": "vatikanen", "seats": ["human", "human"]}).encode()
    ask = urllib.request.Request(f"{server.base}/api/tables", body, headers, method="POST")
    try:
        with urllib.request.urlopen(ask, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_the_fourth_table_from_one_address_in_an_hour_is_refused(limited: Server) -> None:
    answers = [make_table(limited, "203.0.113.7") for _ in range(4)]
    assert [status for status, _ in answers] == [201, 201, 201, 429]
    assert answers[3][1]["error"] == "rate_limited" and answers[3][1]["message"]
    # another address has a budget of its own
    assert make_table(limited, "198.51.100.23")[0] == 201
    listed = limited.get("/api/tables")
    assert isinstance(listed, dict)
    assert {answers[i][1]["id"] for i in range(3)} <= {t["id"] for t in listed["tables"]}


def test_spectators_are_capped_and_a_seats_player_still_gets_in(limited: Server) -> None:
    status, made = make_table(limited)
    assert status == 201
    table_id = made["id"]
    joined = limited.post(f"/api/tables/{table_id}/join", {"name": "Anna", "seat": 0})
    assert isinstance(joined, dict)
    watchers = [Live.open(limited.ws, table_id, None) for _ in range(SPECTATORS)]
    assert all(w.state is not None and w.state["seat"] is None for w in watchers)
    one_more = Live.open(limited.ws, table_id, None)
    assert one_more.state is None
    assert [e["code"] for e in one_more.errors] == ["too_many_connections"]
    with pytest.raises(ConnectionClosed) as closed:
        one_more.read(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
    assert closed.value.rcvd.reason
    anna = Live.open(limited.ws, table_id, joined["token"])  # her seat, her token: she is in
    assert anna.state is not None and anna.state["seat"] == 0 and not anna.errors
    summary = limited.get(f"/api/tables/{table_id}")
    assert isinstance(summary, dict) and summary["seats"][0]["connected"] is True
    for live in (*watchers, anna):
        live.close()


# ---------------------------------------------------------------- abandoned tables


def _row(table_id: str, status: str) -> TableRow:
    return TableRow(table_id, "vatikanen", "{}", time.time(), TableMeta(status, 0, "{}"))


async def _abandoned(store: Store, other: Store | None = None) -> None:
    """Tables waiting since before the cutoff go, with their events, chat and units; tables in
    play, waiting tables changed since, and tables a process serves stay."""
    await store.open()
    try:
        await store.create_table(_row("old", "waiting"), None)
        await store.append("old", 1, "join", '{"seat": 0}', TableMeta("waiting", 1, "{}"))
        await store.add_chat("old", 1, ChatRow(0, "Anna", "Hej!", time.time()), 200)
        await store.add_unit("old", 0, "{}")
        await store.create_table(_row("playing", "waiting"), None)
        await store.append("playing", 1, "join", '{"seat": 0}', TableMeta("playing", 1, "{}"))
        await store.add_chat("playing", 1, ChatRow(0, "Anna", "Hej!", time.time()), 200)
        await store.create_table(_row("served", "waiting"), None)
        await store.serve("served", "here")
        assert await store.claim("served")
        if other is not None:  # another process serves this one
            await other.open()
            await store.create_table(_row("elsewhere", "waiting"), None)
            assert await other.claim("elsewhere")
        cutoff = time.time()
        await asyncio.sleep(0.02)
        await store.create_table(_row("recent", "waiting"), None)

        assert await store.remove_abandoned(cutoff) == 1
        assert await store.table("old") is None
        assert await store.events("old") == []
        assert await store.chat("old", 50) == []
        assert await store.units("old") == []
        kept = ["playing", "served", "recent"] + (["elsewhere"] if other is not None else [])
        for table_id in kept:
            assert await store.table(table_id) is not None, table_id
        assert len(await store.chat("playing", 50)) == 1
        assert await store.remove_abandoned(cutoff) == 0
    finally:
        await store.close()
        if other is not None:
            await other.close()


def test_abandoned_tables_are_removed_with_their_chat_and_units_on_sqlite(tmp_path: Path) -> None:
    asyncio.run(_abandoned(SqliteStore(tmp_path / "s.sqlite3")))


def test_abandoned_tables_are_removed_with_their_chat_and_units_on_postgresql(
    pg_url: str,
) -> None:
    store = open_store(pg_url)
    assert isinstance(store, PostgresStore)
    asyncio.run(_abandoned(store, PostgresStore(pg_url)))
