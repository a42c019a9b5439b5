"""The most cards a Kontrakt hand can lay in one turn (K9-K13), by an exact search.

Nothing on a Kontrakt table is ever rearranged: a turn lays the contract (or
parts of it, K9; all at once in the seventh deal, K12), then further melds,
lay-offs at a run's ends or onto a group, and joker swaps (K10, K11). What a
hand can lay is therefore found by a small exhaustive search over its melds:

1. **The contract.** Every set of disjoint three-card melds of the hand that
   is the rest of the contract (each choice of the seventh deal), or, in
   deals 1-6, a part of it that leaves two cards in hand (K13). A longer meld
   is a three-card one and lay-offs onto it (allowed the same turn the
   contract is complete, K10), so three-card melds lose nothing; parts, which
   take no lay-offs, grow at once.
2. **Joker swaps** (K11, once the contract is down): every set of table
   jokers the hand's cards can free.
3. **Further melds**: every set of disjoint three-card melds of what is left.
4. **Lay-offs** (:func:`_lay_offs`): a card of a rank some group holds can go
   onto that group; the other cards only at a run's ends, one after the other
   outwards (a joker standing in where a card is missing), which each suit
   decides for itself (every choice of how far each end grows), the suits
   sharing the jokers; jokers left over go onto any group.

The answer is a list of the engine's own actions (:class:`LayDown`,
:class:`LayOff`, :class:`SwapJoker`), which :mod:`rummykit.review.kontrakt`
plays on the engine to check (nothing here decides what is legal there).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from rummykit.cards import JOKER, Card, Meaning, Suit
from rummykit.games.kontrakt.actions import Action, LayDown, LayOff, SwapJoker
from rummykit.games.kontrakt.contracts import CONTRACTS, Contract
from rummykit.games.kontrakt.view import KontraktView, TableMeldJSON

__all__ = ["Laying", "best_laying"]

Nat = tuple[int, int]
"""A natural card as (rank 1-13, suit 0-3)."""

_TOP = 13
"""K5: the king is highest, the ace lowest."""


@dataclass(frozen=True, slots=True)
class _Anchor:
    """A meld cards can be laid off onto: its number on the table, a group's rank, or a
    run's suit and ends."""

    number: int
    rank: int = 0
    suit: int = -1
    low: int = 0
    high: int = 0

    @property
    def group(self) -> bool:
        return self.suit < 0


@dataclass(frozen=True, slots=True)
class _Meld:
    """A three-card meld of the hand: what it takes from the hand, and its cards."""

    use: tuple[tuple[Nat, int], ...]
    jokers: int
    cards: tuple[Card, ...]
    group: bool
    rank: int  # a group's rank, a run's first rank
    suit: int


@dataclass(slots=True)
class Laying:
    """The most cards a turn can lay (``count``), the actions that lay them, whether
    the contract is complete after them (``complete``), and whether any way to lay
    the rest of the contract exists (``contract``)."""

    count: int = 0
    actions: list[Action] = field(default_factory=list)
    complete: bool = False
    contract: bool = False


def _nat(card: Card) -> Nat:
    assert card.suit is not None
    return card.rank, int(card.suit)


def _card(nat: Nat) -> Card:
    return Card(nat[0], Suit(nat[1]))


def _take(counts: Counter[Nat], meld: _Meld) -> Counter[Nat] | None:
    """``counts`` less what ``meld`` takes, or None when the hand lacks it."""
    for nat, k in meld.use:
        if counts[nat] < k:
            return None
    left = counts.copy()
    for nat, k in meld.use:
        left[nat] -= k
    return left


def _candidates(counts: Counter[Nat], jokers: int) -> list[_Meld]:
    """Every three-card meld the hand can make (a natural card at least, K5 and the house
    rule), each joker saying what it stands for."""
    out: list[_Meld] = []
    by_rank: dict[int, list[int]] = {}
    for (rank, suit), k in sorted(counts.items()):
        if k > 0:
            by_rank.setdefault(rank, []).extend([suit] * min(k, 3))
    for rank, suits in by_rank.items():
        for j in range(min(2, jokers) + 1):
            for pick in sorted(set(itertools.combinations(suits, 3 - j))):
                use = Counter((rank, s) for s in pick)
                cards = tuple(Card(rank, Suit(s)) for s in pick)
                cards += (Card(0, None, Meaning(rank)),) * j
                out.append(_Meld(tuple(sorted(use.items())), j, cards, True, rank, -1))
    for suit in range(4):
        for start in range(1, _TOP - 1):
            options = []
            for rank in range(start, start + 3):
                here = []
                if counts[(rank, suit)] > 0:
                    here.append(True)
                if jokers > 0:
                    here.append(False)
                options.append(here)
            for pick in itertools.product(*options):
                j = pick.count(False)
                if j > jokers or j == 3:
                    continue
                ranks = range(start, start + 3)
                use = Counter((r, suit) for r, natural in zip(ranks, pick, strict=True) if natural)
                cards = tuple(
                    Card(r, Suit(suit)) if natural else Card(0, None, Meaning(r, Suit(suit)))
                    for r, natural in zip(ranks, pick, strict=True)
                )
                out.append(_Meld(tuple(sorted(use.items())), j, cards, False, start, suit))
    return out


