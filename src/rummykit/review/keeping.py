"""Which best play to show: the one that leaves the table most as it was (V9, V12).

The solver (:mod:`rummykit.solver`) knows how many cards a hand can add to a
table, and gives one arrangement that does it; it works on the multiset of
cards (V12), so its arrangement may rebuild melds a person would have left
alone. The review shows a play a person can follow (:func:`shown_play`):

1. :func:`keep_most` takes the table's melds one at a time and *keeps* a meld
   when some play laying the most cards leaves it in place, the melds kept
   before it left alone: the meld as it lies, or grown by cards from the hand
   (at a run's ends, onto a group), the most it can take first, then fewest
   jokers. The melds not kept, with the hand cards left, are arranged by the
   solver, which then lays exactly the cards still to lay. Each step asks the
   solver whether the rest still lays the best count, so the count is always
   the solver's.
2. It does so in three orders: the melds the solver's own play leaves whole
   first, then the others; the largest melds first; the three-card melds first
   (within each, larger melds first, then as they lie on the table).
3. Of those plays and the solver's own, the one that moves fewest table cards
   is shown; on a tie, the first in that order.

:func:`marks` tells, card by card, which cards of the new table come from the
hand, stayed in their meld, or moved from another: the moved cards are those
of the old melds that are not in the new meld matched to them, the melds
matched one to one so that as many cards as possible stay (an assignment
problem, solved exactly by :func:`_assign`).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass

from rummykit import solver
from rummykit.cards import ACE, JOKER, Card
from rummykit.melds import VATIKANEN, Meld, MeldError, MeldKind, read_meld

__all__ = ["HAND", "MOVED", "STAYED", "Arranged", "Marking", "keep_most", "marks", "shown_play"]

HAND, STAYED, MOVED = "hand", "table", "moved"
"""How a card of the new table got there: from the hand, left in its meld, moved from
another meld."""


@dataclass(frozen=True, slots=True)
class Arranged:
    """A play: the hand cards laid and the whole new table (kept melds first, in their
    order on the old table, then the rearranged ones)."""

    add: tuple[Card, ...]
    table: tuple[Meld, ...]


def _position_card(position: int, meld: Meld) -> Card:
    """The natural card at run position ``position`` (14: the ace high) of ``meld``'s suit."""
    return Card(ACE if position == 14 else position, meld.suit)


def _chain(
    meld: Meld, positions: Iterator[int], left: Counter[Card]
) -> Iterator[tuple[list[Card], Counter[Card]]]:
    """Growing ``meld`` along ``positions``: each longer chain of hand cards (a natural where
    the hand holds it, else a joker), with what the hand has left."""
    chain: list[Card] = []
    rest = left.copy()
    yield list(chain), rest.copy()
    for position in positions:
        natural = _position_card(position, meld)
        if rest[natural] > 0:
            rest[natural] -= 1
            chain.append(natural)
        elif rest[JOKER] > 0:
            rest[JOKER] -= 1
            chain.append(JOKER)
        else:
            return
        yield list(chain), rest.copy()


def _growths(meld: Meld, hand: Counter[Card]) -> list[tuple[list[Card], list[Card]]]:
    """Every way to grow ``meld`` with hand cards, as (its new cards in order, the hand
    cards used), the most cards first, then fewest jokers."""
    out: list[tuple[list[Card], list[Card]]] = []
    if meld.kind is MeldKind.GROUP:
        rank = meld.start
        kinds = sorted(
            (c for c in hand if not c.is_joker and c.rank == rank and hand[c] > 0), key=str
        )
        counts = [range(hand[c] + 1) for c in kinds] + [range(hand[JOKER] + 1)]
        for pick in itertools.product(*counts):
            used = [c for c, k in zip(kinds, pick, strict=False) for _ in range(k)]
            used += [JOKER] * pick[-1]
            out.append(([*meld.cards, *used], used))
    else:
        low = range(meld.start - 1, 0, -1)
        for before, rest in _chain(meld, iter(low), hand):
            high = range(meld.end + 1, VATIKANEN.max_run_length + 1)
            for after, _ in _chain(meld, iter(high), rest):
                if len(before) + len(after) + len(meld.cards) > VATIKANEN.max_run_length:
                    continue
                out.append(([*reversed(before), *meld.cards, *after], before + after))
    out.sort(key=lambda grown: (-len(grown[1]), grown[1].count(JOKER)))
    return out


Most = dict[tuple[tuple[int, ...], tuple[tuple[str, int], ...]], int]
"""The solver's most cards, remembered by (the table's melds kept out, the hand)."""


def _lays(
    table: Sequence[Meld],
    rest: set[int],
    hand: Counter[Card],
    need: int,
    free_jokers: bool,
    known: Most,
) -> bool:
    """Whether ``need`` cards of ``hand`` can be added to the melds ``rest`` of ``table``
    (the solver; its answers remembered in ``known``)."""
    if need <= 0:
        return True
    key = (tuple(sorted(rest)), tuple(sorted((str(c), k) for c, k in hand.items() if k)))
    most = known.get(key)
    if most is None:
        others = [table[k] for k in sorted(rest)]
        found = solver.best_play(others, hand.elements(), rules=VATIKANEN, free_jokers=free_jokers)
        most = known[key] = 0 if found is None else found.count
    return most >= need


