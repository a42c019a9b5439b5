"""The ASGI app: PROTOCOL.md's HTTP API and live WebSocket, and the browser UI's files.

:func:`create_app` builds a FastAPI app around a :class:`~rummykit.server.hub.Hub`;
``rummykit serve`` runs it on uvicorn. The OpenAPI document of the HTTP part
is at ``/openapi.json`` (no documentation page is served: it would load
scripts from the internet). Every error body is ``{"error": CODE,
"message": ...}``; nothing a request sends is ever written to a log.
"""

from __future__ import annotations

import contextlib
import json
import logging
import mimetypes
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from importlib import resources
from typing import Annotated, Literal
from urllib.parse import urlsplit

from fastapi import Body, FastAPI, Path, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from rummykit import __version__, games
from rummykit.i18n import language_from
from rummykit.server.commands import read_command
from rummykit.server.gameinfo import game_info
from rummykit.server.hosted import NameTaken
from rummykit.server.live import serve_connection
from rummykit.server.middleware import AllowedHosts, Headers, LimitBody
from rummykit.server.posted import replay_job, review_job
from rummykit.server.protocol import Close, ProtocolError
from rummykit.server.room import Room
from rummykit.server.rooms import Busy, Rooms, TooMany
from rummykit.server.routes.accounts import account_routes
from rummykit.server.routes.puzzles import puzzle_routes
from rummykit.server.schemas import (
    ERRORS,
    CreateTable,
    Games,
    Join,
    Problem,
    ReplayAsk,
    ReviewAsk,
    Summary,
    Tables,
    Token,
    Typed,
)
from rummykit.server.store import FinishedGame, StoreBusy
from rummykit.server.workers import JobTimeout, QueueFull, TooManyJobs

__all__ = ["create_app"]

log = logging.getLogger("rummykit.server")

