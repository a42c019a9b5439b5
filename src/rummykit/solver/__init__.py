"""The exact table solver: arrange cards into melds, and find the best play (V5-V12).

Because the table may be rearranged at will (V9), what can be played depends
only on the multiset of table cards (V12). The solver answers on that
multiset, enumerating which table jokers a play frees (V11), and lays the
answer out as melds. Under Rummikub rules a compiled programme over the ranks
answers (:mod:`.rank_kernel`); otherwise a branch and bound over the suits'
programmes (:mod:`.split`), and the joint programme (:mod:`.dp`) where that
gives up. See ``docs/solver.md``.

>>> from rummykit.cards import parse_cards
>>> from rummykit.melds import read_meld
>>> table = [read_meld(parse_cards(t), VATIKANEN) for t in ("Tc Th Th Ts", "7s 8s 9s")]
>>> play = best_play(table, parse_cards("Js"))
>>> [str(m) for m in play.table]
['7s 8s 9s Ts Js', 'Tc Th Th']
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from rummykit.cards import JOKER, Card, Meaning, Suit
from rummykit.melds import VATIKANEN, Meld, MeldKind, MeldRules
from rummykit.solver import big_kernel, big_search, rank_kernel, suit_kernel
from rummykit.solver.dp import SUITS, Counts, Solution, solve
from rummykit.solver.layout import build_melds
from rummykit.solver.model import (
    Freeing,
    Position,
    _weights,
    configure,
    forced_cards,
    freeing_cases,
    position_from,
)
from rummykit.solver.opening import best_run
from rummykit.solver.split import GiveUp, split_search

__all__ = [
    "Play",
    "arrange",
    "arrange_play",
    "best_opening",
    "best_play",
    "can_arrange_play",
    "warm",
]

Objective = Literal["cards", "points"]


@dataclass(frozen=True, slots=True)
class Play:
    """A play: the hand cards laid (jokers plain) and the whole new table.

    For :func:`best_opening` the table is just the opening run (V7).
    """

    cards: tuple[Card, ...]
    table: tuple[Meld, ...]
    count: int
    points: int


def _solve_position(
    pos: Position, rules: MeldRules, objective: Objective
) -> tuple[Solution, Freeing, Position] | None:
    best: tuple[Solution, Freeing, Position] | None = None
    ceiling: int | None = None
    # the programme over ranks answers the case that frees fewest jokers fastest
    # (no wild joker to place), and its answer then bounds the other cases
    fewest = rank_kernel.answers(rules)
    for fr, cp in freeing_cases(pos, fewest_first=fewest):
        if cp is None:
            continue
        configure(cp, rules, objective)
        if fr.runs:  # hand cards that free a run joker are laid whatever else is
            forced = forced_cards(pos, fr)
            cp.base = sum(w * sum(row) for w, row in zip(cp.weight, forced, strict=True))
        if ceiling is None:
            # the whole hand laid: no freeing case can score more
            ceiling = cp.base + cp.wild_opt * cp.wjoker
            ceiling += sum(w * sum(row) for w, row in zip(cp.weight, cp.opt, strict=True))
        sol = _answer_case(cp, None if best is None else best[0].score)
        if sol is not None and (best is None or sol.score > best[0].score):
            best = (sol, fr, pos)
            if sol.score >= ceiling:
                break
    return best


def _big(rules: MeldRules) -> bool:
    """Whether positions under ``rules`` may go to the compiled programme over ranks
    (:mod:`.big_kernel`): groups of any size with suits repeated (Vatikanen, Kontrakt),
    or groups of 3-4 distinct suits under low aces (Rummikub)."""
    if rules.max_group_size is None:
        return not rules.group_distinct_suits
    return rules.group_distinct_suits and rules.max_group_size == 4 and not rules.ace_high


def _answer_case(cp: Counts, floor: int | None) -> Solution | None:
    """The best answer of one freeing case, or None (also when it cannot beat ``floor``)."""
    if rank_kernel.applies(cp):
        try:
            return rank_kernel.solve(cp, floor)
        except rank_kernel.TooHard:
            pass  # a full table past the depth-first budget: the split search does better
    try:
        search = split_search(cp)
        bound = search.bound()
        if bound is None or (floor is not None and bound <= floor):
            return None  # this case cannot beat the best answer so far
        return search.run(floor)
    except GiveUp:
        return solve(cp)


_NATURAL = [[Card(max(rank, 1), Suit(s)) for s in range(SUITS)] for rank in range(14)]
"""Every natural card by [rank][suit] (cards are immutable, so one of each will do)."""


def _card_table() -> list[Card]:
    """The card of every code of the compiled programme (:func:`.big_kernel.code`)."""
    out = [JOKER] * (big_search.GROUP_JOKER + 14)
    for rank in range(1, 14):
        out[big_search.GROUP_JOKER + rank] = Card(0, None, Meaning(rank))
        for s in range(SUITS):
            out[rank * 4 + s] = _NATURAL[rank][s]
            out[big_search.RUN_JOKER + rank * 4 + s] = Card(0, None, Meaning(rank, Suit(s)))
    return out


_CARD = _card_table()


@functools.lru_cache(maxsize=16)
def _kernel_weights(rules: MeldRules, objective: str) -> tuple[int, ...]:
    """The gains of :func:`.model._weights`, then the points of a joker and of each rank."""
    weights, joker = _weights(rules, objective)
    values = [rules.value(_NATURAL[rank][0]) for rank in range(1, 14)]
    return (*weights, joker, rules.value(JOKER), *values)


Table = Sequence[Meld] | Sequence[Sequence[Card]]
"""A table: its melds, or the cards of each meld (jokers standing for their cards, V11)."""


def _compiled(
    table: Table | Iterable[Card],
    cards: Iterable[Card],
    rules: MeldRules,
    objective: str,
    *,
    free: bool,
    all_table: bool,
    layout: bool,
) -> list[int] | None:
    """The programme over ranks' answer (:func:`.big_kernel.ask`), or None where it has none."""
    return big_kernel.ask(
        _table_codes(table),
        big_kernel.codes(cards),
        _kernel_weights(rules, objective),
        free=free,
        all_table=all_table,
        high=rules.ace_high,
        layout=layout,
        distinct=rules.group_distinct_suits,
    )


