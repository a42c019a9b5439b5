"""Kontraktsrummy as a PettingZoo AEC environment (``from rummykit.envs import kontrakt_v0``).

>>> from rummykit.envs import kontrakt_v0
>>> env = kontrakt_v0.env(players=3)
>>> env.reset(seed=7)
>>> obs, reward, terminated, truncated, info = env.last()
>>> env.agent_selection, [i for i, m in enumerate(obs["action_mask"]) if m], reward
('player_1', [0, 1], 0.0)

``env(players=2, render_mode=None, max_cycles=None, reward="game",
illegal_reward=-1000.0, **house_rules)``: 2-8 players (K1), the house rules
``reshuffle_stock`` (K15) and ``rediscard_pickup`` (K8) by name; ``raw_env``
is the environment without PettingZoo's wrappers. One episode is one game of
seven deals (K4). Each seat's penalty points are its negative reward: at
each deal's end with ``reward="deal"`` (K13), or their total at the game's
end with ``reward="game"`` (K14). The actions and the observation are those
of :mod:`rummykit.envs.kontrakt_encoding` (``docs/envs.md``); :func:`gym_env`
is the single-agent Gymnasium environment against rummykit's bots.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pettingzoo import AECEnv

from rummykit.envs.aec import ILLEGAL_REWARD, RummyEnv, wrap
from rummykit.envs.core import RewardMode
from rummykit.envs.kontrakt_encoding import ENCODER

if TYPE_CHECKING:
    from rummykit.envs.single import SingleAgentEnv

__all__ = ["env", "gym_env", "raw_env"]


class raw_env(RummyEnv):
    """Kontraktsrummy's raw AEC environment (no wrappers)."""

    metadata: dict[str, object] = {**RummyEnv.metadata, "name": "kontrakt_v0"}  # noqa: RUF012

    def __init__(
        self,
        *,
        players: int = 2,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        reward: RewardMode = "game",
        **options: object,
    ) -> None:
        super().__init__(
            "kontrakt",
            ENCODER,
            players=players,
            render_mode=render_mode,
            max_cycles=max_cycles,
            reward=reward,
            options=options,
        )


def env(
    *,
    illegal_reward: float = ILLEGAL_REWARD,
    players: int = 2,
    render_mode: str | None = None,
    max_cycles: int | None = None,
    reward: RewardMode = "game",
    **options: object,
) -> AECEnv:
    """Kontraktsrummy with PettingZoo's classic-game wrappers (keywords as :class:`raw_env`)."""
    return wrap(
        raw_env(
            players=players,
            render_mode=render_mode,
            max_cycles=max_cycles,
            reward=reward,
            **options,
        ),
        illegal_reward,
    )


def gym_env(
    *,
    players: int = 2,
    opponents: str | Sequence[str] = "basic",
    seat: int | str = 0,
    render_mode: str | None = None,
    reward: RewardMode = "game",
    illegal_reward: float = ILLEGAL_REWARD,
    **options: object,
) -> SingleAgentEnv:
    """The single-agent Gymnasium environment of Kontraktsrummy against bots
    (:class:`rummykit.envs.single.SingleAgentEnv`, whose keywords these are)."""
    from rummykit.envs.single import SingleAgentEnv

    return SingleAgentEnv(
        "kontrakt",
        players=players,
        opponents=opponents,
        seat=seat,
        render_mode=render_mode,
        reward=reward,
        illegal_reward=illegal_reward,
        **options,
    )