Scope = MutableMapping[str, object]
Message = MutableMapping[str, object]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def _problem(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


# ---------------------------------------------------------------- the app


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

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if not rooms.started:
            await rooms.start()
        yield
        await rooms.stop()

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

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        text = first.get("msg", "the request is not valid")
        return _problem(422, "bad_request", f"{where}: {text}" if where else str(text))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "bad_request"}.get(exc.status_code, "bad_request")
        return _problem(exc.status_code, code, str(exc.detail))

    @app.exception_handler(Busy)
    async def busy(request: Request, exc: Busy) -> JSONResponse:
        return _problem(503, "unavailable", str(exc))

    @app.exception_handler(StoreBusy)
    async def store_busy(request: Request, exc: StoreBusy) -> JSONResponse:
        """Any route whose store is busy or failing (StoreFailed is a StoreBusy): nothing
        was done; the store has logged it (once for a stretch of failures)."""
        return _problem(503, "unavailable", str(exc))

    async def records_job(request: Request, kind: Literal["replay", "review"]) -> Response:
        """A posted record replayed or reviewed in the records workers: read, checked
        (the tables' own limits), answered and encoded there, in turn by address."""
        body = await request.body()
        client = request.client.host if request.client else ""
        job = replay_job if kind == "replay" else review_job
        try:
            status, answer = await rooms.workers.records.submit(
                client, len(body), job, body, rooms.limits
            )
        except JobTimeout:
            return _problem(400, "bad_record", f"the record takes too long to {kind}")
        except TooManyJobs as exc:
            return _problem(429, "rate_limited", str(exc))
        except QueueFull as exc:
            return _problem(503, "unavailable", str(exc))
        return Response(answer, status_code=status, media_type="application/json")

    async def room_of(table_id: str) -> Room | JSONResponse:
        room = await rooms.get(table_id)
        return room if room is not None else _problem(404, "not_found", "no such table")

    @app.get("/api/games", response_model=Games)
    async def list_games() -> dict[str, object]:
        """The games the server hosts, their house rules and bot levels."""
        out = []
        for name in games.names():
            spec = games.get(name)
            out.append(
                {
                    "name": name,
                    "title": spec.title,
                    "min_players": spec.min_players,
                    "max_players": spec.max_players,
                    "default_players": spec.default_players,
                    "house_rules": [
                        {"name": r.name, "default": r.default, "rule": r.rule, "summary": r.summary}
                        for r in spec.house_rules
                    ],
                    "bots": spec.bot_levels(),
                    "default_bot": spec.default_bot,
                }
            )
        return {"games": out}

    @app.get("/api/games/{name}", responses=ERRORS)
    async def game_details(
        name: str,
        lang: Annotated[str, Query(max_length=35, description="sv or en")] = "en",
    ) -> object:
        """One game as the browser shows it, its texts in ``lang``: a line on it, its house
        rules, the bots a table can seat, the contracts (Kontrakt, K4), the command help."""
        if name not in games.names():
            return _problem(404, "not_found", "no such game")
        return game_info(name, language_from(lang))

    @app.post("/api/games/{name}/command", responses=ERRORS)
    async def read_typed_command(name: str, body: Typed) -> object:
        """What a line typed at a table of game ``name`` means (the terminal's grammar): an
        action, a command for the page, or ``400 bad_command`` saying why in ``lang``."""
        if name not in games.names():
            return _problem(404, "not_found", "no such game")
        answer = read_command(name, body.text, language_from(body.lang))
        if "error" in answer:
            return _problem(400, "bad_command", str(answer["error"]))
        return answer

    @app.post(
        "/api/tables",
        status_code=201,
        response_model=Summary,
        responses={**ERRORS, 429: {"model": Problem, "description": "too many tables"}},
    )
    async def create_table(body: CreateTable, request: Request) -> object:
        """Make a table: the game, its seats (``human`` or ``bot:LEVEL``), house rules, clocks."""
        client = request.client.host if request.client else None
        try:
            summary = await rooms.create(
                body.game,
                body.seats,
                body.options,
                clock=body.clock,
                grace=body.grace,
                stand_in=body.stand_in,
                client=client,
            )
        except TooMany as exc:
            return _problem(429, "rate_limited", str(exc))
        except ValueError as exc:
            return _problem(400, "bad_request", str(exc))
        return _json_text(summary, 201)

    @app.get("/api/tables", response_model=Tables, responses=ERRORS)
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
            return _json_text('{"tables":[' + ",".join(found) + '],"next":null}')
        try:
            page = await rooms.listing(status, before)
        except ValueError as exc:
            return _problem(400, "bad_request", str(exc))
        following = "null" if page.next is None else json.dumps(page.next)
        return _json_text('{"tables":[' + ",".join(page.summaries) + f'],"next":{following}}}')

    @app.get("/api/tables/{table_id}", response_model=Summary, responses=ERRORS)
    async def get_table(table_id: str) -> object:
        """One table's summary."""
        summary = await rooms.summary(table_id) if len(table_id) <= 64 else None
        if summary is None:
            return _problem(404, "not_found", "no such table")
        return _json_text(summary)

    @app.post("/api/tables/{table_id}/join", response_model=Token, responses=ERRORS)
    async def join_table(table_id: str, body: Annotated[Join, Body()]) -> object:
        """Take a free human seat; the answer's token is the seat's secret, given only here.
        A name a player at the table has is refused (``409 name_taken``)."""
        room = await room_of(table_id)
        if isinstance(room, JSONResponse):
            return room
        try:
            seat, token = await room.join(body.name, body.seat)
        except NameTaken as exc:
            return _problem(409, "name_taken", str(exc))
        except ValueError as exc:
            return _problem(400, "bad_request", str(exc))
        except LookupError as exc:
            return _problem(409, "no_free_seat", str(exc))
        except ProtocolError as exc:
            return _problem(503, exc.code, exc.message)
        return {"seat": seat, "token": token}

    _refused = {
        "not_found": (404, "no such table or game"),
        "not_over": (409, "a game's record is given once the game is over"),
    }

    async def finished_answer(table_id: str, game: int | None) -> FinishedGame | JSONResponse:
        found = await rooms.finished(table_id, game)
        if isinstance(found, str):
            status, text = _refused[found]
            return _problem(status, found, text)
        return found

    @app.get("/api/tables/{table_id}/record", responses=ERRORS)
    async def get_record(table_id: str) -> object:
        """The RECORD.md document of the table's last finished game (also while the next is
        played), as kept when it ended: no card of a running game is ever in it."""
        found = await finished_answer(table_id, None)
        return found if isinstance(found, JSONResponse) else _json_text(found.record)

    @app.get("/api/tables/{table_id}/games", responses=ERRORS)
    async def list_games_of_table(table_id: str) -> object:
        """The table's games, oldest first: each finished one with its end and result, then
        the one in play."""
        listed = await rooms.games(table_id)
        if listed is None:
            return _problem(404, "not_found", "no such table")
        return JSONResponse(listed.to_json())

    @app.get("/api/tables/{table_id}/games/{game}/record", responses=ERRORS)
    async def get_game_record(table_id: str, game: Annotated[int, Path(ge=0)]) -> object:
        """Finished game ``game``'s record (a Vatikanen session's: up to that game's end)."""
        found = await finished_answer(table_id, game)
        return found if isinstance(found, JSONResponse) else _json_text(found.record)

    @app.post(
        "/api/replay",
        responses=ERRORS,
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": ReplayAsk.model_json_schema()}},
            }
        },
    )
    async def replay_record(request: Request) -> object:
        """A record step by step, for the replay viewer: positions ``start`` on, each with the
        view (every hand once the game is over), and the logs. Read and replayed in the
        records worker, bounded in size and time, so it never holds up a table."""
        return await records_job(request, "replay")

    async def review_answer(
        found: FinishedGame | JSONResponse, seat: int | None, request: Request
    ) -> object:
        """A finished game's review, from its record as kept, in the records workers (in
        turn by address, as a posted record)."""
        if isinstance(found, JSONResponse):
            return found
        client = request.client.host if request.client else ""
        try:
            status, answer = await rooms.workers.records.submit(
                client, len(found.record), review_job, json.loads(found.record), rooms.limits, seat
            )
        except JobTimeout:
            return _problem(400, "bad_request", "the game takes too long to review")
        except TooManyJobs as exc:
            return _problem(429, "rate_limited", str(exc))
        except QueueFull as exc:
            return _problem(503, "unavailable", str(exc))
        return Response(answer, status_code=status, media_type="application/json")

    @app.get("/api/tables/{table_id}/review", responses=ERRORS)
    async def review_table(
        table_id: str, request: Request, seat: Annotated[int | None, Query(ge=0, le=7)] = None
    ) -> object:
        """The review of the table's last finished game (PROTOCOL.md), from its record as
        kept: every turn judged from what its player could see then."""
        return await review_answer(await finished_answer(table_id, None), seat, request)

    @app.get("/api/tables/{table_id}/games/{game}/review", responses=ERRORS)
    async def review_game(
        table_id: str,
        game: Annotated[int, Path(ge=0)],
        request: Request,
        seat: Annotated[int | None, Query(ge=0, le=7)] = None,
    ) -> object:
        """The review of finished game ``game`` of the table."""
        return await review_answer(await finished_answer(table_id, game), seat, request)

    @app.post(
        "/api/review",
        responses=ERRORS,
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": ReviewAsk.model_json_schema()}},
            }
        },
    )
    async def review_record(request: Request) -> object:
        """The review of a record (PROTOCOL.md): every turn judged from what its player
        could see then. Read and reviewed in the records worker, bounded in size and time."""
        return await records_job(request, "review")

    @app.websocket("/api/tables/{table_id}/live")
    async def live(websocket: WebSocket, table_id: str) -> None:
        """PROTOCOL.md's live play: hello, then states, actions and errors."""
        if not _origin_allowed(websocket, allowed_origins):
            await websocket.close(code=Close.ORIGIN, reason="this page's origin is not allowed")
            return
        await websocket.accept()
        await serve_connection(rooms, _Socket(websocket), table_id)

    app.include_router(account_routes(rooms.store, allowed_origins=allowed_origins))
    app.include_router(puzzle_routes(rooms))
    web = resources.files("rummykit") / "web"
    for kind, suffix in WEB_TYPES:
        mimetypes.add_type(kind, suffix)
    if web.is_dir():
        with resources.as_file(web) as folder:
            app.mount("/", StaticFiles(directory=folder, html=True), name="web")
    else:

        @app.get("/", include_in_schema=False)
        async def home() -> Response:
            return JSONResponse({"server": "rummykit-online/1", "api": "/api/tables"})

    larger = {"/api/replay": rooms.limits.max_record, "/api/review": rooms.limits.max_record}
    app.add_middleware(LimitBody, limit=rooms.limits.max_message, larger=larger)
    app.add_middleware(Headers)
    app.add_middleware(
        AllowedHosts, names=frozenset(_loopback | set(allowed_hosts)), any_ip=any_ip_host
    )
    return app


