"""The fast path of the solver: suit by suit, joined by branch and bound (V5, V6, V12).

The suits are tied together only by the groups: what a rank puts
into its group must be nothing, or at least three cards with a natural one.
Everything else — runs, aces low or high, jokers in runs — is a matter of one
suit. So each suit is solved alone by a small programme over its positions,
with the group of every rank that could hold one taking whatever the suit
leaves out of its runs. That is a relaxation: its value bounds the optimum
from above. When the suits' answers also make every rank's group valid, the
bound is reached and the answer is exact; when a rank's group is not valid,
the search branches on that rank (its group is off, or it takes at least so
many cards of given suits) and solves the suits again. Nodes are taken best
bound first, so the first answer that checks is optimal.

Rummikub groups (3-4 distinct suits) have an upper size, so a rank may hold
several groups and each cell may give its group any count in bounds; the
check asks whether the rank's counts split into groups, and the search
branches on the exact count vectors of a rank that does not.

Late in a game almost every rank is thick with cards and the first node
checks; in the rare position where the search grows, it raises
:class:`.counts.TooHard` and the joint programme of :mod:`.dp` answers.
"""

from __future__ import annotations

import functools
import heapq
import itertools
from collections.abc import Iterator, Sequence

from rummykit.solver import suit_kernel
from rummykit.solver.counts import MUST, NEXT, RUN_STATES, SUITS, Counts, Solution, TooHard

__all__ = ["solve_case", "split_search"]

_EMPTY = RUN_STATES.index((0, 0, 0))
_CLOSED = frozenset(i for i, (n1, n2, _) in enumerate(RUN_STATES) if n1 == 0 and n2 == 0)
_TIE = 1024
"""Scale of the objective over the tie-break that keeps cards out of runs."""
MAX_NODES = 2000
"""Nodes the search may open before it gives the position to the joint programme."""


class _Spare(Exception):
    """Spare jokers of a relaxed answer find no group with room (bounded groups)."""


Bounds = tuple[tuple[int, int, int], ...]
"""Per rank 0..13 of one suit: (fewest, most) cards of the cell in the rank's group, and
the fewest cards of the cell placed in all (runs and group)."""
Path = tuple[tuple[int, int, int], ...]
"""Per position 0..npos of one suit: (naturals in runs, jokers in runs, cards in group)."""
SuitAnswer = list[tuple[int, int, Path] | None]
"""Per jokers in runs j: (value with tie-break, value, path), or None."""
Node = tuple[tuple[Bounds, ...], tuple[int, ...]]
"""A search node: every suit's group bounds; per rank, jokers kept out of runs for its group."""
Split = tuple[int, bool]
"""A rank whose group is not valid, and whether what it lacks is a natural card."""
Relaxed = tuple[int, int, list[Path], list[int]]
Cell = tuple[int, int, int]
"""One cell's bounds: see :data:`Bounds`."""
Kid = tuple[tuple[Cell, ...], tuple[int, ...]]
"""A child of a node, split on one rank: that rank's cell in each suit, and the reserve."""
"""A relaxed answer: (score with tie-break, value, each suit's path, jokers in each suit's runs)."""


_NST = len(RUN_STATES)


def _cell_options(
    m: int,
    a: int,
    a1: int,
    glo: int,
    ghi: int,
    umin: int,
    w: int,
    high_end: bool,
    every_g: bool = False,
) -> list[tuple[int, int, int, int]]:
    """(naturals in runs, cards in group, score gain, value gain) for one cell.

    ``a1`` aces of the cell were already used low (only at the high end, V5);
    at least ``umin`` of the cell's cards are placed.
    A group without an upper size takes all it may: more never hurts it. Where
    groups have an upper size (``every_g``), every count in bounds is an option.
    """
    floor = m - a1 if m > a1 else 0
    avail = a - a1
    out = []
    for xn in range(avail + 1):
        top = avail - xn if avail - xn < ghi else ghi
        low = max(glo, floor - xn, 0) if every_g else top
        for g in range(low, top + 1):
            if g < glo or g < floor - xn:
                continue
            used = xn + g + (a1 if high_end else 0)
            if used < umin:
                continue
            gain = (used - m) * w if used > m else 0
            tie = (0 if g == 1 else 1) if every_g else (xn if ghi > 0 else 0)
            out.append((xn, g, gain * _TIE - tie, gain))
    return out


