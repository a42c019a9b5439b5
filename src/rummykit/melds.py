"""Meld rules as data, one preset per game, and reading cards as a meld.

A meld (Swedish: kombination) is a *run* of one suit in consecutive ranks or a
*group* of one rank. What counts differs by game: :data:`VATIKANEN` (V5, V6),
:data:`KONTRAKT` (K5) and :data:`RUMMIKUB` (to compare with Rummikub solvers).

:func:`read_meld` reads a list of cards as a meld and says what every joker
stands for (V11, K11). The place of a joker in the list is its place in the
meld; a joker that already carries a meaning (``*:7h``) keeps it.

>>> from rummykit.cards import parse_cards
>>> str(read_meld(parse_cards("7h * 9h"), VATIKANEN))
'7h *:8h 9h'
>>> str(read_meld(parse_cards("Qs Ks As"), VATIKANEN))
'Qs Ks As'
>>> classify(parse_cards("Qs Ks As"), KONTRAKT) is None
True
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from rummykit.cards import (
    Card,
    Meaning,
    Suit,
    kontrakt_value,
    pretty_cards,
    rank_text,
    vatikanen_value,
)
from rummykit.errors import MessageError
from rummykit.i18n import N_, Message

__all__ = [
    "KONTRAKT",
    "PRESETS",
    "RUMMIKUB",
    "VATIKANEN",
    "Meld",
    "MeldError",
    "MeldKind",
    "MeldRules",
    "classify",
    "read_meld",
    "rules_named",
    "run_problem",
    "run_problem_message",
]


class MeldError(MessageError):
    """Cards that do not form a meld; the message says why, in a player's words.

    ``rule`` is the rule id the cards break (``"V5"``, ``"K5"``), or None;
    ``message`` is the reason without it, for a caller that names the rule
    itself (a :class:`~rummykit.errors.RuleError`): :meth:`reason` cites the
    rule only when it is another one, so that no message names a rule twice.
    Like every :class:`~rummykit.errors.MessageError` it is a catalog template
    with parameters, to read in any language (:meth:`translated`,
    :meth:`reason_message`).

    >>> exc = MeldError(N_("{cards} is not a run: there is a gap between {low} and {high}"),
    ...                 "V5", cards="3s 8s Qs", low="3", high="8")
    >>> str(exc)
    '3s 8s Qs is not a run: there is a gap between 3 and 8 (V5)'
    >>> exc.reason("V5"), exc.reason("V9")[-4:]
    ('3s 8s Qs is not a run: there is a gap between 3 and 8', '(V5)')
    >>> exc.translated("sv")
    '3s 8s Qs är ingen färgföljd: det är en lucka mellan 3 och 8'
    """

    def __init__(self, message: str | Message, rule: str | None = None, /, **params: object):
        super().__init__(message, **params)
        self.rule = rule

    def __str__(self) -> str:
        return self.message if self.rule is None else f"{self.message} ({self.rule})"

    def translated(self, language: str, *, cite: bool = False) -> str:
        """The reason in ``language``; ``cite``: with its rule id, as ``str``."""
        return self.reason_message(None if cite else self.rule).translated(language)

    def reason(self, rule: str | None = None) -> str:
        """The reason, citing its rule unless that is ``rule`` (the caller's own)."""
        if self.rule is None or self.rule == rule:
            return self.message
        return f"{self.message} ({self.rule})"

    def reason_message(self, rule: str | None = None) -> Message:
        """:meth:`reason` as a message, to pass on as a parameter of a rule error."""
        if self.rule is None or self.rule == rule:
            return self.translatable
        return Message("{reason} ({rule})", reason=self.translatable, rule=self.rule)


class MeldKind(StrEnum):
    """A run (sekvens, färgföljd) or a group (grupp, tretal)."""

    RUN = "run"
    GROUP = "group"


def rummikub_value(card: Card) -> int:
    """Rummikub tile points: the number; a joker 30."""
    return 30 if card.is_joker else card.rank


@dataclass(frozen=True, slots=True)
class MeldRules:
    """What counts as a meld in one game, and the largest deck the game uses.

    ``packs`` and ``jokers`` bound how many copies of a card can exist at all.
    ``group_joker_keeps_suit``: a joker that stands for a card of a suit
    (``*:6d``) keeps standing for that card in a group of its rank (V11, V12:
    a table joker counts as its card; in Rummikub it takes its colour's
    place); without it, a group joker stands for its rank only (K11).
    """

    name: str
    ace_high: bool
    max_group_size: int | None = None
    group_distinct_suits: bool = False
    group_joker_keeps_suit: bool = True
    packs: int = 2
    jokers: int = 2
    min_size: int = 3
    run_rule: str = "V5"
    group_rule: str = "V6"
    value: Callable[[Card], int] = field(default=vatikanen_value, compare=False)

    @property
    def max_run_length(self) -> int:
        """14 where two aces may close both ends of a run (V5), else 13."""
        return 14 if self.ace_high else 13


VATIKANEN = MeldRules("vatikanen", ace_high=True, packs=2, jokers=2)
"""V5, V6: ace low or high, never both; groups of any size, suits may repeat."""

KONTRAKT = MeldRules(
    "kontrakt",
    ace_high=False,
    packs=3,
    jokers=3,
    run_rule="K5",
    group_rule="K5",
    group_joker_keeps_suit=False,
    value=kontrakt_value,
)
"""K5: the ace is low only (A-2-3, never Q-K-A); groups as in Vatikanen."""

RUMMIKUB = MeldRules(
    "rummikub",
    ace_high=False,
    max_group_size=4,
    group_distinct_suits=True,
    run_rule="run",
    group_rule="group",
    value=rummikub_value,
)
"""Rummikub: numbers 1-13 without wrap; groups of 3-4 distinct colours."""

PRESETS: dict[str, MeldRules] = {r.name: r for r in (VATIKANEN, KONTRAKT, RUMMIKUB)}


def rules_named(name: str) -> MeldRules:
    """The preset called ``name`` (vatikanen, kontrakt, rummikub)."""
    try:
        return PRESETS[name.lower()]
    except KeyError:
        known = ", ".join(PRESETS)
        raise MessageError(
            N_("unknown rules {name}: choose one of {known}"), name=repr(name), known=known
        ) from None


@dataclass(frozen=True, slots=True)
class Meld:
    """A valid meld: its kind and its cards in order, every joker annotated.

    For a run, ``start`` is the position of the first card (1 = ace low, 14 =
    ace high) and the cards ascend from it; for a group ``start`` is the rank.
    """

    kind: MeldKind
    cards: tuple[Card, ...]
    start: int

    @property
    def suit(self) -> Suit | None:
        """The suit of a run; None for a group."""
        if self.kind is MeldKind.GROUP:
            return None
        return next(c.suit for c in self.cards if not c.is_joker)

    @property
    def rank(self) -> int | None:
        """The rank of a group; None for a run."""
        return self.start if self.kind is MeldKind.GROUP else None

    @property
    def end(self) -> int:
        """The position of a run's last card (equal to ``start`` for a group)."""
        return self.start + len(self.cards) - 1 if self.kind is MeldKind.RUN else self.start

    def __len__(self) -> int:
        return len(self.cards)

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.cards)

    def plain_cards(self) -> list[Card]:
        """The physical cards, jokers without meaning."""
        return [c.plain() for c in self.cards]


