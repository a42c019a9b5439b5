"""The tables, under ``/api/tables``: make one, list them (or "my tables" by id), one
table's summary, and take a seat (PROTOCOL.md)."""

from __future__ import annotations

import json
from typing import Annotated, Literal

from fastapi import APIRouter, Body, Query, Request

from rummykit.server.accounts import Accounts
from rummykit.server.hosted import NameTaken
from rummykit.server.moderation import until_text
from rummykit.server.protocol import ProtocolError
from rummykit.server.rooms import Rooms, TooMany
from rummykit.server.routes.accounts import signed_in
from rummykit.server.routes.answers import json_text, problem
from rummykit.server.schemas import ERRORS, CreateTable, Join, Problem, Summary, Tables, Token
from rummykit.server.store.accounts import HeldSeat

__all__ = ["table_routes"]


def table_routes(
    rooms: Rooms, accounts: Accounts, allowed_origins: tuple[str, ...] = ()
) -> APIRouter:
    """The routes of the tables ``rooms`` holds; a signed-in player's seats are kept with
    their account (``accounts``)."""
    router = APIRouter()

    @router.post(
        "/api/tables",
        status_code=201,
        response_model=Summary,
        responses={**ERRORS, 429: {"model": Problem, "description": "too many tables"}},
    )
    async def create_table(body: CreateTable, request: Request) -> object:
        """Make a table: the game, its seats (``human`` or ``bot:LEVEL``), house rules, clocks."""
        client = request.client.host if request.client else None
        if (ban := await rooms.moderation.banned(None, client)) is not None:
            return problem(403, "banned", f"this address is banned until {until_text(ban.until)}")
        try:
            summary = await rooms.create(
                body.game,
                body.seats,
                body.options,
                clock=body.clock,
                grace=body.grace,
                stand_in=body.stand_in,
                rated=body.rated,
                client=client,
            )
        except TooMany as exc:
            return problem(429, "rate_limited", str(exc))
        except ValueError as exc:
            return problem(400, "bad_request", str(exc))
        return json_text(summary, 201)

    @router.get("/api/tables", response_model=Tables, responses=ERRORS)
    async def list_tables(
        status: Annotated[
            Literal["open", "over", "all"],
            Query(description="open: waiting or playing (the default); over; all"),
        ] = "open",
        before: Annotated[
            str | None, Query(max_length=80, description="the 'next' of the page before")
        ] = None,
        ids: Annotated[
            str | None,
            Query(max_length=2000, description="these tables only: ids, comma-separated"),
        ] = None,
    ) -> object:
        """Tables, newest first, 100 a page (``next``: the cursor of the next page); or, with
        ``ids``, those tables' summaries ("my tables")."""
        if ids is not None:
            wanted = [i for i in ids.split(",") if i][: rooms.limits.page]
            found = await rooms.summaries(wanted)
            return json_text('{"tables":[' + ",".join(found) + '],"next":null}')
        try:
            page = await rooms.listing(status, before)
        except ValueError as exc:
            return problem(400, "bad_request", str(exc))
        following = "null" if page.next is None else json.dumps(page.next)
        return json_text('{"tables":[' + ",".join(page.summaries) + f'],"next":{following}}}')

    @router.get("/api/tables/{table_id}", response_model=Summary, responses=ERRORS)
    async def get_table(table_id: str) -> object:
        """One table's summary."""
        summary = await rooms.summary(table_id) if len(table_id) <= 64 else None
        if summary is None:
            return problem(404, "not_found", "no such table")
        return json_text(summary)

    @router.post("/api/tables/{table_id}/join", response_model=Token, responses=ERRORS)
    async def join_table(table_id: str, body: Annotated[Join, Body()], request: Request) -> object:
        """Take a free human seat; the answer's token is the seat's secret, given only here.
        A name a player at the table has is refused (``409 name_taken``). A signed-in
        player's seat is kept with the account (it follows them to another device); a
        rated table's seats are for signed-in players only, under their account's name
        (``401 not_signed_in``)."""
        room = await rooms.get(table_id)
        if room is None:
            return problem(404, "not_found", "no such table")
        signed = await signed_in(accounts, request, allowed_origins)
        client = request.client.host if request.client else None
        ban = await rooms.moderation.banned(None if signed is None else signed.account.id, client)
        if ban is not None:
            return problem(403, "banned", f"you are banned until {until_text(ban.until)}")
        rated = room.table.settings.rated  # fixed for the table's life
        if rated and signed is None:
            return problem(401, "not_signed_in", "a rated table's seats are for signed-in players")
        name = signed.account.name if rated and signed is not None else body.name
        account = None if signed is None else signed.account.id
        try:
            seat, token = await room.join(name, body.seat, account=account)
        except NameTaken as exc:
            return problem(409, "name_taken", str(exc))
        except ValueError as exc:
            return problem(400, "bad_request", str(exc))
        except LookupError as exc:
            return problem(409, "no_free_seat", str(exc))
        except ProtocolError as exc:
            return problem(503, exc.code, exc.message)
        if signed is not None:
            await accounts.keep_seat(signed, HeldSeat(table_id, seat, token))
        return {"seat": seat, "token": token}

    return router