_MELDS: dict[tuple[int, ...], Meld] = {}
"""Melds already built from the compiled answers, by their codes (melds are immutable)."""
_MELDS_KEPT = 1 << 16


_TABLES: dict[int, tuple[object, list[int]]] = {}
"""The codes of tables asked about lately, by identity (tuples of melds or of card tuples,
which cannot change): a bot asks about the same table again and again."""


def _table_codes(table: Table | Iterable[Card]) -> list[int]:
    """The codes of a table's cards (see :func:`.big_kernel.codes`), kept for tuples."""
    if type(table) is not tuple:
        return big_kernel.codes(table)
    known = _TABLES.get(id(table))
    if known is not None and known[0] is table:
        return known[1]
    codes = big_kernel.codes(table)
    if all(type(m) is tuple or type(m) is Meld for m in table):
        if len(_TABLES) >= 64:
            _TABLES.clear()
        _TABLES[id(table)] = (table, codes)
    return codes


def _melds_of(out: list[int]) -> list[Meld]:
    """The melds of a compiled answer."""
    melds = []
    at = big_search.OUT_MELDS
    known = _MELDS
    if len(known) > _MELDS_KEPT:
        known.clear()
    for _ in range(out[at - 1]):
        end = at + 3 + out[at + 2]
        key = tuple(out[at:end])
        meld = known.get(key)
        if meld is None:
            kind = MeldKind.RUN if key[0] == 0 else MeldKind.GROUP
            meld = Meld(kind, tuple([_CARD[c] for c in key[3:]]), key[1])
            known[key] = meld
        melds.append(meld)
        at = end
    return melds


def _play_of(out: list[int]) -> Play:
    """The play of a compiled answer (its hand cards are in order: by suit and rank, jokers)."""
    at = big_search.OUT_MELDS
    for _ in range(out[at - 1]):
        at += 3 + out[at + 2]
    played = [_CARD[c] for c in out[at:]] + [JOKER] * out[2]
    return Play(tuple(played), tuple(_melds_of(out)), len(played), out[1])


