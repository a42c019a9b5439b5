"""Laying down, laying off and swapping jokers (K5, K9-K13), as pure functions of the deal.

Each function reads a :class:`~rummykit.games.kontrakt.state.DealState` and
either raises :class:`~rummykit.errors.RuleError` naming the rule or returns
what the engine needs to change; the engine (:mod:`~rummykit.games.kontrakt.game`)
checks the turn first and makes the change.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rummykit.cards import Card, Meaning, pretty_cards
from rummykit.errors import RuleError
from rummykit.games.kontrakt.contracts import Contract
from rummykit.games.kontrakt.state import DealState, TableMeld
from rummykit.i18n import N_, Message, Plural
from rummykit.melds import KONTRAKT, Meld, MeldError, MeldKind, read_meld

__all__ = [
    "check_lay_down",
    "contract_parts",
    "lay_off_result",
    "meld_of",
    "order_ids",
    "read_melds",
    "swap_result",
    "take",
]


def take(s: DealState, seat: int, cards: Sequence[Card], rule: str) -> list[int]:
    """Ids of ``cards`` in ``seat``'s hand (the picked-up card last), or RuleError."""
    hand = list(s.hands[seat])
    if s.picked is not None and s.picked in hand:
        hand.remove(s.picked)
        hand.append(s.picked)
    out = []
    for card in cards:
        plain = card.plain()
        for i in hand:
            if s.deck[i] == plain:
                hand.remove(i)
                out.append(i)
                break
        else:
            held = Counter(s.deck[i] for i in s.hands[seat])[plain]
            wanted = sum(1 for c in cards if c.plain() == plain)
            if held:
                raise RuleError(
                    rule,
                    N_("you hold {held} {card} but want to use {wanted}"),
                    held=held,
                    card=plain.pretty(),
                    wanted=wanted,
                )
            raise RuleError(rule, N_("you do not hold {card}"), card=plain.pretty())
    return out


def meld_of(s: DealState, number: int, rule: str) -> TableMeld:
    """Table meld ``number``, or RuleError naming ``rule`` when there is none."""
    table = s.table
    if isinstance(number, bool) or not 0 <= number < len(table):
        if not table:
            raise RuleError(rule, N_("there are no melds on the table yet"))
        raise RuleError(
            rule,
            N_("there is no meld {number} on the table: they are 0 to {last}"),
            number=number,
            last=len(table) - 1,
        )
    return table[number]


def read_melds(
    s: DealState, seat: int, melds: Sequence[Sequence[Card]], contract: Contract
) -> tuple[list[Meld], list[bool]]:
    """Read each meld (K5) and decide which are contract parts (K9, K10, K12)."""
    if not melds:
        raise RuleError("K9", N_("lay down at least one meld"))
    read: list[list[Meld]] = []
    for cards in melds:
        try:
            first = read_meld(list(cards), KONTRAKT)
        except MeldError as exc:
            raise RuleError("K5", exc.reason_message("K5")) from None
        options = [first]
        other = _other_reading(list(cards), first)
        if other is not None:
            options.append(other)
        read.append(options)
    # At most one meld can be read two ways (it needs two of the jokers).
    choices = [[o[0] for o in read]]
    for i, o in enumerate(read):
        if len(o) > 1:
            choices.append([*choices[0][:i], o[1], *choices[0][i + 1 :]])
    if s.complete[seat]:
        return choices[0], [False] * len(melds)
    error: RuleError | None = None
    for chosen in choices:
        try:
            return chosen, contract_parts(s, seat, chosen, contract)
        except RuleError as exc:
            error = error or exc
    assert error is not None
    raise error


