"""Puzzle ratings kept per account (issue 43 item 3, docs/puzzles.md "Ratings") on a real
``rummykit serve``, SQLite and PostgreSQL: a signed-in player's first try of a puzzle (by
the server's record, not the browser's word) moves both the account's and the puzzle's
Glicko-2 rating by exactly what the ``glicko2`` package computes; a second try moves
nothing; a guest's answer never moves a puzzle; a signed-in player's next puzzle is near
its rating and not one it has tried."""

from __future__ import annotations

from typing import Any

import glicko2
import pytest

from rummykit.puzzles import shipped
from server_helpers import Server
from test_server_accounts import _sql, device, signup


@pytest.fixture
def server(both_backends: Server) -> Server:
    """A server on SQLite, and one on PostgreSQL (conftest's ``both_backends``)."""
    return both_backends


def glicko(own: tuple[float, float, float], other: tuple[float, float], score: float) -> Any:
    """What the glicko2 package itself makes of one game: (rating, rd, volatility)."""
    player = glicko2.Player(rating=own[0], rd=own[1], vol=own[2])
    player.update_player([other[0]], [other[1]], [score])
    return pytest.approx((player.getRating(), player.getRd(), player.vol), rel=1e-12)


def triple(d: dict[str, float]) -> tuple[float, float, float]:
    return (d["rating"], d["rd"], d["volatility"])


def test_a_first_try_moves_the_account_s_and_the_puzzle_s_rating_as_glicko2_says_once(
    server: Server,
) -> None:
    puzzle = shipped()[5]
    with device(server) as anna:
        assert signup(anna, "Anna Puzzles").status_code == 201
        body = {"add": list(puzzle.solution_add), "first": False, "lang": "sv"}
        got = anna.post(f"/api/puzzles/{puzzle.id}/answer", json=body, timeout=120).json()
        assert got["right"] is True and got["first"] is True
        shipped_rating = (float(puzzle.rating), 100.0)
        assert triple(got["player"]) == glicko((1500.0, 350.0, 0.06), shipped_rating, 1.0)
        assert triple(got["puzzle_rating"]) == glicko((*shipped_rating, 0.06), (1500.0, 350.0), 0.0)
        assert got["puzzle_rating"]["rating"] < puzzle.rating < got["player"]["rating"] + 1000
        shown = anna.get("/api/puzzles/next?game=vatikanen").json()
        assert shown["player"] == got["player"]
        again = anna.post(
            f"/api/puzzles/{puzzle.id}/answer", json={**body, "add": ["2c"]}, timeout=120
        )
        assert again.status_code == 200
        assert again.json()["first"] is False and "player" not in again.json()
        assert anna.get("/api/puzzles/next").json()["player"] == got["player"]
    rows = _sql(server, "SELECT tries, solved FROM account_puzzle_ratings")
    assert [tuple(int(str(v)) for v in r) for r in rows] == [(1, 1)]
    kept = _sql(server, "SELECT rating, tries FROM puzzle_ratings WHERE puzzle = %s", (puzzle.id,))
    assert len(kept) == 1 and int(str(kept[0][1])) == 1
    assert float(str(kept[0][0])) == pytest.approx(got["puzzle_rating"]["rating"])


def test_a_guest_s_answer_moves_no_puzzle_and_is_rated_against_the_moved_rating(
    server: Server,
) -> None:
    puzzle = shipped()[6]
    me = {"rating": 1500.0, "rd": 350.0, "volatility": 0.06}
    wrong = {"add": list(puzzle.solution_add)[:1], "first": True, "player": me}
    with device(server) as guest:
        for _ in range(3):
            got = guest.post(f"/api/puzzles/{puzzle.id}/answer", json=wrong, timeout=120).json()
            assert got["puzzle_rating"]["rating"] == puzzle.rating
        assert "player" not in guest.get("/api/puzzles/next").json()
    assert _sql(server, "SELECT * FROM puzzle_ratings") == []
    assert _sql(server, "SELECT * FROM puzzle_tries") == []
    with device(server) as bo:
        assert signup(bo, "Bo Puzzles").status_code == 201
        moved = bo.post(f"/api/puzzles/{puzzle.id}/answer", json=wrong, timeout=120).json()[
            "puzzle_rating"
        ]
    with device(server) as guest:
        got = guest.post(f"/api/puzzles/{puzzle.id}/answer", json=wrong, timeout=120).json()
        assert got["puzzle_rating"] == moved  # read over the shipped rating, not moved
        own = glicko((1500.0, 350.0, 0.06), (moved["rating"], moved["rd"]), 0.0)
        assert triple(got["player"]) == own


def test_a_signed_in_player_s_next_puzzle_is_one_it_has_not_tried(server: Server) -> None:
    near = sorted(
        (p for p in shipped() if p.game == "vatikanen"), key=lambda p: (abs(p.rating - 1500), p.id)
    )[:200]
    with device(server) as cai:
        assert signup(cai, "Cai Puzzles").status_code == 201
        [(account,)] = _sql(server, "SELECT id FROM accounts WHERE name = %s", ("Cai Puzzles",))
        left = near[7]
        for p in near:
            if p is not left:
                _sql(
                    server,
                    "INSERT INTO puzzle_tries (account, puzzle, at, solved) VALUES (%s, %s, 0, 0)",
                    (account, p.id),
                )
        for _ in range(5):
            got = cai.get("/api/puzzles/next?game=vatikanen&rating=300").json()
            assert got["id"] == left.id and got["player"]["rating"] == 1500.0


def test_a_deleted_account_s_puzzle_rating_and_tries_go_and_the_puzzle_s_rating_stays(
    server: Server,
) -> None:
    puzzle = shipped()[8]
    with device(server) as dan:
        assert signup(dan, "Dan Puzzles").status_code == 201
        body = {"add": list(puzzle.solution_add)}
        got = dan.post(f"/api/puzzles/{puzzle.id}/answer", json=body, timeout=120)
        assert got.json()["first"] is True
        gone = dan.post("/api/account/delete", json={"password": "correct horse"})
        assert gone.status_code == 200, gone.text
    assert _sql(server, "SELECT * FROM account_puzzle_ratings") == []
    assert _sql(server, "SELECT * FROM puzzle_tries") == []
    assert len(_sql(server, "SELECT * FROM puzzle_ratings")) == 1
