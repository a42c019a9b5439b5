"""One game held for learners: what the PettingZoo and the Gymnasium environments share.

An :class:`EnvHost` holds one game through the game interface
(:class:`rummykit.game.Game`, found by name in the registry) and an
:class:`~rummykit.envs.common.Encoder`. After every action it asks the
engine for the legal actions of the seat to act (the mask), builds
observations from ``game.view(seat)`` alone, and turns the game's standings
into rewards:

- Vatikanen: at the game's end each seat's payment (V13, V15), zero-sum;
- Kontrakt: each seat's penalty points as a negative reward, at each deal's
  end (``reward="deal"``, K13) or all at once at the game's end
  (``reward="game"``, the seven deals' total, K14).

It needs numpy, not PettingZoo or Gymnasium.

>>> from rummykit.envs.vatikanen_encoding import ENCODER
>>> host = EnvHost("vatikanen", ENCODER, players=2)
>>> host.reset(seed=7)
>>> seat = host.to_act
>>> sorted(host.legal)[:3], host.observation(seat)["action_mask"][:3].tolist()
([0, 2, 3], [1, 0, 1])
>>> host.act(0)
{0: 0.0, 1: 0.0}
>>> host.to_act
1
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal

from rummykit import games
from rummykit.envs.common import Encoder

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from rummykit.game import AnyAction, Game

__all__ = ["EnvHost", "IllegalIndex", "RewardMode"]

RewardMode = Literal["game", "deal"]


class IllegalIndex(ValueError):
    """An action index the mask does not allow now."""


class EnvHost:
    """One game of ``game`` for ``players`` seats, with the encoder's observations and masks:
    the environments' host of the game (a "table" is the cards on the board, nothing else).

    ``options`` are the game's house rules (checked by the registry);
    ``reward`` is ``"game"`` or ``"deal"`` (see the module docstring; the
    same for Vatikanen, whose game is one deal).
    """

    def __init__(
        self,
        game: str,
        encoder: Encoder,
        *,
        players: int,
        options: Mapping[str, object] | None = None,
        reward: RewardMode = "game",
    ) -> None:
        self.spec = games.get(game)
        self.spec.check_players(players)
        if encoder.game != game:
            raise ValueError(f"the {encoder.game} encoding cannot encode {game}")
        if reward not in ("game", "deal"):
            raise ValueError(f"reward is 'game' or 'deal', not {reward!r}")
        self.encoder = encoder
        self.players = players
        self.options = self.spec.check_options(options)
        self.reward_mode: RewardMode = reward
        self.sign = 1.0 if self.spec.higher_is_better else -1.0
        self._game: Game | None = None
        self._legal: dict[int, AnyAction] | None = None
        self._view: Mapping[str, object] | None = None
        self._paid: tuple[float, ...] = ()

    # ------------------------------------------------------------ state

    @property
    def game(self) -> Game:
        """The game being played (reset first)."""
        if self._game is None:
            raise RuntimeError("reset the environment first")
        return self._game

    @property
    def to_act(self) -> int | None:
        """The seat to act now, None once the game is over."""
        return self.game.to_act

    @property
    def over(self) -> bool:
        """True once the game has ended (for Kontrakt: all seven deals, K4)."""
        return self.game.over

    def reset(self, seed: int) -> None:
        """A new game shuffled from ``seed`` (the registry's ``new(players, seed=seed)``)."""
        names = [f"player_{i}" for i in range(self.players)]
        self._game = self.spec.new(names, seed=seed, options=self.options)
        self._paid = (0.0,) * self.players
        self._legal = self._view = None

    @property
    def legal(self) -> dict[int, AnyAction]:
        """The action at each index the engine allows the seat to act now (asked of the
        engine once per position, when first wanted)."""
        if self._legal is None:
            seat = self.game.to_act
            if seat is None:
                self._legal = {}
            else:
                self._view = self.encoder.view(self.game, seat)
                self._legal = self.encoder.engine_legal(self.game, self._view)
        return self._legal

    # ------------------------------------------------------------ observations

    def observation(self, seat: int) -> dict[str, npt.NDArray[np.float32] | npt.NDArray[np.int8]]:
        """``{"observation": float32 vector, "action_mask": int8 vector}`` of ``seat``: built
        from ``game.view(seat)`` alone; the mask is all zeros off turn."""
        import numpy as np

        mask = np.zeros(len(self.encoder.actions), dtype=np.int8)
        if seat == self.game.to_act:
            actions = self.legal
            assert self._view is not None
            view = self._view
            mask[list(actions)] = 1
        else:
            view, actions = self.encoder.view(self.game, seat), {}
        return {"observation": self.encoder.observe(view, actions), "action_mask": mask}

    def mask(self) -> npt.NDArray[np.int8]:
        """The action mask of the seat to act (all zeros once the game is over)."""
        import numpy as np

        mask = np.zeros(len(self.encoder.actions), dtype=np.int8)
        mask[list(self.legal)] = 1
        return mask

    # ------------------------------------------------------------ actions

    def act(self, index: int) -> dict[int, float]:
        """The seat to act takes the action at ``index``; returns each seat's reward.

        :class:`IllegalIndex` (and nothing changes) when the mask forbids ``index``.
        """
        action = self.legal.get(int(index))
        if action is None:
            name = (
                repr(self.encoder.actions[index])
                if 0 <= index < len(self.encoder.actions)
                else "no action"
            )
            raise IllegalIndex(f"action {index} ({name}) is not legal now")
        return self.apply(action)

    def apply(self, action: AnyAction) -> dict[int, float]:
        """Take any action of the game (an opponent bot's); the engine checks it. Returns
        each seat's reward."""
        self.game.apply(action)
        self._legal = self._view = None
        return self.rewards()

    def rewards(self, *, final: bool = False) -> dict[int, float]:
        """The rewards not yet given: penalties of the deals ended since (``deal``), or
        everything once the game is over or ``final`` (a truncated episode)."""
        if self.reward_mode == "game" and not (final or self.game.over):
            return dict.fromkeys(range(self.players), 0.0)
        now = self.game.standings
        out = {s: self.sign * (now[s] - self._paid[s]) for s in range(self.players)}
        self._paid = tuple(now)
        return out

    # ------------------------------------------------------------ rendering

    def render_text(self) -> str:
        """The game as a spectator sees it (the table, no hand, no stock), as text."""
        view = self.game.spectator_view()
        lines = [f"{self.spec.title}: seat {view.get('turn')} to act"]
        if "deal" in view:
            contract = view["contract"]
            assert isinstance(contract, Mapping)
            lines[0] += f", deal {int(str(view['deal'])) + 1}: {contract['text']}"
        table = view.get("table", [])
        assert isinstance(table, list)
        for meld in table:
            cards = meld["cards"] if isinstance(meld, Mapping) else meld
            lines.append("  " + " ".join(cards))
        lines.append(f"hand sizes {view['hand_sizes']}, stock {view['stock_size']}")
        if "discard_pile" in view:
            pile = view["discard_pile"]
            assert isinstance(pile, list)
            lines.append(f"discard pile top: {pile[-1] if pile else '-'}")
        lines.append(f"standings {list(self.game.standings)}")
        return "\n".join(lines)
