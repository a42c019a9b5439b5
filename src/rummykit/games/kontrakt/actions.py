"""Kontraktsrummy actions: small frozen values, written as RECORD.md JSON.

Every action names its ``seat``. The names follow RECORD.md's Kontrakt table;
``LayDown`` is the record's ``meld`` (so as not to clash with
:class:`rummykit.melds.Meld`).

>>> from rummykit.cards import parse_cards
>>> a = LayDown(0, (tuple(parse_cards("7h 7d 7s")),))
>>> a.to_json()
{'seat': 0, 'type': 'meld', 'melds': [['7h', '7d', '7s']]}
>>> action_from_json(a.to_json()) == a
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from rummykit.cards import Card
from rummykit.errors import ActionError, message_of
from rummykit.i18n import N_

__all__ = [
    "Action",
    "BuyUpcard",
    "DeclineUpcard",
    "Discard",
    "Draw",
    "LayDown",
    "LayOff",
    "PassUpcard",
    "SwapJoker",
    "TakeUpcard",
    "action_from_json",
]


@dataclass(frozen=True, slots=True)
class TakeUpcard:
    """Förhand takes the first upcard (K7); that is förhand's draw."""

    seat: int
    type = "take_upcard"

    def to_json(self) -> dict[str, Any]:
        """The action as RECORD.md JSON."""
        return {"seat": self.seat, "type": self.type}


@dataclass(frozen=True, slots=True)
class DeclineUpcard:
    """Förhand does not want the first upcard; the others are asked in turn (K7)."""

    seat: int
    type = "decline_upcard"

    def to_json(self) -> dict[str, Any]:
        """The action as RECORD.md JSON."""
        return {"seat": self.seat, "type": self.type}


@dataclass(frozen=True, slots=True)
class BuyUpcard:
    """The asked player takes the upcard and the top of the stock (K7)."""

    seat: int
    type = "buy_upcard"

    def to_json(self) -> dict[str, Any]:
        """The action as RECORD.md JSON."""
        return {"seat": self.seat, "type": self.type}


@dataclass(frozen=True, slots=True)
class PassUpcard:
    """The asked player does not want the first upcard (K7)."""

    seat: int
    type = "pass_upcard"

    def to_json(self) -> dict[str, Any]:
        """The action as RECORD.md JSON."""
        return {"seat": self.seat, "type": self.type}


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the top of the stock or of the discard pile (K8).

    ``restock`` is only for records: the order (top first) of the new stock
    when this draw found the stock empty and the pile was shuffled (K15).
    """

    seat: int
    from_: Literal["stock", "discard"] = "stock"
    restock: tuple[Card, ...] | None = None
    type = "draw"

    def to_json(self) -> dict[str, Any]:
        """The action as RECORD.md JSON."""
        out: dict[str, Any] = {"seat": self.seat, "type": self.type, "from": self.from_}
        if self.restock is not None:
            out["restock"] = [str(c) for c in self.restock]
        return out


@dataclass(frozen=True, slots=True)
class LayDown:
    """Lay melds from the hand on the table (K9, K10, K12): RECORD.md's ``meld``."""

    seat: int
    melds: tuple[tuple[Card, ...], ...]
    type = "meld"

    def to_json(self) -> dict[str, Any]:
        """The action as RECORD.md JSON."""
        melds = [[str(c) for c in m] for m in self.melds]
        return {"seat": self.seat, "type": self.type, "melds": melds}


@dataclass(frozen=True, slots=True)
class LayOff:
    """Add one card from the hand to table meld number ``meld`` (K10).

    ``as_`` says what a joker stands for (at which end of a run it goes).
    """

    seat: int
    card: Card
    meld: int
    as_: Card | None = None
    type = "layoff"

    def to_json(self) -> dict[str, Any]:
        """The action as RECORD.md JSON."""
        out: dict[str, Any] = {
            "seat": self.seat,
            "type": self.type,
            "card": str(self.card),
            "meld": self.meld,
        }
        if self.as_ is not None:
            out["as"] = str(self.as_)
        return out