def _sets(
    counts: Counter[Nat], jokers: int, wanted: Sequence[bool] | None
) -> Iterator[tuple[list[_Meld], Counter[Nat], int]]:
    """Sets of disjoint three-card melds with what is left: of the kinds ``wanted`` (True a
    group, False a run, groups first), or every set when ``wanted`` is None."""
    pool = _candidates(counts, jokers)

    def fixed(
        i: int, lower: int, left: Counter[Nat], j: int, chosen: list[_Meld]
    ) -> Iterator[tuple[list[_Meld], Counter[Nat], int]]:
        assert wanted is not None
        if i == len(wanted):
            yield list(chosen), left, j
            return
        start = lower if i > 0 and wanted[i - 1] == wanted[i] else 0
        for k in range(start, len(pool)):
            meld = pool[k]
            if meld.group != wanted[i] or meld.jokers > j:
                continue
            after = _take(left, meld)
            if after is None:
                continue
            chosen.append(meld)
            yield from fixed(i + 1, k, after, j - meld.jokers, chosen)
            chosen.pop()

    def free(
        lower: int, left: Counter[Nat], j: int, chosen: list[_Meld]
    ) -> Iterator[tuple[list[_Meld], Counter[Nat], int]]:
        yield list(chosen), left, j
        for k in range(lower, len(pool)):
            meld = pool[k]
            if meld.jokers > j:
                continue
            after = _take(left, meld)
            if after is None:
                continue
            chosen.append(meld)
            yield from free(k, after, j - meld.jokers, chosen)
            chosen.pop()

    if wanted is None:
        yield from free(0, counts, jokers, [])
    else:
        yield from fixed(0, 0, counts, jokers, [])


def _anchor_of(meld: _Meld, number: int) -> _Anchor:
    if meld.group:
        return _Anchor(number, rank=meld.rank)
    return _Anchor(number, suit=meld.suit, low=meld.rank, high=meld.rank + 2)


def _chains(
    ends: Sequence[tuple[int, int, int]],
    counts: list[int],
    absorbed: frozenset[int],
    jokers: int,
) -> dict[int, tuple[int, list[list[int]]]]:
    """One suit's lay-offs at its runs' ends: for each number of jokers used, the most it
    lays (a card another meld takes anyway counts 0) and each end's chain (ranks, 0 for a
    joker)."""
    best: dict[int, tuple[int, list[list[int]]]] = {}

    def walk(e: int, left: list[int], j: int, value: int, chosen: list[list[int]]) -> None:
        if e == len(ends):
            used = jokers - j
            if used not in best or value > best[used][0]:
                best[used] = (value, [list(c) for c in chosen])
            return
        start, step, _ = ends[e]
        chain: list[int] = []
        taken: list[tuple[int, bool]] = []
        gain = 0
        walk(e + 1, left, j, value, [*chosen, []])
        rank = start
        while 1 <= rank <= _TOP:
            if left[rank] > 0:
                left[rank] -= 1
                taken.append((rank, True))
                chain.append(rank)
                gain += 0 if rank in absorbed else 1
            elif j > 0:
                j -= 1
                taken.append((rank, False))
                chain.append(0)
                gain += 1
            else:
                break
            walk(e + 1, left, j, value + gain, [*chosen, list(chain)])
            rank += step
        for rank, natural in taken:
            if natural:
                left[rank] += 1
            else:
                j += 1

    walk(0, list(counts), jokers, 0, [])
    return best


