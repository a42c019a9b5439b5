"""The two simple Vatikanen bots: ``random`` and ``greedy``.

Both see only the seat's view (:meth:`rummykit.games.vatikanen.Game.view`) and
rebuild the cards from its text.

``random`` samples a legal action. It lists the plays it can find without
search: openings (V7) and new melds from the hand (runs of 3-5 cards, a joker
may fill one place; groups of 3 of one rank), and single cards laid at either
end of a table meld (V8). With probability 1/4, while the table holds at
most :data:`SOLVER_TABLE_LIMIT` cards, it also asks the solver to place one
random hand card anywhere (a rearrangement, V9); the limit keeps random
games fast, since the solver's time grows steeply with the table. It then draws (or
passes, with an empty stock) with probability 1/2, else makes one of the
listed plays chosen uniformly; with nothing listed it draws or passes.

``greedy`` plays the solver's most cards whenever it can (its best opening
before it has opened), else draws or passes.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

from rummykit import solver
from rummykit.bots.base import register, seat_and_hand
from rummykit.cards import Card, parse_cards
from rummykit.games.vatikanen import Action, Draw, Pass, Play
from rummykit.games.vatikanen.table import read_as_written
from rummykit.games.vatikanen.view import vatikanen_view
from rummykit.i18n import N_
from rummykit.melds import VATIKANEN, Meld, MeldError, MeldKind, read_meld

__all__ = [
    "SOLVER_TABLE_LIMIT",
    "GreedyBot",
    "RandomBot",
    "hand_melds",
    "lay_offs",
    "no_play",
    "opening_play",
    "read_view",
    "read_view_cards",
]

Table = tuple[tuple[Card, ...], ...]

SOLVER_TABLE_LIMIT = 40
"""The random bot asks the solver for a rearrangement only up to this many table cards."""


def read_view(view: Mapping[str, object]) -> tuple[int, list[Card], list[Meld], bool]:
    """The seat, its hand, the table's melds and whether it has opened, from a view."""
    v = vatikanen_view(view)
    seat, hand = seat_and_hand(v)
    table = [read_meld(parse_cards(m), VATIKANEN) for m in v["table"]]
    return seat, parse_cards(hand), table, bool(v["opened"][seat])


def read_view_cards(view: Mapping[str, object]) -> tuple[int, list[Card], Table, bool]:
    """:func:`read_view` with the table as the cards of each meld, as the view has them
    (each joker standing for its card): what the solver needs, without reading melds."""
    v = vatikanen_view(view)
    seat, hand = seat_and_hand(v)
    table = tuple(tuple(parse_cards(m)) for m in v["table"])
    return seat, parse_cards(hand), table, bool(v["opened"][seat])


def no_play(view: Mapping[str, object]) -> Action:
    """Draw, or pass when the stock is empty (V14)."""
    v = vatikanen_view(view)
    seat, _ = seat_and_hand(v)
    return Draw(seat) if v["stock_size"] > 0 else Pass(seat)


def opening_play(seat: int, found: solver.Play) -> Play:
    """The opening run (V7) of a :func:`~rummykit.solver.best_opening` answer, as a play."""
    want = Counter(c.plain() for c in found.cards)
    run = next(m for m in found.table if Counter(m.plain_cards()) == want)
    return Play(seat, tuple(run.cards), None)


def hand_melds(hand: Sequence[Card], *, runs_only: bool = False) -> list[list[Card]]:
    """Melds of 3-5 cards to be made from ``hand`` alone (a joker may fill one place).

    Every list returned is a valid meld by construction: runs of one suit in
    consecutive places (ace low or high), or three cards of one rank.
    """
    naturals = {c for c in hand if not c.is_joker}
    have = {(c.rank, c.suit) for c in naturals}
    joker = next((c for c in hand if c.is_joker), None)
    out: list[list[Card]] = []
    for suit in {c.suit for c in naturals}:
        for start in range(1, 13):
            for length in (3, 4, 5):
                if start + length - 1 > 14:
                    continue
                ranks = [r if r <= 13 else 1 for r in range(start, start + length)]
                missing = [i for i, r in enumerate(ranks) if (r, suit) not in have]
                if not missing or (len(missing) == 1 and joker is not None):
                    cards = [Card(r, suit) for r in ranks]
                    if missing and joker is not None:
                        cards[missing[0]] = joker
                    out.append(cards)
    if not runs_only:
        by_rank: dict[int, list[Card]] = {}
        for c in hand:
            if not c.is_joker:
                by_rank.setdefault(c.rank, []).append(c)
        for cards in by_rank.values():
            if len(cards) >= 3:
                out.append(cards[:3])
    return out


