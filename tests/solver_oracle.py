"""An independent brute-force oracle for the solver tests: exhaustive partition search.

Cards are kinds: ``("n", rank, suit)`` a natural card, ``("w",)`` a wild joker,
``("fr", rank, suit)`` a table joker standing for a card, ``("fg", rank)`` a table
joker standing for a rank (V11). Small positions only.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator
from functools import lru_cache

from rummykit.cards import Card
from rummykit.melds import Meld, MeldRules

Kind = tuple[int | str, ...]


def kinds_of(cards: Iterable[Card], *, table: bool, free_jokers: bool = False) -> list[Kind]:
    out: list[Kind] = []
    for c in cards:
        if c.suit is not None:
            out.append(("n", c.rank, int(c.suit)))
        elif not table or free_jokers or c.stands_for is None:
            out.append(("w",))
        elif c.stands_for.suit is None:
            out.append(("fg", c.stands_for.rank))
        else:
            out.append(("fr", c.stands_for.rank, int(c.stands_for.suit)))
    return out


def _melds_with(first: Kind, pool: Counter[Kind], rules: MeldRules) -> Iterator[Counter[Kind]]:
    """Every meld (as a multiset of kinds) from ``pool`` that contains ``first``."""
    npos = 14 if rules.ace_high else 13
    wild = pool[("w",)]
    if first[0] in ("n", "fr"):
        _, rank, suit = first
        positions = [rank] + ([14] if rank == 1 and rules.ace_high else [])
        for at in positions:
            for start in range(max(1, at - npos + 1), at + 1):
                for end in range(max(at, start + 2), npos + 1):
                    yield from _fill_run(first, start, end, int(suit), pool, wild)
    rank = first[1]
    kinds = [k for k in pool if k != ("w",) and k[0] != "w" and k[1] == rank]
    yield from _fill_group(first, int(rank), kinds, pool, wild, rules)


def _fill_run(
    first: Kind, start: int, end: int, suit: int, pool: Counter[Kind], wild: int
) -> Iterator[Counter[Kind]]:
    """Runs over exactly positions start..end, each cell a natural, table joker or wild joker."""
    need: Counter[Kind] = Counter()

    def fill(p: int) -> Iterator[Counter[Kind]]:
        if p > end:
            if need[first] and any(k[0] == "n" for k in need if need[k]):
                yield +need
            return
        r = 1 if p == 14 else p
        for kind in (("n", r, suit), ("fr", r, suit), ("w",)):
            if pool[kind] > need[kind]:
                need[kind] += 1
                yield from fill(p + 1)
                need[kind] -= 1

    yield from fill(start)


def _fill_group(
    first: Kind,
    rank: int,
    kinds: list[Kind],
    pool: Counter[Kind],
    wild: int,
    rules: MeldRules,
) -> Iterator[Counter[Kind]]:
    kinds = sorted(set(kinds) | {first})
    ranges = [range(pool[k] + 1) for k in kinds] + [range(wild + 1)]
    for counts in itertools.product(*ranges):
        need = Counter({k: n for k, n in zip([*kinds, ("w",)], counts, strict=True) if n})
        if need[first] < 1:
            continue
        size = sum(counts)
        if size < 3 or not any(k[0] == "n" for k in need):
            continue
        if rules.max_group_size is not None and size > rules.max_group_size:
            continue
        if rules.group_distinct_suits:
            suits = [k[2] for k in need.elements() if k[0] in ("n", "fr")]
            if len(set(suits)) < len(suits):
                continue
        yield need


def partitionable(cards: Iterable[Kind], rules: MeldRules) -> bool:
    """Whether the multiset can be split into valid melds (no freeing)."""
    return _part(tuple(sorted(cards, key=_order)), rules)


def _order(k: Kind) -> tuple[int, str]:
    return ({"n": 0, "fr": 1, "fg": 2, "w": 3}[str(k[0])], str(k))


@lru_cache(maxsize=200_000)
def _part(cards: tuple[Kind, ...], rules: MeldRules) -> bool:
    if not cards:
        return True
    first = cards[0]
    if first[0] == "w":
        return False
    pool = Counter(cards)
    for meld in _melds_with(first, pool, rules):
        rest = pool - meld
        if _part(tuple(sorted(rest.elements(), key=_order)), rules):
            return True
    return False


def feasible(cards: list[Kind], rules: MeldRules) -> bool:
    """Whether the final table can be laid, freeing table jokers by real copies (V11, V12)."""
    fixed = [i for i, k in enumerate(cards) if k[0] in ("fr", "fg")]
    naturals = [k for k in cards if k[0] == "n"]
    for size in range(len(fixed), -1, -1):
        for freed in itertools.combinations(fixed, size):
            if not _matchable([cards[i] for i in freed], naturals):
                continue
            now = [("w",) if i in freed else k for i, k in enumerate(cards)]
            if partitionable(now, rules):
                return True
    return False


def _matchable(jokers: list[Kind], naturals: list[Kind]) -> bool:
    for pick in itertools.permutations(range(len(naturals)), len(jokers)):
        if all(_frees(naturals[n], j) for n, j in zip(pick, jokers, strict=True)):
            return True
    return False


def _frees(natural: Kind, joker: Kind) -> bool:
    if joker[0] == "fr":
        return natural[1:] == joker[1:]
    return natural[1] == joker[1]


def best_score(
    table: list[Meld],
    hand: list[Card],
    rules: MeldRules,
    objective: str = "cards",
    free_jokers: bool = False,
) -> tuple[int, int] | None:
    """(cards, points) of the best non-empty play, or None."""
    base = kinds_of([c for m in table for c in m.cards], table=True, free_jokers=free_jokers)
    hand_kinds = kinds_of(hand, table=False)
    values = {}
    for c, k in zip(hand, hand_kinds, strict=True):
        values[k] = rules.value(c.plain())
    counts = Counter(hand_kinds)
    kinds = sorted(counts, key=_order)
    best: tuple[int, int] | None = None
    for pick in itertools.product(*[range(counts[k] + 1) for k in kinds]):
        n = sum(pick)
        if n == 0:
            continue
        pts = sum(values[k] * c for k, c in zip(kinds, pick, strict=True))
        score = (n, pts) if objective == "cards" else (pts, n)
        if best is not None and score <= best:
            continue
        added = [k for k, c in zip(kinds, pick, strict=True) for _ in range(c)]
        if feasible(base + added, rules):
            best = score
    if best is None:
        return None
    return best if objective == "cards" else (best[1], best[0])


def assert_valid_meld(meld: Meld, rules: MeldRules) -> None:
    """The meld reads as itself; a table joker standing for a card may sit in a group (V12)."""
    from rummykit.melds import MeldKind, read_meld

    cards = list(meld.cards)
    got = read_meld(cards, rules)
    assert got.kind is meld.kind, str(meld)
    if meld.kind is MeldKind.RUN:
        assert [str(c) for c in got.cards] == [str(c) for c in meld.cards], str(meld)
        assert got.start == meld.start, str(meld)
    else:
        assert got.start == meld.start, str(meld)
        assert sorted(map(str, got.plain_cards())) == sorted(map(str, meld.plain_cards()))