def _describe(cards: Sequence[Card]) -> str | Message:
    return pretty_cards(cards) or Message(N_("nothing"))


def _read_group(cards: Sequence[Card], rules: MeldRules) -> Meld:
    naturals = [c for c in cards if not c.is_joker]
    rank = naturals[0].rank
    rule = rules.group_rule
    if any(c.rank != rank for c in naturals):
        raise MeldError(N_("{cards} mixes ranks, so it is no group"), rule, cards=_describe(cards))
    meanings: list[Meaning] = []
    for c in cards:
        if not c.is_joker:
            continue
        m = c.stands_for
        if m is not None and m.rank != rank:
            raise MeldError(
                N_("a joker standing for {meaning} cannot sit in a group of {rank}"),
                meaning=str(m),
                rank=rank,
            )
        keep = m is not None and m.suit is not None and rules.group_joker_keeps_suit
        meanings.append(m if keep and m is not None else Meaning(rank))
    if rules.max_group_size is not None and len(cards) > rules.max_group_size:
        raise MeldError(N_("a group holds at most {n} cards"), n=rules.max_group_size)
    if rules.group_distinct_suits:
        suits = [c.suit for c in naturals] + [m.suit for m in meanings if m.suit is not None]
        if len(set(suits)) < len(suits):
            raise MeldError(
                N_("{cards} repeats a colour, which a group may not"), cards=_describe(cards)
            )
    out = sorted(naturals, key=lambda c: c.suit or 0)
    out += [Card(0, None, m) for m in meanings]
    return Meld(MeldKind.GROUP, tuple(out), rank)


