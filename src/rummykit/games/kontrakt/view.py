"""The shape of a Kontraktsrummy view: what ``view(seat)`` returns, as TypedDicts.

mypy checks the engine's views against these where they are built, and the
conformance tests at run time; ``docs/schemas/`` holds the JSON Schema made
from them (``tools/view_schemas.py``). Cards are text (RECORD.md): ``7h``,
``*:8h``. Deals are numbered from 0 in the data (``deal``), from 1 in the
contract's ``number`` and in everything a person reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NotRequired, TypeGuard, cast

from typing_extensions import TypedDict

__all__ = [
    "ActionEntry",
    "ContractChoice",
    "ContractJSON",
    "DealEndEntry",
    "DealStartEntry",
    "KontraktLogEntry",
    "KontraktOptionsJSON",
    "KontraktView",
    "LaidJSON",
    "TableMeldJSON",
    "is_action_entry",
    "is_deal_end",
    "is_deal_start",
    "kontrakt_view",
]


class TableMeldJSON(TypedDict):
    """A meld on the table: its ``number`` (laying order), who laid it, its cards (K10).

    A group has its ``rank``; a run its ``suit`` (``c d h s``) and its ends
    ``low`` and ``high`` (ranks 1-13). ``contract`` tells whether it was laid
    as a part of the owner's contract.
    """

    number: int
    owner: int
    kind: str
    cards: list[str]
    contract: bool
    rank: NotRequired[int]
    suit: NotRequired[str]
    low: NotRequired[int]
    high: NotRequired[int]


class ContractChoice(TypedDict):
    """One way to meet the contract: so many groups and runs."""

    groups: int
    runs: int


class ContractJSON(TypedDict):
    """The deal's contract (K4): ``number`` 1-7, its choices, whether all at once (K12)."""

    number: int
    choices: list[ContractChoice]
    all_at_once: bool
    text: str


class LaidJSON(TypedDict):
    """What of the contract a seat has laid (K9, K10)."""

    groups: int
    runs: int
    complete: bool


class KontraktOptionsJSON(TypedDict):
    """The table's house rules (K15, K8)."""

    reshuffle_stock: bool
    rediscard_pickup: bool


ActionEntry = TypedDict(
    "ActionEntry",
    {
        "seat": int,
        "type": str,
        "deal": int,
        "index": int,
        "from": NotRequired[str],
        "card": NotRequired[str],
        "as": NotRequired[str],
        "meld": NotRequired[int],
        "melds": NotRequired[list[list[str]]],
        "shown": NotRequired[list[str]],
        "drawn": NotRequired[list[str]],
        "restocked": NotRequired[int],
        "went_out": NotRequired[bool],
    },
)
"""An action as RECORD.md writes it (``seat``, ``type`` and its fields), and what it did.

``shown``: cards that went to the hand in view of everyone (the upcard, the
pile's top, a swapped joker); ``drawn``: a stock card, only in the view of
the seat that drew it; ``restocked``: the size of a new stock shuffled from
the pile (K15; its order is never shown); ``went_out``: the hand is empty
(K13). ``deal`` and ``index`` place the action in its deal.
"""


class DealStartEntry(TypedDict):
    """A deal was dealt (K3): its number (0-6), dealer, contract and the first upcard."""

    type: Literal["deal_start"]
    deal: int
    dealer: int
    contract: str
    upcard: str


class DealEndEntry(TypedDict):
    """A deal ended (K13, K15): who went out (null if nobody), every hand shown for
    scoring, the penalties and running totals, and the table as it stood.

    ``reason``: ``out`` (K13), ``stock`` (K15: no card left to draw) or
    ``limit`` (the deal reached the turn limit).
    """

    type: Literal["deal_end"]
    deal: int
    out: int | None
    reason: Literal["out", "stock", "limit"]
    hands: list[list[str]]
    penalties: list[int]
    totals: list[int]
    table: list[TableMeldJSON]


KontraktLogEntry = ActionEntry | DealStartEntry | DealEndEntry
"""Any entry of the log."""


class KontraktView(TypedDict):
    """What one seat (or a spectator: ``seat`` and ``hand`` null) may know.

    ``phase`` is ``upcard_offer`` (K7; ``offer_to`` is asked), ``draw``,
    ``play``, ``waiting`` (a record's deal over, no deck for the next) or
    ``game_over``; ``turn`` the seat to act. ``picked_up`` is the card taken
    from the pile this turn (it may not be discarded again, K8). ``scores``
    holds each deal's penalties, ``totals`` their sums, ``winners`` the
    lowest totals once the game is over (K14).
    """

    game: Literal["kontrakt"]
    seat: int | None
    players: list[str]
    deal: int
    deals: int
    dealer: int
    forhand: int
    contract: ContractJSON
    phase: str
    turn: int | None
    over: bool
    offer_to: int | None
    stock_only: bool
    hand: list[str] | None
    hand_sizes: list[int]
    stock_size: int
    discard_pile: list[str]
    picked_up: str | None
    table: list[TableMeldJSON]
    laid: list[LaidJSON]
    scores: list[list[int]]
    totals: list[int]
    winners: list[int]
    options: KontraktOptionsJSON
    turns_left: int
    log: NotRequired[list[KontraktLogEntry]]


def kontrakt_view(view: Mapping[str, object]) -> KontraktView:
    """``view`` read as the KontraktView it is: what ``view(seat)`` of a Kontrakt game gives,
    handed on as plain data (a bot's, an interface's, an encoding's); ValueError for another
    game's view (a part of a view made by hand, without ``game``, is taken as it is). The
    shape itself is the engine's, checked by the conformance tests."""
    if view.get("game", "kontrakt") != "kontrakt":
        raise ValueError(f"not a kontrakt view: {view.get('game')!r}")
    return cast(KontraktView, view)


def is_action_entry(entry: KontraktLogEntry) -> TypeGuard[ActionEntry]:
    """True for a log entry of a player's action (not a deal's start or end)."""
    return entry["type"] not in ("deal_start", "deal_end")


def is_deal_end(entry: KontraktLogEntry) -> TypeGuard[DealEndEntry]:
    """True for the log entry of a deal's end."""
    return entry["type"] == "deal_end"


def is_deal_start(entry: KontraktLogEntry) -> TypeGuard[DealStartEntry]:
    """True for the log entry of a deal's start."""
    return entry["type"] == "deal_start"
