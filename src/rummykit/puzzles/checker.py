"""Judging a player's answer to a puzzle: the engine's rules, the solver's count.

An answer is the hand cards laid and, when the player writes it, the whole new
table (``play 7h | 7h 8h 9h | Tc Th Ts``, RECORD.md's play). It is judged by the
engine itself, as the seat's play in the puzzle's position
(:meth:`~rummykit.games.vatikanen.game.VatikanenGame.play`):
the cards must be in the hand (V4), the new table must hold exactly the old
one and the cards laid, all valid melds, every table joker in its place or
freed by its own card (V9, V11, V12:
:func:`~rummykit.games.vatikanen.table.check_table`); without a table the
solver arranges it, as the engine does. A legal answer is right when it lays
the puzzle's most cards: then it is a best answer, whichever of them it is;
every legal answer lays at most that many, the solver's exact most.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.cards import Card
from rummykit.errors import RuleError
from rummykit.games.vatikanen.actions import Play
from rummykit.games.vatikanen.game import VatikanenGame
from rummykit.i18n import N_, Message
from rummykit.melds import Meld
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

    def told(self, lang: str) -> dict[str, object]:
        """The verdict as an answer tells it (docs/protocol.md, "Puzzles"): ``right``,
        ``laid``, ``more``, and the ``rule`` and its ``message`` in ``lang``."""
        message = None if self.reason is None else self.reason.translated(lang)
        return {
            "right": self.right,
            "laid": self.laid,
            "more": self.more,
            "rule": self.rule,
            "message": message,
        }


def _played(
    puzzle: Puzzle, add: Sequence[Card], table: Sequence[Sequence[Card]] | None
) -> list[Meld]:
    """The new table after the engine takes the answer as the seat's play in the puzzle's
    position (:meth:`VatikanenGame.from_position`); RuleError, in the engine's words, when
    a rule forbids it. The puzzle itself decides nothing of what is legal."""
    game = VatikanenGame.from_position(
        [list(puzzle.cards()), []],
        [list(m.cards) for m in puzzle.melds()],
        opened=[puzzle.opened, True],
        free_jokers=puzzle.free_jokers,
    )
    written = None if table is None else tuple(tuple(m) for m in table)
    game.play(Play(0, tuple(add), written))
    return list(game.table)


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
    try:
        new = _played(puzzle, add, table)
    except RuleError as exc:
        return Verdict(False, 0, puzzle.best, exc.rule, exc.translatable)
    laid = len(add)
    return Verdict(laid >= puzzle.best, laid, max(0, puzzle.best - laid), table=tuple(new))
