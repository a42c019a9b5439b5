"""The review's values: one :class:`TurnReview` per turn, a :class:`PlayerReview` per seat,
and the whole :class:`Review`, written as PROTOCOL.md's JSON ("Review of a finished game").

They are frozen values made by :func:`rummykit.review.review`; ``to_json`` gives the
document ``rummykit review --json``, ``GET /api/tables/{id}/review`` and
``POST /api/review`` answer. Fields beyond PROTOCOL.md's (``type``, ``name``,
``go_out_missed`` ...) are additions a reader may ignore.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["GO_OUT", "MISSES", "PlayerReview", "Review", "TurnReview", "summarize"]

GO_OUT = "go_out"
"""``missed``: the seat could have gone out (V13, K13) and did not."""
CONTRACT = "contract"
"""``missed`` (Kontrakt): the seat could have laid the rest of its contract (K9, K12)."""
LAY_OFF = "lay_off"
"""``missed`` (Kontrakt): the seat discarded while a card of its hand fitted a table meld
(K10)."""
MISSES = (GO_OUT, CONTRACT, LAY_OFF)
"""Every name ``missed`` may hold, in the order a turn lists them."""


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
    best_play: Mapping[str, Any] | None
    missed: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def at_best(self) -> bool:
        """True when the seat laid as much as it could and missed nothing."""
        return self.played >= self.best and not self.missed

    def to_json(self) -> dict[str, Any]:
        """PROTOCOL.md's turn entry (and this review's additions)."""
        out: dict[str, Any] = {
            "deal": self.deal,
            "action": self.action,
            "seat": self.seat,
            "type": self.kind,
            "played": self.played,
            "best": self.best,
            "best_play": None if self.best_play is None else dict(self.best_play),
            "missed": list(self.missed),
        }
        out.update(self.extra)
        return out


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

    def to_json(self) -> dict[str, Any]:
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

    def to_json(self) -> dict[str, Any]:
        """The document of PROTOCOL.md's "Review of a finished game" (``seat`` added)."""
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
                cards_missed=sum(max(0, t.best - t.played) for t in mine),
                go_out_missed=sum(1 for t in mine if GO_OUT in t.missed),
            )
        )
    return out
