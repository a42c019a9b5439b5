"""The PettingZoo AEC environment of a rummykit game: :class:`RummyEnv`.

Agents are ``player_0`` ... ``player_{n-1}``, seat by seat; the agent to act
is the game's :attr:`~rummykit.game.Game.to_act` (in Kontrakt one agent acts
several times a turn: draw, lay down, discard). Each agent observes
``{"observation": float32 vector, "action_mask": int8 vector}`` from its own
seat's view; the mask is the engine's legal actions at their indices (all
zeros off turn). Rewards come from the game's scores (:mod:`.core`).

``max_cycles`` truncates every agent once the game has taken ``max_cycles``
cycles of actions, a cycle being one action per seat (``max_cycles *
players`` actions in all); by default the episode runs to the game's end,
which both games reach by themselves.

``env()`` of :mod:`~rummykit.envs.vatikanen_v0` and
:mod:`~rummykit.envs.kontrakt_v0` wraps this raw environment as PettingZoo's
classic games are: an action the mask forbids ends the game with
``illegal_reward`` for the agent that took it (``TerminateIllegalWrapper``),
an index out of range is an error, and the call order is enforced.
"""

from __future__ import annotations

from collections.abc import Mapping

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from rummykit.envs.common import Encoder
from rummykit.envs.core import EnvHost, RewardMode

__all__ = ["ILLEGAL_REWARD", "RummyEnv", "wrap"]

ILLEGAL_REWARD = -1000.0
"""The reward of an agent that takes an action its mask forbids, in ``env()``: below
any game's score in practice (a Vatikanen payment, a Kontrakt game's penalty)."""

Vector = npt.NDArray[np.float32] | npt.NDArray[np.int8]
"""An observation's part: the float32 observation vector or the int8 action mask."""
Observation = dict[str, Vector]

RENDER_MODES = ("human", "ansi")


class RummyEnv(AECEnv):  # type: ignore[misc]
    """A rummykit game as a PettingZoo AEC environment (see the module docstring).

    ``options`` are the game's house rules, by name (``{"free_jokers": True}``).
    """

    metadata: dict[str, object] = {  # noqa: RUF012
        "render_modes": list(RENDER_MODES),
        "name": "rummy_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self,
        game: str,
        encoder: Encoder,
        *,
        players: int = 2,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        reward: RewardMode = "game",
        options: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            modes = ", ".join(RENDER_MODES)
            raise ValueError(f"render_mode is one of {modes}, not {render_mode!r}")
        if max_cycles is not None and max_cycles < 1:
            raise ValueError(f"max_cycles is at least 1, not {max_cycles}")
        self.host = EnvHost(game, encoder, players=players, options=options, reward=reward)
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = list(self.possible_agents)
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        n = len(encoder.actions)
        self.observation_spaces = {
            a: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(
                        0.0, 1.0, shape=(encoder.size,), dtype=np.float32
                    ),
                    "action_mask": gymnasium.spaces.Box(0, 1, shape=(n,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: gymnasium.spaces.Discrete(n) for a in self.possible_agents}
        self._np_random: np.random.Generator | None = None
        self._np_random_seed: int | None = None
        self._actions = 0
        self._cache: dict[str, Observation] = {}
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, object]] = {}
        self.agent_selection = self.possible_agents[0]

    def observation_space(self, agent: str) -> gymnasium.spaces.Dict[Vector]:
        """The agent's observation space (the same object every time)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Discrete:
        """The agent's action space: one index per action of the encoding."""
        return self.action_spaces[agent]

    # ------------------------------------------------------------ episodes

    def reset(self, seed: int | None = None, options: dict[str, object] | None = None) -> None:
        """A new game: shuffled from ``seed`` itself when given (the registry's
        ``new(players, seed=seed)``), else from a seed the environment's generator draws
        (itself seeded by the last ``seed`` given)."""
        if seed is not None:
            self._np_random, self._np_random_seed = seeding.np_random(seed)
            game_seed = seed
        else:
            if self._np_random is None:
                self._np_random, self._np_random_seed = seeding.np_random(None)
            game_seed = int(self._np_random.integers(2**63 - 1))
        self.host.reset(game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._actions = 0
        self._cache = {}
        self._select()

    def _select(self) -> None:
        seat = self.host.to_act
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> Observation:
        """The agent's observation and action mask, from its seat's view alone."""
        if agent not in self._cache:
            self._cache[agent] = self.host.observation(self._seat[agent])
        obs = self._cache[agent]
        return {"observation": obs["observation"].copy(), "action_mask": obs["action_mask"].copy()}

    def step(self, action: int | None) -> None:
        """The agent selected takes the action at index ``action`` (None once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: give an action index, not None")
        self._cumulative_rewards[agent] = 0.0
        paid = self.host.act(int(action))
        self._actions += 1
        self._cache = {}
        over = self.host.over
        truncate = (
            not over
            and self.max_cycles is not None
            and self._actions >= self.max_cycles * len(self.possible_agents)
        )
        if truncate:
            paid = self.host.rewards(final=True)
        self.rewards = {a: float(paid[self._seat[a]]) for a in self.agents}
        if over:
            self.terminations = dict.fromkeys(self.agents, True)
        elif truncate:
            self.truncations = dict.fromkeys(self.agents, True)
        if over or truncate:
            result = self.host.game.result()
            if result is not None:
                for a in self.agents:
                    self.infos[a] = {"winners": list(result.winners)}
            i = self.possible_agents.index(agent)
            self.agent_selection = self.possible_agents[(i + 1) % len(self.possible_agents)]
        else:
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # ------------------------------------------------------------ rendering

    def render(self) -> str | None:
        """``ansi``: the table as a spectator sees it, as text; ``human``: printed."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        text = self.host.render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def wrap(env: RummyEnv, illegal_reward: float = ILLEGAL_REWARD) -> AECEnv:
    """``env`` with PettingZoo's classic-game wrappers (see the module docstring)."""
    out = wrappers.TerminateIllegalWrapper(env, illegal_reward=illegal_reward)
    out = wrappers.AssertOutOfBoundsWrapper(out)
    return wrappers.OrderEnforcingWrapper(out)
