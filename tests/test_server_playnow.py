""" "Play now" over HTTP on a real ``rummykit serve`` (issue 42 item 3; docs/protocol.md,
"Play now"): two strangers who ask for the same game land at one table, in two seats,
with tokens that are the seats' own; a seek that allowed bots gets them after its wait;
a seek given up is never paired; two signed-in players get a rated table; and on
PostgreSQL, two server processes share the seeks under a stream of them: nobody is
paired twice and no seek is lost (a longer stream is marked slow), and players sit down
at once at the process that did not run the matcher."""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from protocol_client import Live
from rummykit.server.matcher import MATCHER_LOCK
from rummykit.server.store.base import lock_parts
from server_helpers import Server, postgres_url, start
from test_server_accounts import device, signup


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = start(f"sqlite:///{tmp_path / 'playnow.db'}")
    try:
        yield srv
    finally:
        srv.stop()


def ask(client: httpx.Client, **body: Any) -> dict[str, Any]:
    made = client.post("/api/seeks", json={"game": "vatikanen", "pace": "fast", **body})
    assert made.status_code == 201, made.text
    return dict(made.json())


def until_matched(
    client: httpx.Client, seek: dict[str, Any], timeout: float = 20
) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = client.post(f"/api/seeks/{seek['id']}/look", json={"secret": seek["secret"]})
        assert got.status_code == 200, got.text
        if got.json()["state"] == "matched":
            return dict(got.json())
        time.sleep(0.3)
    raise TimeoutError("not matched")


def test_two_strangers_asking_for_one_game_land_at_one_table_in_two_seats(
    server: Server,
) -> None:
    with device(server, "127.0.2.1") as anna, device(server, "127.0.2.2") as bo:
        a = ask(anna, players=2, name="Anna")
        b = ask(bo, players=2, name="Bo")
        at_a, at_b = until_matched(anna, a), until_matched(bo, b)
    assert at_a["table"] == at_b["table"] and {at_a["seat"], at_b["seat"]} == {0, 1}
    summary: Any = server.get(f"/api/tables/{at_a['table']}")
    assert summary["rated"] is False and summary["status"] == "playing"
    assert sorted(s["name"] for s in summary["seats"]) == ["Anna", "Bo"]
    for placed in (at_a, at_b):
        live = Live.open(server.ws, placed["table"], placed["token"])
        assert live.state is not None and live.state["seat"] == placed["seat"]
        live.close()


def test_a_seek_that_allows_bots_gets_them_after_its_wait(server: Server) -> None:
    with device(server, "127.0.2.3") as anna:
        placed = until_matched(anna, ask(anna, players=3, name="Anna", bots_after=1))
    summary: Any = server.get(f"/api/tables/{placed['table']}")
    assert [s["kind"] for s in summary["seats"]] == ["human", "bot", "bot"]


def test_a_seek_given_up_is_never_paired_and_its_secret_is_its_own(server: Server) -> None:
    with device(server, "127.0.2.4") as anna, device(server, "127.0.2.5") as bo:
        a = ask(anna, players=2, name="Anna")
        wrong = anna.post(f"/api/seeks/{a['id']}/look", json={"secret": "not it"})
        assert wrong.status_code == 404
        gone = anna.post(f"/api/seeks/{a['id']}/cancel", json={"secret": a["secret"]})
        assert gone.json() == {"state": "cancelled"}
        b = ask(bo, players=2, name="Bo")
        time.sleep(2.5)  # two rounds of the matcher
        look = bo.post(f"/api/seeks/{b['id']}/look", json={"secret": b["secret"]})
        assert look.json()["state"] == "waiting"


def test_bad_seeks_are_refused_and_one_address_may_not_flood(server: Server) -> None:
    with device(server, "127.0.2.6") as anna:
        for body in ({"game": "chess"}, {"game": "vatikanen", "players": 7}):
            assert anna.post("/api/seeks", json=body).status_code in (400, 422)
        for _ in range(3):
            ask(anna, players=4, name="Anna")
        fourth = anna.post("/api/seeks", json={"game": "vatikanen", "name": "Anna"})
        assert fourth.status_code == 429


def test_two_signed_in_players_get_a_rated_table_under_their_accounts_names(
    server: Server,
) -> None:
    with device(server, "127.0.2.7") as anna, device(server, "127.0.2.8") as bo:
        assert signup(anna, "Anna Now").status_code == 201
        assert signup(bo, "Bo Now").status_code == 201
        a = ask(anna, game="kontrakt", players=2, name="ignored")
        b = ask(bo, game="kontrakt", players=2, name="ignored")
        placed = until_matched(anna, a)
        until_matched(bo, b)
        summary: Any = server.get(f"/api/tables/{placed['table']}")
        assert summary["rated"] is True
        assert sorted(s["name"] for s in summary["seats"]) == ["Anna Now", "Bo Now"]
        held = anna.get("/api/account/seats").json()["seats"]
        assert [(s["table"], s["seat"]) for s in held] == [(placed["table"], placed["seat"])]


