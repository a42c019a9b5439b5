"""The bodies of the moderation routes (:mod:`rummykit.server.routes.moderation`):
pydantic models, every field bounded."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Block", "ReportBody"]


class ReportBody(BaseModel):
    """A report: the player (their name at a table, or an account's name), where (a
    table, a chat message's number there) and why."""

    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(None, max_length=40)
    table: str | None = Field(None, max_length=64)
    n: int | None = Field(None, ge=1, le=10**9)
    reason: str = Field(min_length=1, max_length=500)


class Block(BaseModel):
    """A player to block: by their account's name, or by their seat at a table (the
    account that took it)."""

    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(None, min_length=1, max_length=40)
    table: str | None = Field(None, max_length=64)
    seat: int | None = Field(None, ge=0, le=7)