def contract_parts(
    s: DealState, seat: int, melds: Sequence[Meld], contract: Contract
) -> list[bool]:
    """Which of ``melds`` are parts of ``seat``'s contract (K9); RuleError if they do not fit
    what is still to lay (K10: extras only once the contract is down; K12)."""
    g_have, r_have = s.laid[seat]
    groups = sum(1 for m in melds if m.kind is MeldKind.GROUP)
    runs = len(melds) - groups
    for g_need, r_need in contract.choices:
        need_g, need_r = g_need - g_have, r_need - r_have
        if groups >= need_g and runs >= need_r:
            return _mark_parts(melds, need_g, need_r)
    if contract.all_at_once:
        raise RuleError(
            "K12",
            N_(
                "in the seventh deal nothing is laid until the whole contract goes down"
                " in one turn: 3 groups or 3 runs"
            ),
        )
    need_g, need_r = contract.groups - g_have, contract.runs - r_have
    if groups <= need_g and runs <= need_r:
        return [True] * len(melds)
    left: Message
    if groups > need_g:
        count, need = groups, need_g
        none = Message(N_("no group"))
        left = Plural("{n} more group", "{n} more groups", need) if need else none
    else:
        count, need = runs, need_r
        none = Message(N_("no run"))
        left = Plural("{n} more run", "{n} more runs", need) if need else none
    raise RuleError(
        "K10",
        N_(
            "your contract ({contract}) needs {left}, not {count}: further melds"
            " only after the whole contract is down"
        ),
        contract=contract.describe(),
        left=left,
        count=count,
    )


def check_lay_down(
    s: DealState, seat: int, melds: Sequence[Sequence[Card]], contract: Contract
) -> tuple[list[Meld], list[bool]]:
    """K9, K10, K12, K13: the melds read and which are contract parts, or RuleError."""
    read, parts = read_melds(s, seat, melds, contract)
    used = take(s, seat, [c for m in melds for c in m], "K9")
    g, r = s.laid[seat]
    g += sum(1 for m, p in zip(read, parts, strict=True) if p and m.kind is MeldKind.GROUP)
    r += sum(1 for m, p in zip(read, parts, strict=True) if p and m.kind is MeldKind.RUN)
    done = s.complete[seat] or any(g >= cg and r >= cr for cg, cr in contract.choices)
    if not done and len(s.hands[seat]) - len(used) < 2:
        raise RuleError(
            "K13",
            N_(
                "you cannot go out before your whole contract is down:"
                " keep two cards, one to discard"
            ),
        )
    return read, parts


def lay_off_result(
    s: DealState, seat: int, card: Card, number: int, as_: Card | None
) -> tuple[TableMeld, Meld, int]:
    """K10: the meld laid onto, the meld it becomes, and where the card goes; or RuleError."""
    if not s.complete[seat]:
        raise RuleError(
            "K10", N_("you may lay cards off only after laying down your whole contract")
        )
    target = meld_of(s, number, "K10")
    (i,) = take(s, seat, [card], "K10")
    plain = s.deck[i]
    old = list(target.meld.cards)
    m = target.meld
    if as_ is not None and as_.is_joker:  # "*:Th" says the same as "Th"
        as_ = None if as_.stands_for is None else as_.stands_for.card
    if as_ is not None and not plain.is_joker and as_.plain() != plain:
        raise RuleError("K10", N_("'as' is only for a joker: what it stands for"))
    if m.kind is MeldKind.GROUP:
        if plain.is_joker:
            if as_ is not None and not as_.is_joker and as_.rank != m.start:
                raise RuleError(
                    "K10", N_("a joker on meld {number} stands for its rank"), number=number
                )
            new = [*old, Card(0, None, Meaning(m.start))]
        else:
            new = [*old, plain]
        at = len(old)
    else:
        suit = m.suit
        assert suit is not None
        low, high = m.start, m.end
        if plain.is_joker:
            if as_ is None or as_.is_joker:
                rank = high + 1 if high < 13 else low - 1
            else:
                rank, want = as_.rank, as_.suit
                if want != suit:
                    raise RuleError(
                        "K10",
                        N_("meld {number} is a run of {suit}"),
                        number=number,
                        suit=suit.symbol,
                    )
            card_at = Card(0, None, Meaning(rank, suit)) if 1 <= rank <= 13 else None
        else:
            rank = plain.rank
            card_at = plain if plain.suit == suit else None
        if card_at is None or rank not in (low - 1, high + 1) or not 1 <= rank <= 13:
            raise RuleError(
                "K10",
                N_(
                    "{card} does not fit meld {number} ({cards}):"
                    " a run grows only at its ends, the ace low (K5)"
                ),
                card=(plain if as_ is None else as_).pretty(),
                number=number,
                cards=pretty_cards(old),
            )
        new = [card_at, *old] if rank == low - 1 else [*old, card_at]
        at = 0 if rank == low - 1 else len(old)
    try:
        result = read_meld(new, KONTRAKT)
    except MeldError as exc:
        raise RuleError("K10", exc.reason_message("K10")) from None
    return target, result, at


