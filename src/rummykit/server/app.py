"""The ASGI app: PROTOCOL.md's HTTP API and live WebSocket, and the browser UI's files.

:func:`create_app` assembles the routes of each area (:mod:`rummykit.server.routes`: the
games' facts, the tables, records and reviews, live play, accounts, the page) and the
middleware around a :class:`~rummykit.server.rooms.Rooms`; ``rummykit serve`` runs it on
uvicorn. The OpenAPI document of the HTTP part is at ``/openapi.json`` (no documentation
page is served: it would load scripts from the internet). Every error body is
``{"error": CODE, "message": ...}``; nothing a request sends is ever written to a log.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

from fastapi import APIRouter, FastAPI
from fastapi.middleware.cors import CORSMiddleware

from rummykit import __version__
from rummykit.server.accounts import Accounts
from rummykit.server.matcher import Matcher
from rummykit.server.middleware import AllowedHosts, Headers, LimitBody
from rummykit.server.rooms import Rooms
from rummykit.server.routes.accounts import account_routes
from rummykit.server.routes.answers import add_error_answers
from rummykit.server.routes.games import game_routes
from rummykit.server.routes.lessons import lesson_routes
from rummykit.server.routes.live import live_routes
from rummykit.server.routes.moderation import moderation_routes
from rummykit.server.routes.page import mount_page
from rummykit.server.routes.players import player_routes
from rummykit.server.routes.playnow import playnow_routes
from rummykit.server.routes.puzzles import puzzle_routes
from rummykit.server.routes.records import record_routes
from rummykit.server.routes.tables import table_routes

__all__ = ["create_app", "hosts_for"]


def create_app(
    rooms: Rooms,
    *,
    allowed_origins: tuple[str, ...] = (),
    allowed_hosts: tuple[str, ...] = (),
    any_ip_host: bool = False,
) -> FastAPI:
    """The server's ASGI app around ``rooms`` (started and stopped with the app).

    ``allowed_hosts`` are the names a request's ``Host`` may carry besides the
    loopback ones (and any IP address, with ``any_ip_host``, for a server on
    every interface): anything else is refused (421), so that a page of another
    site cannot reach a server on this machine by DNS rebinding.
    """

    accounts = Accounts(rooms.store)
    matcher = Matcher(rooms)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if not rooms.started:
            await rooms.start()
        matcher.start()
        yield
        await matcher.stop()
        await rooms.stop()
        accounts.close()

    app = FastAPI(
        title="rummykit-online/1",
        version=__version__,
        description="Vatikanen and Kontraktsrummy with friends: docs/protocol.md",
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    if allowed_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(allowed_origins),
            allow_methods=["GET", "POST"],
            allow_headers=["content-type"],
        )
    add_error_answers(app)
    for router in _routers(rooms, accounts, allowed_origins):
        app.include_router(router)
    mount_page(app)  # last: the page's files answer every path the API does not
    larger = {"/api/replay": rooms.limits.max_record, "/api/review": rooms.limits.max_record}
    app.add_middleware(LimitBody, limit=rooms.limits.max_message, larger=larger)
    app.add_middleware(Headers)
    names = frozenset(_LOOPBACK | set(allowed_hosts))
    app.add_middleware(AllowedHosts, names=names, any_ip=any_ip_host)
    return app


def _routers(rooms: Rooms, accounts: Accounts, allowed_origins: tuple[str, ...]) -> list[APIRouter]:
    """Each area's routes, in the order they are matched."""
    return [
        game_routes(),
        table_routes(rooms, accounts, allowed_origins),
        record_routes(rooms),
        live_routes(rooms, allowed_origins),
        account_routes(accounts, allowed_origins=allowed_origins, moderation=rooms.moderation),
        puzzle_routes(rooms, accounts, allowed_origins),
        player_routes(rooms, accounts, allowed_origins),
        lesson_routes(rooms),
        playnow_routes(rooms, accounts, allowed_origins),
        moderation_routes(rooms, accounts, allowed_origins),
    ]


_LOOPBACK = {"localhost", "127.0.0.1", "::1", "[::1]"}


def hosts_for(host: str, origins: tuple[str, ...], extra: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The ``Host`` names a server listening on ``host`` answers to: its own name (unless it
    listens on every interface), the allowed origins' names, and any named explicitly."""
    names = set(extra)
    if host not in ("0.0.0.0", "::", ""):
        names.add(host)
    for origin in origins:
        name = urlsplit(origin).hostname
        if name:
            names.add(name)
    return tuple(sorted(names))
