"""What a Kontraktsrummy player types: the game's command words in English and Swedish,
and what to say when typed melds are none. :mod:`rummykit.notation` and the terminal's
command line read them through the game's spec (:data:`rummykit.games.kontrakt.SPEC`)."""

from __future__ import annotations

from rummykit.games.spec import Words
from rummykit.i18n import N_

__all__ = ["COMMANDS", "MELD_SYNTAX"]

COMMANDS: dict[str, Words] = {
    "take": {"en": ("take",), "sv": ("ta",)},
    "decline": {"en": ("decline",), "sv": ("avböj", "nej")},
    "buy": {"en": ("buy",), "sv": ("köp",)},
    "pass": {"en": ("pass",), "sv": ("passa",)},
    "draw": {"en": ("draw", "d"), "sv": ("dra",)},
    "meld": {"en": ("meld", "m", "lay"), "sv": ("lägg",)},
    "layoff": {"en": ("layoff", "lo"), "sv": ("bygg",)},
    "swap": {"en": ("swap", "sw"), "sv": ("byt",)},
    "discard": {"en": ("discard", "x"), "sv": ("saka",)},
}
"""Kontraktsrummy's commands (the upcard K7, the draw K8, laying down K9-K12, laying off
K10, a joker swap K11, the discard K13), in the order completion offers them."""

MELD_SYNTAX = (
    N_("name the cards of each meld, like: meld 7h 7d 7s | 4c 5c 6c"),
    N_("a meld between two | is empty: write melds like: meld 7h 7d 7s | 4c 5c 6c"),
)
"""What to say when no meld is named, and when one between two ``|`` is empty."""
