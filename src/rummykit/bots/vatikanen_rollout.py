"""A light Vatikanen simulator and the fast policy the ``expert`` bot plays out guesses with.

The ``expert`` bot (:mod:`rummykit.bots.vatikanen_expert`) plays each of its
candidate actions out to the end on many guesses of the hidden cards. The
engine (:class:`~rummykit.games.vatikanen.VatikanenGame`) checks every action
again with the solver and keeps a log; a play-out needs neither, so this
module keeps only what the rules need (V4, V7, V13-V15): the hands, the
table (the cards of each meld, each joker standing for its card, V11), the
stock, who has opened, whose turn it is and the passes in a row.

The policy (:func:`policy_play`) is the core of the ``strong`` bot without
its sampling: go out when the solver's most-cards play empties the hand;
else lay the most natural cards, keeping the jokers (V7 for the opening);
draw when only a joker would go down; with an empty stock (V14) play
jokers rather than pass. It decides from the seat's own hand and the table
alone, never from another hidden card, so a play-out on a guessed deal has
no player who knows the guess (the "strategy fusion" of determinized
search, Frank and Basin 1998, comes only from the root's choice).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummykit import solver
from rummykit.cards import Card, vatikanen_value
from rummykit.melds import VATIKANEN

__all__ = ["Outcome", "Sim", "Step", "policy_play"]

Table = tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class Step:
    """One move of a seat: the cards laid (none: draw, or pass with an empty stock) and the
    table after them (the opening run alone for an opening, V7)."""

    cards: tuple[Card, ...]
    table: Table
    opening: bool = False


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a play-out ended for one seat: its share of the win (1, 1/k for k tied winners,
    0) and its payment (V13, V15); ``ended`` is False when the horizon cut it short (then
    both are read from the hands as if the game were blocked, V15)."""

    win: float
    score: float
    ended: bool


def _table_of(play: solver.Play) -> Table:
    return tuple(tuple(m.cards) for m in play.table)


def _step_of(found: solver.Play, opening: bool) -> Step:
    if opening:
        return Step(found.cards, (tuple(found.table[0].cards),), opening=True)
    return Step(found.cards, _table_of(found))


def _remove(hand: list[Card], cards: Sequence[Card]) -> list[Card]:
    """``hand`` less ``cards`` (plain cards; one copy each)."""
    left = list(hand)
    for card in cards:
        left.remove(card.plain())
    return left


def policy_play(hand: Sequence[Card], table: Table, opened: bool, stock: int, free: bool) -> Step:
    """The fast policy's move for a seat (see the module docstring): no cards means draw
    (or pass when ``stock`` is 0)."""
    naturals = [c for c in hand if not c.is_joker]
    jokers = len(naturals) < len(hand)
    if not opened:
        found = solver.best_opening(naturals, rules=VATIKANEN) if naturals else None
        if found is None and jokers and (stock == 0 or not naturals):
            found = solver.best_opening(hand, rules=VATIKANEN)
        if found is None:
            return Step((), table)
        return Step(found.cards, (tuple(found.table[0].cards),), opening=True)
    full = solver.best_play(table, hand, rules=VATIKANEN, free_jokers=free)
    if full is None:
        return Step((), table)
    if full.count == len(hand) or not jokers:
        return Step(full.cards, _table_of(full))
    kept = (
        solver.best_play(table, naturals, rules=VATIKANEN, free_jokers=free) if naturals else None
    )
    if kept is None:
        return Step((), table) if stock > 0 else Step(full.cards, _table_of(full))
    return Step(kept.cards, _table_of(kept))


