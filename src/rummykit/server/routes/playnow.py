"""The routes of "Play now", under ``/api/seeks`` (docs/protocol.md, "Play now"): ask for a
game with whoever comes, ask how it stands, or give up; the matcher
(:mod:`rummykit.server.matcher`) does the pairing.

A seek's page asks after it every 1.5 s (``look``); a seek nobody asks after for 12 s is
gone, so a seek disappears when its page closes (the page also says ``cancel`` as it
goes). Once matched, ``look`` answers the table, the seat and the seat's token: the page
keeps them as the lobby keeps a seat it joined. The secret travels in bodies only, never
in an address (addresses are logged by proxies).

Bounds: 3 waiting seeks an address, 30 new ones a minute, :data:`MOST_WAITING` in all.
"""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from typing import Annotated

from fastapi import APIRouter, Body, Path, Request
from fastapi.responses import JSONResponse

from rummykit import games
from rummykit.ratings import Rating
from rummykit.server.accounts import Accounts
from rummykit.server.hosted import hash_token
from rummykit.server.ids import public_id
from rummykit.server.limits import Bucket
from rummykit.server.matcher import STALE, skill
from rummykit.server.moderation import until_text
from rummykit.server.pairing import Seek
from rummykit.server.rooms import Rooms
from rummykit.server.routes.accounts import signed_in
from rummykit.server.routes.answers import client_address, problem
from rummykit.server.routes.playnow_bodies import SeekBody, SeekSecret
from rummykit.server.schemas import Problem
from rummykit.server.store.base import StoreBusy
from rummykit.server.store.ratings import RatingStore
from rummykit.server.store.seeks import Placed, SeekRow, SeekStore

__all__ = ["LOOK_EVERY", "MOST_WAITING", "playnow_routes"]

LOOK_EVERY = 1.5
"""Seconds between a page's looks at its seek."""
MOST_WAITING = 2000
"""Seeks that may wait at once, in all."""
PER_ADDRESS = 3
"""Seeks one address may have waiting."""
TRACKED = 10_000
"""Addresses whose rate of new seeks is remembered (the oldest forgotten first)."""

_ERRORS: dict[int | str, dict[str, object]] = {
    400: {"model": Problem, "description": "bad_request: no such game, players out of range"},
    403: {"model": Problem, "description": "banned: this account or address is banned"},
    404: {"model": Problem, "description": "not_found: no such seek, or not its secret"},
    429: {"model": Problem, "description": "rate_limited: too many seeks from one address"},
    503: {"model": Problem, "description": "unavailable: the database is busy, or full"},
}


def _placed(placed: Placed) -> dict[str, object]:
    state = "matched" if placed.state == "delivered" else placed.state
    out: dict[str, object] = {"state": state}
    if placed.table is not None:
        out.update(table=placed.table, seat=placed.seat, token=placed.token)
    return out


def playnow_routes(
    rooms: Rooms, accounts: Accounts, allowed_origins: tuple[str, ...] = ()
) -> APIRouter:
    """The ``/api/seeks`` routes of a server."""
    router = APIRouter(tags=["play now"], responses=_ERRORS)
    store = SeekStore(rooms.store)
    ratings = RatingStore(rooms.store)
    makers: OrderedDict[str, Bucket] = OrderedDict()

    def may_seek(address: str) -> bool:
        bucket = makers.get(address)
        if bucket is None:
            bucket = makers[address] = Bucket(30 / 60, 30)
            while len(makers) > TRACKED:
                makers.popitem(last=False)
        makers.move_to_end(address)
        return bucket.take()

    @router.post("/api/seeks", status_code=201)
    async def seek(body: Annotated[SeekBody, Body()], request: Request) -> JSONResponse:
        """Wait for a game with whoever comes: ``{"id", "secret", "every"}`` (the page
        looks every ``every`` seconds)."""
        if body.game not in games.names():
            return problem(400, "bad_request", "no such game")
        spec = games.get(body.game)
        if body.players is not None and not spec.min_players <= body.players <= spec.max_players:
            return problem(
                400, "bad_request", f"{spec.title} is for {spec.min_players}-{spec.max_players}"
            )
        address = client_address(request)
        if not may_seek(address):
            return problem(429, "rate_limited", "too many seeks: wait a minute")
        try:
            signed = await signed_in(accounts, request, allowed_origins)
            account = None if signed is None else signed.account.id
            if (ban := await rooms.moderation.banned(account, address)) is not None:
                return problem(403, "banned", f"you are banned until {until_text(ban.until)}")
            if signed is not None:
                name = signed.account.name
                rating = await ratings.rating(signed.account.id, body.game)
            else:
                name = " ".join(body.name.split())
                rating = Rating()
            if not name or not name.isprintable():
                return problem(400, "bad_request", "a name is 1 to 40 printable characters")
            if await store.live_from(hash_token(address)) >= PER_ADDRESS:
                return problem(429, "rate_limited", "this address has seeks waiting already")
            if await store.count_waiting() >= MOST_WAITING:
                return problem(503, "unavailable", "too many players are waiting: try later")
            secret = secrets.token_urlsafe(24)
            now = time.time()
            row = SeekRow(
                Seek(
                    public_id(),
                    body.game,
                    body.players,
                    body.pace,
                    skill(rating),
                    now,
                    None if signed is None else signed.account.id,
                    None if body.bots_after is None else float(body.bots_after),
                ),
                name,
            )
            await store.add(row, hash_token(secret), hash_token(address), now)
        except StoreBusy:
            return problem(503, "unavailable", "the database is busy: try again")
        return JSONResponse(
            {"id": row.seek.id, "secret": secret, "every": LOOK_EVERY, "expires": STALE},
            status_code=201,
        )

    @router.post("/api/seeks/{seek_id}/look")
    async def look(
        seek_id: Annotated[str, Path(max_length=32)], body: Annotated[SeekSecret, Body()]
    ) -> JSONResponse:
        """How the seek stands: ``{"state": "waiting"}``, or ``"matched"`` with its
        ``table``, ``seat`` and the seat's ``token``."""
        try:
            placed = await store.look(seek_id, hash_token(body.secret), time.time())
        except StoreBusy:
            return problem(503, "unavailable", "the database is busy: try again")
        if placed is None:
            return problem(404, "not_found", "no such seek (it was given up, or too long unasked)")
        return JSONResponse(_placed(placed))

    @router.post("/api/seeks/{seek_id}/cancel")
    async def cancel(
        seek_id: Annotated[str, Path(max_length=32)], body: Annotated[SeekSecret, Body()]
    ) -> JSONResponse:
        """Give the seek up; one matched already stays matched (its table is answered)."""
        try:
            placed = await store.cancel(seek_id, hash_token(body.secret))
        except StoreBusy:
            return problem(503, "unavailable", "the database is busy: try again")
        if placed is None:
            return problem(404, "not_found", "no such seek")
        return JSONResponse(_placed(placed))

    return router
