"""What the browser is told of a game (``GET /api/games/{name}``), from the one home of each
piece of it: the registry's spec, the house rules, the bots a table can seat (each with
its reference rating on the ladder, :mod:`rummykit.ratings`), the contracts (K4), the
typed commands' help; every text in the asker's language.

>>> info = game_info("kontrakt", "sv")
>>> info["contracts"][6]["text"], info["contracts"][0]["choices"]
('3 tretal eller 3 färgföljder, allt på en gång', [{'groups': 2, 'runs': 0}])
>>> [b["level"] for b in game_info("vatikanen", "en")["bots"]]
['expert', 'greedy', 'random', 'strong']
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import cast

from rummykit import games
from rummykit.bots.levels import describe_level, level_label, levels, needs_settings
from rummykit.i18n import translate
from rummykit.ratings import bot_rating
from rummykit.server.commands import command_help

__all__ = ["game_info", "seatable_levels"]


@functools.cache
def seatable_levels(game: str) -> tuple[str, ...]:
    """The bot levels of ``game`` a table can seat: those that play with no settings (a
    ``policy`` bot needs its file, which a table does not name)."""
    return tuple(level for level in levels(game) if not needs_settings(game, level))


def _rating(game: str, level: str) -> int | None:
    """A bot level's reference rating as shown (the ladder, ``docs/ratings.md``); None for
    a level the ladder does not hold."""
    rating = bot_rating(game, level)
    return None if rating is None else rating.shown


def game_info(name: str, lang: str) -> dict[str, object]:
    """Everything the browser shows of game ``name``, its texts in ``lang``; ValueError
    (a MessageError) for no such game."""
    spec = games.get(name)
    info: dict[str, object] = {
        "name": spec.name,
        "title": spec.title,
        "blurb": translate(spec.blurb, lang) if spec.blurb else "",
        "min_players": spec.min_players,
        "max_players": spec.max_players,
        "default_players": spec.default_players,
        "house_rules": [
            {
                "name": r.name,
                "default": r.default,
                "rule": r.rule,
                "title": translate(r.title, lang) if r.title else r.name,
                "summary": translate(r.summary, lang),
            }
            for r in spec.house_rules
        ],
        "bots": [
            {
                "level": level,
                "title": level_label(spec.name, level).translated(lang),
                "summary": about.translated(lang)
                if (about := describe_level(spec.name, level)) is not None
                else "",
                "rating": _rating(spec.name, level),
            }
            for level in seatable_levels(spec.name)
        ],
        "default_bot": spec.default_bot,
        "commands": [{"example": e, "what": w} for e, w in command_help(spec.name, lang)],
    }
    facts = spec.hook("page_facts")
    if facts is not None:  # what a page shows of the game beyond its rules (K4's contracts)
        more = cast(Callable[[str], dict[str, object]], facts)(lang)
        info.update(more)
    return info
