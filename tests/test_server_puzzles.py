"""Puzzles over HTTP on a real ``rummykit serve`` (docs/protocol.md, "Puzzles"): the next
puzzle is a seat's position with no solution, answers are judged by the engine's checker
(a best answer that is not the stored one too), a wrong one is told why in the asked
language, ratings move on a first try only, and sizes are bounded."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from rummykit import solver
from rummykit.cards import Card
from rummykit.melds import VATIKANEN
from rummykit.puzzles import Puzzle, shipped
from rummykit.puzzles.analysis import best_answers
from rummykit.puzzles.kontrakt import KontraktPuzzle
from server_helpers import Server, start


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    path: Path = tmp_path_factory.mktemp("puzzles") / "p.db"
    srv = start(f"sqlite:///{path}")
    try:
        yield srv
    finally:
        srv.stop()


def _answer(server: Server, pid: str, body: dict[str, object]) -> httpx.Response:
    return httpx.post(f"{server.base}/api/puzzles/{pid}/answer", json=body, timeout=120)


def test_the_next_puzzle_is_a_seat_s_position_with_no_solution(server: Server) -> None:
    got = httpx.get(f"{server.base}/api/puzzles/next?game=vatikanen&rating=1500", timeout=30)
    assert got.status_code == 200
    data = got.json()
    assert set(data) == {"id", "game", "table", "hand", "opened", "free_jokers", "theme", "rating"}
    puzzle = next(p for p in shipped() if p.id == data["id"])
    text = json.dumps(data)
    assert "solution" not in text and "themes" not in text
    assert data["hand"] == list(puzzle.hand)
    missing = httpx.get(f"{server.base}/api/puzzles/next?game=nope", timeout=30)
    assert missing.status_code == 404


def test_the_stored_answer_and_another_best_answer_are_right(server: Server) -> None:
    puzzle = next(p for p in shipped() if p.answers > 1)
    got = _answer(server, puzzle.id, {"add": list(puzzle.solution_add)}).json()
    assert got["right"] is True and got["more"] == 0
    assert got["solution"]["add"] == list(puzzle.solution_add)
    table, hand = puzzle.melds(), puzzle.cards()
    stored = tuple(sorted((Card.parse(c) for c in puzzle.solution_add), key=str))
    answers = best_answers(table, hand, puzzle.best, free_jokers=puzzle.free_jokers)
    other = next(a for a in answers if a != stored)
    laid = solver.arrange_play(table, other, rules=VATIKANEN)
    assert laid is not None
    body = {"add": [str(c) for c in other], "table": [[str(c) for c in m.cards] for m in laid]}
    assert _answer(server, puzzle.id, body).json()["right"] is True


def test_a_wrong_answer_is_told_why_in_the_asked_language(server: Server) -> None:
    puzzle = shipped()[0]
    not_held = next(c for c in ("2c", "3d", "4h", "5s", "6c", "7d") if c not in puzzle.hand)
    en = _answer(server, puzzle.id, {"add": [not_held]}).json()
    sv = _answer(server, puzzle.id, {"add": [not_held], "lang": "sv"}).json()
    assert en["right"] is False and en["rule"] == "V4" and sv["rule"] == "V4"
    assert en["message"] and sv["message"] and en["message"] != sv["message"]
    fewer = list(puzzle.solution_add)[:-1]
    if fewer and solver.can_arrange_play(
        puzzle.melds(), [Card.parse(c) for c in fewer], rules=VATIKANEN
    ):
        short = _answer(server, puzzle.id, {"add": fewer}).json()
        assert short["right"] is False and short["rule"] is None and short["more"] >= 1


def test_the_player_s_rating_moves_on_a_first_try_only_and_no_client_moves_a_puzzle_s(
    server: Server,
) -> None:
    puzzle = shipped()[3]
    me = {"rating": 1500.0, "rd": 350.0, "volatility": 0.06}
    again = _answer(server, puzzle.id, {"add": list(puzzle.solution_add), "player": me})
    assert "player" not in again.json() and "puzzle_rating" not in again.json()
    wrong = {"add": list(puzzle.solution_add)[:1], "player": me, "first": True}
    for _ in range(5):  # a client claiming one first try after another
        first = _answer(server, puzzle.id, wrong).json()
    assert first["player"]["rating"] < 1500 and first["player"]["rd"] < 350
    assert first["puzzle_rating"]["rating"] == puzzle.rating  # as shipped, unmoved
    shown = httpx.get(f"{server.base}/api/puzzles/next?rating={puzzle.rating}", timeout=30)
    assert shown.status_code == 200


def test_answer_sizes_are_bounded(server: Server) -> None:
    puzzle = shipped()[0]
    many = _answer(server, puzzle.id, {"add": ["2c"] * 61})
    assert many.status_code in (400, 422)
    wide = _answer(server, puzzle.id, {"add": ["2c"], "table": [["2c"] * 30, ["3c"] * 31]})
    assert wide.status_code == 400
    long = _answer(server, puzzle.id, {"add": ["x" * 50]})
    assert long.status_code in (400, 422)
    assert _answer(server, "x" * 65, {"add": ["2c"]}).status_code in (404, 422)
    assert _answer(server, "nope", {"add": ["2c"]}).status_code == 404
    bad = _answer(server, puzzle.id, {"add": ["zz"]})
    assert bad.status_code == 400
    rated = _answer(server, puzzle.id, {"add": ["2c"], "player": {"rating": 1e9}})
    assert rated.status_code in (400, 422)


def _kontrakt(pid: str | None = None) -> KontraktPuzzle:
    found = [p for p in shipped("kontrakt") if isinstance(p, KontraktPuzzle)]
    return next(p for p in found if pid in (None, p.id))


def test_a_kontrakt_puzzle_is_its_seat_s_state_with_no_solution_nor_hidden_card(
    server: Server,
) -> None:
    got = httpx.get(
        f"{server.base}/api/puzzles/next?game=kontrakt&rating=1500&lang=sv", timeout=30
    ).json()
    assert set(got) == {"id", "game", "theme", "state", "rating"}
    puzzle = _kontrakt(got["id"])
    state = got["state"]
    assert state["type"] == "state" and state["seat"] == puzzle.seat
    assert state["view"]["hand"] == list(puzzle.view["hand"])  # type: ignore[call-overload]
    assert "hands" not in json.dumps(state["view"]) and "solution" not in json.dumps(got)
    assert state["seats"][puzzle.seat]["name"] == "Du"


def test_a_kontrakt_turn_is_judged_move_by_move_and_answered_by_the_engine(
    server: Server,
) -> None:
    """K8-K13 on a puzzle's position: each move is played by the engine; a discard that
    does not go out is refused (K8); the stored turn, and the same turn in another order,
    are best; half of it is told how many more could be laid."""
    puzzle = next(
        p
        for p in shipped("kontrakt")
        if isinstance(p, KontraktPuzzle)
        and not p.out
        and sum(a["type"] == "layoff" for a in p.solution) >= 2
    )
    base = f"{server.base}/api/puzzles/{puzzle.id}"
    moves = [dict(a) for a in puzzle.solution]
    going = httpx.post(f"{base}/try", json={"moves": moves[:1]}, timeout=60).json()
    assert going["verdict"] == "going" and going["steps"] == 1
    spare = going["state"]["view"]["hand"][0]
    refused = httpx.post(
        f"{base}/try", json={"moves": [*moves[:1], {"type": "discard", "card": spare}]}, timeout=60
    ).json()
    assert refused["verdict"] == "refused" and refused["rule"] == "K8"
    assert refused["state"]["view"]["hand"] == going["state"]["view"]["hand"]
    hint = httpx.post(
        f"{base}/help", json={"moves": moves[:1], "request": {"type": "hint"}}, timeout=60
    ).json()
    assert hint["type"] == "hint"
    assert {a["type"] for a in hint["actions"]} <= {"layoff", "swap_joker"}
    right = _answer(server, puzzle.id, {"actions": moves, "lang": "sv"}).json()
    assert right["right"] is True and right["laid"] == puzzle.best
    assert len(right["solution"]["steps"]) == len(moves)
    turned = [moves[0], *reversed(moves[1:])]  # the lay-offs in another order: as good
    assert _answer(server, puzzle.id, {"actions": turned}).json()["right"] is True
    half = _answer(server, puzzle.id, {"actions": moves[:1]}).json()
    assert half["right"] is False and half["more"] == puzzle.best - half["laid"] > 0
    bad = _answer(server, puzzle.id, {"actions": [{"type": "nonsense"}]})
    assert bad.status_code == 400
    too_many = _answer(server, puzzle.id, {"actions": moves * 20})
    assert too_many.status_code == 422
    vatikanen = next(p for p in shipped() if isinstance(p, Puzzle))
    none = httpx.post(f"{server.base}/api/puzzles/{vatikanen.id}/try", json={}, timeout=30)
    assert none.status_code == 404