Layer = dict[int, tuple[int, int, object]]
"""One position of a suit's programme: state -> (score, value, way back)."""


def _suit(
    cp: Counts,
    s: int,
    bounds: Bounds,
    jmax: int,
    npos: int,
    prefixes: dict[tuple[int, int, Bounds], Layer],
) -> SuitAnswer:
    """The best placement of one suit's cells for each number of jokers in its runs.

    A state is one int: run state + _NST * (jokers in runs + (jmax + 1) * aces used low).
    Position p depends only on the bounds of the ranks up to p, so the layers
    are shared through ``prefixes`` between search nodes that differ later.
    """
    high = cp.ace_high
    every_g = not cp.big_groups
    jw = jmax + 1
    layer: Layer = {_EMPTY: (0, 0, None)}
    layers = [layer]
    for p in range(1, npos + 1):
        pkey = (s, p, bounds[: min(p, 13) + 1])
        cached = prefixes.get(pkey)
        if cached is not None:
            layer = cached
            layers.append(layer)
            continue
        rank = 1 if p == 14 else p
        m = cp.mand[rank][s]
        a = m + cp.opt[rank][s]
        glo, ghi, umin = bounds[rank]
        low_pass = high and p == 1
        by_a1 = {0: [(xn, 0, 0, 0) for xn in range(a + 1)]} if low_pass else {}
        new: Layer = {}
        for key, (score, value, _b) in layer.items():
            st = key % _NST
            rest = key // _NST
            j = rest % jw
            a1 = rest // jw
            opts = by_a1.get(a1)
            if opts is None:
                opts = _cell_options(
                    m,
                    a,
                    a1 if p == 14 else 0,
                    glo,
                    ghi,
                    umin,
                    cp.weight[rank],
                    p == 14,
                    every_g,
                )
                by_a1[a1] = opts
            nxt = NEXT[st]
            must = MUST[st]
            top = len(nxt)
            keep_a1 = 0 if p == 14 else a1
            for xj in range(jw - j):
                jn = j + xj
                for xn, g, dscore, dvalue in opts:
                    x = xn + xj
                    if x < must or x >= top:
                        continue
                    ns = nxt[x]
                    if ns < 0:
                        continue
                    nkey = ns + _NST * (jn + jw * (xn if low_pass else keep_a1))
                    nscore = score + dscore - 2 * xj
                    old = new.get(nkey)
                    if old is None or nscore > old[0]:
                        new[nkey] = (nscore, value + dvalue, (key, xn, xj, g))
        layer = new
        layers.append(layer)
        prefixes[pkey] = layer
    out: SuitAnswer = [None] * jw
    for key, (score, value, _b) in layer.items():
        if key % _NST not in _CLOSED:
            continue
        j = (key // _NST) % jw
        best = out[j]
        if best is None or score > best[0]:
            out[j] = (score, value, _walk(layers, key))
    return out


def _walk(layers: list[Layer], key: int) -> Path:
    """The path to the final state ``key``, read back through the layers."""
    path: list[tuple[int, int, int]] = []
    for p in range(len(layers) - 1, 0, -1):
        back = layers[p][key][2]
        assert isinstance(back, tuple)
        key, xn, xj, g = back
        path.append((xn, xj, g))
    path.append((0, 0, 0))
    path.reverse()
    return tuple(path)


class _Search:
    """Best-bound-first branch and bound over the rank groups."""

    def __init__(self, cp: Counts) -> None:
        """A search of the freeing case ``cp`` (nothing is solved yet)."""
        self.cp = cp
        self.npos = 14 if cp.ace_high else 13
        self.jmax = cp.wild_mand + cp.wild_opt
        self.bounded = not cp.big_groups
        self.cache: dict[tuple[int, Bounds], SuitAnswer] = {}
        self.prefixes: dict[tuple[int, int, Bounds], Layer] = {}
        self.cells = suit_kernel.suit_cells(cp) if suit_kernel.ready() else None
        self._root: tuple[Bounds, ...] | None = None
        self.natmin_ranks = [r for r in range(1, 14) if cp.natmin[r] > 0]

    def root(self) -> tuple[Bounds, ...]:
        """Every cell's group bounds before any split: all its cards where the rank
        has enough cards and jokers for a group, none where it has not."""
        if self._root is None:
            self._root = self._make_root()
        return self._root

    def _make_root(self) -> tuple[Bounds, ...]:
        """:meth:`root`, worked out."""
        cp = self.cp
        distinct = self.bounded and cp.distinct
        cells = [[0] * SUITS] + [
            [cp.mand[rank][t] + cp.opt[rank][t] for t in range(SUITS)] for rank in range(1, 14)
        ]
        caps: list[list[int]] = [[0] * SUITS]
        for rank in range(1, 14):
            row = cells[rank]
            total = sum(row)
            room = total + cp.gmand[rank] + self.jmax
            if distinct:
                thick = sum(1 for a in row if a) + cp.gmand[rank] + self.jmax >= 3 and total > 0
                # a suit gives at most one card to each group of the rank
                caps.append([min(a, room // 3) if thick else 0 for a in row])
            else:
                thick = room >= 3 and total > 0
                caps.append([a if thick else 0 for a in row])
        out = []
        for s in range(SUITS):
            out.append(((0, 0, 0), *((0, caps[rank][s], 0) for rank in range(1, 14))))
        return tuple(out)

    def roots(self) -> list[Node]:
        """The search's first nodes: one per set of joker-made groups.

        A rank with fewer than three cards in play can hold a group only with
        jokers, and the jokers are few: rather than let the relaxation fill
        every such rank with the same jokers, each node says which of them
        have a group (the jokers they need kept out of runs) and which do
        not. Together the nodes cover every answer.
        """
        cp = self.cp
        base = self.root()
        plain: Node = (base, (0,) * 14)
        if self.bounded or self.jmax == 0:
            return [plain]
        needy: dict[int, int] = {}
        for rank in range(1, 14):
            total = sum(cp.mand[rank][t] + cp.opt[rank][t] for t in range(SUITS))
            need = 3 - total - cp.gmand[rank]
            if total > 0 and need > 0 and any(base[s][rank][1] for s in range(SUITS)):
                needy[rank] = need
        if not needy:
            return [plain]
        must = [r for r in needy if cp.gmand[r]]
        free = [r for r in needy if not cp.gmand[r]]
        out: list[Node] = []
        for k in range(len(free) + 1):
            for chosen in itertools.combinations(free, k):
                on = set(must) | set(chosen)
                if sum(needy[r] for r in on) > self.jmax:
                    continue
                off = [r for r in needy if r not in on]
                bounds = base
                for r in off:
                    bounds = _with(bounds, r, [(0, 0)] * SUITS)
                reserve = tuple(needy[r] if r in on else 0 for r in range(14))
                out.append((bounds, reserve))
        return out

    def suit(self, s: int, bounds: Bounds) -> SuitAnswer:
        """Suit ``s``'s answers under its group bounds, per jokers in its runs (cached):
        the compiled suit programme where it is ready, else the Python one."""
        key = (s, bounds)
        got = self.cache.get(key)
        if got is None:
            if self.cells is None:
                got = _suit(self.cp, s, bounds, self.jmax, self.npos, self.prefixes)
            else:
                got = suit_kernel.solve_suit(
                    self.cells[s], bounds, self.npos, self.cp.ace_high, self.bounded, self.jmax
                )
            self.cache[key] = got
        return got

    def _choices(self, node: Node) -> Iterator[tuple[list[int], list[tuple[int, int, Path]]]]:
        """Each way to combine the suits' answers within the jokers the node leaves for
        runs: (jokers in each suit's runs, each suit's answer)."""
        bounds, reserve = node
        answers = [self.suit(s, bounds[s]) for s in range(SUITS)]
        cap = self.jmax - sum(reserve)
        ranges = [[j for j, a in enumerate(ans) if a is not None] for ans in answers]
        for js in itertools.product(*ranges):
            if sum(js) <= cap:
                yield list(js), [a for s, j in enumerate(js) if (a := answers[s][j]) is not None]

    def relax(self, node: Node) -> Relaxed | None:
        """The relaxation's best (score, value, paths, jokers in runs per suit), or None."""
        best: Relaxed | None = None
        for js, got in self._choices(node):
            score = sum(g[0] for g in got)
            if best is None or score > best[0]:
                best = (score, sum(g[1] for g in got), [g[2] for g in got], js)
        return best

    def relax_all(self, node: Node) -> list[Relaxed]:
        """Every combination of the suits' answers over jokers in runs, best first."""
        out: list[Relaxed] = [
            (sum(g[0] for g in got), sum(g[1] for g in got), [g[2] for g in got], js)
            for js, got in self._choices(node)
        ]
        out.sort(key=lambda r: (-r[1], -r[0]))
        return out

    def tally(self, paths: list[Path]) -> tuple[list[int], list[int], list[int], list[list[int]]]:
        """Per rank: cards in its groups, natural ones among them, the most from one
        suit; and per rank and suit the cards used. :class:`TooHard` when a freed
        joker lacks its natural card."""
        cp = self.cp
        fixed = cp.fixed
        totals = [0] * 14
        naturals = [0] * 14
        gmax = [0] * 14
        used = [[0] * SUITS for _ in range(14)]
        high = self.npos == 14
        for s in range(SUITS):
            path = paths[s]
            for rank in range(1, 14):
                xn, _xj, g = path[rank]
                if rank == 1 and high:
                    xn += path[14][0]
                    g += path[14][2]
                used[rank][s] = xn + g
                if g:
                    totals[rank] += g
                    if g > gmax[rank]:
                        gmax[rank] = g
                    # table jokers of a cell go to its runs first
                    f = fixed[rank][s]
                    naturals[rank] += g - f + xn if f > xn else g
        for rank in self.natmin_ranks:
            nat_used = sum(used[rank][s] - fixed[rank][s] for s in range(SUITS))
            if nat_used < cp.natmin[rank]:
                raise TooHard("a freed joker lacks its natural card on this rank")
        return totals, naturals, gmax, used

    def check(
        self, paths: list[Path], js: list[int], reserve: tuple[int, ...]
    ) -> list[Split] | Solution:
        """A solution when every rank's group is valid, else the ranks whose group is not."""
        if self.bounded:
            return self.check_bounded(paths, js, reserve)
        cp = self.cp
        free = self.jmax - sum(js)
        totals, naturals, _gmax, used = self.tally(paths)
        jg = [0] * 14
        short = []
        bare: list[Split] = []
        for rank in range(1, 14):
            t = totals[rank] + cp.gmand[rank]
            if t == 0:
                continue
            if naturals[rank] < 1:
                # only table jokers (V11) would stand in the group: it needs a natural card
                bare.append((rank, True))
            if t < 3:
                jg[rank] = 3 - t
                short.append(rank)
        if sum(jg) > free:
            return bare + [(r, False) for r in short if jg[r] > reserve[r]]
        if bare:
            return bare
        free -= sum(jg)
        if free:
            host = next((r for r in range(1, 14) if totals[r] + cp.gmand[r] + jg[r] >= 3), None)
            if host is None:
                raise TooHard("no group to take the spare jokers")
            jg[host] += free
        return self.solution(paths, js, jg, used)

    def solution(
        self, paths: list[Path], js: list[int], jg: list[int], used: list[list[int]]
    ) -> Solution:
        """The checked answer as a :class:`Solution`, scored like the joint programme."""
        cp = self.cp
        npos = self.npos
        placed = sum(js) + sum(jg)
        sol = Solution(
            score=0,
            run_cards=[[paths[s][p][0] for s in range(SUITS)] for p in range(npos + 1)],
            run_jokers=[[paths[s][p][1] for s in range(SUITS)] for p in range(npos + 1)],
            group_cards=[[0] * SUITS for _ in range(14)],
            group_jokers=jg,
            hand_jokers=placed - cp.wild_mand,
        )
        for s in range(SUITS):
            for p in range(1, npos + 1):
                sol.group_cards[1 if p == 14 else p][s] += paths[s][p][2]
        gain = sum(
            (used[rank][s] - cp.mand[rank][s]) * cp.weight[rank]
            for rank in range(1, 14)
            for s in range(SUITS)
        )
        sol.score = gain + (placed - cp.wild_mand) * cp.wjoker + cp.base
        return sol

    def check_bounded(
        self, paths: list[Path], js: list[int], reserve: tuple[int, ...]
    ) -> list[Split] | Solution:
        """:meth:`check` where groups have an upper size (Rummikub: 3-4 distinct suits).

        A rank's cards split into k groups when max_s g_s <= k (distinct suits),
        k <= its naturals and 3k <= cards + jokers <= k * max size. Spare jokers
        go where a group has room; :class:`_Spare` when none has.
        """
        cp = self.cp
        free = self.jmax - sum(js)
        totals, naturals, gmax, used = self.tally(paths)
        jg = [0] * 14
        bad = []
        for rank in range(1, 14):
            t = totals[rank] + cp.gmand[rank]
            if t == 0:
                continue
            need = self.need(gmax[rank], t, naturals[rank])
            if need is None:
                bad.append(rank)
            else:
                jg[rank] = need
        if bad:
            return [(r, False) for r in bad]
        if sum(jg) > free:
            return [(r, False) for r in range(1, 14) if jg[r] > reserve[r]]
        spare = free - sum(jg)
        if spare and not self.place_spare(spare, jg, totals, gmax, naturals, 1):
            raise _Spare
        return self.solution(paths, js, jg, used)

    def need(self, gmax: int, total: int, nat: int) -> int | None:
        """Fewest jokers that let ``total`` cards of a rank (at most ``gmax`` of a suit,
        ``nat`` natural) form groups; None when no number does."""
        return _group_need(gmax, total, nat, self.cp.distinct, self.cp.max_group)

    def fits(self, gmax: int, total: int, nat: int) -> bool:
        """Whether ``total`` cards and jokers of a rank form groups as they are."""
        need = self.need(gmax, total, nat)
        return need == 0

    def place_spare(
        self,
        spare: int,
        jg: list[int],
        totals: list[int],
        gmax: list[int],
        naturals: list[int],
        start: int,
    ) -> bool:
        """Put ``spare`` jokers into groups of ranks >= ``start`` (in ``jg``) if they fit."""
        if spare == 0:
            return True
        cp = self.cp
        for rank in range(start, 14):
            t = totals[rank] + cp.gmand[rank] + jg[rank]
            if t == 0 or not self.fits(gmax[rank], t + 1, naturals[rank]):
                continue
            jg[rank] += 1
            if self.place_spare(spare - 1, jg, totals, gmax, naturals, rank):
                return True
            jg[rank] -= 1
        return False

    def children_bounded(self, node: Node, rank: int) -> list[Kid]:
        """Split on ``rank``'s groups: off, or each exact count per suit that can form
        groups, with the jokers it needs kept out of runs for it."""
        bounds, reserve = node
        choices = self._bounded_choices(node, rank)
        umins = [bounds[s][rank][2] for s in range(SUITS)]
        kids: list[Kid] = []
        for w, q in choices:
            more = reserve if q is None else (*reserve[:rank], q, *reserve[rank + 1 :])
            kids.append((tuple(zip(w, w, umins, strict=True)), more))
        return kids

    def _bounded_choices(self, node: Node, rank: int) -> tuple[_Choice, ...]:
        """The cards per suit and jokers kept of :meth:`children_bounded`'s children."""
        cp = self.cp
        bounds, reserve = node
        los = tuple(bounds[s][rank][0] for s in range(SUITS))
        his = tuple(bounds[s][rank][1] for s in range(SUITS))
        if los == his:
            return ()
        held = reserve[rank]
        avail = self.jmax - sum(reserve) + held
        return _group_choices(los, his, cp.gmand[rank], avail, held, cp.distinct, cp.max_group)

    def count_children(self, node: Node, rank: int, natural: bool) -> tuple[int, list[Kid] | None]:
        """How many children :meth:`children` gives, and the children where counting
        them meant building them (None where a bounded group's are only counted)."""
        if self.bounded and not natural:
            return len(self._bounded_choices(node, rank)), None
        kids = self.children(node, rank, natural)
        return len(kids), kids

    def children(self, node: Node, rank: int, natural: bool = False) -> list[Kid]:
        """Split on ``rank``'s group: off; or on, with at least so many cards from given
        suits and so many jokers kept out of runs for it (``natural``: with a natural
        card of a given suit)."""
        if natural:
            return self.children_natural(node, rank)
        if self.bounded:
            return self.children_bounded(node, rank)
        cp = self.cp
        bounds, reserve = node
        his = [bounds[s][rank][1] for s in range(SUITS)]
        los = [bounds[s][rank][0] for s in range(SUITS)]
        umins = [bounds[s][rank][2] for s in range(SUITS)]
        kids: list[Kid] = []
        held = reserve[rank]
        if cp.gmand[rank] == 0 and sum(los) == 0 and held == 0:
            kids.append((tuple((0, 0, u) for u in umins), reserve))
        want = 3 - cp.gmand[rank]
        spare = self.jmax - sum(reserve)
        for q in range(held, min(held + spare, want - 1) + 1):
            k = max(1, want - q)
            more = (*reserve[:rank], q, *reserve[rank + 1 :])
            for w in _compositions(k, his):
                floors = [max(w[s], los[s]) for s in range(SUITS)]
                if q == held and floors == los:
                    continue
                kids.append((tuple(zip(floors, his, umins, strict=True)), more))
        return kids

    def children_natural(self, node: Node, rank: int) -> list[Kid]:
        """Split on whether ``rank``'s group holds a natural card (V11: table jokers alone
        do not make a meld): off, or on with one from suit s for each s that has one.

        A natural card of a cell goes to the group exactly when the group takes a card
        of the cell and the cell places more cards than it holds table jokers (those go
        to its runs first).
        """
        cp = self.cp
        bounds, reserve = node
        kids: list[Kid] = []
        if (
            cp.gmand[rank] == 0
            and reserve[rank] == 0
            and all(bounds[s][rank][0] == 0 for s in range(SUITS))
        ):
            kids.append((tuple((0, 0, bounds[s][rank][2]) for s in range(SUITS)), reserve))
        for s in range(SUITS):
            lo, hi, umin = bounds[s][rank]
            fixed = cp.fixed[rank][s]
            if hi < 1 or cp.mand[rank][s] + cp.opt[rank][s] <= fixed:
                continue
            if lo >= 1 and umin > fixed:
                continue
            cells = [bounds[t][rank] for t in range(SUITS)]
            cells[s] = (max(lo, 1), hi, max(umin, fixed + 1))
            kids.append((tuple(cells), reserve))
        return kids

    def other_checks(self, node: Node, known: Relaxed) -> list[Split] | Solution:
        """Where spare jokers found no room: the node's other answers of equal value,
        with more jokers in runs; :class:`TooHard` when none settles it."""
        for alt in self.relax_all(node):
            if alt[1] < known[1]:
                break
            if alt[3] == known[3]:
                continue
            try:
                verdict = self.check(alt[2], alt[3], node[1])
            except _Spare:
                continue
            if isinstance(verdict, Solution):
                return verdict
        raise TooHard("spare jokers find no group with room")

    @property
    def constant(self) -> int:
        """What every answer scores besides the cells: all jokers placed, forced cards."""
        cp = self.cp
        return (self.jmax - cp.wild_mand) * cp.wjoker + cp.base

    def bound(self) -> int | None:
        """An upper bound on the score of any answer (None: there is none)."""
        got = self.relax((self.root(), (0,) * 14))
        return None if got is None else got[1] + self.constant

    def run(self, floor: int | None = None) -> Solution | None:
        """The best answer, or None when there is none scoring more than ``floor``."""
        heap: list[tuple[int, int, int, Node, Relaxed | None]] = []
        counter = itertools.count(0, -1)  # among equal bounds, the newest first
        first = self.relax((self.root(), (0,) * 14))
        if first is None:
            return None
        starts = self.roots()
        for start in starts:
            heapq.heappush(heap, (-first[1], -first[0], next(counter), start, None))
        seen = set(starts)
        nodes = 0
        while heap:
            neg_value, neg_score, _i, node, known = heapq.heappop(heap)
            if floor is not None and self.constant - neg_value <= floor:
                return None
            if known is None:
                # children wait under their parent's bound until they come up
                known = self.relax(node)
                if known is None:
                    continue
                if (known[1], known[0]) < (-neg_value, -neg_score):
                    heapq.heappush(heap, (-known[1], -known[0], next(counter), node, known))
                    continue
            nodes += 1
            if nodes > MAX_NODES:
                raise TooHard("the search grew past its node limit")
            _score, _value, paths, js = known
            try:
                verdict = self.check(paths, js, node[1])
            except _Spare:
                verdict = self.other_checks(node, known)
            if isinstance(verdict, Solution):
                return verdict
            options = []
            for r, nat in verdict:
                count, built = self.count_children(node, r, nat)
                if count:
                    options.append((count, r, nat, built))
                    if count <= 2:
                        break  # few enough: no need to look further
            if not options:
                raise TooHard("no rank left to split")
            _count, rank, nat, built = min(options, key=lambda o: o[0])
            cells = self.children(node, rank, nat) if built is None else built
            for cell, more in cells:
                kid = (_place(node[0], rank, cell), more)
                if kid not in seen:
                    seen.add(kid)
                    heapq.heappush(heap, (neg_value, neg_score, next(counter), kid, None))
        return None


def _cells(
    node: tuple[Bounds, ...], rank: int, cells: Sequence[tuple[int, int]]
) -> tuple[Cell, ...]:
    """``rank``'s cells with the group's (fewest, most) cards of each suit narrowed."""
    out = []
    for s in range(SUITS):
        _lo, hi, umin = node[s][rank]
        lo, top = cells[s]
        out.append((lo, min(top, hi), umin))
    return tuple(out)


def _place(node: tuple[Bounds, ...], rank: int, cells: tuple[Cell, ...]) -> tuple[Bounds, ...]:
    """The node's bounds with ``rank``'s cells replaced."""
    return tuple((*b[:rank], cells[s], *b[rank + 1 :]) for s, b in enumerate(node))


def _with(
    node: tuple[Bounds, ...], rank: int, cells: Sequence[tuple[int, int]]
) -> tuple[Bounds, ...]:
    """``node`` with each suit's group bounds at ``rank`` set to ``cells`` (fewest, most)."""
    return _place(node, rank, _cells(node, rank, cells))


_Choice = tuple[tuple[int, ...], int | None]
"""A bounded group's child: cards per suit, and the jokers kept for it (None: as before)."""


@functools.lru_cache(maxsize=4096)
def _group_choices(
    los: tuple[int, ...],
    his: tuple[int, ...],
    forced: int,
    avail: int,
    held: int,
    distinct: bool,
    max_group: int,
) -> tuple[_Choice, ...]:
    """Every exact count per suit (between ``los`` and ``his``) of a rank's groups that can
    form groups of at most ``max_group`` with ``forced`` more cards and at most ``avail``
    jokers (optimistic about naturals: table jokers of a cell may sit in its runs)."""
    out: list[_Choice] = []
    for w in itertools.product(*(range(lo, hi + 1) for lo, hi in zip(los, his, strict=True))):
        n = sum(w)
        if n == 0:
            if forced == 0:
                out.append((w, None))
            continue
        q = _group_need(max(w), n + forced, n, distinct, max_group)
        if q is None or q > avail:
            continue
        out.append((w, max(q, held)))
    return tuple(out)


def _group_need(gmax: int, total: int, nat: int, distinct: bool, max_group: int) -> int | None:
    """Fewest jokers that let ``total`` cards of a rank (at most ``gmax`` of a suit where
    suits must differ, ``nat`` natural) form groups of at most ``max_group``; None when
    no number does (more groups than natural cards)."""
    k = max(1, gmax if distinct else 1, -(-total // max_group))
    if k > nat:
        return None
    return max(0, 3 * k - total)


def _compositions(total: int, caps: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Every way to take ``total`` cards from the suits, at most ``caps[s]`` from suit s."""
    return _compositions_of(total, tuple(caps))


@functools.lru_cache(maxsize=4096)
def _compositions_of(total: int, caps: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """:func:`_compositions`, remembered."""
    out = []
    for w in itertools.product(*(range(min(c, total) + 1) for c in caps)):
        if sum(w) == total:
            out.append(w)
    return tuple(out)


def split_search(cp: Counts) -> _Search:
    """A split search for ``cp`` (its suit programmes are cached between calls).

    Raises :class:`TooHard` where the split search does not apply.
    """
    if cp.joker_runs:
        raise TooHard("a run could be jokers only")
    if not cp.big_groups and cp.max_group < 3:
        raise TooHard("groups too small to hold three cards")
    return _Search(cp)


def solve_case(cp: Counts, floor: int | None = None) -> Solution | None:
    """A path of the chain (:mod:`.chain`): the best answer of one freeing case scoring more
    than ``floor``, or None; :class:`.counts.TooHard` where the split search cannot tell.

    The root's bound first: a case that cannot beat ``floor`` is not searched.
    """
    search = split_search(cp)
    bound = search.bound()
    if bound is None or (floor is not None and bound <= floor):
        return None
    return search.run(floor)
