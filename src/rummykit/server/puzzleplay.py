"""Puzzles served over HTTP: a puzzle as a seat sees it (never its solution), and an
answer judged by the engine's checker in a worker, with the puzzle's solution to draw.

The jobs here run in the server's workers (:meth:`Workers.run`): the checker calls the
exact solver, which must not hold the event loop.
"""

from __future__ import annotations

import json
import random
import time
from functools import cache

from rummykit.cards import Card
from rummykit.puzzles import Puzzle, check, from_record, near, shipped
from rummykit.record import parse_record

__all__ = [
    "CANDIDATES",
    "MAX_CARDS",
    "MINE_MOST",
    "answer_job",
    "by_id",
    "closest",
    "mine_job",
    "position",
    "puzzle_near",
]

MAX_CARDS = 60
"""The most cards an answer may name (laid plus the whole new table)."""

GAMES = ("vatikanen",)


@cache
def _index(game: str) -> dict[str, Puzzle]:
    return {p.id: p for p in shipped(game) if isinstance(p, Puzzle)}


def by_id(puzzle_id: str) -> Puzzle | None:
    """The shipped puzzle ``puzzle_id``, or None."""
    for game in GAMES:
        found = _index(game).get(puzzle_id)
        if found is not None:
            return found
    return None


def from_line(line: str) -> Puzzle | None:
    """A puzzle of a game the page serves (:data:`GAMES`) from its file line, or None."""
    data = json.loads(line)
    return Puzzle.from_json(data) if data.get("game") in GAMES else None


def puzzle_near(game: str, rating: int, rng: random.Random) -> Puzzle:
    """A shipped puzzle of ``game`` near ``rating`` (KeyError: no such game)."""
    if game not in GAMES:
        raise KeyError(game)
    found = near(_index(game).values(), rating, rng)
    assert isinstance(found, Puzzle)
    return found


CANDIDATES = 200
"""The most puzzles looked at to find one a signed-in player has not tried."""


def closest(game: str, rating: int, most: int = CANDIDATES) -> list[Puzzle]:
    """The ``most`` shipped puzzles of ``game`` rated closest to ``rating``, closest first
    (KeyError: no such game)."""
    if game not in GAMES:
        raise KeyError(game)
    return sorted(_index(game).values(), key=lambda p: (abs(p.rating - rating), p.id))[:most]


def position(puzzle: Puzzle) -> dict[str, object]:
    """What a seat sees of ``puzzle``: table, hand, opened, free jokers, and its main idea
    (the hint, shown only when asked); never its solution."""
    return {
        "id": puzzle.id,
        "game": puzzle.game,
        "table": [list(m) for m in puzzle.table],
        "hand": list(puzzle.hand),
        "opened": puzzle.opened,
        "free_jokers": puzzle.free_jokers,
        "theme": puzzle.theme,
    }


MINE_MOST = 8
"""The most puzzles kept from one finished game."""


def mine_job(record: dict[str, object], seconds: float) -> list[str]:
    """The puzzles the maker finds in a finished game's ``record`` (only ``game.view(seat)``
    of each turn's seat), as puzzle file lines: at most :data:`MINE_MOST`, and none begun
    after ``seconds``. Run in a records worker (which also stops it past its own time)."""
    parsed = parse_record(record)
    if parsed.game not in GAMES:
        return []
    until = time.monotonic() + seconds
    found: list[str] = []
    for puzzle in from_record(parsed, source="server "):
        found.append(json.dumps(puzzle.to_json(), separators=(",", ":")))
        if len(found) >= MINE_MOST or time.monotonic() > until:
            break
    return found


def answer_job(
    puzzle_id: str, add: list[str], table: list[list[str]] | None, lang: str, line: str = ""
) -> dict[str, object] | None:
    """The checker's verdict on an answer, in ``lang``, with the solution to draw (None:
    no such puzzle). ``line``: the puzzle's file line when it is not a shipped one. Run in
    a worker."""
    puzzle = by_id(puzzle_id) or (from_line(line) if line else None)
    if puzzle is None:
        return None
    try:
        cards = [Card.parse(c) for c in add]
        melds = None if table is None else [[Card.parse(c) for c in m] for m in table]
    except ValueError:
        return {"error": "bad_card"}
    verdict = check(puzzle, cards, melds)
    return {
        "right": verdict.right,
        "laid": verdict.laid,
        "more": verdict.more,
        "rule": verdict.rule,
        "message": None if verdict.reason is None else verdict.reason.translated(lang),
        "theme": puzzle.theme,
        "solution": {
            "add": list(puzzle.solution_add),
            "table": [list(m) for m in puzzle.solution_table],
            "marks": [list(m) for m in puzzle.solution_marks],
        },
    }
