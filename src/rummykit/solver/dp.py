"""The exact dynamic programme over run positions, on card counts (V5, V6, V12).

The table and the hand are reduced to counts per (rank, suit) cell; the
programme walks the run positions 1..13 (1..14 when an ace may be high, V5)
and decides, per suit, how many cards of the cell sit in runs; what is left of
a rank goes to its group. See ``docs/solver.md`` for the design.

A suit's runs in progress are kept canonical: runs start only where the number
of cells in runs rises and end only where it falls, and the oldest runs end
first. The state of a suit is then the triple ``(n1, n2, n3)``: open runs of
length 1, 2 and 3 or more.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

SUITS = 4


@dataclass(slots=True)
class Counts:
    """One solver problem on counts. Lists are indexed ``[rank][suit]``, rank 1..13.

    ``mand`` cards must be placed (table cards, table jokers that keep standing
    for a card, hand cards forced in to free a joker); ``opt`` cards may be
    (hand cards). ``fixed`` counts the table jokers inside ``mand``. ``gmand``
    are table jokers that stand for a rank (group only, V11); ``natmin`` the
    fewest natural cards a rank must have on the final table (to free them).
    Wild jokers: ``wild_mand`` must be placed, ``wild_opt`` may be.
    ``weight[rank]`` is the gain of an optional card, ``wjoker`` of a joker.
    """

    ace_high: bool
    big_groups: bool
    max_group: int
    distinct: bool
    mand: list[list[int]]
    opt: list[list[int]]
    fixed: list[list[int]]
    gmand: list[int]
    natmin: list[int]
    wild_mand: int
    wild_opt: int
    weight: list[int]
    wjoker: int
    base: int = 0


@dataclass(slots=True)
class Solution:
    """Where the cards go: per position and suit, per rank and suit."""

    score: int
    run_cards: list[list[int]] = field(default_factory=list)
    run_jokers: list[list[int]] = field(default_factory=list)
    group_cards: list[list[int]] = field(default_factory=list)
    group_jokers: list[int] = field(default_factory=list)
    hand_jokers: int = 0


def new_run_state(state: tuple[int, int, int], x: int) -> tuple[int, int, int] | None:
    """The suit's runs after ``x`` cells at the next position, or None if a run is cut short."""
    n1, n2, n3 = state
    if x < n1 + n2:
        return None
    have = n1 + n2 + n3
    if x >= have:
        return (x - have, n1, n2 + n3)
    return (0, n1, n2 + n3 - (have - x))


Choice = tuple[int, tuple[tuple[int, int, int], ...], int]
Key = tuple[tuple[tuple[int, int, int], ...], tuple[int, ...], int]


def _group_ok(cp: Counts, total: int, nat: int, cmax: int) -> bool:
    if total == 0:
        return True
    if nat < 1 or total < 3:
        return False
    if cp.big_groups:
        return True
    for k in range(1, nat + 1):
        if cp.distinct and cmax > k:
            continue
        if 3 * k <= total <= k * cp.max_group:
            return True
    return False


