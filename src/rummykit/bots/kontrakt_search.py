"""Determinized rollouts for the strong Kontraktsrummy bot.

A bot cannot see the other hands nor the stock, so it guesses them: a
*determinization* (:func:`~rummykit.bots.sampling.sample_kontrakt`) deals
the unseen cards consistently with the view. :func:`position` sets such a
guess up as a real :class:`~rummykit.kontrakt.KontraktGame`
(:meth:`~rummykit.kontrakt.KontraktGame.from_position`), so that the engine
stays the only judge of what is legal, and :func:`rollout` plays the rest of
the deal with the fast ``basic`` policy in every seat. :func:`compare` plays
every candidate action on the same guesses (common random numbers: the
differences between candidates are far less noisy than their values) and
returns each candidate's mean penalty for the viewer.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from rummykit.bots.base import Bot
from rummykit.bots.kontrakt_basic import BasicBot
from rummykit.bots.sampling import Deal, sample_kontrakt
from rummykit.cards import kontrakt_value
from rummykit.kontrakt import Action, DealEnded, KontraktGame, Phase, parse_card

__all__ = ["compare", "position", "rollout"]

_POLICY = BasicBot(0)
"""The rollout policy of every seat: ``basic`` is deterministic and about 0.05 ms a move."""


def position(view: Mapping[str, Any], deal: Deal, seed: int) -> KontraktGame:
    """The game of ``view`` with the hidden cards as ``deal`` guesses them.

    ``seed`` shuffles any new stock (K15) of the rollout.
    """
    table = [
        (m["owner"], [parse_card(t) for t in m["cards"]], bool(m["contract"]))
        for m in view["table"]
    ]
    picked = view["picked_up"]
    return KontraktGame.from_position(
        deal.hands,
        deal=view["deal"],
        dealer=view["dealer"],
        stock=deal.stock,
        discard_pile=[parse_card(t) for t in view["discard_pile"]],
        table=table,
        laid=[(x["groups"], x["runs"], x["complete"]) for x in view["laid"]],
        turn=view["turn"],
        phase=Phase(view["phase"]),
        picked_up=None if picked is None else parse_card(picked),
        stock_only=view["stock_only"],
        seed=seed,
        options=None,
    )


def rollout(
    game: KontraktGame, seat: int, *, own: Bot | None = None, max_actions: int = 2000
) -> float:
    """Play the deal in progress to its end with the basic policy; ``seat``'s penalty.

    ``own`` (if given) plays ``seat`` instead, from views with the log.

    A deal that has not ended after ``max_actions`` actions (two players
    passing a card back and forth) scores the hand as it is.
    """
    deal = game.deal
    for _ in range(max_actions):
        turn = game.turn
        if turn is None:
            break
        if own is not None and turn == seat:
            action = own.choose(game.view(turn))
        else:
            action = _POLICY.choose(game.view(turn, log=False))
        event = game.apply(action)
        if isinstance(event, DealEnded):
            return float(event.penalties[seat])
        if game.deal != deal:  # pragma: no cover - a deal ends with a DealEnded event
            break
    return float(sum(kontrakt_value(c) for c in game.hand(seat)))


def compare(
    view: Mapping[str, Any],
    candidates: Sequence[Action | Sequence[Action]],
    rng: random.Random,
    samples: int,
    own: Bot | None = None,
) -> list[float]:
    """Each candidate's mean penalty for the viewer over ``samples`` guessed deals.

    A candidate is an action or a few actions played in turn (a draw and
    the discard after it); then the basic policy plays the deal out. Every
    candidate is played on the same guesses; ``own`` plays the viewer's
    seat in the rollouts instead of the basic policy. A candidate the engine refuses
    scores infinity.
    """
    seat = view["seat"]
    totals = [0.0] * len(candidates)
    for _ in range(samples):
        deal = sample_kontrakt(view, rng)
        seed = rng.getrandbits(32)
        for k, cand in enumerate(candidates):
            game = position(view, deal, seed)
            try:
                for action in [cand] if isinstance(cand, Action) else cand:
                    event = game.apply(action)
                    if isinstance(event, DealEnded):
                        break
                else:
                    totals[k] += rollout(game, seat, own=own)
                    continue
            except Exception:  # a refused candidate is never chosen
                totals[k] = float("inf")
                continue
            totals[k] += float(event.penalties[seat])
    return [t / samples for t in totals]
