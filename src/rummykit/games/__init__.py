"""The registry of games: every host finds a game here by name.

>>> from rummykit import games
>>> games.names()
('vatikanen', 'kontrakt')
>>> spec = games.get("vatikanen")
>>> spec.min_players, spec.max_players, spec.higher_is_better
(2, 5, True)
>>> game = spec.new(["Anna", "Bo"], seed=7)
>>> game.to_act, game.over
(0, False)

A :class:`GameSpec` says everything a host needs before it holds a game:
the name, the player range, the house rules with their defaults and a check
of their values, how to start a game from a seed (or explicit decks), the
bot levels, the JSON codec of the game's actions, and how to rebuild a live
game from its record (:meth:`GameSpec.from_record`). Nothing outside this
registry and the game packages names a game.
"""

from __future__ import annotations

import importlib

from rummykit.errors import MessageError
from rummykit.games.spec import GameSpec, HouseRule, OptionValue
from rummykit.i18n import N_

__all__ = ["GameSpec", "HouseRule", "OptionValue", "get", "names"]

_PACKAGES = {
    "vatikanen": "rummykit.games.vatikanen",
    "kontrakt": "rummykit.games.kontrakt",
}
"""Game name -> the package whose ``SPEC`` describes it (imported on first use)."""


def names() -> tuple[str, ...]:
    """The games rummykit plays, by their record names."""
    return tuple(_PACKAGES)


def get(name: str) -> GameSpec:
    """The spec of the game called ``name``; ValueError naming the games for another name."""
    package = _PACKAGES.get(name)
    if package is None:
        raise MessageError(
            N_("unknown game {name}: the games are {games}"),
            name=repr(name),
            games=", ".join(_PACKAGES),
        )
    spec = importlib.import_module(package).SPEC
    assert isinstance(spec, GameSpec)
    return spec
