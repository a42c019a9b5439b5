"""The bodies of the puzzle routes (:mod:`rummykit.server.routes.puzzles`): pydantic
models, every field bounded."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from rummykit.server.puzzleplay import MAX_ACTIONS, MAX_CARDS

__all__ = ["Answer", "GuestRating", "TurnHelp", "TurnSoFar"]

CardText = Annotated[str, Field(min_length=1, max_length=4)]


class GuestRating(BaseModel):
    """A guest's Glicko-2 rating, as the browser keeps it."""

    rating: float = Field(1500.0, ge=0, le=4000)
    rd: float = Field(350.0, gt=0, le=350)
    volatility: float = Field(0.06, gt=0, le=1)


class Answer(BaseModel):
    """An answer: to a Vatikanen puzzle, the hand cards laid and, optionally, the whole new
    table; to a Kontrakt puzzle, the turn's ``actions`` (RECORD.md's, as JSON)."""

    add: list[CardText] = Field(default_factory=list, max_length=MAX_CARDS)
    actions: list[dict[str, object]] = Field(default_factory=list, max_length=MAX_ACTIONS)
    table: list[Annotated[list[CardText], Field(max_length=MAX_CARDS)]] | None = Field(
        None, max_length=MAX_CARDS
    )
    first: bool = False
    player: GuestRating | None = None
    lang: str = Field("en", max_length=16)


class TurnSoFar(BaseModel):
    """A Kontrakt puzzle's turn so far on the board: its actions as JSON, and the language
    of the answer."""

    model_config = ConfigDict(extra="forbid")
    moves: list[dict[str, object]] = Field(default_factory=list, max_length=MAX_ACTIONS)
    lang: str = Field("en", max_length=16)


class TurnHelp(TurnSoFar):
    """A board's help request (``check`` with an ``action``, or ``hint``: the live
    protocol's messages without their ``ref``) after the turn's moves."""

    request: dict[str, object] = Field(default_factory=dict)
