"""The legal-move help of Kontraktsrummy, from a seat's view alone (what a bot sees).

:func:`candidate_actions_for` lists every candidate action of the seat to act
(the engine's :meth:`~rummykit.games.kontrakt.game.KontraktGame.suggested_actions`
keeps those it allows); :func:`hint_for` says which contract melds the hand
can already make.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any

from rummykit.cards import Card, Suit
from rummykit.games.kontrakt.actions import (
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
)
from rummykit.games.kontrakt.contracts import CONTRACTS, candidate_melds, find_melds, largest_part
from rummykit.games.kontrakt.state import Phase
from rummykit.melds import MeldKind

__all__ = ["candidate_actions_for", "hint_for", "parse_card"]


parse_card = functools.lru_cache(maxsize=4096)(Card.parse)
"""``Card.parse`` remembered: views are read again and again by bots."""


def _cards(texts: Iterable[str]) -> list[Card]:
    return [parse_card(t) for t in texts]


def hint_for(view: Mapping[str, Any]) -> dict[str, Any]:
    """Which contract melds the hand in ``view`` can make now.

    ``need``: groups and runs still to lay; ``parts``: the most contract melds
    the hand can lay now (deals 1-6); ``whole``: melds that complete the
    contract, or None; ``complete``: whether the contract is already down.
    """
    seat = view["seat"]
    hand = _cards(view["hand"] or [])
    laid = view["laid"][seat] if seat is not None else {"groups": 0, "runs": 0, "complete": False}
    contract = CONTRACTS[view["deal"]]
    out: dict[str, Any] = {"complete": laid["complete"], "contract": str(contract)}
    if laid["complete"]:
        out.update(need=None, parts=[], whole=None)
        return out
    whole = None
    needs = []
    for g, r in contract.choices:
        ng, nr = max(0, g - laid["groups"]), max(0, r - laid["runs"])
        needs.append({"groups": ng, "runs": nr})
        found = find_melds(hand, ng, nr)
        if found is not None and whole is None:
            whole = [[str(c) for c in m] for m in found]
    parts: list[list[str]] = []
    if not contract.all_at_once:
        best = largest_part(hand, needs[0]["groups"], needs[0]["runs"])
        if best is not None:
            parts = [[str(c) for c in m] for m in best[2]]
    out.update(need=needs, parts=parts, whole=whole)
    return out


def candidate_actions_for(view: Mapping[str, Any]) -> list[Action]:
    """Candidate actions of the seat that views ``view`` when it is to act.

    Built from the view alone (what a bot sees): every upcard answer, draw and
    discard, every lay-off and joker swap, and the contract melds the hand can
    make. The engine's :meth:`KontraktGame.suggested_actions` keeps those it allows.
    """
    seat = view["seat"]
    if seat is None or view["turn"] != seat:
        return []
    phase = view["phase"]
    if phase == Phase.UPCARD:
        if seat == view["forhand"]:
            return [TakeUpcard(seat), DeclineUpcard(seat)]
        return [BuyUpcard(seat), PassUpcard(seat)]
    if phase == Phase.DRAW:
        out: list[Action] = [Draw(seat, "stock")]
        if view["discard_pile"] and not view["stock_only"]:
            out.append(Draw(seat, "discard"))
        return out
    if phase != Phase.PLAY:
        return []
    hand = _cards(view["hand"])
    distinct = list(dict.fromkeys(hand))
    acts: list[Action] = []
    laid = view["laid"][seat]
    contract = CONTRACTS[view["deal"]]
    if laid["complete"]:
        for kind in MeldKind:
            acts += [LayDown(seat, (m,)) for m in candidate_melds(hand, kind)]
        for m in view["table"]:
            acts += _layoffs(seat, distinct, m)
            acts += _swaps(seat, distinct, m)
    else:
        if not contract.all_at_once:
            need_g, need_r = contract.groups - laid["groups"], contract.runs - laid["runs"]
            for kind, need in ((MeldKind.GROUP, need_g), (MeldKind.RUN, need_r)):
                # K13: a part that does not finish the contract leaves two cards
                if need > 0 and (len(hand) >= 5 or need_g + need_r == 1):
                    acts += [LayDown(seat, (m,)) for m in candidate_melds(hand, kind)]
        hint = hint_for(view)
        if hint["whole"]:
            acts.append(LayDown(seat, tuple(tuple(_cards(m)) for m in hint["whole"])))
        parts = hint["parts"]
        if parts and len(parts) > 1 and len(hand) - sum(map(len, parts)) >= 2:
            acts.append(LayDown(seat, tuple(tuple(_cards(m)) for m in parts)))
    picked = view["picked_up"]
    for card in distinct:
        if (
            card == (parse_card(picked) if picked else None)
            and hand.count(card) == 1
            and len(hand) > 1
            and not view["options"]["rediscard_pickup"]
        ):
            continue
        acts.append(Discard(seat, card))
    return acts


def _layoffs(seat: int, cards: list[Card], meld: Mapping[str, Any]) -> list[Action]:
    out: list[Action] = []
    number = meld["number"]
    if meld["kind"] == "group":
        for c in cards:
            if c.is_joker or c.rank == meld["rank"]:
                out.append(LayOff(seat, c, number))
        return out
    suit = Suit("cdhs".index(meld["suit"]))
    ends = [r for r in (meld["low"] - 1, meld["high"] + 1) if 1 <= r <= 13]
    for c in cards:
        if c.is_joker:
            out += [LayOff(seat, c, number, Card(r, suit)) for r in ends]
        elif c.suit == suit and c.rank in ends:
            out.append(LayOff(seat, c, number))
    return out


def _swaps(seat: int, cards: list[Card], meld: Mapping[str, Any]) -> list[Action]:
    out: list[Action] = []
    meanings = [parse_card(t).stands_for for t in meld["cards"] if t.startswith("*")]
    for c in cards:
        if c.is_joker:
            continue
        for means in meanings:
            if means is not None and means.rank == c.rank and means.suit in (None, c.suit):
                out.append(SwapJoker(seat, c, meld["number"]))
                break
    return out