def _fits_run(cards: Sequence[Card], start: int, suit: Suit) -> bool:
    for i, c in enumerate(cards):
        pos = start + i
        rank = 1 if pos == 14 else pos
        if c.is_joker:
            m = c.stands_for
            if m is not None and (m.rank != rank or m.suit not in (None, suit)):
                return False
        elif c.rank != rank:
            return False
    return True


def _run_in_order(cards: Sequence[Card], rules: MeldRules, suit: Suit) -> Meld | None:
    last = rules.max_run_length - len(cards) + 1
    for start in range(1, last + 1):
        if _fits_run(cards, start, suit):
            out = tuple(
                Card(0, None, Meaning(1 if start + i == 14 else start + i, suit))
                if c.is_joker
                else c
                for i, c in enumerate(cards)
            )
            return Meld(MeldKind.RUN, out, start)
    return None


def _sorted_run_order(cards: Sequence[Card]) -> list[list[Card]]:
    """Orders to try when every card's place is known: aces low, or one/two high."""
    known = sorted(
        cards, key=lambda c: c.stands_for.rank if c.is_joker and c.stands_for else c.rank
    )
    aces = [c for c in known if (c.stands_for.rank if c.is_joker and c.stands_for else c.rank) == 1]
    rest = known[len(aces) :]
    orders = [known]
    if aces:
        orders.append(aces[1:] + rest + aces[:1])
    return orders


def _read_run(cards: Sequence[Card], rules: MeldRules) -> Meld:
    naturals = [c for c in cards if not c.is_joker]
    suit = naturals[0].suit
    assert suit is not None
    rule = rules.run_rule
    if any(c.suit != suit for c in naturals):
        raise MeldError(N_("{cards} mixes suits, so it is no run"), rule, cards=_describe(cards))
    if len(cards) > rules.max_run_length:
        raise MeldError(N_("a run has at most {n} cards"), rule, n=rules.max_run_length)
    placed_all = all(not c.is_joker or c.stands_for is not None for c in cards)
    orders: list[list[Card]] = [list(cards), list(reversed(cards))]
    # A joker at the end of a run may stand for either end (RULES.md, 0).
    lead = next((i for i, c in enumerate(cards) if not (c.is_joker and c.stands_for is None)), 0)
    tail = len(cards) - next(
        (i for i, c in enumerate(reversed(cards)) if not (c.is_joker and c.stands_for is None)), 0
    )
    for k in range(1, len(cards) - tail + 1):
        orders.append(list(cards[len(cards) - k :]) + list(cards[: len(cards) - k]))
    for k in range(1, lead + 1):
        orders.append(list(cards[k:]) + list(cards[:k]))
    if placed_all:
        orders += _sorted_run_order(cards)
    for order in orders:
        meld = _run_in_order(order, rules, suit)
        if meld is not None:
            return meld
    raise MeldError(run_problem_message(cards, rules), rule)


