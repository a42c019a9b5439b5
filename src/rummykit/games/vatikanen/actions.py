"""Vatikanen's actions (V4, V14): small frozen values with one JSON codec (RECORD.md).

>>> play = Play.parse(0, "7h 8h 9h")
>>> play.to_json()
{'seat': 0, 'type': 'play', 'add': ['7h', '8h', '9h']}
>>> action_from_json(play.to_json()) == play
True
>>> try:
...     action_from_json({"seat": 1, "type": "discard", "card": "7h"})
... except ActionError as exc:
...     print(exc)
Vatikanen has no action 'discard': no card is ever discarded (V3); a turn is play, draw or pass (V4)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rummykit.cards import Card, parse_cards
from rummykit.errors import ActionError, message_of
from rummykit.i18n import N_

__all__ = ["Action", "Draw", "Pass", "Play", "action_from_json"]


@dataclass(frozen=True, slots=True)
class Play:
    """V4a: put ``add`` from the hand onto the table.

    ``table`` is the whole new table, meld by meld (V9); without it the engine
    arranges the table with the solver and rejects the play if it cannot.
    """

    seat: int
    add: tuple[Card, ...]
    table: tuple[tuple[Card, ...], ...] | None = None

    @classmethod
    def parse(cls, seat: int, add: str, table: str | None = None) -> Play:
        """A play from text: ``Play.parse(0, "7h 8h 9h")``; melds of a table split by ``|``."""
        melds = None
        if table is not None:
            melds = tuple(tuple(parse_cards(m)) for m in table.split("|"))
        return cls(seat, tuple(parse_cards(add)), melds)

    def to_json(self) -> dict[str, Any]:
        """The RECORD.md JSON object of the play."""
        out: dict[str, Any] = {"seat": self.seat, "type": "play", "add": [str(c) for c in self.add]}
        if self.table is not None:
            out["table"] = [[str(c) for c in m] for m in self.table]
        return out


@dataclass(frozen=True, slots=True)
class Draw:
    """V4b: draw the top card of the stock; the turn ends."""

    seat: int

    def to_json(self) -> dict[str, Any]:
        """The RECORD.md JSON object of the draw."""
        return {"seat": self.seat, "type": "draw"}


@dataclass(frozen=True, slots=True)
class Pass:
    """V14: with an empty stock, do nothing this turn."""

    seat: int

    def to_json(self) -> dict[str, Any]:
        """The RECORD.md JSON object of the pass."""
        return {"seat": self.seat, "type": "pass"}


Action = Play | Draw | Pass
"""Any Vatikanen action."""


def _cards(value: object, field: str) -> list[Card]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise ActionError(
            N_('\'{field}\' is a list of cards written as text, like ["7h", "8h"]'), field=field
        )
    try:
        return parse_cards(value)
    except ValueError as exc:
        raise ActionError(N_("'{field}': {error}"), field=field, error=message_of(exc)) from None


def action_from_json(data: Mapping[str, object]) -> Action:
    """An action from its RECORD.md JSON; :class:`ActionError` for what is no Vatikanen action."""
    seat = data.get("seat")
    kind = data.get("type")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ActionError(N_("every action names the seat that takes it: an integer 'seat'"))
    if kind == "draw":
        return Draw(seat)
    if kind == "pass":
        return Pass(seat)
    if kind == "play":
        add = tuple(_cards(data.get("add", []), "add"))
        raw = data.get("table")
        table = None
        if raw is not None:
            if not isinstance(raw, list):
                raise ActionError(N_("'table' is a list of melds, each a list of cards"))
            table = tuple(tuple(_cards(m, "table")) for m in raw)
        return Play(seat, add, table)
    if kind == "discard":
        raise ActionError(
            N_(
                "Vatikanen has no action 'discard': no card is ever discarded (V3);"
                " a turn is play, draw or pass (V4)"
            )
        )
    raise ActionError(
        N_("Vatikanen has no action {kind}: a turn is play, draw or pass (V4)"), kind=repr(kind)
    )
