"""Turn a solution on counts back into melds of physical cards (V11).

Runs are cut per suit with the canonical rule of the programme (start where
the count of cells in runs rises, end the oldest where it falls); each cell
gets table jokers that keep their meaning first, then natural cards, then
wild jokers. What is left of a rank forms its group (or groups, where a group
has at most four distinct suits).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Sequence

from rummykit.cards import JOKER, Card, Meaning, Suit
from rummykit.melds import Meld, MeldKind, MeldRules
from rummykit.solver.counts import SUITS, Solution
from rummykit.solver.model import Freeing, Position

__all__ = ["build_melds", "lay_out"]

_NATURAL = [[Card(max(rank, 1), Suit(s)) for s in range(SUITS)] for rank in range(14)]
"""Every natural card by [rank][suit] (cards are immutable, so one of each will do)."""


def lay_out(
    sol: Solution, fr: Freeing, pos: Position, rules: MeldRules
) -> tuple[list[Meld], list[Card]]:
    """The melds of a solution of the freeing case ``fr`` of ``pos``, and the hand cards it
    plays (natural ones by suit and rank, then the jokers)."""
    fixed_run: dict[tuple[int, int], list[Card]] = {}
    group_only: list[list[Card]] = [[] for _ in range(14)]
    for i, (rank, s) in enumerate(pos.run_jokers):
        if i not in fr.runs:
            fixed_run.setdefault((rank, s), []).append(Card(0, None, Meaning(rank, Suit(s))))
    for i, rank in enumerate(pos.group_jokers):
        if i not in fr.groups:
            group_only[rank].append(Card(0, None, Meaning(rank)))
    high = sol.run_cards[14] if rules.ace_high else None  # aces at the top of runs
    pools: list[list[list[Card]]] = [[[] for _ in range(SUITS)] for _ in range(14)]
    played: list[Card] = []
    for rank in range(1, 14):
        in_runs = sol.run_cards[rank]
        in_groups = sol.group_cards[rank]
        for s in range(SUITS):
            used = in_runs[s] + in_groups[s] + (high[s] if high is not None and rank == 1 else 0)
            if not used:
                continue  # every table card and fixed joker of a cell is used
            cell = list(fixed_run.get((rank, s), ()))
            natural = _NATURAL[rank][s]
            on_table = pos.table[rank][s]
            from_hand = used - len(cell) - on_table
            cell += [natural] * (on_table + from_hand)
            if from_hand:
                played += [natural] * from_hand
            pools[rank][s] = cell
    played += [JOKER] * sol.hand_jokers
    melds = build_melds(sol, pools, group_only, rules, {s for _, s in fixed_run})
    return melds, played


def build_melds(
    sol: Solution,
    pools: list[list[list[Card]]],
    group_only: list[list[Card]],
    rules: MeldRules,
    joker_suits: Collection[int] = range(SUITS),
) -> list[Meld]:
    """The melds of ``sol``; ``pools[rank][suit]`` holds the cell's cards, used in order.

    ``group_only[rank]`` holds table jokers that stand for a rank (group only).
    Wild jokers are created as needed (the caller counts them). ``joker_suits``:
    the suits whose pools may hold table jokers (the others hold natural cards only).
    """
    npos = 14 if rules.ace_high else 13
    taken = [[0] * SUITS for _ in range(14)]
    runs: list[tuple[int, int, int, Meld]] = []
    for s in range(SUITS):
        in_runs = [row[s] for row in sol.run_cards]
        wild = [row[s] for row in sol.run_jokers]
        counts = [in_runs[p] + wild[p] for p in range(npos + 1)]
        if not any(counts):
            continue
        suit = Suit(s)
        spans = _spans(counts)
        if s not in joker_suits and not any(wild):
            # natural cards only: every run takes its cell's card, whichever copy
            for p in range(1, npos + 1):
                taken[1 if p == 14 else p][s] += in_runs[p]
            for a, b in spans:
                run = tuple(pools[1 if p == 14 else p][s][0] for p in range(a, b + 1))
                runs.append((s, a, len(run), Meld(MeldKind.RUN, run, a)))
            continue
        cells: list[list[Card]] = [[] for _ in spans]
        has_natural = [False] * len(spans)
        for p in range(1, npos + 1):
            if not counts[p]:
                continue
            rank = 1 if p == 14 else p
            here = [i for i, (a, b) in enumerate(spans) if a <= p <= b]
            start = taken[rank][s]
            cards = pools[rank][s][start : start + in_runs[p]]
            taken[rank][s] = start + in_runs[p]
            if wild[p]:
                cards += [Card(0, None, Meaning(rank, suit))] * wild[p]
            if len(here) > 1:
                # natural cards first to runs that have none yet, soonest ending first
                here.sort(key=lambda i: (has_natural[i], spans[i][1], i))
                cards.sort(key=_is_joker)
            for i, card in zip(here, cards, strict=True):
                if card.is_joker:
                    card = card.with_meaning(Meaning(rank, suit))
                else:
                    has_natural[i] = True
                cells[i].append(card)
        for (a, _b), run_cards in zip(spans, cells, strict=True):
            runs.append((s, a, len(run_cards), Meld(MeldKind.RUN, tuple(run_cards), a)))
    groups: list[Meld] = []
    for rank in range(1, 14):
        if not (any(sol.group_cards[rank]) or sol.group_jokers[rank] or group_only[rank]):
            continue
        naturals: list[Card] = []
        for s in range(SUITS):
            cell = pools[rank][s]
            k = sol.group_cards[rank][s]
            naturals += cell[taken[rank][s] : taken[rank][s] + k]
            taken[rank][s] += k
        jokers = list(group_only[rank]) + [Card(0, None, Meaning(rank))] * sol.group_jokers[rank]
        if not naturals and not jokers:
            continue
        for cards_ in _split_group(naturals, jokers, rules):
            groups.append(Meld(MeldKind.GROUP, tuple(cards_), rank))
    runs.sort(key=lambda r: r[:3])
    return [r[3] for r in runs] + groups


def _is_joker(card: Card) -> bool:
    """Whether ``card`` is a joker (a sort key: natural cards first)."""
    return card.is_joker


def _spans(x: list[int]) -> list[tuple[int, int]]:
    """Cut a suit's cells in runs (``x[p]``, p >= 1) into runs: (first, last) positions.

    Runs start where the count rises and the oldest end where it falls.
    """
    open_: deque[int] = deque()
    out: list[tuple[int, int]] = []
    now = 0
    end = len(x)
    for p in range(1, end + 1):
        n = x[p] if p < end else 0
        while now > n:
            out.append((open_.popleft(), p - 1))
            now -= 1
        while now < n:
            open_.append(p)
            now += 1
    return out


def _split_group(naturals: list[Card], jokers: list[Card], rules: MeldRules) -> list[list[Card]]:
    """One group, or the fewest groups of 3-4 distinct suits (Rummikub)."""
    naturals.sort(key=_group_order)
    fixed_first = sorted(jokers, key=lambda c: c.stands_for is None or c.stands_for.suit is None)
    if rules.max_group_size is None and not rules.group_distinct_suits:
        return [naturals + fixed_first]
    total = len(naturals) + len(jokers)
    size = rules.max_group_size or total
    per_suit = [0] * SUITS
    for c in naturals:
        per_suit[_suit_of(c)] += 1
    k = max(1, -(-total // size), max(per_suit) if rules.group_distinct_suits else 1)
    if k == 1:
        return [naturals + fixed_first]
    out: list[list[Card]] = [[] for _ in range(k)]
    suits: list[set[int]] = [set() for _ in range(k)]
    for card in naturals:
        options: Sequence[int] = range(k)
        if rules.group_distinct_suits:
            options = [g for g in range(k) if _suit_of(card) not in suits[g]]
        g = min(options, key=lambda g: len(out[g]))
        out[g].append(card)
        suits[g].add(_suit_of(card))
    for card in fixed_first:
        min(out, key=len).append(card)
    return out


def _suit_of(card: Card) -> int:
    """A natural card's suit, or the suit of the card a table joker stands for (its place
    in a group of distinct suits)."""
    if card.suit is not None:
        return int(card.suit)
    meaning = card.stands_for
    return 0 if meaning is None or meaning.suit is None else int(meaning.suit)


def _group_order(card: Card) -> tuple[int, int, int]:
    """Suit order, a joker that stands for a card before the natural card of its suit.

    (The order of the cards' text, without formatting them.)
    """
    if card.suit is not None:
        return (card.suit, 1, 0)
    meaning = card.stands_for
    return (0, 0, 0 if meaning is None or meaning.suit is None else meaning.suit)


__all__ = ["JOKER", "build_melds"]