def _layout(
    sol: Solution,
    fr: Freeing,
    pos: Position,
    rules: MeldRules,
) -> tuple[list[Meld], list[Card]]:
    """The melds of a solution and the hand cards it plays."""
    fixed_run: dict[tuple[int, int], list[Card]] = {}
    group_only: list[list[Card]] = [[] for _ in range(14)]
    for i, (rank, s) in enumerate(pos.run_jokers):
        if i not in fr.runs:
            fixed_run.setdefault((rank, s), []).append(Card(0, None, Meaning(rank, Suit(s))))
    for i, rank in enumerate(pos.group_jokers):
        if i not in fr.groups:
            group_only[rank].append(Card(0, None, Meaning(rank)))
    high = sol.run_cards[14] if rules.ace_high else None  # aces at the top of runs
    pools: list[list[list[Card]]] = [[[] for _ in range(SUITS)] for _ in range(14)]
    played: list[Card] = []
    for rank in range(1, 14):
        in_runs = sol.run_cards[rank]
        in_groups = sol.group_cards[rank]
        for s in range(SUITS):
            used = in_runs[s] + in_groups[s] + (high[s] if high is not None and rank == 1 else 0)
            if not used:
                continue  # every table card and fixed joker of a cell is used
            cell = list(fixed_run.get((rank, s), ()))
            natural = _NATURAL[rank][s]
            on_table = pos.table[rank][s]
            from_hand = used - len(cell) - on_table
            cell += [natural] * (on_table + from_hand)
            if from_hand:
                played += [natural] * from_hand
            pools[rank][s] = cell
    played += [JOKER] * sol.hand_jokers
    melds = build_melds(sol, pools, group_only, rules, {s for _, s in fixed_run})
    return melds, played


def _answer(
    pos: Position, rules: MeldRules, objective: Objective
) -> tuple[list[Meld], list[Card]] | None:
    found = _solve_position(pos, rules, objective)
    if found is None:
        return None
    sol, fr, _ = found
    return _layout(sol, fr, pos, rules)


def arrange(cards: Iterable[Card], rules: MeldRules = VATIKANEN) -> list[Meld] | None:
    """Partition all ``cards`` into valid melds (jokers wild), or None when impossible."""
    cards = [c.plain() for c in cards]
    if _big(rules):
        out = _compiled(cards, (), rules, "cards", free=True, all_table=False, layout=True)
        if out is not None:
            return _melds_of(out) if out[0] else None
    pos = position_from(cards, (), free_jokers=True)
    found = _answer(pos, rules, "cards")
    return None if found is None else found[0]


def arrange_play(
    table: Table,
    add: Iterable[Card],
    *,
    rules: MeldRules = VATIKANEN,
    free_jokers: bool = False,
) -> list[Meld] | None:
    """The whole new table: ``table`` plus all of ``add``, or None if impossible (V9, V11, V12)."""
    add = [c.plain() for c in add]
    if _big(rules):
        out = _compiled(table, add, rules, "cards", free=free_jokers, all_table=True, layout=True)
        if out is not None:
            return _melds_of(out) if out[0] else None
    pos = position_from(table, add, free_jokers=free_jokers, hand_mandatory=True)
    found = _answer(pos, rules, "cards")
    return None if found is None else found[0]


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
    if _big(rules):
        out = _compiled(table, add, rules, "cards", free=free_jokers, all_table=True, layout=False)
        if out is not None:
            return bool(out[0])
    return arrange_play(table, add, rules=rules, free_jokers=free_jokers) is not None


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
    if _big(rules):
        out = _compiled(
            table, hand, rules, objective, free=free_jokers, all_table=False, layout=True
        )
        if out is not None:
            if not out[0]:
                return None
            play = _play_of(out)
            return play if play.count else None
    hand = [c.plain() for c in hand]
    pos = position_from(table, hand, free_jokers=free_jokers)
    found = _answer(pos, rules, objective)
    if found is None or not found[1]:
        return None
    melds, played = found
    return _play(played, melds, rules)


def _play(played: list[Card], melds: Sequence[Meld], rules: MeldRules) -> Play:
    cards = tuple(sorted(played, key=lambda c: (c.suit is None, c.suit or 0, c.rank)))
    return Play(cards, tuple(melds), len(cards), sum(rules.value(c) for c in cards))


def best_opening(
    hand: Iterable[Card], *, rules: MeldRules = VATIKANEN, objective: Objective = "cards"
) -> Play | None:
    """The best single run from the hand alone, or None (V7)."""
    run = best_run([c.plain() for c in hand], rules, objective)
    if run is None:
        return None
    return _play([c.plain() for c in run.cards], [run], rules)


def warm(rules: MeldRules = VATIKANEN) -> None:
    """Load the compiled programmes that solving under ``rules`` uses, before any clock starts.

    numba loads a cached function on its first call (a few tenths of a second;
    seconds the first time on a machine).
    """
    suit_kernel.warm()
    if _big(rules):
        big_kernel.warm()
    if rank_kernel.answers(rules):
        rank_kernel.warm()


_ = MeldKind
