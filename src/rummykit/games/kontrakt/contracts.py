"""Kontraktsrummy contracts (K4) and finding the melds a hand can make (hints, bots).

Every deal of a Kontrakt game has a contract: a number of groups (tretal) and
runs (färgföljder), each of at least three cards. :data:`CONTRACTS` holds the
seven of K4; the seventh may be met two ways and is laid all at once (K12).

:func:`find_melds` looks for disjoint melds in a hand: the help behind the
``hint`` of an interface and the basic bot.

>>> from rummykit.cards import parse_cards
>>> str(CONTRACTS[1])
'1 group + 1 run'
>>> CONTRACTS[6].describe().translated("sv")
'3 tretal eller 3 färgföljder, allt på en gång'
>>> hand = parse_cards("7h 7d 7s 4c 5c 6c Kd 2s * 9h")
>>> [" ".join(map(str, m)) for m in find_melds(hand, groups=1, runs=1)]
['7d 7h 7s', '4c 5c 6c']
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rummykit.cards import JOKER, Card, Meaning, Suit
from rummykit.games.kontrakt.view import ContractJSON
from rummykit.i18n import N_, Message, Plural
from rummykit.melds import MeldKind

__all__ = [
    "CONTRACTS",
    "Contract",
    "candidate_melds",
    "contract_facts",
    "describe_melds",
    "find_melds",
    "largest_part",
]


@dataclass(frozen=True, slots=True)
class Contract:
    """The contract of one deal (K4): groups and runs; ``choices`` for the seventh deal.

    ``choices`` lists the (groups, runs) combinations that meet the contract:
    one for deals 1-6, two for deal 7 (3 groups or 3 runs). ``all_at_once``
    is K12: nothing may be laid until the whole contract is laid in one turn.
    """

    deal: int
    choices: tuple[tuple[int, int], ...]
    all_at_once: bool = False

    @property
    def groups(self) -> int:
        """Groups asked for (the first choice)."""
        return self.choices[0][0]

    @property
    def runs(self) -> int:
        """Runs asked for (the first choice)."""
        return self.choices[0][1]

    def __str__(self) -> str:
        return str(self.describe())

    def describe(self) -> Message:
        """The contract in words, to read in any language ("2 groups", "2 tretal")."""
        parts = [describe_melds(g, r) for g, r in self.choices]
        text = parts[0]
        for other in parts[1:]:
            text = Message(N_("{first} or {second}"), first=text, second=other)
        if self.all_at_once:
            return Message(N_("{contract}, all at once"), contract=text)
        return text

    def to_json(self) -> ContractJSON:
        """The contract as plain data for views (``number``: the deal, 1-7)."""
        return {
            "number": self.deal,
            "choices": [{"groups": g, "runs": r} for g, r in self.choices],
            "all_at_once": self.all_at_once,
            "text": str(self),
        }


def describe_melds(groups: int, runs: int) -> Message:
    """``groups`` groups and ``runs`` runs in words ("1 group + 2 runs"; "nothing" for none).

    >>> describe_melds(1, 2).translated("sv"), str(describe_melds(0, 0))
    ('1 tretal + 2 färgföljder', 'nothing')
    """
    g = Plural("{n} group", "{n} groups", groups)
    r = Plural("{n} run", "{n} runs", runs)
    if groups and runs:
        return Message("{groups} + {runs}", groups=g, runs=r)  # no words to translate
    if groups:
        return g
    if runs:
        return r
    return Message(N_("nothing"))


CONTRACTS: tuple[Contract, ...] = (
    Contract(1, ((2, 0),)),
    Contract(2, ((1, 1),)),
    Contract(3, ((0, 2),)),
    Contract(4, ((3, 0),)),
    Contract(5, ((2, 1),)),
    Contract(6, ((1, 2),)),
    Contract(7, ((3, 0), (0, 3)), all_at_once=True),
)
"""K4: the contracts of the seven deals, index 0 for deal 1."""


@dataclass(frozen=True, slots=True)
class _Candidate:
    kind: MeldKind
    naturals: tuple[Card, ...]
    jokers: int
    key: int  # rank of a group, start of a run
    suit: Suit | None


def candidate_melds(hand: Iterable[Card], kind: MeldKind) -> list[tuple[Card, ...]]:
    """Every smallest meld (three cards) of ``kind`` the hand can make, fewest jokers first.

    Jokers are placed: ``*:7`` in a group of sevens, ``*:8h`` in a run.
    """
    cards = list(hand)
    counts = Counter(c.plain() for c in cards)
    return [_cards(c) for c in _candidates(counts, kind, every_choice=False)]


_NATURAL = {(r, suit): Card(r, suit) for suit in Suit for r in range(1, 14)}


def _candidates(
    counts: Counter[Card], kind: MeldKind, *, every_choice: bool = True
) -> list[_Candidate]:
    """The smallest melds of ``kind`` the hand can make, fewest jokers first. A group is
    one per rank (its first three cards by suit, jokers making up the rest), or with
    ``every_choice`` every choice of the rank's cards and jokers: two groups of one rank
    may share it (K5, two decks), and the second needs other cards than the first."""
    jokers = counts[JOKER]
    out: list[_Candidate] = []
    if kind is MeldKind.GROUP:
        by_rank: dict[int, list[Card]] = {}
        for card, n in counts.items():
            if n > 0 and not card.is_joker:
                by_rank.setdefault(card.rank, []).extend([card] * n)
        for rank, cards in by_rank.items():
            cards.sort(key=lambda c: c.suit or 0)
            if not every_choice:
                take = tuple(cards[:3])
                if 3 - len(take) <= jokers:
                    out.append(_Candidate(kind, take, 3 - len(take), rank, None))
                continue
            for size in range(min(3, len(cards)), max(1, 3 - jokers) - 1, -1):
                for take in dict.fromkeys(itertools.combinations(cards, size)):
                    out.append(_Candidate(kind, take, 3 - size, rank, None))
    else:
        by_suit: dict[Suit, int] = {}  # a bit per rank held
        for card, n in counts.items():
            if n > 0 and card.suit is not None:
                by_suit[card.suit] = by_suit.get(card.suit, 0) | 1 << card.rank
        for suit, mask in by_suit.items():
            for start in range(1, 12):
                window = (mask >> start) & 7
                if not window:
                    continue
                need = 3 - window.bit_count()
                if need <= jokers:
                    naturals = tuple(_NATURAL[start + k, suit] for k in range(3) if window >> k & 1)
                    out.append(_Candidate(kind, naturals, need, start, suit))
    out.sort(key=lambda c: (c.jokers, -c.key))
    return out


def _cards(c: _Candidate) -> tuple[Card, ...]:
    if c.kind is MeldKind.GROUP:
        return c.naturals + (Card(0, None, Meaning(c.key)),) * c.jokers
    have = {n.rank for n in c.naturals}
    assert c.suit is not None
    return tuple(
        Card(r, c.suit) if r in have else Card(0, None, Meaning(r, c.suit))
        for r in range(c.key, c.key + 3)
    )


def _usage(c: _Candidate) -> Counter[Card]:
    use = Counter(c.naturals)
    if c.jokers:
        use[JOKER] += c.jokers
    return use


def find_melds(
    hand: Iterable[Card], groups: int, runs: int, *, extend: bool = True
) -> list[list[Card]] | None:
    """Disjoint melds from ``hand``: ``groups`` groups then ``runs`` runs, or None.

    The choice uses as few jokers as it can. With ``extend`` every meld then
    takes the hand's other natural cards that fit it (more cards of a group's
    rank, neighbours at a run's ends), so that as few cards as possible stay.
    """
    counts = Counter(c.plain() for c in hand)
    return _find(counts, {}, groups, runs, extend)


def _find(
    counts: Counter[Card],
    pools: dict[MeldKind, list[_Candidate]],
    groups: int,
    runs: int,
    extend: bool,
) -> list[list[Card]] | None:
    wanted = [MeldKind.GROUP] * groups + [MeldKind.RUN] * runs
    for k in set(wanted):
        if k not in pools:
            pools[k] = _candidates(counts, k)
    best: list[_Candidate] | None = None
    best_jokers = 99

    def search(i: int, lower: int, left: Counter[Card], chosen: list[_Candidate]) -> None:
        nonlocal best, best_jokers
        used = sum(c.jokers for c in chosen)
        if used >= best_jokers:
            return
        if i == len(wanted):
            best, best_jokers = list(chosen), used
            return
        kind = wanted[i]
        pool = pools[kind]
        start = lower if i > 0 and wanted[i - 1] is kind else 0
        for j in range(start, len(pool)):
            cand = pool[j]
            use = _usage(cand)
            if all(left[card] >= n for card, n in use.items()):
                chosen.append(cand)
                search(i + 1, j, left - use, chosen)
                chosen.pop()
                if best_jokers == 0:
                    return

    search(0, 0, counts, [])
    if best is None:
        return None
    melds = [list(_cards(c)) for c in best]
    if extend:
        left = counts.copy()
        for c in best:
            left -= _usage(c)
        for meld, cand in zip(melds, best, strict=True):
            _extend(meld, cand, left)
    return melds


def _extend(meld: list[Card], cand: _Candidate, left: Counter[Card]) -> None:
    """Add the hand's remaining natural cards that fit ``meld`` (in place)."""
    if cand.kind is MeldKind.GROUP:
        for card in sorted(left, key=lambda c: c.suit or 0):
            if not card.is_joker and card.rank == cand.key:
                meld.extend([card] * left[card])
                left[card] = 0
        return
    assert cand.suit is not None
    low, high = cand.key, cand.key + 2
    while low > 1 and left[Card(low - 1, cand.suit)] > 0:
        low -= 1
        left[Card(low, cand.suit)] -= 1
        meld.insert(0, Card(low, cand.suit))
    while high < 13 and left[Card(high + 1, cand.suit)] > 0:
        high += 1
        left[Card(high, cand.suit)] -= 1
        meld.append(Card(high, cand.suit))