def swap_result(s: DealState, seat: int, card: Card, number: int) -> tuple[TableMeld, int, Meld]:
    """K11: the meld, the joker's place in it and the meld with the card there; or RuleError."""
    if not s.complete[seat]:
        raise RuleError("K11", N_("you may take a joker only after laying your whole contract"))
    target = meld_of(s, number, "K11")
    if card.is_joker:
        raise RuleError("K11", N_("a joker is swapped for the real card it stands for"))
    take(s, seat, [card], "K11")
    m = target.meld
    for pos, c in enumerate(m.cards):
        means = c.stands_for
        if not c.is_joker or means is None:
            continue
        if means.rank == card.rank and (m.kind is MeldKind.GROUP or means.suit == card.suit):
            new = list(m.cards)
            new[pos] = card.plain()
            try:
                result = read_meld(new, KONTRAKT)
            except MeldError as exc:  # pragma: no cover - a real card fits where its joker sat
                raise RuleError("K11", exc.reason_message("K11")) from None
            return target, pos, result
    jokers = [c.stands_for.pretty() for c in m.cards if c.stands_for is not None]
    if not jokers:
        raise RuleError("K11", N_("meld {number} has no joker"), number=number)
    raise RuleError(
        "K11",
        N_("the joker in meld {number} stands for {meanings}, not {card}"),
        number=number,
        meanings=", ".join(jokers),
        card=card.pretty(),
    )


def _other_reading(cards: list[Card], first: Meld) -> Meld | None:
    """The group reading of a one-natural meld read as a run (``7h * *``), or vice versa."""
    naturals = [c for c in cards if not c.is_joker]
    if len(naturals) != 1 or any(c.is_joker and c.stands_for is not None for c in cards):
        return None
    if first.kind is MeldKind.RUN:
        rank = naturals[0].rank
        cards = [c.with_meaning(Meaning(rank)) if c.is_joker else c for c in cards]
    else:
        cards = sorted(cards, key=lambda c: c.is_joker)
    try:
        other = read_meld(cards, KONTRAKT)
    except MeldError:
        return None
    return other if other.kind is not first.kind else None


def _mark_parts(melds: Sequence[Meld], groups: int, runs: int) -> list[bool]:
    """The first ``groups`` groups and ``runs`` runs are contract parts; the rest extras."""
    out = []
    for m in melds:
        if m.kind is MeldKind.GROUP and groups > 0:
            groups -= 1
            out.append(True)
        elif m.kind is MeldKind.RUN and runs > 0:
            runs -= 1
            out.append(True)
        else:
            out.append(False)
    return out


def order_ids(deck: Sequence[Card], ids: list[int], meld: Meld) -> tuple[int, ...]:
    """The physical ids in the order of ``meld.cards`` (equal cards are interchangeable)."""
    pool = list(ids)
    out = []
    for card in meld.cards:
        plain = card.plain()
        i = next(i for i in pool if deck[i] == plain)
        pool.remove(i)
        out.append(i)
    return tuple(out)