WEB_TYPES = (
    ("text/javascript", ".js"),
    ("application/manifest+json", ".webmanifest"),
    ("image/svg+xml", ".svg"),
)
"""The page's file types, whatever the host's own table says (a module script must be
JavaScript, and with ``nosniff`` a browser believes the type it is given)."""


def _json_text(text: str, status: int = 200) -> Response:
    return Response(text, status_code=status, media_type="application/json")


_loopback = {"localhost", "127.0.0.1", "::1", "[::1]"}


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


def _origin_allowed(websocket: WebSocket, allowed: tuple[str, ...]) -> bool:
    """A browser's WebSocket must come from this server's own pages or an allowed origin;
    programs that send no Origin are let in."""
    origin = websocket.headers.get("origin")
    if origin is None or origin in allowed:
        return True
    host = websocket.headers.get("host", "")
    return urlsplit(origin).netloc == host


class _Socket:
    """A Starlette WebSocket as :func:`serve_connection` reads and writes it."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket

    async def receive(self) -> str | None:
        try:
            message = await self.websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return None
        if message["type"] == "websocket.disconnect":
            return None
        text = message.get("text")
        if text is None:  # a binary frame: answered as a bad message
            return "\ufffd"
        return str(text)

    async def send(self, text: str) -> None:
        await self.websocket.send_text(text)

    async def close(self, code: int, reason: str) -> None:
        await self.websocket.close(code=code, reason=reason)
