"""The bot interface: a bot sees only its seat's view and returns an action.

A bot is any object with ``choose(view) -> action``. ``view`` is the plain
data of ``game.view(seat)`` (the same dict every interface gets), so a bot
can never see another hand or the stock order. A bot is deterministic given
its seed: the same views in the same order give the same actions.

Bots are found by game and level name, like python-chess variants::

    bot = make_bot("vatikanen", "greedy", seed=1)  # rummykit.bots.levels
    action = bot.choose(game.view(game.turn))

A module registers its levels with :func:`register`; the game's bot modules
(its spec's ``bot_modules`` in :mod:`rummykit.games`) are imported on first
lookup (:mod:`rummykit.bots.levels` finds a level by game name; this module
knows no game).

A bot's settings (its keyword arguments besides the seed:
``strong(samples=8)`` on the command line) are declared on its class as
``SETTINGS``, one :class:`Setting` each: type, range, and what it does.
:func:`build` checks every setting against it before the bot is built
(:func:`checked`), so every host (``simulate``, the terminal, the
server) refuses ``samples=-5`` or ``samples="x"`` up front, naming the
setting, instead of a bot that fails at its first move. A level that cannot
play without a setting (``policy`` needs its file) says so.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar, cast

from rummykit.errors import MessageError
from rummykit.i18n import N_, Message

if TYPE_CHECKING:
    from rummykit.game import AnyAction, Game
    from rummykit.games.kontrakt.view import KontraktView
    from rummykit.games.vatikanen.view import VatikanenView

__all__ = [
    "Bot",
    "BotFactory",
    "Setting",
    "about_of",
    "build",
    "checked",
    "declared_by",
    "factories",
    "factory",
    "label_of",
    "parameters",
    "play_out",
    "register",
    "seat_and_hand",
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
    :func:`build` checks by name against the factory's signature before the call."""

    def __call__(self, seed: int | None, /, **settings: object) -> Bot:
        """The bot."""
        ...


F = TypeVar("F", bound=Callable[[int | None], Bot])

_REGISTRY: dict[str, dict[str, BotFactory]] = {}
_ABOUT: dict[tuple[str, str], str] = {}
_LABEL: dict[tuple[str, str], str] = {}
_loaded: set[str] = set()

_KINDS: dict[type, str] = {
    int: N_("a whole number"),
    float: N_("a number"),
    bool: N_("true or false"),
    str: N_("text"),
}


@dataclass(frozen=True, slots=True)
class Setting:
    """One setting of a built-in bot: its type, its range, and what it does.

    ``kind`` is ``int``, ``float`` (a whole number is taken too), ``bool`` or
    ``str``; ``low`` and ``high`` bound a number (inclusive), ``high`` the length of a
    text. Every built-in number and text has a ``high``, so that no setting can make
    a bot think for hours (``tests/test_cli_checks_and_words.py``); ``none``: null
    (None) is taken too, meaning the bot's own default; ``required``: the bot
    cannot be built without it. ``about`` says what it does, as a catalog
    message.

    >>> Setting(int, N_("deals per decision"), low=0).check("strong", "samples", 8)
    8
    >>> Setting(int, N_("deals per decision"), low=0).check("strong", "samples", -5)
    Traceback (most recent call last):
    ...
    rummykit.errors.MessageError: strong: the setting samples must be at least 0, not -5
    """

    kind: type
    about: str
    low: float | None = None
    high: float | None = None
    none: bool = False
    required: bool = False

    def check(self, level: str, name: str, value: object) -> object:
        """``value`` as the bot takes it; MessageError naming the setting when it is of
        the wrong type or out of range."""
        if value is None and self.none:
            return None
        if not self._of_kind(value):
            kind: str | Message = Message(self._kind_text())
            if self.none:
                kind = Message(N_("{kind}, or null for the default"), kind=kind)
            raise MessageError(
                N_("{level}: the setting {name} must be {kind}, not {value}"),
                level=level,
                name=name,
                kind=kind,
                value=_shown(value),
            )
        if isinstance(value, str) and self.high is not None and len(value) > self.high:
            raise MessageError(
                N_("{level}: the setting {name} must be at most {high} characters long"),
                level=level,
                name=name,
                high=_number(self.high),
            )
        if self.kind is float:
            value = float(value)  # type: ignore[arg-type]
        if isinstance(value, int | float) and not isinstance(value, bool):
            if self.low is not None and value < self.low:
                raise MessageError(
                    N_("{level}: the setting {name} must be at least {low}, not {value}"),
                    level=level,
                    name=name,
                    low=_number(self.low),
                    value=_shown(value),
                )
            if self.high is not None and value > self.high:
                raise MessageError(
                    N_("{level}: the setting {name} must be at most {high}, not {value}"),
                    level=level,
                    name=name,
                    high=_number(self.high),
                    value=_shown(value),
                )
        return value

    def _of_kind(self, value: object) -> bool:
        if isinstance(value, bool):
            return self.kind is bool
        if self.kind is float:
            return isinstance(value, int | float) and value == value  # not NaN
        return isinstance(value, self.kind)

    def _kind_text(self) -> str:
        return _KINDS.get(self.kind, N_("text"))


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _shown(value: object) -> str:
    """A setting's value as it was written (JSON: strings quoted, null, true)."""
    import json

    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def register(
    game: str, level: str, about: str | None = None, label: str | None = None
) -> Callable[[F], F]:
    """Decorator: register a bot class or factory (called with the seed) under a level;
    ``about`` says in a few words how it plays, ``label`` is the level's name for people
    (catalog messages: :func:`describe_level`, :func:`level_label`)."""

    def wrap(factory: F) -> F:
        # its settings are its keyword arguments: build passes only those it names
        _REGISTRY.setdefault(game, {})[level] = cast(BotFactory, factory)
        if about is not None:
            _ABOUT[game, level] = about
        if label is not None:
            _LABEL[game, level] = label
        return factory

    return wrap


