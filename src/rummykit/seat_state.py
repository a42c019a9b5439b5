"""What one seat sees of a game, in the shape of the protocol's ``state`` message
(PROTOCOL.md), for the pages that draw a position off any table: a lesson and a puzzle.
The browser draws it with the table's own board; the view is ``game.view(seat)`` and
nothing else, so a page sees no more than the seat would."""

from __future__ import annotations

import json
from collections.abc import Sequence

from rummykit.game import Game
from rummykit.narration import narrate_log

__all__ = ["seat_state"]


def seat_state(game: Game, seat: int, names: Sequence[str], lang: str) -> dict[str, object]:
    """``seat``'s ``state`` message of ``game`` (version 0, every other seat a bot named by
    ``names``), with the log narrated in ``lang``."""
    view = json.loads(json.dumps(game.view(seat, log=False)))
    entries = list(game.log_entries(seat, 0))
    view["log"] = entries
    return {
        "type": "state",
        "version": 0,
        "status": "over" if game.over else "playing",
        "seat": seat,
        "seats": [
            {"seat": s, "kind": "human" if s == seat else "bot", "name": name, "connected": True}
            for s, name in enumerate(names)
        ],
        "games_played": 1,
        "clock": None,
        "log_start": 0,
        "view": view,
        "log_text": narrate_log(game.name, entries, list(names), lang),
    }
