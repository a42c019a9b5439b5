"""The bodies of the puzzle routes (:mod:`rummykit.server.routes.puzzles`): pydantic
models, every field bounded."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from rummykit.server.puzzleplay import MAX_CARDS

__all__ = ["Answer", "GuestRating"]

CardText = Annotated[str, Field(min_length=1, max_length=4)]


class GuestRating(BaseModel):
    """A guest's Glicko-2 rating, as the browser keeps it."""

    rating: float = Field(1500.0, ge=0, le=4000)
    rd: float = Field(350.0, gt=0, le=350)
    volatility: float = Field(0.06, gt=0, le=1)


class Answer(BaseModel):
    """An answer: the hand cards laid and, optionally, the whole new table."""

    add: list[CardText] = Field(max_length=MAX_CARDS)
    table: list[Annotated[list[CardText], Field(max_length=MAX_CARDS)]] | None = Field(
        None, max_length=MAX_CARDS
    )
    first: bool = False
    player: GuestRating | None = None
    lang: str = Field("en", max_length=16)
