"""The strong Kontrakt bot's rollout option: legal, reproducible from its seed, view-only."""

from __future__ import annotations

import json

from rummykit.bots import make_bot
from rummykit.bots.kontrakt_strong import StrongBot, _endgame
from rummykit.kontrakt import DealEnded, KontraktGame


def _play_deal(
    seed: int, samples: int, own_policy: bool = False
) -> tuple[list[str], tuple[int, ...], int]:
    """One deal: a rollout-using strong bot in seat 0 against three basic bots.

    Returns seat 0's actions, the penalties, and how many of its discards
    came when another player had its contract down (where it searches).
    """
    game = KontraktGame(4, seed=seed)
    bots = [StrongBot(seed, samples=samples, candidates=3, own_policy=own_policy)] + [
        make_bot("kontrakt", "basic", s) for s in (1, 2, 3)
    ]
    actions: list[str] = []
    searched = 0
    while True:
        seat = game.turn
        assert seat is not None
        view = game.view(seat)
        if seat == 0:
            view = json.loads(json.dumps(view))  # plain data only: the bot never sees the game
        action = bots[seat].choose(view)
        if seat == 0:
            actions.append(str(action))
            searched += action.type == "discard" and _endgame(view)
        event = game.apply(action)  # the engine judges every action
        if isinstance(event, DealEnded):
            return actions, event.penalties, searched


def test_K8_strong_rollouts_play_legally_and_reproducibly() -> None:
    searched = 0
    for seed in (2, 6):
        first = _play_deal(seed, samples=3)
        assert first == _play_deal(seed, samples=3)
        searched += first[2]
    assert searched > 0  # the rollouts were used, not skipped
    own = _play_deal(6, samples=2, own_policy=True)
    assert own == _play_deal(6, samples=2, own_policy=True)


def test_strong_without_samples_is_the_heuristic_bot() -> None:
    """``samples=0`` (the default) never plays a guessed deal forward."""
    assert StrongBot(1).samples == 0
    assert _play_deal(4, samples=0)[0] == _play_deal(4, samples=0)[0]
