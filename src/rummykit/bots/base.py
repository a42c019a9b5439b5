"""The bot interface: a bot sees only its seat's view and returns an action.

A bot is any object with ``choose(view) -> action``. ``view`` is the plain
data of ``game.view(seat)`` (the same dict every interface gets), so a bot
can never see another hand or the stock order. A bot is deterministic given
its seed: the same views in the same order give the same actions.

Bots are found by game and level name, like python-chess variants::

    bot = make_bot("vatikanen", "greedy", seed=1)
    action = bot.choose(game.view(game.turn))

A module registers its levels with :func:`register`; the game's bot modules
(its spec's ``bot_modules`` in :mod:`rummykit.games`) are imported on first
lookup.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol, TypeVar, cast

if TYPE_CHECKING:
    from rummykit.game import AnyAction, Game
    from rummykit.games.kontrakt.view import KontraktView
    from rummykit.games.vatikanen.view import VatikanenView

__all__ = [
    "Bot",
    "BotFactory",
    "levels",
    "make_bot",
    "play_out",
    "register",
    "seat_and_hand",
    "settings_of",
]


class Bot(Protocol):
    """A player program: ``choose`` gets a seat's view and returns a legal action."""

    level: str

    def choose(self, view: Mapping[str, object]) -> AnyAction:
        """The action to take, given the seat's view (only called on the bot's turn)."""
        ...


def seat_and_hand(view: VatikanenView | KontraktView) -> tuple[int, list[str]]:
    """The seat a view is of and its hand (card text); ValueError for a spectator's view,
    which has no seat to play."""
    seat, hand = view["seat"], view["hand"]
    if seat is None or hand is None:
        raise ValueError("a bot plays a seat: this is a spectator's view")
    return seat, hand


class BotFactory(Protocol):
    """Makes a bot from a seed (None: unseeded) and its settings, keyword arguments that
    :func:`make_bot` checks by name against the factory's signature before the call."""

    def __call__(self, seed: int | None, /, **settings: object) -> Bot:
        """The bot."""
        ...


F = TypeVar("F", bound=Callable[[int | None], Bot])

_REGISTRY: dict[str, dict[str, BotFactory]] = {}
_loaded: set[str] = set()


def register(game: str, level: str) -> Callable[[F], F]:
    """Decorator: register a bot class or factory (called with the seed) under a level."""

    def wrap(factory: F) -> F:
        # its settings are its keyword arguments: make_bot passes only those it names
        _REGISTRY.setdefault(game, {})[level] = cast(BotFactory, factory)
        return factory

    return wrap


def _load(game: str) -> dict[str, BotFactory]:
    if game not in _loaded:
        from rummykit import games

        _loaded.add(game)
        for name in games.get(game).bot_modules:
            importlib.import_module(name)
    return _REGISTRY.get(game, {})


def levels(game: str) -> list[str]:
    """The bot levels known for ``game``."""
    return sorted(_load(game))


def settings_of(game: str, level: str) -> list[str]:
    """The settings a built-in bot takes (its keyword arguments besides the seed)."""
    factory = _load(game)[level]
    params = list(inspect.signature(factory).parameters.values())[1:]  # the seed first
    return [p.name for p in params if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)]


def make_bot(game: str, level: str, seed: int | None = None, **settings: object) -> Bot:
    """A bot of ``level`` for ``game``, built with ``settings`` (the bot's keyword
    arguments); ValueError naming the known levels, or the settings the bot takes."""
    known = _load(game)
    if level not in known:
        names = ", ".join(sorted(known)) or "none"
        raise ValueError(f"no {game} bot called {level!r}: the levels are {names}")
    takes = settings_of(game, level)
    wrong = [k for k in settings if k not in takes]
    if wrong:
        has = ", ".join(takes) if takes else "none"
        raise ValueError(
            f"the {game} bot {level!r} has no setting {wrong[0]!r}: its settings are {has}"
        )
    return known[level](seed, **settings)


def play_out(game: Game, bots: Sequence[Bot], *, max_actions: int = 100_000) -> int:
    """Let ``bots`` (one per seat) play ``game`` to its end; return the actions taken.

    An illegal action from a bot raises the engine's RuleError: bots must
    only choose legal actions.
    """
    taken = 0
    while (seat := game.to_act) is not None:
        if taken >= max_actions:
            raise RuntimeError(f"the game did not end within {max_actions} actions")
        game.apply(bots[seat].choose(game.view(seat)))
        taken += 1
    return taken