def _rank_name(rank: int) -> str:
    return "10" if rank == 10 else rank_text(rank)


def run_problem(cards: Sequence[Card], rules: MeldRules) -> str:
    """Why ``cards`` (natural cards of one suit, and jokers) are no run, in a player's
    words and without the rule id: a rank held twice, a gap the jokers cannot
    fill, the ace's place, or the jokers' places (:func:`run_problem_message`
    in English).

    >>> from rummykit.cards import parse_cards
    >>> run_problem(parse_cards("3s 8s Qs"), VATIKANEN)
    '3♠ 8♠ Q♠ is not a run: there is a gap between 3 and 8'
    >>> run_problem(parse_cards("4c 5c 8c"), KONTRAKT)
    '4♣ 5♣ 8♣ is not a run: there is a gap between 5 and 8'
    >>> run_problem(parse_cards("3s * 8s"), VATIKANEN)
    '3♠ ★ 8♠ is not a run: the gap between 3 and 8 is more than one joker can fill'
    >>> run_problem(parse_cards("Qc Kc Ac"), KONTRAKT)
    'Q♣ K♣ A♣ is not a run: the ace is low only (A-2-3, never Q-K-A)'
    >>> run_problem(parse_cards("Kc Ac 2c"), VATIKANEN)
    'K♣ A♣ 2♣ is not a run: an ace is low (A-2-3) or high (Q-K-A), never both, so K-A-2 is none'
    >>> run_problem(parse_cards("4c 4c 5c"), KONTRAKT)
    '4♣ 4♣ 5♣ is not a run: it holds 4♣ twice, and a run holds each rank once'
    """
    return str(run_problem_message(cards, rules))


RUN_ORDER = N_(
    "{cards} is not a run in this order: a joker stands for the card of its place,"
    " and the cards must follow one another"
)
"""What :func:`run_problem_message` says when only the order of the cards is wrong."""


def run_problem_message(cards: Sequence[Card], rules: MeldRules) -> Message:
    """:func:`run_problem` as a catalog message, to read in any language.

    >>> from rummykit.cards import parse_cards
    >>> run_problem_message(parse_cards("Qc Kc Ac"), KONTRAKT).translated("sv")
    'Q♣ K♣ A♣ är ingen färgföljd: esset är bara lågt (E-2-3, aldrig D-K-E)'
    """
    text = _describe(cards)
    naturals = [c for c in cards if not c.is_joker]
    jokers = len(cards) - len(naturals)
    counts: dict[int, int] = {}
    for c in naturals:
        counts[c.rank] = counts.get(c.rank, 0) + 1
    for c in sorted(naturals, key=lambda c: c.rank):
        allowed = 2 if c.rank == 1 and rules.ace_high else 1
        if counts[c.rank] > allowed:
            return Message(
                N_("{cards} is not a run: it holds {card} twice, and a run holds each rank once"),
                cards=text,
                card=c.pretty(),
            )
    ranks = sorted(counts)
    low = sorted(r for r in ranks for _ in range(counts[r]))
    others = [r for r in low if r != 1]
    high = sorted([*others, 14]) if counts.get(1) == 1 else sorted([*others, 1, 14])

    def missing(order: list[int]) -> int:
        return order[-1] - order[0] + 1 - len(order)

    options = [low, high] if rules.ace_high and 1 in counts else [low]
    best = min(options, key=missing)
    wraps = 1 in counts and 13 in counts and (2 in counts or 3 in counts)
    if 1 in counts and not rules.ace_high and missing(high) <= jokers < missing(low):
        return Message(
            N_("{cards} is not a run: the ace is low only (A-2-3, never Q-K-A)"), cards=text
        )
    if wraps and missing(best) > jokers:
        if rules.ace_high:
            return Message(
                N_(
                    "{cards} is not a run: an ace is low (A-2-3) or high (Q-K-A), never both,"
                    " so K-A-2 is none"
                ),
                cards=text,
            )
        return Message(
            N_("{cards} is not a run: the ace is low only (A-2-3), so K-A-2 is none"), cards=text
        )
    if missing(best) > jokers:
        a, b = next((a, b) for a, b in itertools.pairwise(best) if b - a > 1)
        gap = {"cards": text, "low": _rank_name(a), "high": _rank_name(b)}
        if not jokers:
            return Message(
                N_("{cards} is not a run: there is a gap between {low} and {high}"), **gap
            )
        if jokers == 1:
            return Message(
                N_(
                    "{cards} is not a run: the gap between {low} and {high} is more than"
                    " one joker can fill"
                ),
                **gap,
            )
        return Message(
            N_(
                "{cards} is not a run: the gap between {low} and {high} is more than"
                " the jokers can fill"
            ),
            **gap,
        )
    return Message(RUN_ORDER, cards=text)


