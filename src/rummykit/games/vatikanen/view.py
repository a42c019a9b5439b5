"""The shape of a Vatikanen view: what ``view(seat)`` returns, as TypedDicts.

The engine's views are checked against these by mypy where they are built,
and by the conformance tests at run time; ``docs/schemas/`` holds the JSON
Schema made from them (``tools/view_schemas.py``), which the server's
OpenAPI document uses. Cards are text (RECORD.md): ``7h``, ``*:8h``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NotRequired, cast

from typing_extensions import TypedDict

__all__ = [
    "GameEndJSON",
    "VatikanenLogEntry",
    "VatikanenOptions",
    "VatikanenView",
    "vatikanen_view",
]


class GameEndJSON(TypedDict):
    """How a game ended (V13, V15): the winners, every hand's value, the payments."""

    reason: Literal["out", "blocked", "no_winner"]
    winners: list[int]
    hand_values: list[int]
    payments: list[int | float]


class VatikanenLogEntry(TypedDict):
    """One entry of the log: an action as RECORD.md writes it, and what it did.

    ``card`` (a draw's card) is there only in the view of the seat that drew.
    A play carries the whole ``table`` after it and whether it was the
    player's ``opening`` (V7); the action that ended the game its ``end``.
    """

    seat: int
    type: Literal["play", "draw", "pass"]
    add: NotRequired[list[str]]
    table: NotRequired[list[list[str]]]
    opening: NotRequired[bool]
    card: NotRequired[str]
    end: NotRequired[GameEndJSON]


class VatikanenOptions(TypedDict):
    """The table's house rules (V11, V15)."""

    free_jokers: bool
    blocked_game: bool


class VatikanenView(TypedDict):
    """What one seat (or a spectator, ``seat`` null and ``hand`` null) may know.

    ``game_number`` counts the session's games from 1 (V16); ``balances`` are
    the session's running balances; ``turn`` is the seat to act (null once
    over); ``log`` is this game's log from its start (left out when asked without it).
    """

    game: Literal["vatikanen"]
    game_number: int
    players: list[str]
    seat: int | None
    dealer: int
    forhand: int
    options: VatikanenOptions
    hand: list[str] | None
    table: list[list[str]]
    hand_sizes: list[int]
    stock_size: int
    turn: int | None
    opened: list[bool]
    passes_in_row: int
    balances: list[int | float]
    over: bool
    end: GameEndJSON | None
    log: NotRequired[list[VatikanenLogEntry]]


def vatikanen_view(view: Mapping[str, object]) -> VatikanenView:
    """``view`` read as the VatikanenView it is: what ``view(seat)`` of a Vatikanen game gives,
    handed on as plain data (a bot's, an interface's, an encoding's); ValueError for another
    game's view (a part of a view made by hand, without ``game``, is taken as it is). The
    shape itself is the engine's, checked by the conformance tests."""
    if view.get("game", "vatikanen") != "vatikanen":
        raise ValueError(f"not a vatikanen view: {view.get('game')!r}")
    return cast(VatikanenView, view)
