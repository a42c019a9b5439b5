"""Making Vatikanen puzzles: from one seat's view, from game records, from bot games.

:func:`from_view` reads nothing but ``game.view(seat)`` (the seat's hand, the
table with every joker's meaning, whether it has opened, the house rules), so a
puzzle holds nothing its seat could not see (RULES.md's invariants; the swap
test in ``tests/test_puzzles.py``). A position becomes a puzzle when the seat
has opened and the best play (the exact solver's most, V8-V12) lays more cards
than the obvious one (no table card moved: :func:`~rummykit.puzzles.analysis.obvious_most`):
the table must be rearranged, a joker freed, a run split, or the hand goes out.

:func:`from_record` walks a finished game's record (RECORD.md) through the
engine as the review does (:mod:`rummykit.review.walk`) and asks every turn's
seat; :func:`bot_records` plays bot games to feed it. A game in play is never
a source: the caller hands finished records only.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace

from rummykit import games, solver
from rummykit.cards import Card
from rummykit.games.vatikanen.view import vatikanen_view
from rummykit.melds import VATIKANEN, read_meld
from rummykit.puzzles.analysis import (
    JOKER,
    SPLIT,
    TooMany,
    best_answers,
    least_moved,
    obvious_most,
    themes,
)
from rummykit.puzzles.kind import PuzzleKind
from rummykit.puzzles.model import Puzzle, puzzle_id
from rummykit.record import GameRecord
from rummykit.review.walk import deals, take

__all__ = [
    "MAX_ANSWERS",
    "bot_records",
    "estimate_rating",
    "from_position",
    "from_record",
    "from_view",
]

MAX_ANSWERS = 24
"""A position with more different best answers than this is no puzzle: too many ways."""


def estimate_rating(
    *, best: int, answers: int, moved: int, obvious: int, ideas: tuple[str, ...], melds: int
) -> int:
    """A puzzle's starting rating (about 600 to 2400, as lichess's puzzle ratings): harder
    with more table cards to move, a joker to free, a run to split, more cards to find, a
    larger table and fewer best answers; easier when the obvious play comes close."""
    score = 700.0
    score += 110 * min(moved, 10)
    score += 250 if JOKER in ideas else 0
    score += 150 if SPLIT in ideas else 0
    score += 40 * min(best, 12)
    score += 12 * min(melds, 25)
    score -= 120 * math.log2(answers)
    score -= 60 * min(obvious, 8) / max(best, 1) * 4
    return int(max(400, min(2600, round(score / 10) * 10)))


def from_view(view: Mapping[str, object], *, source: str = "") -> Puzzle | None:
    """The puzzle of this seat's turn, from its view alone; None when it is none (see the
    module docstring). ValueError for a spectator's view."""
    v = vatikanen_view(view)
    seat, held = v["seat"], v["hand"]
    if seat is None or held is None:
        raise ValueError("a puzzle is a seat's position: this is a spectator's view")
    if not v["opened"][seat]:
        return None
    return from_position(
        v["table"], held, free_jokers=bool(v["options"]["free_jokers"]), source=source
    )


def from_position(
    table_text: Sequence[Sequence[str]],
    held: Sequence[str],
    *,
    free_jokers: bool = False,
    source: str = "",
) -> Puzzle | None:
    """The puzzle of an opened seat holding ``held`` before ``table_text`` (melds of card
    text, each joker with what it stands for: ``*:7h``); None when it is none."""
    if not held:
        return None
    hand = [Card.parse(t) for t in held]
    table = [read_meld([Card.parse(c) for c in m], VATIKANEN) for m in table_text]
    found = solver.best_play(table, hand, rules=VATIKANEN, free_jokers=free_jokers)
    if found is None:
        return None
    best = found.count
    obvious = obvious_most(table, hand)
    if obvious >= best:
        return None
    try:
        answers = best_answers(table, hand, best, free_jokers=free_jokers, limit=MAX_ANSWERS)
    except TooMany:
        return None
    shown = least_moved(table, answers, free_jokers=free_jokers)
    ideas = themes(table, shown, len(hand))
    written = tuple(tuple(str(c) for c in m.cards) for m in table)
    return Puzzle(
        id=puzzle_id("vatikanen", written, held),
        game="vatikanen",
        table=written,
        hand=tuple(held),
        opened=True,
        free_jokers=free_jokers,
        best=best,
        answers=len(answers),
        moved=shown.marking.moved,
        obvious=obvious,
        themes=ideas,
        rating=estimate_rating(
            best=best,
            answers=len(answers),
            moved=shown.marking.moved,
            obvious=obvious,
            ideas=ideas,
            melds=len(table),
        ),
        solution_add=tuple(str(c.plain()) for c in shown.play.add),
        solution_table=tuple(tuple(str(c) for c in m.cards) for m in shown.play.table),
        solution_marks=tuple(tuple(row) for row in shown.marking.rows),
        source=source,
    )


def from_record(
    record: GameRecord, *, source: str = "", seat: int | None = None
) -> Iterator[Puzzle]:
    """The puzzles of a finished Vatikanen game (of ``seat``'s turns only, if given): each
    turn asked from its seat's view, in order (a position met twice given once).
    ValueError for another game's record; :class:`~rummykit.record.IllegalAction` for a
    record the engine refuses."""
    if record.game != "vatikanen":
        raise ValueError(f"puzzles are made from Vatikanen records, not {record.game!r}")
    spec = games.get(record.game)
    seen: set[str] = set()
    for k, game, actions in deals(spec, record):
        for j, action in enumerate(actions):
            if action.seat == game.to_act and seat in (None, action.seat):
                where = f"{source}deal {k} action {j} seat {action.seat}".strip()
                puzzle = from_view(game.view(action.seat), source=where)
                if puzzle is not None and puzzle.id not in seen:
                    seen.add(puzzle.id)
                    yield puzzle
            take(game, k, j, action)


def bot_records(
    games_wanted: int, *, seed: int = 0, levels: Iterable[str] = ("greedy",)
) -> Iterator[GameRecord]:
    """Finished games of bots (``levels`` seated in turn), 2 to 4 players, seeds
    ``seed``, ``seed + 1``, ...: the same arguments give the same games."""
    spec = games.get("vatikanen")
    kinds = list(levels)
    for g in range(games_wanted):
        s = seed + g
        players = 2 + s % 3
        game = spec.new(players, seed=s)
        bots = [spec.make_bot(kinds[(s + p) % len(kinds)], s * 10 + p) for p in range(players)]
        while (to := game.to_act) is not None:
            game.apply(bots[to].choose(game.view(to)))
        record = game.to_record()
        yield replace(record, players=tuple(f"bot{p}" for p in range(players)))


def kind() -> PuzzleKind:
    """Vatikanen's puzzles for the tools (the game spec's ``puzzles`` hook)."""
    return PuzzleKind("vatikanen.jsonl.gz", Puzzle.from_json, from_record, bot_records)
