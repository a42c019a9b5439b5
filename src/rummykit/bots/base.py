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

A bot's settings (its keyword arguments besides the seed:
``strong(samples=8)`` on the command line) are declared on its class as
``SETTINGS``, one :class:`Setting` each: type, range, and what it does.
:func:`make_bot` checks every setting against it before the bot is built
(:func:`check_settings`), so every host (``simulate``, the terminal, the
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
    "check_settings",
    "describe_level",
    "level_label",
    "levels",
    "make_bot",
    "needs_settings",
    "play_out",
    "reads_log",
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
        # its settings are its keyword arguments: make_bot passes only those it names
        _REGISTRY.setdefault(game, {})[level] = cast(BotFactory, factory)
        if about is not None:
            _ABOUT[game, level] = about
        if label is not None:
            _LABEL[game, level] = label
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


def _factory(game: str, level: str) -> BotFactory:
    known = _load(game)
    if level not in known:
        raise MessageError(
            N_("no {game} bot called {level}: the levels are {levels}"),
            game=game,
            level=repr(level),
            levels=", ".join(sorted(known)) or "-",
        )
    return known[level]


def _parameters(factory: BotFactory) -> list[str]:
    """The keyword arguments of a bot factory besides the seed."""
    params = list(inspect.signature(factory).parameters.values())[1:]  # the seed first
    return [p.name for p in params if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)]


def declared(game: str, level: str) -> dict[str, Setting]:
    """The settings a built-in bot declares (its class's ``SETTINGS``), by name."""
    found = getattr(_factory(game, level), "SETTINGS", {})
    return dict(found) if isinstance(found, Mapping) else {}


def reads_log(game: str, level: str) -> bool:
    """Whether a built-in bot reads its view's ``log`` (its class's ``READS_LOG``; a bot
    that does not say is taken to). A host that sends views elsewhere (the server's
    workers) leaves the log out for the others: it is most of a long game's view.

    >>> reads_log("vatikanen", "greedy"), reads_log("kontrakt", "strong")
    (False, True)
    """
    return bool(getattr(_factory(game, level), "READS_LOG", True))


def settings_of(game: str, level: str) -> list[str]:
    """The settings a built-in bot takes (its keyword arguments besides the seed)."""
    return _parameters(_factory(game, level))


def needs_settings(game: str, level: str) -> list[str]:
    """The settings a level cannot be played without (``policy``: its ``path``): a host
    that seats bots by level alone offers only levels that need none."""
    return [name for name, s in declared(game, level).items() if s.required]


def level_label(game: str, level: str) -> Message:
    """A bot level's name for people, to translate ("greedy", in Swedish "girig"); the
    level itself (what ``--bots`` takes) when it has none.

    >>> level_label("vatikanen", "greedy").translated("sv")
    'girig'
    """
    _factory(game, level)
    return Message(_LABEL.get((game, level), level))


def describe_level(game: str, level: str) -> Message | None:
    """How a bot level plays, in a few words (a catalog message to translate), or None."""
    _factory(game, level)
    about = _ABOUT.get((game, level))
    return None if about is None else Message(about)


def check_settings(game: str, level: str, settings: Mapping[str, object]) -> dict[str, object]:
    """``settings`` as the bot of ``level`` takes them: MessageError (a ValueError) for an
    unknown level or setting, a setting of the wrong type or out of range, or a required
    one left out, each naming the setting; nothing is built.

    >>> check_settings("vatikanen", "strong", {"samples": 8, "dump_at": 1})
    {'samples': 8, 'dump_at': 1.0}
    >>> check_settings("vatikanen", "strong", {"samples": "x"})
    Traceback (most recent call last):
    ...
    rummykit.errors.MessageError: strong: the setting samples must be a whole number, or null for the default, not "x"
    """  # noqa: E501
    takes = settings_of(game, level)
    wrong = [k for k in settings if k not in takes]
    if wrong:
        raise MessageError(
            N_("the {game} bot {level} has no setting {name}: its settings are {settings}"),
            game=game,
            level=repr(level),
            name=repr(wrong[0]),
            settings=", ".join(takes) if takes else "-",
        )
    rules = declared(game, level)
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


def make_bot(game: str, level: str, seed: int | None = None, **settings: object) -> Bot:
    """A bot of ``level`` for ``game``, built with ``settings`` (the bot's keyword
    arguments), each checked first (:func:`check_settings`); ValueError naming the
    known levels, or the setting that is wrong."""
    checked = check_settings(game, level, settings)
    return _factory(game, level)(seed, **checked)


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
