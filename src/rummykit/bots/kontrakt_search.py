"""Determinized rollouts for the strong Kontraktsrummy bot.

A bot cannot see the other hands nor the stock, so it guesses them: a
*determinization* (:func:`~rummykit.bots.sampling.sample_kontrakt`) deals
the unseen cards consistently with the view. :func:`position` sets such a
guess up as a real :class:`~rummykit.games.kontrakt.KontraktGame`
(:meth:`~rummykit.games.kontrakt.KontraktGame.from_position`), so that the engine
stays the only judge of what is legal, and :func:`rollout` plays the rest of
the deal with the fast ``basic`` policy in every seat (or a bot of the
caller's in the viewer's). :func:`outcomes` plays every candidate action on
the same guesses (common random numbers: the differences between
candidates are far less noisy than their values) and returns the viewer's
penalty for each; :func:`overrule` picks a candidate only when its paired
gain over the first is clear.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence

from rummykit.bots.base import Bot, seat_and_hand
from rummykit.bots.kontrakt_basic import BasicBot
from rummykit.bots.sampling import Deal, sample_kontrakt
from rummykit.cards import kontrakt_value
from rummykit.games.kontrakt import (
    Action,
    DealEnded,
    KontraktGame,
    KontraktPosition,
    Phase,
    parse_card,
)
from rummykit.games.kontrakt.view import kontrakt_view

__all__ = ["Guess", "outcomes", "overrule", "position", "rollout"]

_POLICY = BasicBot(0)
"""The rollout policy of every seat: ``basic`` is deterministic and about 0.05 ms a move."""


def position(view: Mapping[str, object], deal: Deal, seed: int) -> KontraktGame:
    """The game of ``view`` with the hidden cards as ``deal`` guesses them.

    ``seed`` shuffles any new stock (K15) of the rollout.
    """
    v = kontrakt_view(view)
    turn = v["turn"]
    if turn is None:
        raise ValueError("nobody is to act in this view: there is no position to play on")
    table = [
        (m["owner"], [parse_card(t) for t in m["cards"]], bool(m["contract"])) for m in v["table"]
    ]
    picked = v["picked_up"]
    position = KontraktPosition(
        deal.hands,
        deal=v["deal"],
        dealer=v["dealer"],
        stock=deal.stock,
        discard_pile=[parse_card(t) for t in v["discard_pile"]],
        table=table,
        laid=[(x["groups"], x["runs"], x["complete"]) for x in v["laid"]],
        turn=turn,
        phase=Phase(v["phase"]),
        picked_up=None if picked is None else parse_card(picked),
        stock_only=v["stock_only"],
    )
    return KontraktGame.from_position(position, seed=seed)


def rollout(
    game: KontraktGame,
    seat: int,
    *,
    own: Bot | None = None,
    max_actions: int = 2000,
    players: Mapping[int, Bot] | None = None,
) -> float:
    """Play the deal in progress to its end with the basic policy; ``seat``'s penalty.

    ``own`` (if given) plays ``seat`` instead, from views with the log;
    ``players`` (if given) plays the seats it names so, ``own`` before it.

    A deal that has not ended after ``max_actions`` actions (two players
    passing a card back and forth) scores the hand as it is.
    """
    deal = game.deal
    for _ in range(max_actions):
        turn = game.to_act
        if turn is None:
            break
        if own is not None and turn == seat:
            action = own.choose(game.view(turn))
        elif players is not None and turn in players:
            action = players[turn].choose(game.view(turn))
        else:
            action = _POLICY.choose(game.view(turn, log=False))
        event = game.apply(action)
        if isinstance(event, DealEnded):
            return float(event.penalties[seat])
        if game.deal != deal:  # pragma: no cover - a deal ends with a DealEnded event
            break
    return float(sum(kontrakt_value(c) for c in game.hand(seat)))


Guess = Callable[[Mapping[str, object], random.Random], Deal]
"""A way to deal the hidden cards of a view (:func:`sample_kontrakt`, or a read of the hands)."""


def outcomes(
    view: Mapping[str, object],
    candidates: Sequence[Action | Sequence[Action]],
    rng: random.Random,
    samples: int,
    own: Bot | None = None,
    guess: Guess = sample_kontrakt,
    deadline: float | None = None,
    players: Mapping[int, Bot] | None = None,
) -> list[list[float]]:
    """Each candidate's penalty for the viewer on each of ``samples`` guessed deals.

    A candidate is an action or a few actions played in turn (a draw and
    the discard after it); then the basic policy plays the deal out. Every
    candidate is played on the same guesses (``guess`` deals them); ``own``
    plays the viewer's seat in the rollouts instead of the basic policy,
    ``players`` the seats it names (:func:`rollout`). A
    candidate the engine refuses scores infinity. Past ``deadline`` (a
    :func:`time.perf_counter` reading) no new guess is started once two are
    done (the fewest :func:`overrule` can judge); every candidate keeps the
    same number of values.
    """
    v = kontrakt_view(view)
    seat, _ = seat_and_hand(v)
    out: list[list[float]] = [[] for _ in candidates]
    for done in range(samples):
        if deadline is not None and done >= 2 and time.perf_counter() > deadline:
            break
        deal = guess(v, rng)
        seed = rng.getrandbits(32)
        for k, cand in enumerate(candidates):
            game = position(v, deal, seed)
            try:
                for action in [cand] if isinstance(cand, Action) else cand:
                    event = game.apply(action)
                    if isinstance(event, DealEnded):
                        out[k].append(float(event.penalties[seat]))
                        break
                else:
                    out[k].append(rollout(game, seat, own=own, players=players))
            except Exception:  # a refused candidate is never chosen
                out[k].append(float("inf"))
    return out


def overrule(values: Sequence[Sequence[float]], z: float) -> int:
    """Which candidate to play: the first (the heuristic's choice) unless another scores
    lower by more than ``z`` standard errors of the paired differences; then the one
    that gains most.

    >>> overrule([[10, 12, 8, 10], [4, 6, 3, 5]], z=1.0)
    1
    >>> overrule([[10, 12, 8, 10], [14, 2, 12, 1]], z=1.0)
    0
    """
    best, gain = 0, 0.0
    n = len(values[0])
    if n < 2:
        return 0
    for k in range(1, len(values)):
        diffs = [a - b for a, b in zip(values[0], values[k], strict=True)]
        if any(math.isinf(d) or math.isnan(d) for d in diffs):
            continue
        mean = sum(diffs) / n
        se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
        if mean > z * se and mean > gain:
            best, gain = k, mean
    return best
