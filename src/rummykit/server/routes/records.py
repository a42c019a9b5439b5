"""Records and reviews: a table's finished games (PROTOCOL.md, "Finished games of a table":
each one's record and review as kept when it ended, never the live table), and records
anyone posts, replayed or reviewed. Every replay and review runs in the records workers,
bounded in size and time and taken in turn by address, so none holds up a table."""

from __future__ import annotations

import json
from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import JSONResponse, Response

from rummykit.server.posted import replay_job, review_job
from rummykit.server.rooms import Rooms
from rummykit.server.routes.answers import json_text, problem
from rummykit.server.routes.judged import Refused, judged
from rummykit.server.schemas import ERRORS, ReplayAsk, ReviewAsk
from rummykit.server.store import FinishedGame

__all__ = ["record_routes"]

_REFUSED = {
    "not_found": (404, "no such table or game"),
    "not_over": (409, "a game's record is given once the game is over"),
}


def _asks(model: type[ReplayAsk] | type[ReviewAsk]) -> dict[str, object]:
    """The OpenAPI body of a route that reads its body itself (in a worker)."""
    content = {"application/json": {"schema": model.model_json_schema()}}
    return {"requestBody": {"required": True, "content": content}}


def record_routes(rooms: Rooms) -> APIRouter:
    """The routes of records and reviews of ``rooms``' tables, and of posted records."""
    router = APIRouter()
    records = rooms.workers.records

    async def records_job(request: Request, kind: Literal["replay", "review"]) -> Response:
        """A posted record replayed or reviewed in the records workers: read, checked
        (the tables' own limits), answered and encoded there, in turn by address."""
        body = await request.body()
        job = replay_job if kind == "replay" else review_job
        too_long = problem(400, "bad_record", f"the record takes too long to {kind}")
        try:
            status, answer = await judged(
                records, request, len(body), too_long, job, body, rooms.limits
            )
        except Refused as no:
            return no.answer
        return Response(answer, status_code=status, media_type="application/json")

    async def finished_answer(table_id: str, game: int | None) -> FinishedGame | JSONResponse:
        found = await rooms.finished(table_id, game)
        if isinstance(found, str):
            status, text = _REFUSED[found]
            return problem(status, found, text)
        return found

    async def review_answer(
        found: FinishedGame | JSONResponse, seat: int | None, request: Request
    ) -> object:
        """A finished game's review, from its record as kept, in the records workers (in
        turn by address, as a posted record)."""
        if isinstance(found, JSONResponse):
            return found
        too_long = problem(400, "bad_request", "the game takes too long to review")
        record, size = json.loads(found.record), len(found.record)
        try:
            status, answer = await judged(
                records, request, size, too_long, review_job, record, rooms.limits, seat
            )
        except Refused as no:
            return no.answer
        return Response(answer, status_code=status, media_type="application/json")

    @router.get("/api/tables/{table_id}/record", responses=ERRORS)
    async def get_record(table_id: str) -> object:
        """The RECORD.md document of the table's last finished game (also while the next is
        played), as kept when it ended: no card of a running game is ever in it."""
        found = await finished_answer(table_id, None)
        return found if isinstance(found, JSONResponse) else json_text(found.record)

    @router.get("/api/tables/{table_id}/games", responses=ERRORS)
    async def list_games_of_table(table_id: str) -> object:
        """The table's games, oldest first: each finished one with its end and result, then
        the one in play."""
        listed = await rooms.games(table_id)
        if listed is None:
            return problem(404, "not_found", "no such table")
        return JSONResponse(listed.to_json())

    @router.get("/api/tables/{table_id}/games/{game}/record", responses=ERRORS)
    async def get_game_record(table_id: str, game: Annotated[int, Path(ge=0)]) -> object:
        """Finished game ``game``'s record (a Vatikanen session's: up to that game's end)."""
        found = await finished_answer(table_id, game)
        return found if isinstance(found, JSONResponse) else json_text(found.record)

    @router.post("/api/replay", responses=ERRORS, openapi_extra=_asks(ReplayAsk))
    async def replay_record(request: Request) -> object:
        """A record step by step, for the replay viewer: positions ``start`` on, each with the
        view (every hand once the game is over), and the logs. Read and replayed in the
        records worker, bounded in size and time, so it never holds up a table."""
        return await records_job(request, "replay")

    @router.get("/api/tables/{table_id}/review", responses=ERRORS)
    async def review_table(
        table_id: str, request: Request, seat: Annotated[int | None, Query(ge=0, le=7)] = None
    ) -> object:
        """The review of the table's last finished game (PROTOCOL.md), from its record as
        kept: every turn judged from what its player could see then."""
        return await review_answer(await finished_answer(table_id, None), seat, request)

    @router.get("/api/tables/{table_id}/games/{game}/review", responses=ERRORS)
    async def review_game(
        table_id: str,
        game: Annotated[int, Path(ge=0)],
        request: Request,
        seat: Annotated[int | None, Query(ge=0, le=7)] = None,
    ) -> object:
        """The review of finished game ``game`` of the table."""
        return await review_answer(await finished_answer(table_id, game), seat, request)

    @router.post("/api/review", responses=ERRORS, openapi_extra=_asks(ReviewAsk))
    async def review_record(request: Request) -> object:
        """The review of a record (PROTOCOL.md): every turn judged from what its player
        could see then. Read and reviewed in the records worker, bounded in size and time."""
        return await records_job(request, "review")

    return router