async def _stream(bases: list[str], seekers: int, seconds: float) -> list[dict[str, Any]]:
    """``seekers`` strangers (each its own address) asking over ``seconds``, spread over
    the servers at ``bases``, each looking until matched; what each got."""
    rng = random.Random(7)

    async def one(i: int) -> dict[str, Any]:
        await asyncio.sleep(rng.random() * seconds)
        base = bases[i % len(bases)]
        headers = {"x-forwarded-for": f"127.1.{i // 250}.{i % 250}"}
        async with httpx.AsyncClient(base_url=base, headers=headers, timeout=30) as client:
            body = {"game": "vatikanen", "players": 2, "pace": "fast", "name": f"P{i}"}
            made = await client.post("/api/seeks", json=body)
            assert made.status_code == 201, made.text
            seek = made.json()
            end = time.monotonic() + seconds + 60
            while time.monotonic() < end:
                await asyncio.sleep(1.0)
                look = bases[(i + 1) % len(bases)]  # the other process answers too
                got = await client.post(
                    f"{look}/api/seeks/{seek['id']}/look", json={"secret": seek["secret"]}
                )
                assert got.status_code == 200, got.text
                if got.json()["state"] == "matched":
                    return {"i": i, **got.json()}
            raise TimeoutError(f"seeker {i} was never matched")

    return await asyncio.gather(*(one(i) for i in range(seekers)))


def _check_stream(results: list[dict[str, Any]]) -> None:
    seats = Counter((r["table"], r["seat"]) for r in results)
    assert max(seats.values()) == 1, "two players in one seat"
    tables = Counter(r["table"] for r in results)
    assert set(tables.values()) == {2}, "a table that is not two strangers"


@pytest.fixture
def two_processes(request: pytest.FixtureRequest) -> Iterator[list[Server]]:
    postgres_url()
    db = request.getfixturevalue("pg_url")
    servers = [start(db), start(db)]
    try:
        yield servers
    finally:
        for srv in servers:
            srv.stop()


def test_two_processes_on_postgresql_pair_a_stream_of_seeks_none_twice_none_lost(
    two_processes: list[Server],
) -> None:
    results = asyncio.run(_stream([s.base for s in two_processes], 60, 8.0))
    _check_stream(results)


@pytest.mark.slow
def test_a_thousand_seeks_a_minute_over_two_processes_on_postgresql(
    two_processes: list[Server],
) -> None:
    results = asyncio.run(_stream([s.base for s in two_processes], 1000, 60.0))
    _check_stream(results)


def seat_within(server: Server, placed: dict[str, Any], seconds: float) -> int | None:
    """The seat the token opens on ``server`` (its process asks the one serving the table to
    let it go; "try again" is tried again), if within ``seconds``."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        live = Live.open(server.ws, placed["table"], placed["token"])
        live.close()
        if live.state is not None:
            return int(live.state["seat"])
        time.sleep(0.2)
    return None


def matcher_pid(db: str) -> int | None:
    """The process id of the server that holds the matcher's lock, if one does."""
    import psycopg

    with psycopg.connect(db, autocommit=True) as conn:
        found = conn.execute("SELECT current_schema()").fetchone()
        assert found is not None
        hi, lo = lock_parts(f"{MATCHER_LOCK}:{found[0]}")
        row = conn.execute(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
            " WHERE l.locktype = 'advisory' AND l.granted AND l.classid::bigint = %s"
            " AND l.objid::bigint = %s",
            (hi, lo),
        ).fetchone()
    return None if row is None else int(str(row[0]).split()[-1])


def test_players_paired_on_postgresql_sit_down_at_once_at_the_other_process(
    two_processes: list[Server],
) -> None:
    with device(two_processes[0], "127.0.3.1") as anna, device(two_processes[1], "127.0.3.2") as bo:
        a = ask(anna, players=2, name="Anna")
        b = ask(bo, players=2, name="Bo")
        at_a, at_b = until_matched(anna, a), until_matched(bo, b)
    assert at_a["table"] == at_b["table"]
    leader = matcher_pid(two_processes[0].db)
    (other,) = [s for s in two_processes if s.proc.pid != leader]
    # a router sends a table's players to one process, maybe not the matcher's: the table
    # the matcher loaded to seat them is let go at once, not held for presence.HOLD seconds
    assert seat_within(other, at_a, 3.0) == at_a["seat"]
    assert seat_within(other, at_b, 3.0) == at_b["seat"]
