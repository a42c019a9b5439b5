"""The bodies of the "Play now" routes (:mod:`rummykit.server.routes.playnow`): pydantic
models, every field bounded."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["SeekBody", "SeekSecret"]


class SeekBody(BaseModel):
    """A seek: the game, how many players (None: any), the pace, after how many seconds
    bots may fill the table (None: never), and a guest's name (a signed-in player plays
    under the account's)."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=16)
    players: int | None = Field(None, ge=2, le=8)
    pace: Literal["fast", "normal", "day"] = "normal"
    bots_after: int | None = Field(None, ge=0, le=600)
    name: str = Field("", max_length=40)


class SeekSecret(BaseModel):
    """A seek's secret, as its page holds it."""

    model_config = ConfigDict(extra="forbid")
    secret: str = Field(min_length=1, max_length=64)
