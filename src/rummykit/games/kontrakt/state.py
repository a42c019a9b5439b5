"""The state of a Kontrakt deal: where it stands (:class:`Phase`), the melds on the table
(:class:`TableMeld`) and every card's place (:class:`DealState`)."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from rummykit.cards import Card
from rummykit.games.kontrakt.view import TableMeldJSON
from rummykit.melds import Meld, MeldKind

__all__ = ["DealState", "Phase", "TableMeld"]


class Phase(StrEnum):
    """Where a deal stands."""

    UPCARD = "upcard_offer"
    """K7: the first upcard is being offered."""
    DRAW = "draw"
    """K8: the player whose turn it is draws."""
    PLAY = "play"
    """K8-K13: the player lays down, lays off, swaps jokers, and discards."""
    WAITING = "waiting"
    """A deal is over and no deck is there for the next (a record that stops)."""
    OVER = "game_over"
    """K14: all seven deals are played."""


@dataclass(frozen=True)
class TableMeld:
    """A meld on the table: its number (in laying order), who laid it, and its cards (K10).

    ``ids`` are the physical cards in meld order; ``contract`` tells whether it
    was laid as part of the owner's contract.
    """

    number: int
    owner: int
    meld: Meld
    ids: tuple[int, ...]
    contract: bool

    def to_json(self) -> TableMeldJSON:
        """The meld as plain data for views (a fresh copy each time)."""
        out = self._json
        return {**out, "cards": list(out["cards"])}

    @functools.cached_property
    def _json(self) -> TableMeldJSON:
        out: TableMeldJSON = {
            "number": self.number,
            "owner": self.owner,
            "kind": str(self.meld.kind),
            "cards": [str(c) for c in self.meld.cards],
            "contract": self.contract,
        }
        if self.meld.kind is MeldKind.GROUP:
            out["rank"] = self.meld.start
        else:
            suit = self.meld.suit
            assert suit is not None
            out["suit"] = suit.letter
            out["low"] = self.meld.start
            out["high"] = self.meld.end
        return out


@dataclass
class DealState:
    """Everything of the deal in progress (cards are ids: places in the deal's deck)."""

    number: int
    dealer: int
    deck: tuple[Card, ...]
    hands: list[list[int]]
    stock: list[int]  # top at the end
    pile: list[int]  # top at the end
    table: list[TableMeld] = field(default_factory=list)  # number = index
    laid: list[list[int]] = field(default_factory=list)  # per seat [groups, runs] of contract
    complete: list[bool] = field(default_factory=list)
    phase: Phase = Phase.UPCARD
    turn: int = 0
    offer_to: int | None = None
    stock_only: bool = False
    picked: int | None = None
    buyer: int | None = None  # K7: bought the upcard; förhand has not drawn yet
    actions: list[dict[str, Any]] = field(default_factory=list)
    text: list[str] = field(default_factory=list)  # each physical card as text
    draws: int = 0  # turns taken in this deal (draws), for the TURN_LIMIT cap

    def copy(self) -> DealState:
        """An independent copy: the lists copied (ids, melds and card texts are immutable)."""
        return replace(
            self,
            hands=[list(h) for h in self.hands],
            stock=list(self.stock),
            pile=list(self.pile),
            table=list(self.table),
            laid=[list(x) for x in self.laid],
            complete=list(self.complete),
            actions=list(self.actions),
        )