def _lay_offs(
    counts: Counter[Nat], jokers: int, anchors: Sequence[_Anchor], seat: int
) -> tuple[int, list[Action]]:
    """The most cards the hand can lay off onto ``anchors`` (no new meld), and how."""
    groups: dict[int, int] = {}
    for a in anchors:
        if a.group:
            groups.setdefault(a.rank, a.number)
    absorbed = frozenset(groups)
    value = sum(k for (rank, _), k in counts.items() if rank in absorbed)
    per_suit: list[tuple[list[tuple[int, int, int]], dict[int, tuple[int, list[list[int]]]]]] = []
    for suit in range(4):
        ends: list[tuple[int, int, int]] = []
        for a in anchors:
            if a.suit == suit:
                if a.low > 1:
                    ends.append((a.low - 1, -1, a.number))
                if a.high < _TOP:
                    ends.append((a.high + 1, 1, a.number))
        line = [counts[(rank, suit)] if rank else 0 for rank in range(_TOP + 1)]
        if not ends or not (any(line) or jokers):
            per_suit.append((ends, {0: (0, [[] for _ in ends])}))
            continue
        per_suit.append((ends, _chains(ends, line, absorbed, jokers)))
    # the suits share the jokers: the best split of them
    best_value, best_split = -1, None
    for split in itertools.product(*(sorted(table) for _, table in per_suit)):
        if sum(split) > jokers:
            continue
        got = sum(table[j][0] for (_, table), j in zip(per_suit, split, strict=True))
        if groups:
            got += jokers - sum(split)
        if got > best_value:
            best_value, best_split = got, split
    assert best_split is not None
    actions: list[Action] = []
    left = counts.copy()
    for suit, ((ends, table), j) in enumerate(zip(per_suit, best_split, strict=True)):
        for (start, step, number), chain in zip(ends, table[j][1], strict=True):
            for i, rank in enumerate(chain):
                if rank:
                    left[(rank, suit)] -= 1
                    actions.append(LayOff(seat, Card(rank, Suit(suit)), number))
                else:
                    place = Card(start + i * step, Suit(suit))
                    actions.append(LayOff(seat, JOKER, number, place))
    spare = jokers - sum(best_split)
    for (rank, suit), k in sorted(left.items()):
        if rank in groups:
            actions += [LayOff(seat, Card(rank, Suit(suit)), groups[rank])] * k
    if groups and spare:
        first = next(iter(groups.values()))
        actions += [LayOff(seat, JOKER, first)] * spare
    return value + best_value, actions


def _anchor_json(meld: TableMeldJSON) -> _Anchor:
    """A view's table meld as an anchor."""
    if meld["kind"] == "group":
        return _Anchor(meld["number"], rank=meld["rank"])
    suit = "cdhs".index(meld["suit"])
    return _Anchor(meld["number"], suit=suit, low=meld["low"], high=meld["high"])


def _swaps(
    table: Sequence[TableMeldJSON], counts: Counter[Nat], jokers: int, seat: int
) -> Iterator[tuple[list[Action], Counter[Nat], int]]:
    """Every set of table jokers the hand can take (K11): the swaps, and the hand after."""
    slots: list[tuple[int, list[Nat]]] = []
    for meld in table:
        for text in meld["cards"]:
            means = Card.parse(text).stands_for if text.startswith("*") else None
            if means is None:
                continue
            suits = range(4) if means.suit is None else (int(means.suit),)
            fits = [(means.rank, s) for s in suits if counts[(means.rank, s)] > 0]
            if fits:
                slots.append((meld["number"], fits))
    choices: list[list[Nat | None]] = [[None, *fits] for _, fits in slots]
    for pick in itertools.product(*choices):
        left = counts.copy()
        actions: list[Action] = []
        for (number, _), nat in zip(slots, pick, strict=True):
            if nat is None:
                continue
            if left[nat] <= 0:
                break
            left[nat] -= 1
            actions.append(SwapJoker(seat, _card(nat), number))
        else:
            yield actions, left, jokers + len(actions)


def _after_contract(
    counts: Counter[Nat],
    jokers: int,
    anchors: list[_Anchor],
    table: Sequence[TableMeldJSON],
    seat: int,
    number: int,
) -> tuple[int, list[Action]]:
    """The most a hand whose contract is down can lay: swaps, further melds (numbered from
    ``number``), lay-offs; and the actions."""
    cards = sum(counts.values()) + jokers
    best: tuple[int, list[Action]] = (0, [])
    for swaps, held, j0 in _swaps(table, counts, jokers, seat):
        for melds, left, j in _sets(held, j0, None):
            laid = 3 * len(melds)
            if laid + sum(left.values()) + j <= best[0]:
                continue  # even laying every card left off would not beat the best
            more = [_anchor_of(m, number + i) for i, m in enumerate(melds)]
            off, offs = _lay_offs(left, j, [*anchors, *more], seat)
            if laid + off > best[0]:
                actions = list(swaps)
                if melds:
                    actions.append(LayDown(seat, tuple(m.cards for m in melds)))
                best = (laid + off, actions + offs)
                if best[0] == cards:
                    return best
    return best


