"""Puzzles from the server's own finished games (issue 43 item 1, docs/puzzles.md "Puzzles
from a server's games"), on a real ``rummykit serve``: the maker runs on a finished game's
record once (never on a game in play), keeps what it finds with the table and game, and
those puzzles are served and judged by id like shipped ones."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from protocol_client import Live, play_until_over
from rummykit.puzzles import Puzzle, from_record
from rummykit.record import parse_record
from server_helpers import Server, start


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = start(f"sqlite:///{tmp_path / 'games.db'}")
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def either(both_backends: Server) -> Server:
    """A server on SQLite, and one on PostgreSQL (conftest's ``both_backends``)."""
    return both_backends


def finished_table(server: Server) -> str:
    """A table whose first game (one human playing simple moves, one bot) is over; the
    maker is asked to run on it while it is in play, and refuses."""
    made: Any = server.post("/api/tables", {"game": "vatikanen", "seats": ["human", "bot:greedy"]})
    table = str(made["id"])
    joined: Any = server.post(f"/api/tables/{table}/join", {"name": "Ann"})
    early = httpx.post(f"{server.base}/api/tables/{table}/games/0/puzzles", timeout=60)
    assert early.status_code == 409  # never a game in play
    live = Live.open(server.ws, table, str(joined["token"]))
    play_until_over([live])
    live.close()
    return table


def test_a_finished_game_s_puzzles_are_made_once_kept_and_served_by_id(either: Server) -> None:
    server = either
    for _ in range(4):  # a game with no puzzle in it: another (a table takes no seed)
        table = finished_table(server)
        base = f"{server.base}/api/tables/{table}/games/0/puzzles"
        # the maker runs by itself as the game ends (issue 43): nobody asked yet
        deadline = time.monotonic() + 90
        while not httpx.get(base, timeout=30).json()["made"]:
            assert time.monotonic() < deadline, "the maker did not run on the finished game"
            time.sleep(0.2)
        got = httpx.post(base, timeout=120)
        assert got.status_code == 200, got.text
        ids = got.json()["puzzles"]
        record = httpx.get(f"{server.base}/api/tables/{table}/games/0/record", timeout=30)
        wanted = list(from_record(parse_record(record.json())))[:8]
        assert sorted(ids) == sorted(p.id for p in wanted)  # what the maker finds, kept
        assert httpx.post(base, timeout=30).json() == {"made": True, "puzzles": ids}  # once
        if wanted:
            break
    assert wanted
    # the next puzzle near a rating may be one made here: among the closest to its rating
    rating = wanted[0].rating
    offered = {
        httpx.get(f"{server.base}/api/puzzles/next?rating={rating}", timeout=30).json()["id"]
        for _ in range(300)
    }
    assert offered & {p.id for p in wanted}
    for puzzle in wanted[:2]:
        assert isinstance(puzzle, Puzzle)
        shown = httpx.get(f"{server.base}/api/puzzles/{puzzle.id}", timeout=30).json()
        assert shown["hand"] == list(puzzle.hand) and "solution" not in shown
        answer = {"add": list(puzzle.solution_add)}
        judged = httpx.post(
            f"{server.base}/api/puzzles/{puzzle.id}/answer", json=answer, timeout=120
        )
        assert judged.json()["right"] is True


def test_the_maker_runs_on_at_most_its_games_a_day(server: Server) -> None:
    now = time.time()
    db = server.db.removeprefix("sqlite:///")
    finished_table(server)  # the tables exist once a first one is made
    with sqlite3.connect(db) as conn:
        conn.executemany(
            "INSERT INTO puzzle_mined (table_id, game, at, found) VALUES (?, 0, ?, 0)",
            [(f"x{i}", now) for i in range(500)],
        )
    table = finished_table(server)  # neither by itself as it ends nor when asked
    base = f"{server.base}/api/tables/{table}/games/0/puzzles"
    refused = httpx.post(base, timeout=60)
    assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"
    assert httpx.get(base, timeout=30).json() == {"made": False, "puzzles": []}
