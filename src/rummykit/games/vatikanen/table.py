"""Checking a new Vatikanen table against the old one (V7, V9, V11, V12).

The engine calls :func:`check_opening` for a player's first play and
:func:`check_table` for every later play that names the new table (or whose
table the solver arranged). Both raise :class:`~rummykit.errors.RuleError`
with the rule id and a player's reason, and return the new table as melds
with every joker's meaning.

A table joker keeps what it stands for (V11) unless it is *freed*: a real
copy of that card lies somewhere on the new table to stand in its place, one
real card for each freed joker. Jokers are physically alike, so the check
tries every way to match the old table's jokers to the jokers of the new
table (there are at most two).

>>> from rummykit.cards import parse_cards
>>> from rummykit.melds import VATIKANEN, read_meld
>>> old = [read_meld(parse_cards(t), VATIKANEN) for t in ("Tc Th Th Ts", "7s 8s 9s")]
>>> new = [parse_cards("Tc Th Th"), parse_cards("7s 8s 9s Ts Js")]
>>> [str(m) for m in check_table(old, parse_cards("Js"), new)]
['Tc Th Th', '7s 8s 9s Ts Js']
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

from rummykit.cards import Card, Meaning, format_cards
from rummykit.errors import RuleError
from rummykit.melds import VATIKANEN, Meld, MeldError, MeldKind, read_meld

__all__ = [
    "check_opening",
    "check_table",
    "describe_meaning",
    "frees_allowed",
    "keeps_meaning",
    "plain_counter",
]


def plain_counter(cards: Sequence[Card]) -> Counter[Card]:
    """The multiset of physical cards (joker meanings dropped)."""
    return Counter(c.plain() for c in cards)


def describe_meaning(meaning: Meaning) -> str:
    """A joker's meaning for a player: '7h', or 'a 7' for a group joker."""
    if meaning.suit is None:
        return f"a {meaning}"
    return str(meaning)


def keeps_meaning(old: Meaning, new: Meaning) -> bool:
    """True when a table joker that stood for ``old`` still stands for it as ``new`` (V11).

    A run joker (rank and suit) must keep both. A group joker stands for its
    rank only (RULES.md, V11): it stays a group card of that rank, in any
    group of that rank; taking a place in a run needs freeing, since a run
    place is a card of one suit, which the group joker never stood for.
    """
    return new.rank == old.rank and new.suit == old.suit


def frees_allowed(freed: Sequence[Meaning], table_cards: Sequence[Card]) -> bool:
    """True when every freed joker has its own real card on the table (V11).

    A run joker needs a real copy of its card; a group joker a real card of its
    rank. Each real card frees one joker. Exact matching: cards first go to the
    jokers that need that very card, the rest of a rank to the group jokers.
    """
    if not freed:
        return True
    naturals = Counter(c for c in table_cards if not c.is_joker)
    need_card: Counter[Card] = Counter()
    need_rank: Counter[int] = Counter()
    for m in freed:
        if m.suit is None:
            need_rank[m.rank] += 1
        else:
            need_card[Card(m.rank, m.suit)] += 1
    spare: Counter[int] = Counter()
    for card, n in naturals.items():
        if need_card[card] > n:
            return False
        spare[card.rank] += n - need_card[card]
    if any(need_card[c] > naturals[c] for c in need_card):
        return False
    return all(spare[rank] >= n for rank, n in need_rank.items())


def _describe_diff(missing: Counter[Card], extra: Counter[Card]) -> str:
    parts = []
    if missing:
        parts.append(f"it leaves out {format_cards(sorted(missing.elements(), key=str))}")
    if extra:
        parts.append(f"it has {format_cards(sorted(extra.elements(), key=str))} too many")
    return " and ".join(parts)


def _read(cards: Sequence[Card]) -> Meld:
    try:
        return read_meld(cards, VATIKANEN)
    except MeldError as exc:
        text = format_cards(cards)
        raise RuleError("V9", f"the table would hold {text}, which is no meld: {exc}") from None


