"""The joint programme: the exact dynamic programme over run positions, the chain's last path.

The table and the hand are reduced to counts per (rank, suit) cell
(:class:`.counts.Counts`); the programme walks the run positions 1..13 (1..14
when an ace may be high, V5) and decides, per suit, how many cards of the cell
sit in runs; what is left of a rank goes to its group. A suit's runs in
progress are the canonical states of :mod:`.counts`. Within a position the
suits are decided one after another, so that partial choices that agree
merge; choices that are dominated (a run ended that could go on at no cost)
are never made. Exact whatever the jokers and copies, and slow: it answers
what the faster paths decline. See ``docs/solver.md`` for the design.
"""

from __future__ import annotations

from rummykit.solver.counts import CLOSED, MAX_OPEN, NEXT, OPEN, RUN_STATES, SUITS, Counts, Solution

__all__ = ["solve", "solve_case"]

# An option for one suit at one position:
# (new state, cards in runs, jokers in runs, cards in group, gain, group naturals,
#  naturals used, ended runs that could have gone on)
Option = tuple[int, int, int, int, int, int, int, int]


def _group_ok(cp: Counts, total: int, nat: int, cmax: int) -> bool:
    """Whether a rank's ``total`` group cards (``nat`` natural, at most ``cmax`` of one suit)
    form its group, or groups of distinct suits."""
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


def _options(
    cp: Counts, st: int, mode: int, rank: int, s: int, u0: int, jleft: int, hasg: int
) -> list[Option]:
    """What one suit may do at one position. ``mode``: 0 group off, 1 group on, 2 aces low.

    A wild joker never takes a run cell while a card of that cell stays out of
    the runs, once a group exists to take the joker instead (the swap is as good).
    """
    m = cp.mand[rank][s]
    a = m + cp.opt[rank][s]
    fj = cp.fixed[rank][s]
    w = cp.weight[rank]
    cap = a - u0
    base, flag = st >> 1, st & 1
    nxt = NEXT[base]
    have = OPEN[base]
    keep = min(have, cap)
    out: list[Option] = []
    for js in range(jleft + 1):
        for xc in range(max(0, m - u0) if mode == 0 else 0, cap + 1):
            x = xc + js
            if x > MAX_OPEN or nxt[x] < 0:
                continue
            ns = nxt[x] << 1
            if x == 0:
                if flag:
                    continue  # a run of jokers only: no natural card (house rule)
            elif cp.joker_runs and xc <= fj and (flag or have == 0):
                ns |= 1
            if mode == 2:
                out.append((ns, xc, js, 0, 0, 0, 0, 0))
                continue
            if js and xc < cap and cp.big_groups and (hasg or (mode == 1 and cap - xc >= 2)):
                continue
            ended = 1 if xc < keep - js else 0
            if mode == 0:
                if ended and xc + 1 <= cap:
                    continue  # dominated: one more card keeps a run going, and scores
                used = u0 + xc
                out.append((ns, xc, js, 0, (used - m) * w, 0, used - fj, 0))
            elif cp.big_groups:
                c = cap - xc
                fixed_in_group = max(0, fj - u0 - xc)
                out.append((ns, xc, js, c, (a - m) * w, c - fixed_in_group, a - fj, ended))
            else:
                for c in range(max(0, m - u0 - xc), cap - xc + 1):
                    used = u0 + xc + c
                    fixed_in_group = max(0, fj - u0 - xc)
                    out.append((ns, xc, js, c, (used - m) * w, c - fixed_in_group, used - fj, 0))
    return out


Key = tuple[int, ...]
"""A state: four suit states, four counts of aces used low, jokers placed, a group exists."""
Back = tuple[Key, tuple[int, ...]] | None
"""The way back to a state: the state before it and the choice made, or None at the start."""


def solve_case(cp: Counts, floor: int | None = None) -> Solution | None:
    """The chain's last path (:mod:`.chain`): the best answer of one freeing case, or None.

    ``floor`` is not used: the programme finds the best answer in any case, and
    the chain keeps it only when it beats the best so far.
    """
    return solve(cp)


