"""Puzzles served over HTTP: a puzzle as a seat sees it (never its solution), and an
answer judged by the engine's checker in a worker, with the puzzle's solution to draw.

A Vatikanen puzzle is a table and a hand, answered by the cards laid (and, optionally, the
whole new table). A Kontrakt puzzle is a seat's turn, drawn with the table's own board
and answered by the turn's actions (:mod:`rummykit.server.puzzleturn`).

The jobs here run in the server's workers (:meth:`Workers.run`): the checker calls the
exact solver, which must not hold the event loop.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from functools import cache

from rummykit.cards import Card
from rummykit.puzzles import check, shipped
from rummykit.puzzles.kind import kind_of
from rummykit.puzzles.kontrakt import KontraktPuzzle
from rummykit.puzzles.store import AnyPuzzle
from rummykit.record import parse_record
from rummykit.server.puzzleturn import (
    BadMoves,
    kontrakt_answer,
    kontrakt_help,
    kontrakt_state,
    kontrakt_try,
)

__all__ = [
    "CANDIDATES",
    "GAMES",
    "MAX_ACTIONS",
    "MAX_CARDS",
    "MINE_MOST",
    "answer_job",
    "by_id",
    "closest",
    "from_line",
    "mine_job",
    "position",
    "turn_job",
]

MAX_CARDS = 60
"""The most cards an answer may name (laid plus the whole new table)."""

MAX_ACTIONS = 12
"""The most actions a Kontrakt answer may hold (a turn lays a few melds and lay-offs)."""

GAMES = ("vatikanen", "kontrakt")
"""The games whose puzzles the server serves."""


@cache
def _index(game: str) -> dict[str, AnyPuzzle]:
    return {p.id: p for p in shipped(game)}


def by_id(puzzle_id: str) -> AnyPuzzle | None:
    """The shipped puzzle ``puzzle_id``, or None."""
    for game in GAMES:
        found = _index(game).get(puzzle_id)
        if found is not None:
            return found
    return None


def from_line(line: str) -> AnyPuzzle | None:
    """A puzzle of a game the server serves (:data:`GAMES`) from its file line, or None."""
    data = json.loads(line)
    game = data.get("game", "vatikanen")
    return kind_of(game).from_json(data) if game in GAMES else None


CANDIDATES = 200
"""The most puzzles looked at to find one a signed-in player has not tried."""


def closest(game: str, rating: int, most: int = CANDIDATES) -> list[AnyPuzzle]:
    """The ``most`` shipped puzzles of ``game`` rated closest to ``rating``, closest first
    (KeyError: no such game)."""
    if game not in GAMES:
        raise KeyError(game)
    return sorted(_index(game).values(), key=lambda p: (abs(p.rating - rating), p.id))[:most]


def position(puzzle: AnyPuzzle, lang: str = "en") -> dict[str, object]:
    """What a seat sees of ``puzzle``: table, hand, opened, free jokers, and its main idea
    (the hint, shown only when asked); never its solution. A Kontrakt puzzle: the seat's
    ``state`` message, as a table sends it, for the board to draw."""
    if isinstance(puzzle, KontraktPuzzle):
        return {
            "id": puzzle.id,
            "game": puzzle.game,
            "theme": puzzle.theme,
            "state": kontrakt_state(puzzle, None, lang),
        }
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
    for puzzle in kind_of(parsed.game).from_record(parsed, source="server "):
        found.append(json.dumps(puzzle.to_json(), separators=(",", ":")))
        if len(found) >= MINE_MOST or time.monotonic() > until:
            break
    return found


def _find(puzzle_id: str, line: str) -> AnyPuzzle | None:
    return by_id(puzzle_id) or (from_line(line) if line else None)


def answer_job(
    puzzle_id: str,
    add: list[str],
    table: list[list[str]] | None,
    lang: str,
    line: str = "",
    actions: list[dict[str, object]] | None = None,
) -> dict[str, object] | None:
    """The checker's verdict on an answer, in ``lang``, with the solution to draw (None:
    no such puzzle; ``{"error": ...}``: the answer names what is not a card or an
    action). A Vatikanen answer is ``add`` (and ``table``); a Kontrakt one is the turn's
    ``actions``. ``line``: the puzzle's file line when it is not a shipped one. Run in a
    worker."""
    puzzle = _find(puzzle_id, line)
    if puzzle is None:
        return None
    if isinstance(puzzle, KontraktPuzzle):
        try:
            return kontrakt_answer(puzzle, actions or [], lang)
        except BadMoves:
            return {"error": "bad_action"}
    try:
        cards = [Card.parse(c) for c in add]
        melds = None if table is None else [[Card.parse(c) for c in m] for m in table]
    except ValueError:
        return {"error": "bad_card"}
    verdict = check(puzzle, cards, melds)
    return {
        **verdict.told(lang),
        "theme": puzzle.theme,
        "solution": {
            "add": list(puzzle.solution_add),
            "table": [list(m) for m in puzzle.solution_table],
            "marks": [list(m) for m in puzzle.solution_marks],
        },
    }


def turn_job(
    puzzle_id: str,
    moves: list[dict[str, object]],
    request: Mapping[str, object] | None,
    lang: str,
    line: str = "",
) -> dict[str, object] | None:
    """A Kontrakt puzzle's turn so far on the board: with no ``request``, where ``moves``
    stand (:func:`kontrakt_try`); with one, the board's help (:func:`kontrakt_help`).
    None: no such Kontrakt puzzle; ``{"error": "bad_action"}``: moves that are not
    actions. Run in a worker."""
    puzzle = _find(puzzle_id, line)
    if not isinstance(puzzle, KontraktPuzzle):
        return None
    try:
        if request is None:
            return kontrakt_try(puzzle, moves, lang)
        return kontrakt_help(puzzle, moves, request, lang)
    except BadMoves:
        return {"error": "bad_action"}
