"""The review's values: one :class:`TurnReview` per turn, a :class:`PlayerReview` per seat,
and the whole :class:`Review`, written as PROTOCOL.md's JSON ("Review of a finished game").

They are frozen values made by :func:`rummykit.review.review`; ``to_json`` gives the
document ``rummykit review --json``, ``GET /api/tables/{id}/review`` and
``POST /api/review`` answer. Fields beyond PROTOCOL.md's (``type``, ``name``,
``go_out_missed`` ...) are additions a reader may ignore. The JSON's shapes are the
TypedDicts here (:class:`TurnJSON`, :class:`PlayerJSON`, the best plays
:class:`VatikanenPlayJSON` and :class:`KontraktPlayJSON`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, NotRequired, final

from typing_extensions import TypedDict

from rummykit.games.kontrakt.view import TableMeldJSON

__all__ = [
    "GO_OUT",
    "MISSES",
    "BestPlayJSON",
    "DiscardJSON",
    "KontraktPlayJSON",
    "LayingStepJSON",
    "PlayerJSON",
    "PlayerReview",
    "Review",
    "TurnExtra",
    "TurnJSON",
    "TurnReview",
    "VatikanenPlayJSON",
    "summarize",
]

GO_OUT = "go_out"
"""``missed``: the seat could have gone out (V13, K13) and did not."""
CONTRACT = "contract"
"""``missed`` (Kontrakt): the seat could have laid the rest of its contract (K9, K12)."""
LAY_OFF = "lay_off"
"""``missed`` (Kontrakt): the seat discarded while a card of its hand fitted a table meld
(K10)."""
MISSES = (GO_OUT, CONTRACT, LAY_OFF)
"""Every name ``missed`` may hold, in the order a turn lists them."""


@final  # final, so that mypy tells the two plays apart by a key (``"actions" in play``)
class VatikanenPlayJSON(TypedDict):
    """A Vatikanen best play: RECORD.md's ``play`` action, with ``marks`` (per card of the
    new ``table``: from the ``hand``, left on the ``table``, or ``moved`` from another meld)
    and how many table cards it ``moved``; ``was`` (only when some has) lists the table
    jokers that now stand for another card: ``[meld, place, the joker as it stood]``."""

    seat: int
    type: Literal["play"]
    add: list[str]
    table: list[list[str]]
    marks: list[list[str]]
    moved: int
    was: NotRequired[list[list[int | str]]]


LayingStepJSON = TypedDict(
    "LayingStepJSON",
    {
        "seat": int,
        "type": Literal["meld", "layoff", "swap_joker"],
        "melds": NotRequired[list[list[str]]],
        "card": NotRequired[str],
        "meld": NotRequired[int],
        "as": NotRequired[str],
    },
)
"""A step of a Kontrakt best play, as RECORD.md writes the action: a lay-down (``meld``,
its ``melds``), a lay-off (``layoff``: ``card`` onto meld number ``meld``, ``as`` what a
joker stands for) or a joker swap (``swap_joker``: ``card`` for the joker of ``meld``)."""


@final
class KontraktPlayJSON(TypedDict):
    """A Kontrakt best turn: where the seat draws from (``stock`` or ``discard``), the
    ``actions`` that lay the cards, the ``table`` after them (the view's melds) and the
    ``hand`` left (empty when the seat goes out)."""

    seat: int
    draw: Literal["stock", "discard"]
    actions: list[LayingStepJSON]
    table: list[TableMeldJSON]
    hand: list[str]


BestPlayJSON = VatikanenPlayJSON | KontraktPlayJSON
"""A turn's ``best_play``, as its game writes it."""


class DiscardJSON(TypedDict):
    """What became of a Kontrakt turn's discard: the ``card``, whether the next seat
    ``taken`` it from the pile (K8), and whether it ``laid`` it that same turn."""

    card: str
    taken: bool
    laid: bool


class TurnExtra(TypedDict, total=False):
    """A game's additions to a turn (Kontrakt): what became of the ``discard``, and the
    pile's top the best play takes instead of the stock's card (``take_discard``)."""

    discard: DiscardJSON
    take_discard: str


class TurnJSON(TurnExtra):
    """PROTOCOL.md's turn entry (``type`` added), and the game's additions."""

    deal: int
    action: int
    seat: int
    type: str
    played: int
    best: int
    best_play: BestPlayJSON | None
    missed: list[str]


class PlayerJSON(TypedDict):
    """PROTOCOL.md's player entry (``name`` and ``go_out_missed`` added)."""

    seat: int
    name: str
    turns: int
    best_turns: int
    cards_missed: int
    go_out_missed: int


@dataclass(frozen=True, slots=True)
class TurnReview:
    """One turn of one seat: what it did and what it could have done, from what it saw.

    ``deal`` counts the record's deals from 0; ``action`` indexes that deal's
    ``actions`` (the turn's first). ``played`` is how many hand cards the seat
    laid; ``best`` the most it could have laid (never fewer than ``played``);
    ``best_play`` is that play as the game writes it (None when no card could
    be laid). ``missed`` names what the seat could have done and did not
    (:data:`MISSES`). ``kind`` is the type of the turn's deciding action
    (``play``, ``draw``, ``pass`` in Vatikanen; ``discard`` or ``out`` in
    Kontrakt). ``extra`` holds the game's own additions (Kontrakt: what became
    of the discard).
    """

    deal: int
    action: int
    seat: int
    kind: str
    played: int
    best: int
    best_play: BestPlayJSON | None
    missed: tuple[str, ...] = ()
    extra: TurnExtra = field(default_factory=TurnExtra)

    @property
    def went_out(self) -> bool:
        """True for a turn that went out (Kontrakt's ``out``: K13): it did all a turn can,
        the deal ended and it pays nothing, whether it laid its last card or discarded it."""
        return self.kind == "out"

    @property
    def at_best(self) -> bool:
        """True when the seat laid as much as it could and missed nothing, or went out: a
        turn is judged by what it changed (issue 45), not by the cards it might have laid
        on its way out."""
        return self.went_out or (self.played >= self.best and not self.missed)

    def to_json(self) -> TurnJSON:
        """PROTOCOL.md's turn entry (and this review's additions)."""
        return {
            "deal": self.deal,
            "action": self.action,
            "seat": self.seat,
            "type": self.kind,
            "played": self.played,
            "best": self.best,
            "best_play": None if self.best_play is None else self.best_play.copy(),
            "missed": list(self.missed),
            **self.extra,
        }


@dataclass(frozen=True, slots=True)
class PlayerReview:
    """One seat over the whole record: its turns, the turns at its best (laid the most it
    could and missed nothing), the cards it could have laid more, and the chances to go
    out it let pass."""

    seat: int
    name: str
    turns: int
    best_turns: int
    cards_missed: int
    go_out_missed: int

    def to_json(self) -> PlayerJSON:
        """PROTOCOL.md's player entry (``name`` and ``go_out_missed`` added)."""
        return {
            "seat": self.seat,
            "name": self.name,
            "turns": self.turns,
            "best_turns": self.best_turns,
            "cards_missed": self.cards_missed,
            "go_out_missed": self.go_out_missed,
        }


@dataclass(frozen=True, slots=True)
class Review:
    """The review of a record: its game, every turn reviewed (of ``seat`` only, when one is
    asked for), and each seat's summary."""

    game: str
    players: tuple[PlayerReview, ...]
    turns: tuple[TurnReview, ...]
    seat: int | None = None

    def to_json(self) -> dict[str, object]:
        """The document of PROTOCOL.md's "Review of a finished game" (``seat`` added), as
        plain data (its turns :class:`TurnJSON`, its players :class:`PlayerJSON`)."""
        return {
            "game": self.game,
            "seat": self.seat,
            "turns": [t.to_json() for t in self.turns],
            "players": [p.to_json() for p in self.players],
        }


def summarize(names: Sequence[str], turns: Sequence[TurnReview]) -> list[PlayerReview]:
    """Each seat's summary of ``turns`` (every seat named, turns or not)."""
    out = []
    for seat, name in enumerate(names):
        mine = [t for t in turns if t.seat == seat]
        out.append(
            PlayerReview(
                seat=seat,
                name=name,
                turns=len(mine),
                best_turns=sum(1 for t in mine if t.at_best),
                cards_missed=sum(0 if t.went_out else max(0, t.best - t.played) for t in mine),
                go_out_missed=sum(1 for t in mine if GO_OUT in t.missed),
            )
        )
    return out