def solve(cp: Counts) -> Solution | None:
    """The best placement of the cards, or None when the mandatory ones cannot be placed."""
    npos = 14 if cp.ace_high else 13
    jmax = cp.wild_mand + cp.wild_opt
    empty = (0, 0, 0)
    start: Key = ((empty,) * SUITS, (0,) * SUITS, 0)
    layers: list[dict[Key, tuple[int, Key | None, Choice | None]]] = [{start: (0, None, None)}]
    for p in range(1, npos + 1):
        rank = 1 if p == 14 else p
        check = not (cp.ace_high and p == 1)
        cur: dict[Key, tuple[int, Key | None, Choice | None]] = {}
        for key, (score, _b, _c) in layers[-1].items():
            states, lows, placed = key
            jleft = jmax - placed
            for mode in (0, 1) if check else (2,):
                per_suit: list[list[tuple[int, int, int, int, int, tuple[int, int, int], int]]] = []
                for s in range(SUITS):
                    m = cp.mand[rank][s]
                    a = m + cp.opt[rank][s]
                    fj = cp.fixed[rank][s]
                    w = cp.weight[rank]
                    u0 = lows[s] if (cp.ace_high and p == 14) else 0
                    cap = a - u0
                    opts: list[tuple[int, int, int, int, int, tuple[int, int, int], int]] = []
                    # (xc, js, c, gain, group naturals, new state, naturals used)
                    for js in range(jleft + 1):
                        if mode == 2:
                            xcs = [(xc, 0) for xc in range(a + 1)]
                        elif mode == 0:
                            xcs = [(xc, 0) for xc in range(max(0, m - u0), cap + 1)]
                        elif cp.big_groups:
                            xcs = [(xc, cap - xc) for xc in range(cap + 1)]
                        else:
                            xcs = [
                                (xc, c)
                                for xc in range(cap + 1)
                                for c in range(max(0, m - u0 - xc), cap - xc + 1)
                            ]
                        for xc, c in xcs:
                            ns = new_run_state(states[s], xc + js)
                            if ns is None:
                                continue
                            if mode == 2:
                                opts.append((xc, js, 0, 0, 0, ns, 0))
                                continue
                            used = u0 + xc + c
                            gain = (used - m) * w
                            fixed_in_runs = min(fj, u0 + xc)
                            gnat = c - (fj - fixed_in_runs)
                            opts.append((xc, js, c, gain, gnat, ns, used - fj))
                    per_suit.append(opts)
                for combo in itertools.product(*per_suit):
                    js_tot = sum(o[1] for o in combo)
                    if js_tot > jleft:
                        continue
                    nat_used = sum(o[6] for o in combo)
                    if mode != 2 and nat_used < cp.natmin[rank]:
                        continue
                    gsum = sum(o[2] for o in combo)
                    gnat = sum(o[4] for o in combo)
                    cmax = max(o[2] for o in combo)
                    gain = sum(o[3] for o in combo)
                    new_states = tuple(o[5] for o in combo)
                    new_lows = tuple(o[0] for o in combo) if mode == 2 else lows
                    if mode == 2 or mode == 0:
                        jgs = [0]
                        if mode == 0 and cp.gmand[rank]:
                            continue
                    else:
                        jgs = list(range(jleft - js_tot + 1))
                    for jg in jgs:
                        if mode == 1:
                            total = gsum + cp.gmand[rank] + jg
                            if total == 0 or not _group_ok(cp, total, gnat, cmax):
                                continue
                        nkey: Key = (new_states, new_lows, placed + js_tot + jg)
                        nscore = score + gain
                        old = cur.get(nkey)
                        if old is None or nscore > old[0]:
                            picked: Choice = (
                                mode,
                                tuple((o[0], o[1], o[2]) for o in combo),
                                jg,
                            )
                            cur[nkey] = (nscore, key, picked)
        layers.append(cur)
    best: tuple[int, Key] | None = None
    for key, (score, _b, _c) in layers[-1].items():
        states, _lows, placed = key
        if any(st[0] or st[1] for st in states):
            continue
        hand_j = placed - cp.wild_mand
        if not 0 <= hand_j <= cp.wild_opt:
            continue
        total = score + hand_j * cp.wjoker
        if best is None or total > best[0]:
            best = (total, key)
    if best is None:
        return None
    sol = Solution(
        score=best[0] + cp.base,
        run_cards=[[0] * SUITS for _ in range(npos + 1)],
        run_jokers=[[0] * SUITS for _ in range(npos + 1)],
        group_cards=[[0] * SUITS for _ in range(14)],
        group_jokers=[0] * 14,
        hand_jokers=best[1][2] - cp.wild_mand,
    )
    key = best[1]
    for p in range(npos, 0, -1):
        _score, back, made = layers[p][key]
        assert back is not None and made is not None
        prev, choice = back, made
        rank = 1 if p == 14 else p
        _mode, per, jg = choice
        for s, (xc, js, c) in enumerate(per):
            sol.run_cards[p][s] = xc
            sol.run_jokers[p][s] = js
            sol.group_cards[rank][s] += c
        sol.group_jokers[rank] += jg
        key = prev
    return sol