def keep_most(
    table: Sequence[Meld],
    hand: Sequence[Card],
    best: int,
    *,
    free_jokers: bool = False,
    first: Collection[int] = (),
    known: Most | None = None,
) -> Arranged | None:
    """A play of ``best`` cards from ``hand`` onto ``table`` (an opened seat), keeping the
    table's melds as the module docstring says, the melds numbered in ``first`` tried
    before the others; None when ``best`` is 0. ``known`` remembers the solver's answers
    between calls on the same table and hand.

    ``best`` must be the solver's most (:func:`rummykit.solver.best_play`).
    """
    if best <= 0:
        return None
    known = {} if known is None else known
    left = Counter(c.plain() for c in hand)
    order = sorted(range(len(table)), key=lambda i: (i not in first, -len(table[i].cards), i))
    rest = set(range(len(table)))
    kept: dict[int, Meld] = {}
    added: list[Card] = []
    for i in order:
        rest.discard(i)
        for cards, used in _growths(table[i], left):
            after = left - Counter(used)
            if not _lays(table, rest, after, best - len(added) - len(used), free_jokers, known):
                continue
            try:
                grown = read_meld(cards, VATIKANEN) if used else table[i]
            except MeldError:  # pragma: no cover - a run grown at its ends is a run
                continue
            kept[i] = grown
            added += used
            left = after
            break
        else:
            rest.add(i)
    others = [table[k] for k in sorted(rest)]
    need = best - len(added)
    layout: list[Meld] = others
    if need > 0:
        found = solver.best_play(others, left.elements(), rules=VATIKANEN, free_jokers=free_jokers)
        assert found is not None and found.count == need, "the kept melds left too little"
        layout = list(found.table)
        added += found.cards
    new = [kept[i] for i in sorted(kept)] + layout
    return Arranged(tuple(added), tuple(new))


def _key(card: Card) -> str:
    """A card as it lies: a joker with what it stands for (a freed joker has moved)."""
    return str(card)


def _assign(weights: list[list[int]]) -> list[int]:
    """For each row, its column (or -1) in a one-to-one matching of rows to columns with
    the largest total weight (the Hungarian method, on the square matrix)."""
    rows, cols = len(weights), len(weights[0]) if weights else 0
    n = max(rows, cols)
    if n == 0:
        return []
    top = max((w for row in weights for w in row), default=0)
    cost = [
        [top - (weights[r][c] if r < rows and c < cols else 0) for c in range(n)] for r in range(n)
    ]
    inf = float("inf")
    u = [0.0] * (n + 1)
    v = [0.0] * (n + 1)
    match = [0] * (n + 1)  # match[column] = row, 1-based
    way = [0] * (n + 1)
    for r in range(1, n + 1):
        match[0] = r
        c0 = 0
        least = [inf] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[c0] = True
            r0 = match[c0]
            delta, c1 = inf, 0
            for c in range(1, n + 1):
                if not used[c]:
                    cur = cost[r0 - 1][c - 1] - u[r0] - v[c]
                    if cur < least[c]:
                        least[c], way[c] = cur, c0
                    if least[c] < delta:
                        delta, c1 = least[c], c
            for c in range(n + 1):
                if used[c]:
                    u[match[c]] += delta
                    v[c] -= delta
                else:
                    least[c] -= delta
            c0 = c1
            if match[c0] == 0:
                break
        while c0:
            c1 = way[c0]
            match[c0] = match[c1]
            c0 = c1
    out = [-1] * rows
    for c in range(1, n + 1):
        r = match[c] - 1
        if 0 <= r < rows and c - 1 < cols and weights[r][c - 1] > 0:
            out[r] = c - 1
    return out


@dataclass(frozen=True, slots=True)
class Marking:
    """How a play changes the table: per card of each new meld :data:`HAND`,
    :data:`STAYED` or :data:`MOVED` (``rows``), how many table cards moved, which old
    melds stay whole, grown by hand cards only (``whole``, by their place on the table),
    and the table jokers that now stand for another card (``was``: meld, place in it, the
    joker as it stood before)."""

    rows: list[list[str]]
    moved: int
    whole: frozenset[int]
    was: tuple[tuple[int, int, str], ...] = ()


Slot = tuple[str, int]
"""A card in its place in a meld: the card as it lies, and its run position (1-14: an ace
low or high) or 0 in a group."""


def _slots(meld: Meld) -> list[Slot]:
    """Each card of ``meld`` with its place: a card stays only where it keeps its place (an
    ace of Q K A is not the ace of A 2 3, a card of a group is not one of a run)."""
    if meld.kind is MeldKind.RUN:
        return [(_key(c), meld.start + i) for i, c in enumerate(meld.cards)]
    return [(_key(c), 0) for c in meld.cards]


