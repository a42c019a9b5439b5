"""The fallback chain: which path answers a question, in order (V8-V12).

Every public question of :mod:`rummykit.solver` comes here as the same few
facts - a table, the cards to add, the rules, the objective, whether table
jokers are wild, whether every card must go, whether to lay the answer out -
and :func:`answer` asks the paths in turn; the first that answers wins. A path
that cannot answer within its limits raises :class:`.counts.TooHard`.

1. **The programme over ranks** (:mod:`.programme`), one compiled call for the
   whole question: every question with at most two jokers in play, under
   every preset. It declines more jokers, more copies of a card than its
   states hold, and searches past its budget.
2. **Per freeing case, in Python** (:func:`by_cases`): which table jokers a
   play frees is enumerated (V11, :mod:`.model`), and each case goes down
   :data:`CASE_PATHS`: the rank programme for groups of distinct suits
   (Rummikub, with numba: :mod:`.rank_kernel`), the split search
   (:mod:`.split`), the joint programme (:mod:`.dp`, which always answers).
   The best case is laid out as melds (:mod:`.layout`).

Every path is exact: they differ in speed and in which answer of equal score
they give (the tie-break), which is why the order is fixed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Literal, NamedTuple

from rummykit.cards import JOKER, Card
from rummykit.melds import Meld, MeldRules
from rummykit.solver import dp, programme, rank_kernel, split
from rummykit.solver.counts import Counts, Solution, TooHard
from rummykit.solver.layout import lay_out
from rummykit.solver.model import (
    Freeing,
    Position,
    configure,
    forced_cards,
    freeing_cases,
    position_from,
    weights,
)
from rummykit.solver.programme.cards import NATURAL, Table, melds_of, played_of, table_codes

__all__ = ["CASE_PATHS", "Answer", "Objective", "answer", "by_cases", "by_programme"]

Objective = Literal["cards", "points"]


class Answer(NamedTuple):
    """An answer: the whole new table, the hand cards laid (natural ones by suit and rank,
    then the jokers) and their points. Without a layout, no melds."""

    melds: list[Meld]
    played: list[Card]
    points: int


CasePath = Callable[[Counts, int | None], Solution | None]
"""A path for one freeing case: its best solution scoring more than the floor, None when
there is none; :class:`.counts.TooHard` when it cannot tell."""

CASE_PATHS: tuple[CasePath, ...] = (rank_kernel.solve_case, split.solve_case, dp.solve_case)
"""The paths of a freeing case, in order (the last always answers)."""


def answer(
    table: Table | Iterable[Card],
    cards: list[Card],
    rules: MeldRules,
    objective: Objective,
    *,
    free: bool,
    all_placed: bool,
    layout: bool,
) -> Answer | None:
    """The best answer to one question, or None when there is none.

    ``table``: the cards that must stay; ``cards``: those that may be added (all of
    them when ``all_placed``); ``free``: table jokers are wild; ``layout``: lay the
    answer out as melds (else only whether there is one, and its cards).
    """
    try:
        return by_programme(
            table, cards, rules, objective, free=free, all_placed=all_placed, layout=layout
        )
    except TooHard:
        return by_cases(table, cards, rules, objective, free=free, all_placed=all_placed)


def by_programme(
    table: Table | Iterable[Card],
    cards: list[Card],
    rules: MeldRules,
    objective: Objective,
    *,
    free: bool,
    all_placed: bool,
    layout: bool,
) -> Answer | None:
    """The first path: the programme over ranks, the whole question in one call."""
    if not programme.handles(rules):
        raise TooHard("not a preset of the programme over ranks")
    out = programme.ask(
        table_codes(table),
        programme.codes(cards),
        _kernel_weights(rules, objective),
        free=free,
        all_table=all_placed,
        high=rules.ace_high,
        layout=layout,
        distinct=rules.group_distinct_suits,
    )
    if out is None:
        raise TooHard("the programme over ranks declined")
    if not out[0]:
        return None
    if not layout:
        return Answer([], [], 0)
    return Answer(melds_of(out), played_of(out), out[1])


@functools.lru_cache(maxsize=16)
def _kernel_weights(rules: MeldRules, objective: str) -> tuple[int, ...]:
    """The gains of :func:`.model.weights`, then the points of a joker and of each rank."""
    gains, joker = weights(rules, objective)
    values = [rules.value(NATURAL[rank][0]) for rank in range(1, 14)]
    return (*gains, joker, rules.value(JOKER), *values)


def by_cases(
    table: Table | Iterable[Card],
    cards: list[Card],
    rules: MeldRules,
    objective: Objective,
    *,
    free: bool,
    all_placed: bool,
) -> Answer | None:
    """The second path: freeing case by freeing case, each down :data:`CASE_PATHS`, the
    best laid out as melds."""
    pos = position_from(
        table, [c.plain() for c in cards], free_jokers=free, hand_mandatory=all_placed
    )
    found = best_case(pos, rules, objective)
    if found is None:
        return None
    melds, played = lay_out(*found, pos, rules)
    played.sort(key=lambda c: (c.suit is None, c.suit or 0, c.rank))
    return Answer(melds, played, sum(rules.value(c) for c in played))


def best_case(
    pos: Position, rules: MeldRules, objective: Objective
) -> tuple[Solution, Freeing] | None:
    """The best solution over the freeing cases of ``pos`` (V11), and its case.

    Under Rummikub rules with numba the case that frees fewest jokers goes first (the
    rank programme answers it fastest, and its answer bounds the others); else the
    one that frees most. A later case counts only when it scores more; none is asked
    once an answer lays the whole hand.
    """
    best: tuple[Solution, Freeing] | None = None
    ceiling: int | None = None
    for fr, cp in freeing_cases(pos, fewest_first=rank_kernel.answers(rules)):
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
        sol = answer_case(cp, None if best is None else best[0].score)
        if sol is not None and (best is None or sol.score > best[0].score):
            best = (sol, fr)
            if sol.score >= ceiling:
                break
    return best


def answer_case(cp: Counts, floor: int | None) -> Solution | None:
    """The best solution of one freeing case scoring more than ``floor``, or None: the
    first of :data:`CASE_PATHS` that can tell."""
    for path in CASE_PATHS:
        try:
            return path(cp, floor)
        except TooHard:
            continue
    raise AssertionError("the joint programme answers every case")  # pragma: no cover
