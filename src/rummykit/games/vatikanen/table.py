"""Reading and checking a new Vatikanen table as written (V7, V9, V11, V12).

The engine calls :func:`check_opening` for a player's first play and
:func:`check_table` for every later play that names the new table (or whose
table the solver arranged). Both raise :class:`~rummykit.errors.RuleError`
with the rule id and a player's reason, and return the new table as melds
with every joker's meaning: that table, and no other, is what the engine
stores, logs, records and shows.

Every meld is read exactly as written (RULES.md 0, RECORD.md: a joker's place
in a meld is its place in the list):

- a run is read from low to high, its first card first: ``5h 6h 7h``, an ace
  low first (``Ah 2h 3h``) or high last (``Qh Kh Ah``). A run written in any
  other order (``7h 6h 5h``, ``3h 4h 5h 2h``) is no meld as written;
- a group's cards may come in any order;
- a joker stands for the card of its place in a run, or for the rank of its
  group. A label (``*:7h``, ``*:7``) must agree with that place; a bare joker
  takes the meaning its place gives;
- a table joker keeps what it stands for (V11) when its place gives the same
  meaning; in a group of its rank a run joker keeps its card (V12: it counts as
  that card). Otherwise it is *freed*: a real copy of its card (a run joker)
  or a real card of its rank (a group joker) must lie somewhere on the new
  table for it, one real card for each freed joker. Jokers are physically
  alike, so the check tries every way to match the old table's jokers to the
  jokers of the new table (there are at most two).

>>> from rummykit.cards import parse_cards
>>> from rummykit.melds import VATIKANEN, read_meld
>>> old = [read_meld(parse_cards(t), VATIKANEN) for t in ("Tc Th Th Ts", "7s 8s 9s")]
>>> new = [parse_cards("Tc Th Th"), parse_cards("7s 8s 9s Ts Js")]
>>> [str(m) for m in check_table(old, parse_cards("Js"), new)]
['Tc Th Th', '7s 8s 9s Ts Js']

A bare table joker takes the meaning its place gives, and no card fits
between 6h and 7h:

>>> old = [read_meld(parse_cards(t), VATIKANEN) for t in ("*:4h 5h 6h 7h", "9c Tc Jc")]
>>> new = [parse_cards("5h 6h * 7h"), parse_cards("9c Tc Jc Qc")]
>>> check_table(old, parse_cards("Qc"), new)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
rummykit.errors.RuleError: the table would hold 5♥ 6♥ ★ 7♥, which is no meld: ... (V9)
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.cards import ACE, Card, Meaning, Suit, format_cards, pretty_cards, rank_text
from rummykit.errors import RuleError
from rummykit.i18n import N_, Message
from rummykit.melds import (
    RUN_ORDER,
    VATIKANEN,
    Meld,
    MeldError,
    MeldKind,
    read_meld,
    run_problem_message,
)

__all__ = [
    "Reading",
    "check_opening",
    "check_table",
    "describe_meaning",
    "frees_allowed",
    "meaning_message",
    "plain_counter",
    "read_as_written",
]


def plain_counter(cards: Sequence[Card]) -> Counter[Card]:
    """The multiset of physical cards (joker meanings dropped)."""
    return Counter(c.plain() for c in cards)


def describe_meaning(meaning: Meaning) -> str:
    """A joker's meaning for a player: '7♥', or 'a 7' for a group joker (in English:
    :func:`meaning_message` in any language)."""
    return str(meaning_message(meaning))


def meaning_message(meaning: Meaning) -> Message:
    """:func:`describe_meaning` as a catalog message.

    The card as the screen shows it (``10♦``, never the record's ``Td``), in every
    language.

    >>> meaning_message(Meaning(7)).translated("sv"), str(meaning_message(Meaning(10, Suit(2))))
    ('en 7', '10♥')
    """
    if meaning.suit is None:
        return Message(N_("a {rank}"), rank=meaning.pretty())
    return Message("{card}", card=meaning.pretty())  # a card is shown alike in every language


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
    if any(need_card[c] > naturals[c] for c in need_card):
        return False
    spare: Counter[int] = Counter()
    for card, n in naturals.items():
        spare[card.rank] += n - need_card[card]
    return all(spare[rank] >= n for rank, n in need_rank.items())


# ---------------------------------------------------------------- one meld as written


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a meld as written: its kind, its start, and the meaning of each place.

    ``places[j]`` is what a joker at place ``j`` stands for: in a run the card
    of that position (``start`` is the first position, 1 = ace low, 14 = ace
    high), in a group its rank (``start`` is the rank). A table joker in a
    group of its rank may keep its card instead (V12, :func:`check_table`).
    """

    kind: MeldKind
    start: int
    places: tuple[Meaning, ...]


def _rank_at(position: int) -> int:
    return ACE if position == 14 else position


def _run_start(cards: Sequence[Card]) -> int | None:
    """The first position of ``cards`` read as a run from low to high, natural cards only."""
    first, card = next((i, c) for i, c in enumerate(cards) if not c.is_joker)
    starts = (card.rank - first, 14 - first) if card.rank == ACE else (card.rank - first,)
    for start in starts:
        if start < 1 or start + len(cards) - 1 > VATIKANEN.max_run_length:
            continue
        if all(c.is_joker or _rank_at(start + i) == c.rank for i, c in enumerate(cards)):
            return start
    return None


LOW_TO_HIGH = N_("a run is written from low to high: write {cards}")


def _run_reading(cards: Sequence[Card], suit: Suit) -> Reading | Message:
    """``cards``, their natural cards of ``suit``, as a run from low to high (V5), or why not."""
    start = _run_start(cards)
    if start is None:
        backwards = list(reversed(cards))
        if _run_start(backwards) is not None:
            return Message(LOW_TO_HIGH, cards=format_cards(backwards))
        if not any(c.is_joker for c in cards):
            ordered = sorted(cards, key=lambda c: c.rank)
            if ordered[0].rank == ACE and ordered[-1].rank == 13:
                ordered = [*ordered[1:], ordered[0]]
            if _run_start(ordered) is not None:
                return Message(LOW_TO_HIGH, cards=format_cards(ordered))
        naturals = [(i, c) for i, c in enumerate(cards) if not c.is_joker]
        for (i, low), (j, high) in itertools.pairwise(naturals):
            if j > i + 1 and (high.rank - low.rank) % 13 == 1:
                return Message(
                    N_(
                        "{cards} is not a run as written: a joker stands for the card"
                        " of its place, and no card fits between {low} and {high}"
                    ),
                    cards=pretty_cards(cards),
                    low=low.pretty(),
                    high=high.pretty(),
                )
        why = run_problem_message(cards, VATIKANEN)
        if why.template == RUN_ORDER:
            why = Message(
                N_(
                    "{cards} is not in consecutive ranks as written: a joker stands"
                    " for the card of its place, and a run goes from low to high"
                ),
                cards=pretty_cards(cards),
            )
        return why
    places = tuple(Meaning(_rank_at(start + i), suit) for i in range(len(cards)))
    for card, place in zip(cards, places, strict=True):
        label = card.stands_for
        if label is not None and label != place:
            where = {"cards": pretty_cards(cards), "joker": str(card), "place": str(place)}
            if label.suit is None:
                return Message(
                    N_(
                        "in {cards} the joker written {joker} stands in the place of {place}:"
                        " in a run a joker stands for one card; write it *:{place} or *"
                    ),
                    **where,
                )
            return Message(
                N_(
                    "in {cards} the joker written {joker} stands in the place of {place}:"
                    " a joker stands for the card of its place; write it *:{place} or *,"
                    " or put it where {label} goes"
                ),
                label=label.pretty(),
                **where,
            )
    return Reading(MeldKind.RUN, start, places)


def _group_reading(cards: Sequence[Card], rank: int) -> Reading | Message:
    """``cards``, their natural cards of ``rank``, as a group (V6), or why not."""
    for card in cards:
        label = card.stands_for
        if label is not None and label.rank != rank:
            return Message(
                N_("a joker written {joker} cannot stand in a group of {rank} (V6)"),
                joker=str(card),
                rank=rank_text(rank),
            )
    return Reading(MeldKind.GROUP, rank, (Meaning(rank),) * len(cards))


def read_as_written(cards: Sequence[Card]) -> list[Reading]:
    """Every way ``cards`` read as one meld exactly as written; MeldError saying why if none.

    A run is tried first, then a group; both can fit only with one natural
    card (``7h * *``: 7h 8h 9h, or three 7s). Labels must agree with their
    places; a run is read from low to high.

    >>> from rummykit.cards import parse_cards
    >>> [(r.kind.value, str(r.places[1])) for r in read_as_written(parse_cards("7h * *"))]
    [('run', '8h'), ('group', '7')]
    >>> read_as_written(parse_cards("*:Kd 5h 6h 7h"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rummykit.melds.MeldError: in ★=K♦ 5♥ 6♥ 7♥ the joker written *:Kd stands in the place of 4h: ...
    """
    if len(cards) < VATIKANEN.min_size:
        raise MeldError(
            N_("{cards} is too short: a meld has at least {n} cards"),
            cards=pretty_cards(cards),
            n=VATIKANEN.min_size,
        )
    naturals = [c for c in cards if not c.is_joker]
    if not naturals:
        raise MeldError(N_("a meld needs at least one natural card, not only jokers"))
    suit, rank = naturals[0].suit, naturals[0].rank
    same_suit = all(c.suit == suit for c in naturals)
    same_rank = all(c.rank == rank for c in naturals)
    if not same_suit and not same_rank:
        raise MeldError(
            N_("{cards} is neither a run (one suit, consecutive) nor a group (one rank)"),
            "V5, V6",
            cards=pretty_cards(cards),
        )
    run = _run_reading(cards, suit) if same_suit and suit is not None else None
    group = _group_reading(cards, rank) if same_rank else None
    found = [r for r in (run, group) if isinstance(r, Reading)]
    if found:
        return found
    # one natural card (or copies of one card): say what the written order says
    why = run if isinstance(run, Message) and (group is None or len(naturals) == 1) else group
    assert isinstance(why, Message)
    raise MeldError(why)


OPENING = N_("your first play must be one run of at least 3 cards from your hand: {reason}")
"""V7 with the reason the cards are no run."""


def _readings(cards: Sequence[Card], rule: str, *, opening: bool = False) -> list[Reading]:
    try:
        return read_as_written(cards)
    except MeldError as exc:
        why = exc.reason_message(rule)
        if opening:
            raise RuleError(rule, OPENING, reason=why) from None
        raise RuleError(
            rule,
            N_("the table would hold {cards}, which is no meld: {reason}"),
            cards=pretty_cards(cards),
            reason=why,
        ) from None


def _meld(cards: Sequence[Card], reading: Reading, meanings: Sequence[Meaning]) -> Meld:
    """The meld of ``cards`` read as ``reading``, its jokers standing for ``meanings`` in order.

    A run keeps its written order; a group is put in the canonical order of
    :func:`~rummykit.melds.read_meld` (natural cards by suit, then the jokers).
    """
    it = iter(meanings)
    out = [Card(0, None, next(it)) if c.is_joker else c for c in cards]
    if reading.kind is MeldKind.GROUP:
        naturals = sorted((c for c in out if not c.is_joker), key=lambda c: c.suit or 0)
        out = naturals + [c for c in out if c.is_joker]
    return Meld(reading.kind, tuple(out), reading.start)


# ---------------------------------------------------------------- the opening (V7)


def check_opening(
    table: Sequence[Meld], add: Sequence[Card], new: Sequence[Sequence[Card]] | None
) -> list[Meld]:
    """The table after an opening play of ``add`` (V7); RuleError if it is not one.

    The opening is exactly one run of at least 3 cards, all from the hand, and
    the table is not touched: ``new`` (if given) is the old melds in their
    order, each written exactly as it lies (its cards in the same order, a
    joker bare or labelled with what it stands for; a group's cards in any
    order), with the run added anywhere among them. Without ``new`` the run is
    ``add`` read by :func:`~rummykit.melds.read_meld` (laid in run order, each joker in a
    gap, when it is no run as given) and put last.
    """
    if len(add) < 3:
        raise RuleError(
            "V7",
            N_(
                "your first play must be one run of at least 3 cards from your hand:"
                " {cards} is too short"
            ),
            cards=pretty_cards(add),
        )
    if new is None:
        return [*table, _opening_run(add)]
    untouched = N_(
        "your first play must be one run of at least 3 cards from your hand;"
        " the table is not touched that turn"
    )
    if len(new) != len(table) + 1:
        raise RuleError("V7", untouched)
    old_keys = [plain_counter(m.cards) for m in table]
    first_error: RuleError | None = None
    for i, cards in enumerate(new):
        rest = [m for j, m in enumerate(new) if j != i]
        if plain_counter(cards) != plain_counter(add):
            continue
        if [plain_counter(m) for m in rest] != old_keys:
            continue
        pairs = zip(rest, table, strict=True)
        moved = next(((w, o) for w, o in pairs if not _as_it_lies(w, o)), None)
        if moved is not None:
            written, old = moved
            first_error = first_error or RuleError(
                "V7",
                N_(
                    "your first play must be one run of at least 3 cards from your hand;"
                    " the table is not touched that turn: {written} is not {old} as it lies"
                    " on the table; write the old melds as they lie"
                ),
                written=pretty_cards(written),
                old=pretty_cards(old.cards),
            )
            continue
        try:
            run = _written_opening_run(cards)
        except RuleError as exc:
            first_error = first_error or exc
            continue
        return [*table[:i], run, *table[i:]]
    raise first_error or RuleError("V7", untouched)


def _as_it_lies(written: Sequence[Card], old: Meld) -> bool:
    """True when ``written`` is the meld ``old`` as it lies, joker meanings included."""
    if old.kind is MeldKind.RUN:
        return len(written) == len(old.cards) and all(
            w.plain() == o.plain() and (w.stands_for is None or w.stands_for == o.stands_for)
            for w, o in zip(written, old.cards, strict=True)
        )
    labels = Counter(c.stands_for for c in written if c.is_joker and c.stands_for is not None)
    meanings = Counter(c.stands_for for c in old.cards if c.is_joker)
    return plain_counter(written) == plain_counter(old.cards) and labels <= meanings


NOT_A_GROUP = N_(
    "your first play must be one run of at least 3 cards from your hand, not a group: {cards}"
)


def _written_opening_run(cards: Sequence[Card]) -> Meld:
    readings = _readings(cards, "V7", opening=True)
    run = next((r for r in readings if r.kind is MeldKind.RUN), None)
    if run is None:
        raise RuleError("V7", NOT_A_GROUP, cards=pretty_cards(cards))
    jokers = [p for c, p in zip(cards, run.places, strict=True) if c.is_joker]
    return _meld(cards, run, jokers)


def _opening_run(cards: Sequence[Card]) -> Meld:
    """The opening run of ``cards`` when the player named no table: read as given, else
    in run order (the engine arranges a play without a table: ``2d 3d 4d 6d 7d *`` is
    ``2d 3d 4d *:5d 6d 7d``)."""
    try:
        run = read_meld(cards, VATIKANEN)
    except MeldError as exc:
        ordered = _in_run_order(cards)
        if ordered is None:
            raise RuleError("V7", OPENING, reason=exc.reason_message("V7")) from None
        try:
            run = read_meld(ordered, VATIKANEN)
        except MeldError:
            raise RuleError("V7", OPENING, reason=exc.reason_message("V7")) from None
    if run.kind is not MeldKind.RUN:
        raise RuleError("V7", NOT_A_GROUP, cards=pretty_cards(cards))
    return run


def _in_run_order(cards: Sequence[Card]) -> list[Card] | None:
    """``cards`` laid out as one run, low to high, each joker in a gap first, then above the
    highest card (below the lowest at the top of the ranks); None when the natural cards
    are not of one suit with distinct ranks, or the jokers cannot fill the gaps.

    >>> from rummykit.cards import parse_cards
    >>> " ".join(map(str, _in_run_order(parse_cards("9s Ts Qs *"))))
    '9s Ts * Qs'
    >>> " ".join(map(str, _in_run_order(parse_cards("* Kh Qh"))))
    '* Qh Kh'
    >>> " ".join(map(str, _in_run_order(parse_cards("Ah * Qh"))))
    'Qh * Ah'
    """
    naturals = [c for c in cards if not c.is_joker]
    jokers = [c.plain() for c in cards if c.is_joker]
    if not naturals or len({c.suit for c in naturals}) != 1:
        return None
    for top in (13, 14):  # the ace low, then high

        def rank(card: Card, top: int = top) -> int:
            return 14 if top == 14 and card.rank == ACE else card.rank

        by_rank = {rank(c): c for c in naturals}
        if len(by_rank) != len(naturals):
            return None
        low, high = min(by_rank), max(by_rank)
        spare = len(jokers) - (high - low + 1 - len(naturals))
        if spare < 0:
            continue
        above = min(spare, top - high)
        low -= spare - above
        if low < top - 12:
            continue
        free = list(jokers)
        return [by_rank.get(r) or free.pop() for r in range(low, high + above + 1)]
    return None


# ---------------------------------------------------------------- later plays (V8-V12)


def _describe_diff(missing: Counter[Card], extra: Counter[Card]) -> Message:
    left_out = pretty_cards(sorted(missing.elements(), key=str))
    too_many = pretty_cards(sorted(extra.elements(), key=str))
    if missing and extra:
        return Message(
            N_("it leaves out {missing} and it has {extra} too many"),
            missing=left_out,
            extra=too_many,
        )
    if missing:
        return Message(N_("it leaves out {missing}"), missing=left_out)
    return Message(N_("it has {extra} too many"), extra=too_many)


def _group_meaning(rank: int, label: Meaning | None, was: Meaning | None) -> Meaning | None:
    """What a joker in a group of ``rank`` stands for; None if its label cannot be (V11, V12).

    A joker laid in a group stands for the rank. A table joker whose card is
    of that rank keeps it (V12: it counts as that card), unless its label
    says the rank only; a card named by a label is kept only by that joker.
    """
    if label is None:
        return was if was is not None and was.rank == rank else Meaning(rank)
    if label.suit is None or label == was:
        return label
    return None


def check_table(
    table: Sequence[Meld],
    add: Sequence[Card],
    new: Sequence[Sequence[Card]],
    *,
    free_jokers: bool = False,
) -> list[Meld]:
    """The new table as melds; RuleError unless ``new`` is a legal result (V9, V11, V12).

    ``new`` must hold exactly the old table's cards plus ``add`` (no card
    leaves the table, V9), every meld valid as written (V9b; see the module
    docstring), and every table joker still standing for its card or freed by
    its own real card (V11), unless ``free_jokers``: then table jokers take any
    place as wild cards, read in the same way.
    """
    old_cards = [c for m in table for c in m.cards]
    new_cards = [c for m in new for c in m]
    want = plain_counter(old_cards) + plain_counter(add)
    have = plain_counter(new_cards)
    if have != want:
        diff = _describe_diff(want - have, have - want)
        raise RuleError(
            "V9",
            N_("the new table must hold exactly the old table and the cards you add; {diff}"),
            diff=diff,
        )
    readings = [_readings(m, "V9") for m in new]
    slots = [(i, j) for i, m in enumerate(new) for j, c in enumerate(m) if c.is_joker]
    if not slots:
        return [_meld(m, r[0], ()) for m, r in zip(new, readings, strict=True)]
    old_jokers = [c.stands_for for c in old_cards if c.is_joker and c.stands_for is not None]
    freed_error: Meaning | None = None
    label_error: RuleError | None = None
    for chosen in itertools.product(*readings):
        for placed in itertools.permutations(slots, len(old_jokers)):
            owner = dict(zip(placed, old_jokers, strict=True))
            meanings: list[Meaning] = []
            freed: list[Meaning] = []
            for i, j in slots:
                reading, card, was = chosen[i], new[i][j], owner.get((i, j))
                meaning: Meaning | None = reading.places[j]
                if reading.kind is MeldKind.GROUP:
                    meaning = _group_meaning(reading.start, card.stands_for, was)
                if meaning is None:
                    label_error = label_error or RuleError(
                        "V11",
                        N_(
                            "a joker laid in a group stands for its rank: write the joker {joker}"
                            " in {cards} as *:{rank} or * (only a table joker that stood for"
                            " {label} keeps it there)"
                        ),
                        joker=str(card),
                        cards=pretty_cards(new[i]),
                        rank=rank_text(reading.start),
                        label=str(card.stands_for),
                    )
                    break
                if was is not None and meaning != was:
                    freed.append(was)
                meanings.append(meaning)
            else:
                if free_jokers or frees_allowed(freed, new_cards):
                    return _melds(new, chosen, meanings)
                freed_error = freed_error or freed[0]
    if freed_error is not None:
        raise RuleError(
            "V11",
            N_(
                "the joker standing for {meaning} may leave its place only"
                " when a real {card} is put on the table in its stead"
            ),
            meaning=meaning_message(freed_error),
            card=freed_error.pretty(),
        )
    assert label_error is not None
    raise label_error


def _melds(
    new: Sequence[Sequence[Card]], readings: Sequence[Reading], meanings: Sequence[Meaning]
) -> list[Meld]:
    """The melds of ``new``, the jokers standing for ``meanings`` in the order they are written."""
    out = []
    k = 0
    for cards, reading in zip(new, readings, strict=True):
        n = sum(1 for c in cards if c.is_joker)
        out.append(_meld(cards, reading, meanings[k : k + n]))
        k += n
    return out
