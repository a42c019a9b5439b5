"""The exact table solver: arrange cards into melds, and find the best play (V5-V12).

Because the table may be rearranged at will (V9), what can be played depends
only on the multiset of table cards (V12). The solver answers on that
multiset, enumerating which table jokers a play frees (V11), and lays the
answer out as melds. Each function below poses its question to the fallback
chain (:mod:`.chain`): the compiled programme over ranks answers almost every
question (:mod:`.programme`); the searches in Python answer the rest. See
``docs/solver.md`` for the map of the package.

>>> from rummykit.cards import parse_cards
>>> from rummykit.melds import read_meld
>>> table = [read_meld(parse_cards(t), VATIKANEN) for t in ("Tc Th Th Ts", "7s 8s 9s")]
>>> play = best_play(table, parse_cards("Js"))
>>> [str(m) for m in play.table]
['7s 8s 9s Ts Js', 'Tc Th Th']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rummykit.cards import Card
from rummykit.melds import VATIKANEN, Meld, MeldRules
from rummykit.solver import chain, programme, rank_kernel, suit_kernel
from rummykit.solver.chain import Objective
from rummykit.solver.opening import best_run

__all__ = [
    "Play",
    "arrange",
    "arrange_play",
    "best_opening",
    "best_play",
    "can_arrange_play",
    "warm",
]

Table = Sequence[Meld] | Sequence[Sequence[Card]]
"""A table: its melds, or the cards of each meld (jokers standing for their cards, V11)."""


@dataclass(frozen=True, slots=True)
class Play:
    """A play: the hand cards laid (jokers plain) and the whole new table.

    For :func:`best_opening` the table is just the opening run (V7).
    """

    cards: tuple[Card, ...]
    table: tuple[Meld, ...]
    count: int
    points: int


def arrange(cards: Iterable[Card], rules: MeldRules = VATIKANEN) -> list[Meld] | None:
    """Partition all ``cards`` into valid melds (jokers wild), or None when impossible."""
    cards = [c.plain() for c in cards]
    found = chain.answer(cards, [], rules, "cards", free=True, all_placed=False, layout=True)
    return None if found is None else found.melds


def arrange_play(
    table: Table,
    add: Iterable[Card],
    *,
    rules: MeldRules = VATIKANEN,
    free_jokers: bool = False,
) -> list[Meld] | None:
    """The whole new table: ``table`` plus all of ``add``, or None if impossible (V9, V11, V12)."""
    add = [c.plain() for c in add]
    found = chain.answer(table, add, rules, "cards", free=free_jokers, all_placed=True, layout=True)
    return None if found is None else found.melds


def can_arrange_play(
    table: Table,
    add: Iterable[Card],
    *,
    rules: MeldRules = VATIKANEN,
    free_jokers: bool = False,
) -> bool:
    """Whether all of ``add`` can go onto ``table`` (V9, V11, V12): :func:`arrange_play`'s
    question without laying out the melds, as cheap as the solver can answer it."""
    add = list(add)
    found = chain.answer(
        table, add, rules, "cards", free=free_jokers, all_placed=True, layout=False
    )
    return found is not None


def best_play(
    table: Table,
    hand: Iterable[Card],
    *,
    rules: MeldRules = VATIKANEN,
    objective: Objective = "cards",
    free_jokers: bool = False,
) -> Play | None:
    """The best non-empty play from ``hand`` onto ``table``, or None when no card fits (V8-V12).

    ``objective`` "cards" maximizes the cards laid (ties: points), "points" the
    points laid (ties: cards); card points are ``rules.value``.
    """
    hand = list(hand)
    found = chain.answer(
        table, hand, rules, objective, free=free_jokers, all_placed=False, layout=True
    )
    if found is None or not found.played:
        return None
    return Play(tuple(found.played), tuple(found.melds), len(found.played), found.points)


def best_opening(
    hand: Iterable[Card], *, rules: MeldRules = VATIKANEN, objective: Objective = "cards"
) -> Play | None:
    """The best single run from the hand alone, or None (V7)."""
    run = best_run([c.plain() for c in hand], rules, objective)
    if run is None:
        return None
    cards = tuple(sorted((c.plain() for c in run.cards), key=_hand_order))
    return Play(cards, (run,), len(cards), sum(rules.value(c) for c in cards))


def _hand_order(card: Card) -> tuple[bool, int, int]:
    """The order of a play's cards: by suit and rank, the jokers last."""
    return (card.suit is None, card.suit or 0, card.rank)


def warm(rules: MeldRules = VATIKANEN) -> None:
    """Load the compiled programmes that solving under ``rules`` uses, before any clock starts.

    numba loads a cached function on its first call (a few tenths of a second;
    seconds the first time on a machine).
    """
    suit_kernel.warm()
    if programme.handles(rules):
        programme.warm()
    if rank_kernel.answers(rules):
        rank_kernel.warm()
