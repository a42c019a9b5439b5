"""The two simple Kontraktsrummy bots: ``random`` and ``basic``.

Both see only the seat's view (:meth:`rummykit.games.kontrakt.KontraktGame.view`)
and rebuild the cards from its text.

``random`` picks one of :func:`rummykit.games.kontrakt.candidate_actions_for` (every
upcard answer, draw, discard, lay-off and joker swap, and the contract melds
the hand can make) uniformly at random, except that it lays down, lays off or
swaps whenever it can with probability 3/4: a bot that discards at random
only would seldom finish a seventh deal.

``basic`` plays as a plain careful player would: it keeps the cards that
serve the current contract (pairs of a rank while groups are needed,
neighbours in a suit while runs are), takes the discard (or the first upcard)
when it helps, buys the first upcard only when it completes a meld, lays down
as soon as it can, swaps jokers and lays off everything it can once its
contract is down, and discards its least useful, highest card.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from rummykit.bots.base import register, seat_and_hand
from rummykit.cards import Card, Suit, kontrakt_value
from rummykit.games.kontrakt import (
    Action,
    BuyUpcard,
    DeclineUpcard,
    Discard,
    Draw,
    LayDown,
    LayOff,
    PassUpcard,
    SwapJoker,
    TakeUpcard,
    candidate_actions_for,
    parse_card,
)
from rummykit.games.kontrakt.contracts import CONTRACTS, Contract, find_melds, largest_part
from rummykit.games.kontrakt.view import TableMeldJSON, kontrakt_view
from rummykit.i18n import N_

__all__ = [
    "TAKES",
    "BasicBot",
    "RandomBot",
    "after_contract",
    "discard_key",
    "usefulness",
    "whole_contract",
]

_LAYING = ("meld", "layoff", "swap_joker")
TAKES = 20
"""Basic takes a card this useful (:func:`usefulness`: a pair, or close suit neighbours)."""


@register(
    "kontrakt", "random", N_("plays a random legal action, laying cards when it can"), N_("random")
)
class RandomBot:
    """A random legal action; laying down, off or swapping with probability 3/4 when it can."""

    READS_LOG = False
    """It plays from the hand, the table and the counts; never the log."""

    level = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Mapping[str, object]) -> Action:
        """Pick an action from the seat's view."""
        v = kontrakt_view(view)
        actions = candidate_actions_for(v)
        laying = [a for a in actions if a.type in _LAYING]
        if laying and self.rng.random() < 0.75:
            return self.rng.choice(laying)
        return self.rng.choice(actions)


def _needs(view: Mapping[str, object], seat: int | None = None) -> tuple[int, int, bool]:
    """Groups and runs a seat (the viewer's by default) still needs, and whether its
    contract is down."""
    v = kontrakt_view(view)
    laid = v["laid"][seat_and_hand(v)[0] if seat is None else seat]
    if laid["complete"]:
        return 0, 0, True
    contract = CONTRACTS[v["deal"]]
    groups = max(g for g, _ in contract.choices) - laid["groups"]
    runs = max(r for _, r in contract.choices) - laid["runs"]
    return groups, runs, False


def usefulness(card: Card, others: Sequence[Card], groups: int, runs: int) -> int:
    """How much ``card`` serves a contract needing ``groups`` and ``runs``, given ``others``."""
    if card.is_joker:
        return 1000
    score = 0
    if groups > 0:
        same = sum(1 for c in others if c.rank == card.rank and not c.is_joker)
        # a pair or a full group serves; a fourth copy and more only as a lay-off later
        score += (0, 20, 40, 5)[min(same, 3)]
    if runs > 0:
        ranks = {c.rank for c in others if c.suit == card.suit and not c.is_joker}
        if card.rank in ranks:
            ranks.discard(card.rank)
        score += sum(15 for d in (-1, 1) if card.rank + d in ranks)
        score += sum(8 for d in (-2, 2) if card.rank + d in ranks)
    return score


def discard_key(card: Card, others: Sequence[Card], groups: int, runs: int) -> tuple[int, int, str]:
    """The order in which basic lets cards go (lowest first): the least useful for the
    contract, then the most points, then by name (so the choice never depends on order)."""
    return (usefulness(card, others, groups, runs), -kontrakt_value(card), str(card))


def whole_contract(hand: Sequence[Card], contract: Contract) -> list[list[Card]] | None:
    """The melds of a contract laid all at once (K12: the seventh deal), from the first
    of its choices the hand can make; None when it can make none."""
    for g, r in contract.choices:
        melds = find_melds(hand, g, r)
        if melds is not None:
            return melds
    return None