class Sim:
    """A Vatikanen position with every card known (one guess at the hidden ones).

    ``stock`` is top card first. :meth:`step` applies a move without checking it
    (the moves come from the solver); :meth:`play_out` plays the policy to the end.
    """

    __slots__ = (
        "free",
        "hands",
        "holder",
        "opened",
        "passes",
        "stock",
        "table",
        "turn",
        "winners",
    )

    def __init__(
        self,
        hands: Sequence[Sequence[Card]],
        table: Table,
        stock: Sequence[Card],
        opened: Sequence[bool],
        turn: int,
        *,
        passes: int = 0,
        free: bool = False,
    ) -> None:
        self.hands = [[c.plain() for c in h] for h in hands]
        self.table = table
        self.stock = [c.plain() for c in reversed(stock)]  # top card last: drawing pops
        self.opened = list(opened)
        self.turn = turn
        self.passes = passes
        self.free = free
        self.winners: tuple[int, ...] | None = None
        self.holder: int | None = None
        """A seat that holds its cards back: it draws until its whole hand can go down."""

    def copy(self) -> Sim:
        """An independent copy."""
        other = object.__new__(Sim)
        other.hands = [list(h) for h in self.hands]
        other.table = self.table
        other.stock = list(self.stock)
        other.opened = list(self.opened)
        other.turn = self.turn
        other.passes = self.passes
        other.free = self.free
        other.winners = self.winners
        other.holder = self.holder
        return other

    def step(self, move: Step) -> None:
        """Apply ``move`` for the seat to act: lay its cards, or draw, or pass (V4, V14)."""
        seat = self.turn
        n = len(self.hands)
        if move.cards:
            self.hands[seat] = _remove(self.hands[seat], move.cards)
            self.table = (*self.table, *move.table) if move.opening else move.table
            self.opened[seat] = True
            self.passes = 0
            if not self.hands[seat]:
                self.winners = (seat,)  # V13
                return
        elif self.stock:
            self.hands[seat].append(self.stock.pop())
            self.passes = 0
        else:
            self.passes += 1
            if self.passes >= n:  # V15: everyone passed in succession
                self.winners = self._lowest()
                return
        self.turn = (seat + 1) % n

    def _going_out(self, seat: int) -> Step | None:
        """The play of the seat's whole hand (V13), or None."""
        hand = self.hands[seat]
        if not self.opened[seat]:
            found = solver.best_opening(hand, rules=VATIKANEN)
            ok = found is not None and found.count == len(hand)
            return _step_of(found, True) if ok and found is not None else None
        full = solver.best_play(self.table, hand, rules=VATIKANEN, free_jokers=self.free)
        if full is None or full.count < len(hand):
            return None
        return _step_of(full, False)

    def _lowest(self) -> tuple[int, ...]:
        values = [self.value(s) for s in range(len(self.hands))]
        low = min(values)
        return tuple(s for s, v in enumerate(values) if v == low)

    def value(self, seat: int) -> int:
        """The value of a seat's hand (V13)."""
        return sum(vatikanen_value(c) for c in self.hands[seat])

    def play_out(self, horizon: int) -> None:
        """Let every seat play the policy until the game ends or ``horizon`` moves are made."""
        for _ in range(horizon):
            if self.winners is not None:
                return
            seat = self.turn
            move = policy_play(
                self.hands[seat], self.table, self.opened[seat], len(self.stock), self.free
            )
            if seat == self.holder and self.stock and len(move.cards) < len(self.hands[seat]):
                move = self._going_out(seat) or Step((), self.table)
            self.step(move)

    def outcome(self, seat: int) -> Outcome:
        """How the game ended for ``seat`` (V13, V15); read as blocked if it has not ended."""
        n = len(self.hands)
        values = [self.value(s) for s in range(n)]
        ended = self.winners is not None
        winners = self.winners if self.winners is not None else self._lowest()
        if ended and len(winners) == 1 and values[winners[0]] == 0:
            # V13: everyone pays the winner their hand's value
            if seat in winners:
                return Outcome(1.0, float(sum(values)), True)
            return Outcome(0.0, float(-values[seat]), True)
        low = min(values)
        k = len(winners)
        if seat in winners:
            gain = sum(values[s] - low for s in range(n) if s not in winners) / k
            return Outcome(1.0 / k, gain, ended)
        return Outcome(0.0, float(low - values[seat]), ended)