def solve(cp: Counts) -> Solution | None:
    """The best placement of the cards, or None when the mandatory ones cannot be placed."""
    npos = 14 if cp.ace_high else 13
    jmax = cp.wild_mand + cp.wild_opt
    empty = RUN_STATES.index((0, 0, 0)) << 1
    # key: 4 suit states, 4 aces used low, jokers placed, has a group
    start: Key = (empty,) * SUITS + (0,) * SUITS + (0, 0)
    layers: list[dict[Key, tuple[int, Back]]] = [{start: (0, None)}]
    # per position and mode, the partial layers (for the way back)
    partials: dict[tuple[int, int], list[dict[Key, tuple[int, Back]]]] = {}
    opt_cache: dict[tuple[int, ...], list[Option]] = {}
    for p in range(1, npos + 1):
        rank = 1 if p == 14 else p
        check = not (cp.ace_high and p == 1)
        high = cp.ace_high and p == 14
        cur: dict[Key, tuple[int, Back]] = {}
        for mode in (0, 1) if check else (2,):
            if mode == 0 and cp.gmand[rank]:
                continue
            # partial key: key (suits < s already new) + (gsum, gnat, cmax, natused, ended)
            layer: dict[Key, tuple[int, Back]] = {}
            for key, (score, _b) in layers[-1].items():
                layer[(*key, 0, 0, 0, 0, 0)] = (score, (key, ()))
            part_layers = [layer]
            partials[(p, mode)] = part_layers
            for s in range(SUITS):
                nlayer: dict[Key, tuple[int, Back]] = {}
                for pk, (score, _b) in layer.items():
                    placed = pk[8]
                    u0 = pk[4 + s] if high else 0
                    ck = (pk[s], mode, rank, s, u0, jmax - placed, pk[9])
                    opts = opt_cache.get(ck)
                    if opts is None:
                        opts = _options(cp, pk[s], mode, rank, s, u0, jmax - placed, pk[9])
                        opt_cache[ck] = opts
                    gsum, gnat, cmax, natu, ended = pk[10:15]
                    for ns, xc, js, c, gain, gn, nu, en in opts:
                        k = list(pk)
                        k[s] = ns
                        if mode == 2:
                            k[4 + s] = xc
                        k[8] = placed + js
                        if mode:
                            k[10] = min(gsum + c, 5) if cp.big_groups else gsum + c
                            k[11] = min(gnat + gn, 2)
                            k[12] = max(cmax, c)
                            k[14] = min(ended + en, 1)
                        k[13] = min(natu + nu, cp.natmin[rank])
                        nk = tuple(k)
                        nscore = score + gain
                        old = nlayer.get(nk)
                        if old is None or nscore > old[0]:
                            nlayer[nk] = (nscore, (pk, (ns, xc, js, c)))
                layer = nlayer
                part_layers.append(layer)
            for pk, (score, _b) in layer.items():
                gsum, gnat, cmax, natu, ended = pk[10:15]
                if mode != 2 and natu < cp.natmin[rank]:
                    continue
                placed = pk[8]
                hasg = pk[9]
                jgs = [0]
                if mode == 1:
                    jgs = []
                    if cp.big_groups:
                        if ended and gsum - 1 + cp.gmand[rank] >= 3 and gnat >= 2:
                            continue  # dominated: a run ended only to feed the group
                        need = max(0, 3 - gsum - cp.gmand[rank])
                        if need <= jmax - placed:
                            jgs = [need]
                    else:
                        jgs = list(range(jmax - placed + 1))
                for jg in jgs:
                    if mode == 1 and not _group_ok(cp, gsum + cp.gmand[rank] + jg, gnat, cmax):
                        continue
                    nk = (*pk[:8], placed + jg, 1 if hasg or mode == 1 else 0)
                    old = cur.get(nk)
                    if old is None or score > old[0]:
                        cur[nk] = (score, (pk, (mode, jg)))
        if cp.big_groups and jmax:
            _drop_spent_jokers(cur)
        layers.append(cur)
    best: tuple[int, Key] | None = None
    for key, (score, _b) in layers[-1].items():
        if any(key[s] not in CLOSED for s in range(SUITS)):
            continue
        placed = jmax if (key[9] and cp.big_groups) else key[8]
        if placed < cp.wild_mand:
            continue
        total = score + (placed - cp.wild_mand) * cp.wjoker
        if best is None or total > best[0]:
            best = (total, key)
    if best is None:
        return None
    return _walk_back(cp, best, layers, partials, npos)


def _drop_spent_jokers(cur: dict[Key, tuple[int, Back]]) -> None:
    """Once a group exists, spare jokers can always join it: fewer placed is no worse."""
    drop = []
    for key, (score, _b) in cur.items():
        if key[9] and key[8]:
            for fewer in range(key[8]):
                other = cur.get((*key[:8], fewer, 1))
                if other is not None and other[0] >= score:
                    drop.append(key)
                    break
    for key in drop:
        del cur[key]


def _walk_back(
    cp: Counts,
    best: tuple[int, Key],
    layers: list[dict[Key, tuple[int, Back]]],
    partials: dict[tuple[int, int], list[dict[Key, tuple[int, Back]]]],
    npos: int,
) -> Solution:
    """The answer of the best final state ``best``: its choices, read back position by position."""
    total, key = best
    jmax = cp.wild_mand + cp.wild_opt
    extra = jmax - key[8] if (key[9] and cp.big_groups) else 0
    sol = Solution(
        score=total + cp.base,
        run_cards=[[0] * SUITS for _ in range(npos + 1)],
        run_jokers=[[0] * SUITS for _ in range(npos + 1)],
        group_cards=[[0] * SUITS for _ in range(14)],
        group_jokers=[0] * 14,
        hand_jokers=key[8] + extra - cp.wild_mand,
    )
    for p in range(npos, 0, -1):
        rank = 1 if p == 14 else p
        back = layers[p][key][1]
        assert back is not None
        pk, (mode, jg) = back
        sol.group_jokers[rank] += jg
        part = partials[(p, mode)]
        for s in range(SUITS - 1, -1, -1):
            back2 = part[s + 1][pk][1]
            assert back2 is not None
            pk, (_ns, xc, js, c) = back2
            sol.run_cards[p][s] = xc
            sol.run_jokers[p][s] = js
            sol.group_cards[rank][s] += c
        back0 = part[0][pk][1]
        assert back0 is not None
        key = back0[0]
    if extra:
        for rank in range(1, 14):
            if sum(sol.group_cards[rank]) + sol.group_jokers[rank] + cp.gmand[rank]:
                sol.group_jokers[rank] += extra
                break
    return sol
