"""Reviewing Vatikanen turns: the most cards a seat could have laid, from its own view.

:func:`judge` reads nothing but one seat's view (``game.view(seat)``: its hand,
the table with every joker's meaning, whether it has opened, the house rules),
so a review holds nothing that seat could not see (RULES.md's invariants).
The count is the exact solver's (:mod:`rummykit.solver`): before the seat has
opened, the longest run of its hand (V7, :func:`~rummykit.solver.best_opening`);
after, the most hand cards the table can take (V8-V12,
:func:`~rummykit.solver.best_play`). The play shown is chosen by
:func:`~rummykit.review.keeping.keep_most` and checked by the engine's own
reading of a new table (:func:`~rummykit.games.vatikanen.table.check_table`,
:func:`~rummykit.games.vatikanen.table.check_opening`).

:func:`review_deal` walks one game of a session: every action (a play, a draw,
a pass) is a turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rummykit import solver
from rummykit.cards import Card
from rummykit.game import AnyAction, Game
from rummykit.games.vatikanen.actions import Play
from rummykit.games.vatikanen.table import check_opening, check_table
from rummykit.games.vatikanen.view import vatikanen_view
from rummykit.melds import VATIKANEN, Meld, read_meld
from rummykit.review.keeping import HAND, STAYED, marks, shown_play
from rummykit.review.model import GO_OUT, TurnReview, VatikanenPlayJSON
from rummykit.review.walk import take

__all__ = ["Judgement", "judge", "review_deal"]


@dataclass(frozen=True, slots=True)
class Judgement:
    """What a seat could do at a turn: the most hand cards it could lay (``best``), the
    play that does it as RECORD.md's action with the review's additions (``play``: None
    when no card fits), and whether that empties the hand (``out``: ``best`` is all
    ``held``, the cards in hand)."""

    best: int
    play: VatikanenPlayJSON | None
    held: int

    @property
    def out(self) -> bool:
        """True when the best play lays every card of the hand (V13)."""
        return self.best == self.held


def _cards(texts: Sequence[str]) -> list[Card]:
    return [Card.parse(t) for t in texts]


def judge(view: Mapping[str, object]) -> Judgement:
    """The judgement of the turn of ``view``'s seat, from that view alone (ValueError for a
    spectator's view: it has no seat to judge)."""
    v = vatikanen_view(view)
    seat, held = v["seat"], v["hand"]
    if seat is None or held is None:
        raise ValueError("the review judges a seat's turn: this is a spectator's view")
    hand = _cards(held)
    table = [read_meld(_cards(m), VATIKANEN) for m in v["table"]]
    free_jokers = bool(v["options"]["free_jokers"])
    if not v["opened"][seat]:
        opening = solver.best_opening(hand, rules=VATIKANEN)
        if opening is None:
            return Judgement(0, None, len(hand))
        run = opening.table[0].cards
        new = check_opening(table, run, [*(m.cards for m in table), run])  # the engine's V7
        rows = [[STAYED] * len(m.cards) for m in table] + [[HAND] * len(run)]
        return Judgement(opening.count, _play_json(seat, run, new, rows, 0), len(hand))
    found = solver.best_play(table, hand, rules=VATIKANEN, free_jokers=free_jokers)
    if found is None:
        return Judgement(0, None, len(hand))
    shown, _ = shown_play(table, hand, found, free_jokers=free_jokers)
    add = list(shown.add)
    new = check_table(table, add, [m.cards for m in shown.table], free_jokers=free_jokers)
    marked = marks(table, new, add)  # of the table as the engine reads it
    play = _play_json(seat, add, new, marked.rows, marked.moved)
    if marked.was:
        play["was"] = [[meld, place, card] for meld, place, card in marked.was]  # JSON
    return Judgement(found.count, play, len(hand))


def _play_json(
    seat: int, add: Sequence[Card], table: Sequence[Meld], rows: list[list[str]], moved: int
) -> VatikanenPlayJSON:
    """The play as RECORD.md writes it, with ``marks`` (per card of the new table: from the
    ``hand``, left on the ``table``, or ``moved`` from another meld) and ``moved``."""
    return {
        "seat": seat,
        "type": "play",
        "add": [str(c.plain()) for c in add],
        "table": [[str(c) for c in m.cards] for m in table],
        "marks": rows,
        "moved": moved,
    }


def _played(action: AnyAction) -> int:
    return len(action.add) if isinstance(action, Play) else 0


def review_deal(
    game: Game, deal: int, actions: Sequence[AnyAction], seat: int | None
) -> list[TurnReview]:
    """The reviews of one Vatikanen game's turns (of ``seat`` only, if given); ``game`` is
    the session as the game is dealt, taken through every action."""
    out: list[TurnReview] = []
    for j, action in enumerate(actions):
        if (seat is None or action.seat == seat) and action.seat == game.to_act:
            view = game.view(action.seat)
            judged = judge(view)
            played = _played(action)
            missed = (GO_OUT,) if judged.out and played < judged.held else ()
            kind = str(action.to_json()["type"])
            out.append(
                TurnReview(deal, j, action.seat, kind, played, judged.best, judged.play, missed)
            )
        take(game, deal, j, action)
    return out