def factories(game: str, modules: Sequence[str]) -> Mapping[str, BotFactory]:
    """The bot levels of ``game`` and their factories, once ``modules`` (the modules that
    register them: the game's spec's ``bot_modules``) are imported."""
    if game not in _loaded:
        _loaded.add(game)
        for name in modules:
            importlib.import_module(name)
    return _REGISTRY.get(game, {})


def factory(game: str, level: str, modules: Sequence[str]) -> BotFactory:
    """The factory of ``level`` (:func:`factories`); MessageError naming the known levels."""
    known = factories(game, modules)
    if level not in known:
        raise MessageError(
            N_("no {game} bot called {level}: the levels are {levels}"),
            game=game,
            level=repr(level),
            levels=", ".join(sorted(known)) or "-",
        )
    return known[level]


def parameters(factory: BotFactory) -> list[str]:
    """The settings a bot factory takes: those it declares (``SETTINGS``), else its keyword
    arguments besides the seed."""
    found = getattr(factory, "SETTINGS", None)
    if isinstance(found, Mapping):
        return list(found)
    params = list(inspect.signature(factory).parameters.values())[1:]  # the seed first
    return [p.name for p in params if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)]


def declared_by(factory: BotFactory) -> dict[str, Setting]:
    """The settings a built-in bot declares (its class's ``SETTINGS``), by name."""
    found = getattr(factory, "SETTINGS", {})
    return dict(found) if isinstance(found, Mapping) else {}


def label_of(game: str, level: str) -> Message:
    """A registered level's name for people (the level itself when it has none)."""
    return Message(_LABEL.get((game, level), level))


def about_of(game: str, level: str) -> Message | None:
    """How a registered level plays, in a few words, or None."""
    about = _ABOUT.get((game, level))
    return None if about is None else Message(about)


def checked(
    game: str, level: str, factory: BotFactory, settings: Mapping[str, object]
) -> dict[str, object]:
    """``settings`` as ``factory`` (the bot of ``level``) takes them: MessageError (a
    ValueError) for an unknown setting, a setting of the wrong type or out of range, or a
    required one left out, each naming the setting; nothing is built."""
    takes = parameters(factory)
    wrong = [k for k in settings if k not in takes]
    if wrong:
        raise MessageError(
            N_("the {game} bot {level} has no setting {name}: its settings are {settings}"),
            game=game,
            level=repr(level),
            name=repr(wrong[0]),
            settings=", ".join(takes) if takes else "-",
        )
    rules = declared_by(factory)
    out = dict(settings)
    for name, value in settings.items():
        if name in rules:
            out[name] = rules[name].check(level, name, value)
    for name, rule in rules.items():
        if rule.required and name not in settings:
            raise MessageError(
                N_(
                    "the {game} bot {level} needs the setting {name} ({about}): {level}({name}=...)"
                ),
                game=game,
                level=level,
                name=name,
                about=Message(rule.about),
            )
    return out


def build(
    game: str, level: str, modules: Sequence[str], seed: int | None, settings: Mapping[str, object]
) -> Bot:
    """A bot of ``level`` for ``game`` (its levels registered by ``modules``), built with
    ``settings``, each checked first (:func:`checked`)."""
    made = factory(game, level, modules)
    return made(seed, **checked(game, level, made, settings))


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
