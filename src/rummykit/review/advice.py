"""Advice for a Kontraktsrummy turn from the review's own search (issue 45 items 1, 2 and
11): hints and the review agree because they ask the same question of the same search
(:func:`~rummykit.review.laying.best_laying`: the most cards a turn can lay).

- Before drawing: take the discard pile's top when it lets this turn lay more (or lay
  the rest of the contract), as the review judges a draw from the stock that let the
  pile's top pass; else draw from the stock.
- In the play phase: the lay-downs, lay-offs and joker swaps that lay the most cards,
  in the order the engine takes them.
- Then a discard that keeps what is worth keeping: never a joker, never a card of a meld
  the hand has made, nor one of a pair or of two cards of a run in the making while a
  loose card is left; of the rest the one that costs the most (K6). None when every card
  is worth keeping.

Every action is checked on the engine before it is advised (:func:`advised_actions`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rummykit.cards import Card
from rummykit.game import AnyAction, Game
from rummykit.games.kontrakt import (
    Action,
    Discard,
    Draw,
    KontraktGame,
    LayDown,
    Phase,
)
from rummykit.games.kontrakt.contracts import candidate_melds
from rummykit.games.kontrakt.view import kontrakt_view
from rummykit.melds import MeldKind
from rummykit.review.laying import best_laying_from

__all__ = ["Advice", "advise", "advised_actions", "keeper_discard"]

_VALUES = {1: 15, 10: 10, 11: 10, 12: 10, 13: 10}


@dataclass(frozen=True, slots=True)
class Advice:
    """What to do now: where to draw from (``draw``), what to lay (``plan``: the engine's
    actions, in order) and what to discard after it (``discard``; None: keep every
    card); ``gain`` is how many more cards the pile's top lets the turn lay."""

    draw: str | None = None
    plan: list[Action] = field(default_factory=list)
    discard: Card | None = None
    gain: int = 0


def _value(card: Card) -> int:
    return 15 if card.is_joker else _VALUES.get(card.rank, card.rank)


def keeper_discard(hand: list[Card]) -> Card | None:
    """The card to discard from ``hand`` that keeps what is worth keeping (see the
    module's docstring), or None."""
    made: set[Card] = set()
    for kind in MeldKind:
        for meld in candidate_melds(hand, kind):
            made.update(c.plain() for c in meld if not c.is_joker)
    plain = [c.plain() for c in hand if not c.is_joker]
    free = [c for c in plain if c not in made]
    if not free:
        return None

    def building(card: Card) -> bool:
        """Part of a pair, or of two cards of one suit close enough to make a run."""
        if sum(1 for c in plain if c.rank == card.rank) > 1:
            return True
        return any(
            c.suit == card.suit and c != card and abs(c.rank - card.rank) <= 2 for c in plain
        )

    loose = [c for c in free if not building(c)]
    pool = loose or free
    return max(pool, key=lambda c: (_value(c), c.rank))


def advise(view: Mapping[str, object]) -> Advice:
    """The advice for the seat of ``view`` (its own view: nothing else is read), when it
    is to draw or to play; an empty advice otherwise."""
    v = kontrakt_view(view)
    seat = v["seat"]
    if seat is None or v["turn"] != seat:
        return Advice()
    hand = [Card.parse(c) for c in v["hand"] or []]
    if v["phase"] == Phase.DRAW:
        pile = v["discard_pile"]
        if not pile or v["stock_only"]:
            return Advice(draw="stock")
        top = Card.parse(pile[-1])
        without = best_laying_from(v, hand)
        with_top = best_laying_from(v, [*hand, top])
        gain = with_top.count - without.count
        better = top.is_joker or gain > 0 or (with_top.complete and not without.complete)
        return Advice(draw="discard" if better else "stock", gain=max(gain, 0))
    if v["phase"] != Phase.PLAY:
        return Advice()
    laying = best_laying_from(v, hand)
    left = list(hand)
    for action in laying.actions:
        for card in _cards_of(action):
            match = next((c for c in left if c.plain() == card.plain()), None)
            if match is not None:
                left.remove(match)
    discard = keeper_discard(left) if len(left) > 1 else (left[0] if left else None)
    return Advice(plan=list(laying.actions), discard=discard)


def _cards_of(action: Action) -> list[Card]:
    if isinstance(action, LayDown):
        return [c for meld in action.melds for c in meld]
    card = getattr(action, "card", None)
    return [card] if isinstance(card, Card) else []


def advised_actions(game: Game) -> list[AnyAction]:
    """The advice for the seat to act at a Kontrakt ``game``, as actions the engine takes
    in order (the draw, the plan, the discard), each checked on a copy of the game; those
    after one the engine would refuse are left out."""
    assert isinstance(game, KontraktGame)
    seat = game.to_act
    if seat is None:
        return []
    advice = advise(game.view(seat, log=False))
    steps: list[Action] = []
    if advice.draw is not None:
        steps.append(Draw(seat, "discard" if advice.draw == "discard" else "stock"))
    steps += advice.plan
    if advice.discard is not None:
        steps.append(Discard(seat, advice.discard))
    trial = game.copy()
    out: list[AnyAction] = []
    for step in steps:
        if not trial.can(step):
            break
        trial.apply(step)
        out.append(step)
    return out