def after_contract(view: Mapping[str, object]) -> Action | None:
    """With the contract down (K10, K11): a joker swap first (a joker in hand fits
    anywhere), then a new meld, then a lay-off, jokers last; None when nothing fits."""
    v = kontrakt_view(view)
    acts = [a for a in candidate_actions_for(v) if a.type in _LAYING]
    swaps = [a for a in acts if isinstance(a, SwapJoker)]
    if swaps:
        return swaps[0]
    new = [a for a in acts if isinstance(a, LayDown)]
    if new:
        return new[0]
    offs = [a for a in acts if isinstance(a, LayOff)]
    offs.sort(key=lambda a: a.card.is_joker)
    return offs[0] if offs else None


def _fits_table(card: Card, table: Sequence[TableMeldJSON]) -> bool:
    for m in table:
        if card.is_joker:
            return True
        if m["kind"] == "group":
            if card.rank == m["rank"]:
                return True
        elif card.suit == Suit("cdhs".index(m["suit"])) and card.rank in (
            m["low"] - 1,
            m["high"] + 1,
        ):
            return True
    return False


@register(
    "kontrakt",
    "basic",
    N_("keeps the cards its contract needs, lays down at once, sheds high cards"),
    N_("basic"),
)
class BasicBot:
    """Keeps contract cards, lays down at once, lays off all it can, sheds high cards."""

    READS_LOG = False
    """It plays from the hand, the table and the counts; never the log."""

    level = "basic"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Mapping[str, object]) -> Action:
        """Pick an action from the seat's view."""
        v = kontrakt_view(view)
        seat, own = seat_and_hand(v)
        hand = [parse_card(t) for t in own]
        groups, runs, complete = _needs(v)
        phase = v["phase"]
        pile = v["discard_pile"]
        if phase == "upcard_offer":
            up = parse_card(pile[-1])
            if seat == v["forhand"]:
                helps = self._helps(v, hand, up, groups, runs, complete)
                return TakeUpcard(seat) if helps else DeclineUpcard(seat)
            return BuyUpcard(seat) if self._completes(v, hand, up) else PassUpcard(seat)
        if phase == "draw":
            if pile and not v["stock_only"]:
                top = parse_card(pile[-1])
                if self._helps(v, hand, top, groups, runs, complete):
                    return Draw(seat, "discard")
            return Draw(seat, "stock")
        return self._play(v, seat, hand, groups, runs, complete)

    def _helps(
        self,
        view: Mapping[str, object],
        hand: list[Card],
        card: Card,
        groups: int,
        runs: int,
        complete: bool,
    ) -> bool:
        v = kontrakt_view(view)
        if card.is_joker:
            return True
        if complete:
            return _fits_table(card, v["table"])
        return usefulness(card, hand, groups, runs) >= TAKES or self._completes(v, hand, card)

    def _completes(self, view: Mapping[str, object], hand: list[Card], card: Card) -> bool:
        """Whether ``card`` lets the hand lay more of the contract than it can now."""
        v = kontrakt_view(view)
        groups, runs, complete = _needs(v)
        if complete:
            return False
        contract = CONTRACTS[v["deal"]]
        if contract.all_at_once:
            before = any(find_melds(hand, g, r, extend=False) for g, r in contract.choices)
            after = any(find_melds([*hand, card], g, r, extend=False) for g, r in contract.choices)
            return after and not before
        now = largest_part(hand, groups, runs)
        then = largest_part([*hand, card], groups, runs)
        count_now = 0 if now is None else now[0] + now[1]
        count_then = 0 if then is None else then[0] + then[1]
        return count_then > count_now

    def _play(
        self,
        view: Mapping[str, object],
        seat: int,
        hand: list[Card],
        groups: int,
        runs: int,
        complete: bool,
    ) -> Action:
        v = kontrakt_view(view)
        contract = CONTRACTS[v["deal"]]
        if not complete:
            melds: list[list[Card]] | None = None
            if contract.all_at_once:
                melds = whole_contract(hand, contract)
            else:
                laid = v["laid"][seat]
                need_g, need_r = contract.groups - laid["groups"], contract.runs - laid["runs"]
                part = largest_part(hand, need_g, need_r)  # two cards kept (K13)
                melds = None if part is None else part[2]
            if melds:
                return LayDown(seat, tuple(tuple(m) for m in melds))
        elif (laying := after_contract(v)) is not None:
            return laying
        return Discard(seat, self._worst(v, hand, groups, runs))

    def _worst(self, view: Mapping[str, object], hand: list[Card], groups: int, runs: int) -> Card:
        v = kontrakt_view(view)
        picked = v["picked_up"]
        banned = (
            parse_card(picked)
            if picked and not v["options"]["rediscard_pickup"] and len(hand) > 1
            else None
        )
        best: tuple[int, int, str] | None = None
        choice = hand[0]
        for i, card in enumerate(hand):
            if banned is not None and card == banned and hand.count(card) == 1:
                continue
            others = hand[:i] + hand[i + 1 :]
            key = discard_key(card, others, groups, runs)
            if best is None or key < best:
                best, choice = key, card
        return choice