def _reads_as_written(cards: Sequence[Card]) -> bool:
    """True when ``cards`` read as a meld exactly as written (as the engine reads a table)."""
    try:
        read_as_written(cards)
    except MeldError:
        return False
    return True


def _fits_end(card: Card, meld: Meld) -> bool:
    """A quick test: could ``card`` extend ``meld`` at an end? (:func:`_reads_as_written` says.)"""
    if card.is_joker:
        return True
    if meld.kind is MeldKind.GROUP:
        return card.rank == meld.start
    if card.suit != meld.suit:
        return False
    return card.rank in (meld.start - 1, meld.end + 1, meld.end + 1 - 13)


def lay_offs(hand: Sequence[Card], table: Sequence[Meld]) -> list[tuple[Card, Table]]:
    """Single cards laid at an end of a table meld, with the table they make.

    The card is written at the end where the meld reads as written (a run
    from low to high, :func:`rummykit.games.vatikanen.table.read_as_written`).
    """
    base = tuple(tuple(m.cards) for m in table)
    out = []
    for card in dict.fromkeys(hand):
        for i, meld in enumerate(table):
            if not _fits_end(card, meld):
                continue
            for cards in ((*meld.cards, card), (card, *meld.cards)):
                if _reads_as_written(cards):
                    out.append((card, (*base[:i], cards, *base[i + 1 :])))
                    break
    return out


@register("vatikanen", "random", N_("plays a random legal action"), N_("random"))
class RandomBot:
    """A random legal action (see the module docstring for how it samples)."""

    READS_LOG = False
    """It plays from the hand, the table and the counts; never the log."""

    level = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Mapping[str, object]) -> Action:
        """Draw/pass half the time, else a random play from the ones listed."""
        seat, hand, table, opened = read_view(view)
        base = tuple(tuple(m.cards) for m in table)
        plays: list[Play] = []
        if not opened:
            for run in hand_melds(hand, runs_only=True):
                plays.append(Play(seat, tuple(run), None))
        else:
            for meld in hand_melds(hand):
                plays.append(Play(seat, tuple(meld), (*base, tuple(meld))))
            for card, new in lay_offs(hand, table):
                plays.append(Play(seat, (card,), new))
            small = sum(len(m) for m in table) <= SOLVER_TABLE_LIMIT
            if hand and small and self.rng.random() < 0.25:
                card = self.rng.choice(hand)
                arranged = solver.arrange_play(table, [card], rules=VATIKANEN)
                if arranged is not None:
                    plays.append(Play(seat, (card,), tuple(tuple(m.cards) for m in arranged)))
        if not plays or self.rng.random() < 0.5:
            return no_play(view)
        return self.rng.choice(plays)


@register("vatikanen", "greedy", N_("lays the most cards it can, at once"), N_("greedy"))
class GreedyBot:
    """The solver's play of the most cards whenever there is one, else draw or pass."""

    READS_LOG = False
    """It plays from the hand, the table and the counts; never the log."""

    level = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed  # greedy is deterministic; the seed is kept for the interface

    def choose(self, view: Mapping[str, object]) -> Action:
        """Best opening (V7) or best play by cards; else draw (or pass, V14)."""
        seat, hand, table, opened = read_view_cards(view)
        free = bool(vatikanen_view(view)["options"].get("free_jokers", False))
        if not opened:
            found = solver.best_opening(hand, rules=VATIKANEN, objective="cards")
            if found is None:
                return no_play(view)
            return opening_play(seat, found)
        found = solver.best_play(table, hand, rules=VATIKANEN, objective="cards", free_jokers=free)
        if found is None:
            return no_play(view)
        return Play(seat, tuple(found.cards), tuple(tuple(m.cards) for m in found.table))
