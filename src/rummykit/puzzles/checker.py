"""Judging a player's answer to a puzzle: the engine's rules, the solver's count.

An answer is the hand cards laid and, when the player writes it, the whole new
table (``play 7h | 7h 8h 9h | Tc Th Ts``, RECORD.md's play). It is judged as
the engine judges a play (:meth:`~rummykit.games.vatikanen.game.VatikanenGame.verify_play`):
the cards must be in the hand (V4), the new table must hold exactly the old
one and the cards laid, all valid melds, every table joker in its place or
freed by its own card (V9, V11, V12:
:func:`~rummykit.games.vatikanen.table.check_table`); without a table the
solver arranges it, as the engine does. A legal answer is right when it lays
the puzzle's most cards: then it is a best answer, whichever of them it is;
every legal answer lays at most that many, the solver's exact most.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rummykit import solver
from rummykit.cards import Card, pretty_cards
from rummykit.errors import RuleError
from rummykit.games.vatikanen.table import check_table
from rummykit.i18n import N_, Message
from rummykit.melds import VATIKANEN, Meld
from rummykit.puzzles.model import Puzzle

__all__ = ["Verdict", "check"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judgement of an answer: ``right``; when it is illegal, the ``rule`` broken and
    the engine's ``reason``; when legal, the cards it ``laid`` and how many ``more`` the
    best answer lays; the new ``table`` of a legal answer."""

    right: bool
    laid: int
    more: int
    rule: str | None = None
    reason: Message | None = None
    table: tuple[Meld, ...] = ()

    @property
    def legal(self) -> bool:
        """True unless a rule forbids the answer."""
        return self.rule is None


def _in_hand(hand: Sequence[Card], add: Sequence[Card]) -> None:
    """RuleError V4 unless ``add`` is in ``hand`` (the engine's words)."""
    held = Counter(c.plain() for c in hand)
    for card, need in Counter(c.plain() for c in add).items():
        have = held[card]
        if have == 0:
            raise RuleError(
                "V4",
                N_("you do not hold {card}: you can only play cards from your hand"),
                card=card.pretty(),
            )
        if need > have:
            raise RuleError(
                "V4",
                N_(
                    "you play {need} copies of {card} but hold {have}:"
                    " you can only play cards from your hand"
                ),
                need=need,
                card=card.pretty(),
                have=have,
            )


def _arranged(table: Sequence[Meld], add: Sequence[Card], free_jokers: bool) -> list[Meld]:
    """The solver's table with ``add`` laid, checked like a written one (the engine's)."""
    plain = [c.plain() for c in add]
    melds = solver.arrange_play(table, plain, rules=VATIKANEN, free_jokers=free_jokers)
    if melds is None:
        what = pretty_cards(plain)
        if not free_jokers and solver.arrange_play(table, plain, rules=VATIKANEN, free_jokers=True):
            raise RuleError(
                "V11",
                N_(
                    "{cards} fits only by moving a table joker, which stays what it stands"
                    " for until a real copy of its card takes its place"
                ),
                cards=what,
            )
        raise RuleError(
            "V9",
            N_(
                "{cards} cannot go on the table: no arrangement of the table and these cards"
                " is all valid melds"
            ),
            cards=what,
        )
    return check_table(table, plain, [list(m.cards) for m in melds], free_jokers=free_jokers)


def check(
    puzzle: Puzzle,
    add: Sequence[Card],
    table: Sequence[Sequence[Card]] | None = None,
) -> Verdict:
    """The :class:`Verdict` on laying ``add`` onto ``puzzle``'s table, the new ``table``
    written meld by meld or (None) arranged by the solver."""
    if not add:
        rule = RuleError("V4", N_("a play puts at least one card from your hand on the table"))
        return Verdict(False, 0, puzzle.best, rule.rule, rule.translatable)
    old = puzzle.melds()
    try:
        _in_hand(puzzle.cards(), add)
        if table is None:
            new = _arranged(old, add, puzzle.free_jokers)
        else:
            new = check_table(old, add, table, free_jokers=puzzle.free_jokers)
    except RuleError as exc:
        return Verdict(False, 0, puzzle.best, exc.rule, exc.translatable)
    laid = len(add)
    return Verdict(laid >= puzzle.best, laid, max(0, puzzle.best - laid), table=tuple(new))
