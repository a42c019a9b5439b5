"""The programme's state tables, built once in plain Python (:class:`.state.Tables`)."""

from __future__ import annotations

from rummykit.solver.counts import NEXT, RUN_STATES, SUITS
from rummykit.solver.groups import group_automaton

__all__ = ["EMPTY", "dominators", "flat_tables", "groups_of_distinct_suits", "trim_table"]

EMPTY = RUN_STATES.index((0, 0, 0))
"""The run state with no run open."""


def trim_table() -> list[int]:
    """``[state * width + room]``: a suit's runs in progress cut to ``room`` runs going on.

    Runs shorter than three must all go on (-1 when they cannot); runs of three
    or more beyond the room end.
    """
    index = {st: i for i, st in enumerate(RUN_STATES)}
    out = []
    for n1, n2, n3 in RUN_STATES:
        for room in range(len(NEXT[0])):
            short = n1 + n2
            out.append(-1 if short > room else index[(n1, n2, min(n3, room - short))])
    return out


def dominators() -> list[int]:
    """Per run state, the states one step above it: ``out[st]..out[st + 1]`` index into the
    rest of ``out``, which lists them.

    ``(n1, n2, n3 + 1)``, ``(n1 - 1, n2 + 1, n3)`` and ``(n1, n2 - 1, n3 + 1)`` (runs of
    length 1, 2, 3 or more) carry on at least as well as ``(n1, n2, n3)``: one more run
    that may end at once, or one run a card longer. Whatever completes the lower state
    completes the higher. (Looking up every state above, not only those one step up,
    found 1-2% fewer states in 1.2-1.3x the time; see docs/solver.md.)
    """
    index = {st: i for i, st in enumerate(RUN_STATES)}
    lists = []
    for n1, n2, n3 in RUN_STATES:
        above = ((n1, n2, n3 + 1), (n1 - 1, n2 + 1, n3), (n1, n2 - 1, n3 + 1))
        lists.append([index[st] for st in above if st in index])
    n = len(RUN_STATES)
    out = [0] * (n + 1)
    at = n + 1
    for st, row in enumerate(lists):
        out[st] = at
        at += len(row)
    out[n] = at
    for row in lists:
        out += row
    return out


def groups_of_distinct_suits() -> tuple[list[int], list[int]]:
    """The automaton of groups of 3-4 distinct suits (Rummikub), flat: its step per suit,
    class and cards given (``(suit * classes + class) * 5 + cards``), and whether a class
    after the last suit fits with ``jokers`` (``class * 5 + jokers``).

    See :func:`rummykit.solver.groups.group_automaton`.
    """
    step, table = group_automaton(4)
    width = max(map(len, step))
    flat_step = [-1] * (SUITS * width * 5)
    for s, rows in enumerate(step):
        for cls, row in enumerate(rows):
            for g, nxt in enumerate(row):
                flat_step[(s * width + cls) * 5 + g] = nxt
    flat_fits = [int(ok) for row in table for ok in row]
    return flat_step, flat_fits


def flat_tables() -> tuple[list[int], ...]:
    """The fields of :class:`.state.Tables`, in order, as lists."""
    gstep, fits = groups_of_distinct_suits()
    return (
        [x for row in NEXT for x in row],
        trim_table(),
        [sum(st) for st in RUN_STATES],
        [2 * n1 + n2 for n1, n2, _ in RUN_STATES],
        dominators(),
        gstep,
        fits,
    )
