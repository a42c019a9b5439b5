"""Vatikanen as a PettingZoo AEC environment (``from rummykit.envs import vatikanen_v0``).

>>> from rummykit.envs import vatikanen_v0
>>> env = vatikanen_v0.env(players=3)
>>> env.reset(seed=7)
>>> obs, reward, terminated, truncated, info = env.last()
>>> env.agent_selection, obs["action_mask"].sum() > 0, reward
('player_0', np.True_, 0.0)

``env(players=2, render_mode=None, max_cycles=None, illegal_reward=-1000.0,
**house_rules)``: 2-5 players (V1), the house rules ``free_jokers`` (V11) and
``blocked_game`` (V15) by name; ``raw_env`` is the environment without
PettingZoo's wrappers. One episode is one game (a one-game session, V16);
the reward at its end is each seat's payment (V13, V15). The actions and the
observation are those of :mod:`rummykit.envs.vatikanen_encoding`
(``docs/envs.md``); :func:`gym_env` is the single-agent Gymnasium
environment against rummykit's bots.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pettingzoo import AECEnv

from rummykit.envs.aec import ILLEGAL_REWARD, RummyEnv, wrap
from rummykit.envs.core import RewardMode
from rummykit.envs.vatikanen_encoding import ENCODER

if TYPE_CHECKING:
    from rummykit.envs.single import SingleAgentEnv

__all__ = ["env", "gym_env", "raw_env"]


class raw_env(RummyEnv):
    """Vatikanen's raw AEC environment (no wrappers)."""

    metadata: dict[str, object] = {**RummyEnv.metadata, "name": "vatikanen_v0"}  # noqa: RUF012

    def __init__(
        self,
        *,
        players: int = 2,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        **options: object,
    ) -> None:
        super().__init__(
            "vatikanen",
            ENCODER,
            players=players,
            render_mode=render_mode,
            max_cycles=max_cycles,
            options=options,
        )


def env(
    *,
    illegal_reward: float = ILLEGAL_REWARD,
    players: int = 2,
    render_mode: str | None = None,
    max_cycles: int | None = None,
    **options: object,
) -> AECEnv:
    """Vatikanen with PettingZoo's classic-game wrappers (keywords as :class:`raw_env`)."""
    return wrap(
        raw_env(
            players=players,
            render_mode=render_mode,
            max_cycles=max_cycles,
            **options,
        ),
        illegal_reward,
    )


def gym_env(
    *,
    players: int = 2,
    opponents: str | Sequence[str] = "greedy",
    seat: int | str = 0,
    render_mode: str | None = None,
    reward: RewardMode = "game",
    illegal_reward: float = ILLEGAL_REWARD,
    **options: object,
) -> SingleAgentEnv:
    """The single-agent Gymnasium environment of Vatikanen against bots
    (:class:`rummykit.envs.single.SingleAgentEnv`, whose keywords these are)."""
    from rummykit.envs.single import SingleAgentEnv

    return SingleAgentEnv(
        "vatikanen",
        players=players,
        opponents=opponents,
        seat=seat,
        render_mode=render_mode,
        reward=reward,
        illegal_reward=illegal_reward,
        **options,
    )