def read_meld(cards: Sequence[Card], rules: MeldRules) -> Meld:
    """Read ``cards`` as one meld under ``rules``; raise :class:`MeldError` saying why not.

    A meld needs at least three cards and at least one natural card (house rule:
    otherwise what it is cannot be told). Unplaced jokers take their meaning from
    their place in the list; with a single natural card a run is preferred when
    the order allows one (so ``7h * *`` is 7h 8h 9h), else a group. A joker that
    stands for a card of a group's rank may sit in the group (``6c 6s *:6d``):
    it keeps its card where the rules say so (V11, V12; Rummikub: its colour's
    place), else it stands for the rank (K11).

    >>> from rummykit.cards import parse_cards
    >>> str(read_meld(parse_cards("*:6d 6c 6s"), VATIKANEN))
    '6c 6s *:6d'
    >>> str(read_meld(parse_cards("*:6d 6c 6s"), KONTRAKT))
    '6c 6s *:6'
    """
    if len(cards) < rules.min_size:
        raise MeldError(
            N_("{cards} is too short: a meld has at least {n} cards"),
            cards=_describe(cards),
            n=rules.min_size,
        )
    naturals = [c for c in cards if not c.is_joker]
    if not naturals:
        raise MeldError(N_("a meld needs at least one natural card, not only jokers"))
    joker_meanings = [c.stands_for for c in cards if c.is_joker and c.stands_for is not None]
    wants_group = any(m.suit is None for m in joker_meanings)
    wants_run = any(m.suit is not None for m in joker_meanings)
    same_rank = all(c.rank == naturals[0].rank for c in naturals)
    same_suit = all(c.suit == naturals[0].suit for c in naturals)
    # jokers standing for cards of the group's own rank (``6c 6s *:6d``): V11, V12
    suited_group = (
        same_rank and wants_run and all(m.rank == naturals[0].rank for m in joker_meanings)
    )
    if same_suit and not (same_rank and len(naturals) > 1) and not wants_group:
        try:
            return _read_run(cards, rules)
        except MeldError:
            if not same_rank or (wants_run and not suited_group):
                raise
    if same_rank and (not wants_run or suited_group):
        return _read_group(cards, rules)
    if same_suit:
        return _read_run(cards, rules)
    kinds = (
        rules.run_rule
        if rules.run_rule == rules.group_rule
        else f"{rules.run_rule}, {rules.group_rule}"
    )
    raise MeldError(
        N_("{cards} is neither a run (one suit, consecutive) nor a group (one rank)"),
        kinds,
        cards=_describe(cards),
    )


def classify(cards: Sequence[Card], rules: MeldRules) -> Meld | None:
    """The meld ``cards`` form under ``rules``, or None."""
    try:
        return read_meld(cards, rules)
    except MeldError:
        return None


def natural_or_meaning(card: Card) -> tuple[int, Suit | None]:
    """(rank, suit) of a natural card, or what a placed joker stands for (0, None if unplaced)."""
    if not card.is_joker:
        return card.rank, card.suit
    m = card.stands_for
    return (0, None) if m is None else (m.rank, m.suit)
