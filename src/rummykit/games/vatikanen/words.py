"""What a Vatikanen player types: the game's command words in English and Swedish, and
what to say when a typed table is no table. :mod:`rummykit.notation` and the terminal's
command line read them through the game's spec (:data:`rummykit.games.vatikanen.SPEC`)."""

from __future__ import annotations

from rummykit.games.spec import Words
from rummykit.i18n import N_

__all__ = ["COMMANDS", "MELD_SYNTAX"]

COMMANDS: dict[str, Words] = {
    "play": {"en": ("play", "p"), "sv": ("spela", "lägg")},
    "draw": {"en": ("draw", "d"), "sv": ("dra",)},
    "pass": {"en": ("pass",), "sv": ("passa",)},
}
"""Vatikanen's commands (V4: play, or draw, or pass when the stock is out), in the order
completion offers them."""

MELD_SYNTAX = (
    N_(
        "after the first | write the whole new table, meld by meld,"
        " like: play 7h | 7h 8h 9h | Tc Th Ts"
    ),
    N_("a meld between two | is empty: write the new table like: play 7h | 7h 8h 9h | Tc Th Ts"),
)
"""What to say when no meld follows the ``|``, and when one between two ``|`` is empty."""
