"""The bodies of the account routes (:mod:`.accounts`), as pydantic models: kept apart, as
:mod:`rummykit.server.schemas` is, since pydantic's models are written with ``Any``
inside."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Credentials", "Finish", "Forget", "Logout", "Nothing", "Password", "SeatIn", "Seats"]


class Credentials(BaseModel):
    """A name and a password (sign up, sign in)."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=160)
    password: str = Field(max_length=256)


class Password(BaseModel):
    """The account's password, to delete it."""

    model_config = ConfigDict(extra="forbid")
    password: str = Field(max_length=256)


class Logout(BaseModel):
    """Sign out here, or (``everywhere``) revoke every session of the account."""

    model_config = ConfigDict(extra="forbid")
    everywhere: bool = False


class Nothing(BaseModel):
    """An empty JSON object (a ``begin``)."""

    model_config = ConfigDict(extra="forbid")


class Finish(BaseModel):
    """A ceremony's end: the ``begin``'s challenge id and the browser's credential (the
    WebAuthn JSON of ``navigator.credentials.create()`` or ``.get()``)."""

    model_config = ConfigDict(extra="forbid")
    challenge: str = Field(max_length=64)
    credential: dict[str, object]


class SeatIn(BaseModel):
    """A seat this browser holds: the table, the seat, its token."""

    model_config = ConfigDict(extra="forbid")
    table: str = Field(min_length=1, max_length=64)
    seat: int = Field(ge=0, le=7)
    token: str = Field(min_length=1, max_length=100)


class Seats(BaseModel):
    """Seats to adopt."""

    model_config = ConfigDict(extra="forbid")
    seats: list[SeatIn] = Field(max_length=100)


class Forget(BaseModel):
    """A table whose seat the account no longer holds."""

    model_config = ConfigDict(extra="forbid")
    table: str = Field(min_length=1, max_length=64)
