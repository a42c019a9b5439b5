"""An integer programme for the best play (pulp + HiGHS): a second, independent oracle.

Runs are counted per suit and interval of positions; each rank has one group
(Vatikanen, Kontrakt: any size, suits may repeat) or up to two groups of 3-4
distinct suits (Rummikub). Table jokers that keep their meaning are cards of
their cell (run jokers) or group-only cards (group jokers); which of them a
play frees is enumerated outside the programme, as in V11/V12. For at most two
jokers in play (every meld then has a natural card).
"""

from __future__ import annotations

import itertools
from collections import Counter

import pulp

from rummykit.cards import JOKER, Card, Suit
from rummykit.melds import Meld, MeldRules

BIG = 4096


def ilp_best(
    table: list[Meld],
    hand: list[Card],
    rules: MeldRules,
    objective: str = "cards",
    free_jokers: bool = False,
) -> tuple[int, int] | None:
    """(cards, points) of the best non-empty play, or None (no card can be added)."""
    naturals = Counter((c.rank, int(c.suit)) for m in table for c in m.cards if c.suit is not None)
    fixed: list[tuple[int, int | None]] = []
    wild_table = 0
    for m in table:
        for c in m.cards:
            if c.suit is None:
                if free_jokers or c.stands_for is None:
                    wild_table += 1
                else:
                    s = c.stands_for.suit
                    fixed.append((c.stands_for.rank, None if s is None else int(s)))
    best: tuple[int, int] | None = None
    for size in range(len(fixed), -1, -1):
        for freed in itertools.combinations(range(len(fixed)), size):
            got = _solve(naturals, fixed, freed, wild_table, hand, rules, objective)
            if got is not None and got[0] > 0:
                score = got if objective == "cards" else (got[1], got[0])
                cur = None if best is None else (best if objective == "cards" else best[::-1])
                if cur is None or score > cur:
                    best = got
    return best


def _solve(
    naturals: Counter[tuple[int, int]],
    fixed: list[tuple[int, int | None]],
    freed: tuple[int, ...],
    wild_table: int,
    hand: list[Card],
    rules: MeldRules,
    objective: str,
) -> tuple[int, int] | None:
    npos = 14 if rules.ace_high else 13
    prob = pulp.LpProblem("play", pulp.LpMaximize)
    hand_n = Counter((c.rank, int(c.suit)) for c in hand if c.suit is not None)
    hand_j = sum(1 for c in hand if c.suit is None)
    cells = [(r, s) for r in range(1, 14) for s in range(4)]
    play = {
        (r, s): pulp.LpVariable(f"h_{r}_{s}", 0, hand_n[(r, s)], cat="Integer") for r, s in cells
    }
    play_j = pulp.LpVariable("hj", 0, hand_j, cat="Integer")
    fixed_cell: Counter[tuple[int, int]] = Counter()
    fixed_group: Counter[int] = Counter()
    need_cell: Counter[tuple[int, int]] = Counter()
    need_rank: Counter[int] = Counter()
    for i, (r, s) in enumerate(fixed):
        if i in freed:
            need_rank[r] += 1
            if s is not None:
                need_cell[(r, s)] += 1
        elif s is None:
            fixed_group[r] += 1
        else:
            fixed_cell[(r, s)] += 1
    for (r, s), n in need_cell.items():
        prob += naturals[(r, s)] + play[(r, s)] >= n
    for r, n in need_rank.items():
        prob += pulp.lpSum(naturals[(r, s)] + play[(r, s)] for s in range(4)) >= n
    wild = wild_table + len(freed) + play_j
    # runs: count per suit and interval; cells filled by cards or wild jokers
    runs = {}
    for s in range(4):
        for a in range(1, npos + 1):
            for b in range(a + 2, npos + 1):
                runs[(s, a, b)] = pulp.LpVariable(f"run_{s}_{a}_{b}", 0, 4, cat="Integer")
    run_card = {}
    run_joker = {}
    for s in range(4):
        for p in range(1, npos + 1):
            run_card[(p, s)] = pulp.LpVariable(f"rc_{p}_{s}", 0, 3, cat="Integer")
            run_joker[(p, s)] = pulp.LpVariable(f"rj_{p}_{s}", 0, 3, cat="Integer")
            cover = [v for (ss, a, b), v in runs.items() if ss == s and a <= p <= b]
            prob += pulp.lpSum(cover) == run_card[(p, s)] + run_joker[(p, s)]
    group_card = {}
    group_jokers = []
    for r in range(1, 14):
        k_max = 1 if rules.max_group_size is None else 2
        on = [pulp.LpVariable(f"on_{r}_{k}", cat="Binary") for k in range(k_max)]
        gj = [pulp.LpVariable(f"gj_{r}_{k}", 0, 3, cat="Integer") for k in range(k_max)]
        gf = [pulp.LpVariable(f"gf_{r}_{k}", 0, 3, cat="Integer") for k in range(k_max)]
        prob += pulp.lpSum(gf) == fixed_group[r]
        group_jokers += gj
        gc = {}
        for s in range(4):
            for k in range(k_max):
                up = 1 if rules.group_distinct_suits else 3 * rules.packs
                gc[(s, k)] = pulp.LpVariable(f"gc_{r}_{s}_{k}", 0, up, cat="Integer")
            group_card[(r, s)] = pulp.lpSum(gc[(s, k)] for k in range(k_max))
        for k in range(k_max):
            size = pulp.lpSum(gc[(s, k)] for s in range(4)) + gj[k] + gf[k]
            prob += size >= 3 * on[k]
            prob += size <= (rules.max_group_size or 40) * on[k]
            prob += pulp.lpSum(gc[(s, k)] for s in range(4)) >= on[k]
            if rules.group_distinct_suits:
                for s in range(4):
                    prob += gc[(s, k)] <= on[k]
    for r, s in cells:
        positions = [r] + ([14] if r == 1 and rules.ace_high else [])
        in_runs = pulp.lpSum(run_card[(p, s)] for p in positions)
        total = naturals[(r, s)] + fixed_cell[(r, s)] + play[(r, s)]
        prob += in_runs + group_card[(r, s)] == total
        if rules.group_distinct_suits:
            pass
    prob += pulp.lpSum(run_joker.values()) + pulp.lpSum(group_jokers) == wild
    values = {r: rules.value(Card(r, Suit.CLUBS)) for r in range(1, 14)}
    jv = rules.value(JOKER)
    count = pulp.lpSum(play.values()) + play_j
    points = pulp.lpSum(values[r] * play[(r, s)] for r, s in cells) + jv * play_j
    prob += BIG * count + points if objective == "cards" else BIG * points + count
    status = prob.solve(pulp.HiGHS(msg=False))
    if pulp.LpStatus[status] != "Optimal":
        return None
    n = round(sum(v.value() for v in play.values()) + play_j.value())
    pts = round(sum(values[r] * play[(r, s)].value() for r, s in cells) + jv * play_j.value())
    return n, pts
