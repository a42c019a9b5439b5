"""One learner against rummykit's bots, as a Gymnasium environment: :class:`SingleAgentEnv`.

The agent holds one seat; rummykit's bots hold the others and play their
turns between the agent's steps, each seeing only its own seat's view, as in
the arena. Observations, masks and rewards are the AEC environment's
(:mod:`rummykit.envs.core`): ``{"observation", "action_mask"}`` of the
agent's seat, and the agent's reward (Vatikanen: its payment at the game's
end; Kontrakt: its penalty points, negative, per deal or per game).

``opponents`` is one bot spec for every other seat, or one per seat, in the
arena's notation (``"greedy"``, ``"strong(samples=8)"``; by default the game's
own default bot: Vatikanen's ``greedy``, Kontrakt's ``basic``); ``seat`` is the
agent's seat, or ``"random"`` for a seat drawn at every reset. An action the
mask forbids ends the episode (terminated) with ``illegal_reward`` and
``info["illegal"]`` saying why; the game is left as it was.

>>> from gymnasium.utils.env_checker import check_env
>>> env = SingleAgentEnv("vatikanen", opponents="greedy")
>>> obs, info = env.reset(seed=3)
>>> obs["observation"].shape == env.observation_space["observation"].shape
True
>>> check_env(env, skip_render_check=True)

The environments are registered with Gymnasium as ``rummykit/Vatikanen-v0`` and
``rummykit/Kontrakt-v0`` (``gymnasium.make("rummykit/Vatikanen-v0", opponents="random")``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import SupportsFloat, cast

import gymnasium
import numpy as np
import numpy.typing as npt

from rummykit.arena.specs import level_settings
from rummykit.bots.base import Bot
from rummykit.envs.aec import ILLEGAL_REWARD, RENDER_MODES, Vector
from rummykit.envs.common import encoder_of
from rummykit.envs.core import EnvHost, IllegalIndex, RewardMode

__all__ = ["SingleAgentEnv"]

Observation = dict[str, Vector]


class SingleAgentEnv(gymnasium.Env[Observation, np.int64]):
    """``game`` for one agent against bots (see the module docstring); ``options`` are the
    game's house rules by name."""

    metadata: dict[str, object] = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game: str = "vatikanen",
        *,
        players: int = 2,
        opponents: str | Sequence[str] | None = None,
        seat: int | str = 0,
        render_mode: str | None = None,
        reward: RewardMode = "game",
        illegal_reward: float = ILLEGAL_REWARD,
        **options: object,
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            modes = ", ".join(RENDER_MODES)
            raise ValueError(f"render_mode is one of {modes}, not {render_mode!r}")
        encoder = encoder_of(game)
        self.host = EnvHost(game, encoder, players=players, options=options, reward=reward)
        opponents = self.host.spec.default_bot if opponents is None else opponents
        specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != players - 1:
            raise ValueError(f"name one opponent for all, or one for each of the {players - 1}")
        levels = self.host.spec.bot_levels()
        self._opponents: list[tuple[str, dict[str, object]]] = []
        for spec in specs:
            level, settings = level_settings(spec)
            if level not in levels:
                raise ValueError(f"no {game} bot called {level!r}: the levels are {levels}")
            self.host.spec.make_bot(level, 0, **settings)  # a wrong setting fails here
            self._opponents.append((level, settings))
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < players):
            raise ValueError(f"seat is a seat from 0 to {players - 1} or 'random', not {seat!r}")
        self.seat_choice = seat
        self.seat = 0 if seat == "random" else int(seat)
        self.render_mode = render_mode
        self.illegal_reward = float(illegal_reward)
        n = len(encoder.actions)
        space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(
                    0.0, 1.0, shape=(encoder.size,), dtype=np.float32
                ),
                "action_mask": gymnasium.spaces.Box(0, 1, shape=(n,), dtype=np.int8),
            }
        )
        # gymnasium types a Dict space as a space of dicts of spaces, not of its samples
        self.observation_space = cast("gymnasium.spaces.Space[Observation]", space)
        self.action_space = gymnasium.spaces.Discrete(n)
        self._bots: dict[int, Bot] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, object] | None = None
    ) -> tuple[Observation, dict[str, object]]:
        """A new game (shuffled from ``seed`` itself when given), played by the bots up to
        the agent's first turn."""
        super().reset(seed=seed)
        rng = self.np_random
        game_seed = seed if seed is not None else int(rng.integers(2**63 - 1))
        n = self.host.players
        if self.seat_choice == "random":
            self.seat = int(rng.integers(n))
        others = [s for s in range(n) if s != self.seat]
        self._bots = {
            s: self.host.spec.make_bot(level, int(rng.integers(2**63 - 1)), **settings)
            for s, (level, settings) in zip(others, self._opponents, strict=True)
        }
        self.host.reset(game_seed)
        self._reward = 0.0
        self._play_bots()
        return self._observation(), {"seat": self.seat}

    def _play_bots(self) -> None:
        host = self.host
        while (seat := host.to_act) is not None and seat != self.seat:
            paid = host.apply(self._bots[seat].choose(host.game.view(seat)))
            self._reward += paid[self.seat]

    def _observation(self) -> Observation:
        return self.host.observation(self.seat)

    def step(
        self, action: np.int64 | int
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, object]]:
        """The agent's action, then the bots' until the agent's next turn or the game's end."""
        if self.host.over:
            raise RuntimeError("the game is over: reset the environment")
        self._reward = 0.0
        try:
            self._reward += self.host.act(int(action))[self.seat]
        except IllegalIndex as exc:
            return self._observation(), self.illegal_reward, True, False, {"illegal": str(exc)}
        self._play_bots()
        info: dict[str, object] = {}
        over = self.host.over
        if over:
            result = self.host.game.result()
            assert result is not None
            info = {"winners": list(result.winners), "scores": list(result.scores)}
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._reward, over, False, info

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The agent's action mask now (what sb3-contrib's maskable algorithms ask for)."""
        return self.host.mask()

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


gymnasium.register(
    "rummykit/Vatikanen-v0", entry_point=SingleAgentEnv, kwargs={"game": "vatikanen"}
)
gymnasium.register("rummykit/Kontrakt-v0", entry_point=SingleAgentEnv, kwargs={"game": "kontrakt"})
