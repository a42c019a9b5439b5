"""The bodies of the HTTP API, as pydantic models: what FastAPI checks requests against and
writes the OpenAPI document (``/openapi.json``) from.

Kept apart from the routes (:mod:`rummykit.server.app`): pydantic's models are written
with ``Any`` inside, which the rest of the server never is (mypy's
``disallow_any_explicit``, ``pyproject.toml``).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from rummykit import games

__all__ = [
    "ERRORS",
    "CreateTable",
    "GameInfo",
    "Games",
    "HouseRuleInfo",
    "Join",
    "Problem",
    "ReplayAsk",
    "ReviewAsk",
    "Seat",
    "Summary",
    "Tables",
    "Token",
    "Typed",
]


class CreateTable(BaseModel):
    """A table to make: the game, one entry per seat, the house rules, the clocks."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(
        description="a game of the registry", json_schema_extra={"enum": list(games.names())}
    )
    seats: list[Annotated[str, StringConstraints(pattern=r"^(human|bot:[a-z_]{1,20})$")]] = Field(
        min_length=2, max_length=8, description="per seat: human, or bot:LEVEL"
    )
    options: dict[str, bool | int] = Field(default_factory=dict, description="house rules")
    clock: int = Field(0, ge=0, le=604_800, description="seconds per turn; 0: no clock")
    grace: int = Field(60, ge=0, le=604_800, description="seconds away before a bot stands in")
    stand_in: bool = Field(
        True, description="a bot plays for a player away longer than the grace (else: wait)"
    )
    rated: bool = Field(
        False,
        description="one rated game between accounts: each human seat is taken signed in"
        " (docs/ratings.md)",
    )


class Join(BaseModel):
    """Taking a seat: the player's name, and which seat (the first free one if left out)."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=40)
    seat: int | None = Field(None, ge=0, le=7)


class Seat(BaseModel):
    """One seat of a table's summary."""

    seat: int
    kind: Literal["human", "bot"]
    level: str | None = None
    name: str | None
    taken: bool
    connected: bool
    stand_in: bool = Field(description="a bot plays for the player, away longer than the grace")


class Summary(BaseModel):
    """A table's summary (PROTOCOL.md), with what rummykit adds."""

    id: str
    game: str
    status: Literal["waiting", "playing", "over"]
    version: int
    options: dict[str, bool | int]
    seats: list[Seat]
    created: float
    clock: int
    grace: int
    stand_in: bool = True
    rated: bool = False
    games_played: int
    to_act: int | None
    result: dict[str, object] | None


class Tables(BaseModel):
    """Tables, newest first: at most 100, and the cursor of the next page (``?before=``)."""

    tables: list[Summary]
    next: str | None = None


class Token(BaseModel):
    """The seat taken and its secret (sent only to the player who joined)."""

    seat: int
    token: str


class Problem(BaseModel):
    """Every error's body."""

    error: str
    message: str


class ReplayAsk(BaseModel):
    """A record to step through, and which of its positions to send."""

    model_config = ConfigDict(extra="forbid")
    record: dict[str, object] = Field(description="a record (docs/record.md)")
    seat: int | None = Field(None, ge=0, le=7, description="whose view; null: every hand")
    start: int = Field(0, ge=0, description="the first position to send")
    count: int = Field(20, ge=0, le=200, description="how many positions to send")
    lang: str = Field("en", max_length=35, description="the language of the logs in words")


class Typed(BaseModel):
    """A line typed on a table's page, and the language to answer in."""

    model_config = ConfigDict(extra="forbid")
    text: str = Field(max_length=2000)
    lang: str = Field("en", max_length=35)


class ReviewAsk(BaseModel):
    """A record to review (PROTOCOL.md, "Review of a finished game"), and whose turns."""

    model_config = ConfigDict(extra="forbid")
    record: dict[str, object] = Field(description="a record (docs/record.md)")
    seat: int | None = Field(None, ge=0, le=7, description="only this seat's turns")


class HouseRuleInfo(BaseModel):
    """One house rule: its name, default, rule id and a one-line explanation."""

    name: str
    default: bool | int
    rule: str
    summary: str


class GameInfo(BaseModel):
    """A game the server hosts."""

    name: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    house_rules: list[HouseRuleInfo]
    bots: list[str]
    default_bot: str


class Games(BaseModel):
    """The games the server hosts."""

    games: list[GameInfo]


ERRORS: dict[int | str, dict[str, object]] = {
    400: {"model": Problem, "description": "a bad request; nothing changed"},
    401: {"model": Problem, "description": "not_signed_in: a rated table's seats need a session"},
    403: {"model": Problem, "description": "banned: this account or address is banned"},
    404: {"model": Problem, "description": "no such table"},
    409: {"model": Problem, "description": "not possible now"},
}
