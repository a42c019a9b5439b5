"""The bot interface: a bot sees only its seat's view and returns an action.

A bot is any object with ``choose(view) -> action``. ``view`` is the plain
data of ``game.view(seat)`` (the same dict every interface gets), so a bot
can never see another hand or the stock order. A bot is deterministic given
its seed: the same views in the same order give the same actions.

Bots are found by game and level name, like python-chess variants::

    bot = make_bot("vatikanen", "greedy", seed=1)
    action = bot.choose(game.view(game.turn))

A module registers its levels with :func:`register`; the game's bot modules
are imported on first lookup (:data:`BOT_MODULES`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

__all__ = [
    "BOT_MODULES",
    "Bot",
    "BotFactory",
    "GameLike",
    "levels",
    "make_bot",
    "play_out",
    "register",
]


class Bot(Protocol):
    """A player program: ``choose`` gets a seat's view and returns a legal action."""

    level: str

    def choose(self, view: Mapping[str, Any]) -> Any:
        """The action to take, given the seat's view (only called on the bot's turn)."""
        ...


BotFactory = Callable[..., Bot]
"""Makes a bot from a seed (None: unseeded)."""

F = TypeVar("F", bound=Callable[[int | None], Any])

BOT_MODULES: dict[str, list[str]] = {
    "vatikanen": ["rummykit.bots.vatikanen_basic", "rummykit.bots.vatikanen_strong"],
    "kontrakt": ["rummykit.bots.kontrakt_basic", "rummykit.bots.kontrakt_strong"],
}
"""Per game, the modules that register its bots (imported on first lookup)."""

_REGISTRY: dict[str, dict[str, BotFactory]] = {}
_loaded: set[str] = set()


def register(game: str, level: str) -> Callable[[F], F]:
    """Decorator: register a bot class or factory (called with the seed) under a level."""

    def wrap(factory: F) -> F:
        _REGISTRY.setdefault(game, {})[level] = factory
        return factory

    return wrap


def _load(game: str) -> dict[str, BotFactory]:
    if game not in _loaded:
        _loaded.add(game)
        for name in BOT_MODULES.get(game, []):
            importlib.import_module(name)
    return _REGISTRY.get(game, {})


def levels(game: str) -> list[str]:
    """The bot levels known for ``game``."""
    return sorted(_load(game))


def make_bot(game: str, level: str, seed: int | None = None, **settings: Any) -> Bot:
    """A bot of ``level`` for ``game``, built with ``settings`` (the bot class's keyword
    arguments; TypeError for one it does not take); ValueError naming the known levels."""
    known = _load(game)
    if level not in known:
        names = ", ".join(sorted(known)) or "none"
        raise ValueError(f"no {game} bot called {level!r}: the levels are {names}")
    return known[level](seed, **settings)


class GameLike(Protocol):
    """What :func:`play_out` needs of a game engine."""

    @property
    def turn(self) -> int | None: ...

    def view(self, seat: int | None = None) -> dict[str, Any]: ...

    def apply(self, action: Any) -> Any: ...


def play_out(game: GameLike, bots: Sequence[Bot], *, max_actions: int = 100_000) -> int:
    """Let ``bots`` (one per seat) play ``game`` to its end; return the actions taken.

    An illegal action from a bot raises the engine's RuleError: bots must
    only choose legal actions.
    """
    taken = 0
    while (seat := game.turn) is not None:
        if taken >= max_actions:
            raise RuntimeError(f"the game did not end within {max_actions} actions")
        game.apply(bots[seat].choose(game.view(seat)))
        taken += 1
    return taken