def _grown(melds: Sequence[_Meld], offs: Sequence[Action], most: int) -> list[list[Card]]:
    """``melds`` (numbered from 0) with the first lay-offs of ``offs`` put into them, so
    long as they hold at most ``most`` cards together."""
    out = [list(m.cards) for m in melds]
    low = [m.rank for m in melds]
    size = 3 * len(melds)
    for action in offs:
        if size >= most:
            break
        assert isinstance(action, LayOff)
        meld, cards = melds[action.meld], out[action.meld]
        if meld.group:
            cards.append(Card(0, None, Meaning(meld.rank)) if action.card.is_joker else action.card)
        else:
            place = action.as_ if action.card.is_joker else action.card
            assert place is not None and place.suit is not None
            card = action.card
            if card.is_joker:
                card = Card(0, None, Meaning(place.rank, place.suit))
            if place.rank < low[action.meld]:
                cards.insert(0, card)
                low[action.meld] = place.rank
            else:
                cards.append(card)
        size += 1
    return out


def best_laying(
    hand: Sequence[Card],
    table: Sequence[TableMeldJSON],
    *,
    seat: int,
    contract: Contract,
    laid: tuple[int, int],
    complete: bool,
) -> Laying:
    """The most cards ``seat`` can lay this turn from ``hand`` onto ``table`` (a view's
    ``table``), and the engine actions that lay them (see the module docstring)."""
    counts: Counter[Nat] = Counter(_nat(c) for c in hand if not c.is_joker)
    jokers = sum(1 for c in hand if c.is_joker)
    anchors = [_anchor_json(m) for m in table]
    cards = len(hand)
    if complete:
        count, actions = _after_contract(counts, jokers, anchors, table, seat, len(table))
        return Laying(count, actions, complete=True, contract=False)
    best = Laying()
    g_have, r_have = laid
    for g, r in contract.choices:
        wanted = [True] * max(0, g - g_have) + [False] * max(0, r - r_have)
        for melds, left, j in _sets(counts, jokers, wanted):
            best.contract = True
            laid_now = 3 * len(melds)
            if best.complete and laid_now + sum(left.values()) + j <= best.count:
                continue
            number = len(table) + len(melds)
            more = [_anchor_of(m, len(table) + i) for i, m in enumerate(melds)]
            count, actions = _after_contract(left, j, [*anchors, *more], table, seat, number)
            if laid_now + count > best.count or not best.complete:
                lay = LayDown(seat, tuple(m.cards for m in melds))
                best = Laying(laid_now + count, [lay, *actions], complete=True, contract=True)
                if best.count == cards:
                    return best
    if contract.all_at_once:
        return best
    need_g, need_r = contract.groups - g_have, contract.runs - r_have
    for g in range(need_g + 1):
        for r in range(need_r + 1):
            if g + r == 0 or (g, r) == (need_g, need_r) or 3 * (g + r) > cards - 2:
                continue
            for melds, left, j in _sets(counts, jokers, [True] * g + [False] * r):
                off, offs = _lay_offs(
                    left, j, [_anchor_of(m, i) for i, m in enumerate(melds)], seat
                )
                count = min(3 * len(melds) + off, cards - 2)
                if count > best.count:
                    grown = _grown(melds, offs, count)
                    lay = LayDown(seat, tuple(tuple(m) for m in grown))
                    best = Laying(count, [lay], complete=False, contract=best.contract)
    return best


def best_laying_from(view: KontraktView, hand: Sequence[Card]) -> Laying:
    """:func:`best_laying` for the seat of a Kontrakt ``view`` holding ``hand`` (its own
    hand, or that hand with the pile's top): the table, contract and what the seat has
    laid are the view's."""
    seat = view["seat"]
    assert seat is not None, "a spectator lays nothing"
    mine = view["laid"][seat]
    return best_laying(
        hand,
        view["table"],
        seat=seat,
        contract=CONTRACTS[view["deal"]],
        laid=(mine["groups"], mine["runs"]),
        complete=mine["complete"],
    )
