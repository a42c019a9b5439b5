"""Bots found by game and level name: ``make_bot("vatikanen", "greedy")``.

The game's spec (:mod:`rummykit.games`) names the modules that register its
levels (``bot_modules``); they are imported on the first look-up. This module
sits above both the registry of games and :mod:`rummykit.bots.base`, which
knows no game: a bot module registers itself, a game names its bot modules,
and only this module ties the two together.
"""

from __future__ import annotations

from collections.abc import Mapping

from rummykit import games
from rummykit.bots.base import (
    Bot,
    BotFactory,
    Setting,
    about_of,
    checked,
    declared_by,
    factory,
    label_of,
    parameters,
)
from rummykit.i18n import Message

__all__ = [
    "check_settings",
    "declared",
    "describe_level",
    "level_label",
    "levels",
    "make_bot",
    "needs_settings",
    "reads_log",
    "settings_of",
]


def _factory(game: str, level: str) -> BotFactory:
    return factory(game, level, games.get(game).bot_modules)


def levels(game: str) -> list[str]:
    """The bot levels known for ``game``."""
    return games.get(game).bot_levels()


def make_bot(game: str, level: str, seed: int | None = None, **settings: object) -> Bot:
    """A bot of ``level`` for ``game``, built with ``settings`` (the bot's keyword
    arguments), each checked first (:func:`check_settings`); ValueError naming the
    known levels, or the setting that is wrong."""
    return games.get(game).make_bot(level, seed, **settings)


def declared(game: str, level: str) -> dict[str, Setting]:
    """The settings a built-in bot declares (its class's ``SETTINGS``), by name."""
    return declared_by(_factory(game, level))


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
    return parameters(_factory(game, level))


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
    return label_of(game, level)


def describe_level(game: str, level: str) -> Message | None:
    """How a bot level plays, in a few words (a catalog message to translate), or None."""
    _factory(game, level)
    return about_of(game, level)


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
    return checked(game, level, _factory(game, level), settings)
