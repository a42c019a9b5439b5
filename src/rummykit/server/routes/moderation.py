"""The routes of moderation a player uses (docs/protocol.md, "Moderation"; the host's side
is ``rummykit admin``): report a player or a chat message, and block a player (their chat
hidden, never paired by "Play now"). Reports are kept for the host, 10 an hour from one
address; blocks need a session (the same CSRF rules as the account routes)."""

from __future__ import annotations

import time
from typing import Annotated

from fastapi import APIRouter, Body, Path, Request
from fastapi.responses import JSONResponse

from rummykit.server.accounts import Accounts
from rummykit.server.moderation import address_key
from rummykit.server.rooms import Rooms
from rummykit.server.routes.accounts import signed_in
from rummykit.server.routes.answers import client_address, problem
from rummykit.server.routes.moderation_bodies import Block, ReportBody
from rummykit.server.schemas import Problem
from rummykit.server.store.accounts import AccountRow
from rummykit.server.store.base import StoreBusy
from rummykit.server.store.moderation import Report, new_id

__all__ = ["ALL_AN_HOUR", "KEPT_DAYS", "REPORTS_AN_HOUR", "moderation_routes"]

REPORTS_AN_HOUR = 10
"""Reports one address may make in an hour."""
ALL_AN_HOUR = 1000
"""Reports from everywhere in an hour (many addresses cannot fill the database)."""
KEPT_DAYS = 180
"""Days a report is kept."""
BLOCKS = 500
"""Players one account may block."""

_ERRORS: dict[int | str, dict[str, object]] = {
    400: {"model": Problem, "description": "bad_request: a report that names nobody"},
    401: {"model": Problem, "description": "not_signed_in"},
    404: {"model": Problem, "description": "not_found: no such player"},
    429: {"model": Problem, "description": "rate_limited: too many reports"},
    503: {"model": Problem, "description": "unavailable: the database is busy"},
}


def moderation_routes(
    rooms: Rooms, accounts: Accounts, allowed_origins: tuple[str, ...] = ()
) -> APIRouter:
    """The report and block routes of a server."""
    router = APIRouter(tags=["moderation"], responses=_ERRORS)
    db = rooms.moderation.db

    async def seated(table: str | None, seat: int | None) -> AccountRow | None:
        """The account that took ``seat`` at ``table`` (None: a guest's seat, or none)."""
        if table is None or seat is None:
            return None
        room = await rooms.get(table)
        if room is None or not 0 <= seat < room.table.n_players:
            return None
        account = room.account_at(seat)
        return None if account is None else await accounts.db.by_id(account)

    @router.post("/api/reports", status_code=201)
    async def report(body: Annotated[ReportBody, Body()], request: Request) -> JSONResponse:
        """Report a player (by name, at a table) or a chat message (a table and its
        number): kept for the host (``rummykit admin reports``)."""
        if body.name is None and (body.table is None or body.n is None):
            return problem(400, "bad_request", "a report names a player or a chat message")
        address = address_key(client_address(request))
        now = time.time()
        try:
            if await db.reports_from(address, now - 3600) >= REPORTS_AN_HOUR:
                return problem(429, "rate_limited", "too many reports from here: later")
            if await db.reports_since(now - 3600) >= ALL_AN_HOUR:
                return problem(429, "rate_limited", "too many reports just now: later")
            signed = await signed_in(accounts, request, allowed_origins)
            named = None if body.name is None else await accounts.db.named(body.name)
            kept = Report(
                new_id(),
                None if signed is None else signed.account.id,
                body.name,
                None if named is None else named.id,
                body.table,
                body.n,
                body.reason.strip() or "-",
                now,
            )
            await db.report(kept, address, now - KEPT_DAYS * 86_400)
        except StoreBusy:
            return problem(503, "unavailable", "the database is busy: try again")
        return JSONResponse({"report": kept.id}, status_code=201)

    @router.get("/api/account/blocks")
    async def blocks(request: Request) -> JSONResponse:
        """The players the signed-in player blocks."""
        signed = await signed_in(accounts, request, allowed_origins)
        if signed is None:
            return problem(401, "not_signed_in", "sign in first")
        found = await db.blocks(signed.account.id, BLOCKS)
        return JSONResponse({"blocks": [name for _, name in found]})

    @router.post("/api/account/blocks")
    async def block(body: Annotated[Block, Body()], request: Request) -> JSONResponse:
        """Block a player (by their account's name): their chat is hidden from you, and
        "Play now" never pairs you."""
        signed = await signed_in(accounts, request, allowed_origins)
        if signed is None:
            return problem(401, "not_signed_in", "sign in first")
        other = await seated(body.table, body.seat) if body.name is None else None
        if body.name is not None:
            other = await accounts.db.named(body.name)
        if other is None or other.id == signed.account.id:
            return problem(404, "not_found", "no such player")
        if len(await db.blocks(signed.account.id, BLOCKS)) >= BLOCKS:
            return problem(429, "rate_limited", f"at most {BLOCKS} players are blocked")
        await db.block(signed.account.id, other.id, time.time())
        rooms.moderation.forget(other.id)
        return JSONResponse({"blocked": other.name})

    @router.delete("/api/account/blocks/{name}")
    async def unblock(
        name: Annotated[str, Path(min_length=1, max_length=40)], request: Request
    ) -> JSONResponse:
        """No longer block a player."""
        signed = await signed_in(accounts, request, allowed_origins)
        if signed is None:
            return problem(401, "not_signed_in", "sign in first")
        other = await accounts.db.named(name)
        if other is None:
            return problem(404, "not_found", "no such player")
        await db.unblock(signed.account.id, other.id)
        rooms.moderation.forget(other.id)
        return JSONResponse({"unblocked": other.name})

    return router