@dataclass(frozen=True, slots=True)
class SwapJoker:
    """Put ``card`` in place of a joker in table meld ``meld``; the joker goes to the hand (K11)."""

    seat: int
    card: Card
    meld: int
    type = "swap_joker"

    def to_json(self) -> dict[str, Any]:
        """The action as RECORD.md JSON."""
        return {"seat": self.seat, "type": self.type, "card": str(self.card), "meld": self.meld}


@dataclass(frozen=True, slots=True)
class Discard:
    """Put one card from the hand on the discard pile, ending the turn (K8, K13)."""

    seat: int
    card: Card
    type = "discard"

    def to_json(self) -> dict[str, Any]:
        """The action as RECORD.md JSON."""
        return {"seat": self.seat, "type": self.type, "card": str(self.card)}


Action = (
    TakeUpcard
    | DeclineUpcard
    | BuyUpcard
    | PassUpcard
    | Draw
    | LayDown
    | LayOff
    | SwapJoker
    | Discard
)
"""Any Kontrakt action."""

_SIMPLE: dict[str, type[TakeUpcard | DeclineUpcard | BuyUpcard | PassUpcard]] = {
    "take_upcard": TakeUpcard,
    "decline_upcard": DeclineUpcard,
    "buy_upcard": BuyUpcard,
    "pass_upcard": PassUpcard,
}


def _card(value: object, name: str) -> Card:
    if not isinstance(value, str):
        raise ActionError(N_("'{field}' must be one card written as text, like '7h'"), field=name)
    try:
        return Card.parse(value)
    except ValueError as exc:
        raise ActionError(N_("'{field}': {error}"), field=name, error=message_of(exc)) from None


def action_from_json(data: Mapping[str, object]) -> Action:
    """Read one RECORD.md Kontrakt action; :class:`ActionError` saying what is wrong."""
    seat = data.get("seat")
    kind = data.get("type")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ActionError(N_("an action needs an integer 'seat'"))
    if kind in _SIMPLE:
        return _SIMPLE[kind](seat)
    if kind == "draw":
        source = data.get("from", "stock")
        if source not in ("stock", "discard"):
            raise ActionError(N_("a draw is 'from' the 'stock' or the 'discard' pile"))
        restock = data.get("restock")
        if restock is not None:
            if not isinstance(restock, list):
                raise ActionError(N_("'restock' must be a list of cards"))
            return Draw(seat, source, tuple(_card(c, "restock") for c in restock))
        return Draw(seat, source)
    if kind == "meld":
        melds = data.get("melds")
        if not isinstance(melds, list) or not melds:
            raise ActionError(
                N_("a meld action needs 'melds': a list of melds, each a list of cards")
            )
        out = []
        for m in melds:
            if not isinstance(m, list):
                raise ActionError(N_("each meld is a list of cards"))
            out.append(tuple(_card(c, "melds") for c in m))
        return LayDown(seat, tuple(out))
    if kind in ("layoff", "swap_joker"):
        meld = data.get("meld")
        if not isinstance(meld, int) or isinstance(meld, bool):
            raise ActionError(
                N_("a {kind} names the table meld by its number in 'meld'"), kind=kind
            )
        card = _card(data.get("card"), "card")
        if kind == "swap_joker":
            return SwapJoker(seat, card, meld)
        as_ = data.get("as")
        return LayOff(seat, card, meld, None if as_ is None else _card(as_, "as"))
    if kind == "discard":
        return Discard(seat, _card(data.get("card"), "card"))
    raise ActionError(
        N_(
            "{kind} is not a Kontrakt action: the actions are take_upcard, decline_upcard,"
            " buy_upcard, pass_upcard, draw, meld, layoff, swap_joker and discard"
        ),
        kind=repr(kind),
    )
