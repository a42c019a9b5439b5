"""The entries of a Kontrakt game's log: actions and what they did, deals dealt and ended.

Every entry has ``to_json(viewer)`` (the viewer is a seat, or None for a
spectator: never optional, so nothing is shown by default) and
``replay_json()`` (every card shown, for the replay of a finished game).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, cast

from rummykit.cards import Card
from rummykit.games.kontrakt.actions import Action
from rummykit.games.kontrakt.contracts import CONTRACTS
from rummykit.games.kontrakt.state import TableMeld
from rummykit.games.kontrakt.view import ActionEntry, DealEndEntry, DealStartEntry

__all__ = ["ActionEvent", "DealEnded", "DealStarted", "Event"]


@dataclass(frozen=True)
class ActionEvent:
    """An applied action and what it did: the log entry (pokerkit's operation).

    ``shown`` are cards that went into the hand in view of everyone (the
    upcard, the discard pile's top, a swapped joker); ``hidden`` those only
    the player saw (from the stock). ``restock`` is the new stock's order when
    the stock was shuffled anew (K15): never shown to players.
    """

    deal: int
    index: int
    action: Action
    shown: tuple[Card, ...] = ()
    hidden: tuple[Card, ...] = ()
    restock: tuple[Card, ...] | None = None
    went_out: bool = False

    def to_json(self, viewer: int | None) -> ActionEntry:
        """The entry as ``viewer`` (a seat, or None) may see it: a stock card only to its drawer."""
        return self._json(viewer is not None and viewer == self.action.seat, False)

    def replay_json(self) -> ActionEntry:
        """The entry with every card shown, the new stock's order included."""
        return self._json(True, True)

    def record_json(self) -> dict[str, object]:
        """The action as a record writes it (RECORD.md): a draw that shuffled a new stock
        with its order (``restock``), so that replaying it needs no shuffle."""
        return dict(self.action.to_json())

    def _json(self, drawn: bool, restock: bool) -> ActionEntry:
        out = self.action.to_json()
        out.pop("restock", None)
        out.update(deal=self.deal, index=self.index)
        if self.shown:
            out["shown"] = [str(c) for c in self.shown]
        if self.hidden and drawn:
            out["drawn"] = [str(c) for c in self.hidden]
        if self.restock is not None:
            out["restocked"] = len(self.restock)
            if restock:
                out["restock"] = [str(c) for c in self.restock]
        if self.went_out:
            out["went_out"] = True
        return cast(ActionEntry, out)


@dataclass(frozen=True)
class DealStarted:
    """A deal was dealt (K3): its number (0-6), dealer and the first upcard."""

    deal: int
    dealer: int
    upcard: Card

    def to_json(self, viewer: int | None) -> DealStartEntry:
        """The entry as plain data (nothing secret in it)."""
        return {
            "type": "deal_start",
            "deal": self.deal,
            "dealer": self.dealer,
            "contract": str(CONTRACTS[self.deal]),
            "upcard": str(self.upcard),
        }

    def replay_json(self) -> DealStartEntry:
        """The same as every viewer sees it."""
        return self.to_json(None)


@dataclass(frozen=True)
class DealEnded:
    """A deal ended (K13, K15): who went out, each hand shown for scoring, the penalties,
    and the table as it stood (the next deal is dealt at once, so this is the only
    place a player can still see it).

    ``reason``: ``out`` (K13), ``stock`` (K15: nothing left to draw) or
    ``limit`` (the deal reached the turn limit,
    :data:`~rummykit.games.kontrakt.options.TURN_LIMIT`).
    """

    deal: int
    out: int | None
    hands: tuple[tuple[Card, ...], ...]
    penalties: tuple[int, ...]
    totals: tuple[int, ...]
    table: tuple[TableMeld, ...] = ()
    reason: Literal["out", "stock", "limit"] = "out"
    cause: ActionEvent | None = None
    """The action that ended the deal (logged just before this entry)."""

    def to_json(self, viewer: int | None) -> DealEndEntry:
        """The entry as plain data: the hands are shown to all for scoring."""
        return {
            "type": "deal_end",
            "deal": self.deal,
            "out": self.out,
            "reason": self.reason,
            "hands": [[str(c) for c in h] for h in self.hands],
            "penalties": list(self.penalties),
            "totals": list(self.totals),
            "table": [m.to_json() for m in self.table],
        }

    def replay_json(self) -> DealEndEntry:
        """The same as every viewer sees it."""
        return self.to_json(None)

    def record_json(self) -> dict[str, object]:
        """The action that ended the deal, as a record writes it."""
        assert self.cause is not None, "a deal ends by an action"
        return self.cause.record_json()


Event = ActionEvent | DealStarted | DealEnded
"""Any entry of the log."""