def largest_part(
    hand: Sequence[Card], groups: int, runs: int
) -> tuple[int, int, list[list[Card]]] | None:
    """The most contract melds the hand can lay now, at most ``groups`` and ``runs`` (K9).

    Each meld takes the hand's other cards that fit it. A part that leaves the
    contract open must leave two cards in hand (K13: no going out before the
    whole contract is down), so such a part is laid bare, three cards a meld,
    or a smaller part is looked for.

    Returns (groups, runs, melds) with as many melds as possible, or None when
    the hand can lay no meld the contract still needs.
    """
    options = sorted(
        ((g, r) for g in range(groups + 1) for r in range(runs + 1) if g + r > 0),
        key=lambda gr: -(gr[0] + gr[1]),
    )
    counts = Counter(c.plain() for c in hand)
    pools: dict[MeldKind, list[_Candidate]] = {}
    for g, r in options:
        found = _find(counts, pools, g, r, True)
        if found is None:
            continue
        if (g, r) != (groups, runs) and _kept(hand, found) < 2:
            found = _find(counts, pools, g, r, False)
            if found is None or _kept(hand, found) < 2:
                continue
        return g, r, found
    return None


def _kept(hand: Sequence[Card], melds: list[list[Card]]) -> int:
    """The cards left in ``hand`` once ``melds`` are laid from it."""
    return len(hand) - sum(map(len, melds))


def contract_facts(lang: str) -> dict[str, object]:
    """What a page shows of the seven contracts (K4), in ``lang``: each as data and in
    words (the game's ``page_facts``, ``GET /api/games/kontrakt``)."""
    return {
        "contracts": [{**c.to_json(), "text": c.describe().translated(lang)} for c in CONTRACTS]
    }