def check_opening(
    table: Sequence[Meld], add: Sequence[Card], new: Sequence[Sequence[Card]] | None
) -> list[Meld]:
    """The table after an opening play of ``add`` (V7); RuleError if it is not one.

    The opening is exactly one run of at least 3 cards, all from the hand, and
    the table is not touched: ``new`` (if given) is the old table with the run
    added as one more meld, anywhere.
    """
    why = "your first play must be one run of at least 3 cards from your hand"
    if len(add) < 3:
        raise RuleError("V7", f"{why}: {format_cards(add)} is too short")
    if new is None:
        return [*table, _opening_run(add, why)]
    if len(new) != len(table) + 1:
        raise RuleError("V7", f"{why}; the table is not touched that turn")
    old_keys = [plain_counter(m.cards) for m in table]
    for i, meld in enumerate(new):
        rest = [plain_counter(m) for j, m in enumerate(new) if j != i]
        if plain_counter(meld) == plain_counter(add) and rest == old_keys:
            return [*table[:i], _opening_run(meld, why), *table[i:]]
    raise RuleError("V7", f"{why}; the table is not touched that turn")


def _opening_run(cards: Sequence[Card], why: str) -> Meld:
    try:
        run = read_meld(cards, VATIKANEN)
    except MeldError as exc:
        raise RuleError("V7", f"{why}: {exc}") from None
    if run.kind is not MeldKind.RUN:
        raise RuleError("V7", f"{why}, not a group: {format_cards(cards)}")
    return run


def check_table(
    table: Sequence[Meld],
    add: Sequence[Card],
    new: Sequence[Sequence[Card]],
    *,
    free_jokers: bool = False,
) -> list[Meld]:
    """The new table as melds; RuleError unless ``new`` is a legal result (V9, V11, V12).

    ``new`` must hold exactly the old table's cards plus ``add`` (no card
    leaves the table, V9), every meld valid (V9b), and every table joker still
    standing for its card or freed by its own real copy (V11) unless
    ``free_jokers``.
    """
    old_cards = [c for m in table for c in m.cards]
    new_cards = [c for m in new for c in m]
    want = plain_counter(old_cards) + plain_counter(add)
    have = plain_counter(new_cards)
    if have != want:
        diff = _describe_diff(want - have, have - want)
        raise RuleError(
            "V9",
            f"the new table must hold exactly the old table and the cards you add; {diff}",
        )
    old_jokers = [c.stands_for for c in old_cards if c.is_joker and c.stands_for is not None]
    if free_jokers or not old_jokers:
        return [_read(m) for m in new]
    slots = [(i, j) for i, m in enumerate(new) for j, c in enumerate(m) if c.is_joker]
    first_error: RuleError | None = None
    freed_error: list[Meaning] | None = None
    for placed in itertools.permutations(slots, len(old_jokers)):
        for keep in itertools.product((True, False), repeat=len(old_jokers)):
            melds = [list(m) for m in new]
            kept_ok = True
            in_groups = set()
            for meaning, (i, j), k in zip(old_jokers, placed, keep, strict=True):
                given = melds[i][j].stands_for
                if not k:
                    continue
                if meaning.suit is None:
                    in_groups.add(i)
                if given is None:
                    melds[i][j] = melds[i][j].with_meaning(meaning)
                elif not keeps_meaning(meaning, given):
                    kept_ok = False
            if not kept_ok:
                continue
            try:
                result = [_read(m) for m in melds]
            except RuleError as exc:
                first_error = first_error or exc
                continue
            if any(result[i].kind is not MeldKind.GROUP for i in in_groups):
                continue
            freed = [m for m, k in zip(old_jokers, keep, strict=True) if not k]
            if frees_allowed(freed, new_cards):
                return result
            freed_error = freed_error or freed
    if freed_error is not None:
        meaning = freed_error[0]
        raise RuleError(
            "V11",
            f"the joker standing for {describe_meaning(meaning)} may leave its place only"
            f" when a real {meaning} is put on the table in its stead",
        )
    assert first_error is not None
    raise first_error