def marks(old: Sequence[Meld], new: Sequence[Meld], add: Sequence[Card]) -> Marking:
    """The :class:`Marking` of the play that lays ``add`` and makes ``new`` of ``old`` (see
    the module docstring)."""
    old_keys = [Counter(_slots(m)) for m in old]
    new_keys = [Counter(_slots(m)) for m in new]
    holders: dict[Slot, list[tuple[int, int]]] = {}  # a card in its place -> the new melds
    for n, keys in enumerate(new_keys):
        for key, k in keys.items():
            holders.setdefault(key, []).append((n, k))
    weights = [[0] * len(new) for _ in old]
    for o, keys in enumerate(old_keys):
        shared = weights[o]
        for key, k in keys.items():
            for n, held in holders.get(key, ()):
                shared[n] += min(k, held)
    matched = _assign(weights)
    staying: list[Counter[Slot]] = [Counter() for _ in new]
    origin = [-1] * len(new)  # the old meld each new meld continues
    for o, column in enumerate(matched):
        if column >= 0:
            staying[column] = old_keys[o] & new_keys[column]
            origin[column] = o
    moved = sum(len(m.cards) for m in old) - sum(sum(s.values()) for s in staying)
    from_hand = Counter(c.plain() for c in add)
    out: list[list[str]] = []
    for meld, stay in zip(new, staying, strict=True):
        row = []
        stay = stay.copy()
        for slot, card in zip(_slots(meld), meld.cards, strict=True):
            if stay[slot] > 0:
                stay[slot] -= 1
                row.append(STAYED)
            elif from_hand[card.plain()] > 0:
                from_hand[card.plain()] -= 1
                row.append(HAND)
            else:
                row.append(MOVED)
        out.append(row)
    whole = frozenset(
        o
        for o, column in enumerate(matched)
        if column >= 0
        and sum(staying[column].values()) == len(old[o].cards)
        and MOVED not in out[column]
    )
    return Marking(out, moved, whole, _jokers_changed(old, new, out, origin))


def _jokers_changed(
    old: Sequence[Meld], new: Sequence[Meld], rows: list[list[str]], origin: list[int]
) -> tuple[tuple[int, int, str], ...]:
    """The moved table jokers of ``new`` that stand for another card than before: (meld,
    place, the joker as it stood). The old jokers that did not stay are paired with the
    moved ones: one standing as before first, then one of the old meld the new meld
    continues, then any."""
    stayed = Counter(
        str(c)
        for meld, row in zip(new, rows, strict=True)
        for c, mark in zip(meld.cards, row, strict=True)
        if c.is_joker and mark == STAYED
    )
    left: list[tuple[int, str]] = []  # the old jokers that did not stay: (old meld, joker)
    for o, meld in enumerate(old):
        for c in meld.cards:
            if c.is_joker:
                if stayed[str(c)] > 0:
                    stayed[str(c)] -= 1
                else:
                    left.append((o, str(c)))
    moving = [
        (n, j, str(c))
        for n, (meld, row) in enumerate(zip(new, rows, strict=True))
        for j, (c, mark) in enumerate(zip(meld.cards, row, strict=True))
        if c.is_joker and mark == MOVED
    ]
    changed: list[tuple[int, int, str]] = []
    rest = []
    for n, j, now in moving:  # a joker that stands as before has only moved
        same = next((k for k, (_, was) in enumerate(left) if was == now), None)
        if same is None:
            rest.append((n, j, now))
        else:
            left.pop(same)
    for n, j, _now in rest:
        if not left:
            break
        k = next((k for k, (o, _) in enumerate(left) if o == origin[n]), 0)
        changed.append((n, j, left.pop(k)[1]))
    return tuple(sorted(changed))


def shown_play(
    table: Sequence[Meld], hand: Sequence[Card], found: solver.Play, *, free_jokers: bool = False
) -> tuple[Arranged, Marking]:
    """The best play to show, of the plays :func:`keep_most` makes (the melds ``found``
    leaves whole tried first; largest first; the three-card melds first) and the
    solver's ``found`` itself: the one that moves fewest table cards, the first of them
    on a tie (see the module docstring)."""
    raw = Arranged(tuple(found.cards), tuple(found.table))
    hint = marks(table, raw.table, raw.add)
    best: tuple[Arranged, Marking] | None = None
    shortest = frozenset(i for i, m in enumerate(table) if len(m.cards) == 3)
    known: Most = {}
    for first in (hint.whole, frozenset[int](), shortest):
        kept = keep_most(
            table, hand, found.count, free_jokers=free_jokers, first=first, known=known
        )
        if kept is None or (best is not None and kept == best[0]):
            continue
        marked = marks(table, kept.table, kept.add)
        if best is None or marked.moved < best[1].moved:
            best = (kept, marked)
        if marked.moved == 0:
            return best  # nothing moved: no later play can do better
    if best is None or hint.moved < best[1].moved:
        best = (raw, hint)
    return best
