"""What a Vatikanen action did: the log's :class:`Event` and a game's :class:`GameEnd`."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from rummykit.cards import Card
from rummykit.games.vatikanen.actions import Action, Play
from rummykit.games.vatikanen.view import GameEndJSON
from rummykit.melds import Meld

__all__ = ["Event", "GameEnd", "number"]


def number(value: Fraction | int) -> int | float:
    """A balance as JSON: an int when whole, else a float (V15 can split a payment)."""
    f = Fraction(value)
    return f.numerator if f.denominator == 1 else float(f)


@dataclass(frozen=True, slots=True)
class GameEnd:
    """How a game ended: ``reason`` is ``out`` (V13), ``blocked`` (V15) or ``no_winner``.

    ``hand_values`` are the V13 values of the hands at the end; ``payments`` the
    net gain of each seat (zero-sum).
    """

    reason: Literal["out", "blocked", "no_winner"]
    winners: tuple[int, ...]
    hand_values: tuple[int, ...]
    payments: tuple[Fraction, ...]

    def to_json(self) -> GameEndJSON:
        """Plain data."""
        return {
            "reason": self.reason,
            "winners": list(self.winners),
            "hand_values": list(self.hand_values),
            "payments": [number(p) for p in self.payments],
        }


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of the game log: the action taken and what it did.

    ``card`` is the card a draw took (hidden from the other seats); ``table``
    the whole table after a play, as the engine checked and keeps it (a play
    that named its table is logged with that checked table, not as written);
    ``opening`` whether a play was the player's opening (V7); ``end`` is set
    on the action that ended the game.
    """

    index: int
    action: Action
    card: Card | None = None
    table: tuple[Meld, ...] | None = None
    end: GameEnd | None = None
    opening: bool = False

    @property
    def seat(self) -> int:
        """The seat that acted."""
        return self.action.seat

    def to_json(self, viewer: int | None) -> dict[str, Any]:
        """The event as ``viewer`` may see it: a seat, or None for a spectator.

        A drawn card is shown only to the seat that drew it.
        """
        return self._json(self.card is not None and viewer == self.seat)

    def replay_json(self) -> dict[str, Any]:
        """The event with every card shown: for the replay of a finished game."""
        return self._json(True)

    def _json(self, show_card: bool) -> dict[str, Any]:
        out = self.action.to_json()
        if isinstance(self.action, Play) and self.table is not None:
            out["table"] = [[str(c) for c in m.cards] for m in self.table]
            out["opening"] = self.opening
        if show_card and self.card is not None:
            out["card"] = str(self.card)
        if self.end is not None:
            out["end"] = self.end.to_json()
        return out

    def record_json(self) -> dict[str, Any]:
        """The action as a record writes it: a play with the table it made (RECORD.md)."""
        out = self.action.to_json()
        if isinstance(self.action, Play) and self.table is not None:
            out["table"] = [[str(c) for c in m.cards] for m in self.table]
        return out
