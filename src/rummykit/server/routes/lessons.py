"""The routes of the tutorial, under ``/api/lessons`` (docs/protocol.md, "Lessons";
docs/tutorial.md): each game's lessons in order, and a learner's moves in one of them
judged by the engine.

An attempt is stateless: the page sends every move it has made in the lesson so far
(at most :data:`~rummykit.tutorial.lesson.MAX_STEPS`), and the answer is where they
stand, with the position as the learner's seat sees it. The engine runs in the server's
workers (laying cards on a Vatikanen table may need the solver to arrange them).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Path, Query, Request
from fastapi.responses import JSONResponse

from rummykit import games
from rummykit.i18n import language_from
from rummykit.server.lessonplay import help_job
from rummykit.server.rooms import Rooms
from rummykit.server.routes.answers import problem
from rummykit.server.routes.judged import Refused, judged
from rummykit.server.routes.lesson_bodies import Attempt, Help
from rummykit.server.schemas import Problem
from rummykit.tutorial import lessons
from rummykit.tutorial.play import attempt_json

__all__ = ["lesson_routes"]

_ERRORS: dict[int | str, dict[str, object]] = {
    400: {"model": Problem, "description": "bad_request: the moves take too long to judge"},
    404: {"model": Problem, "description": "no such lesson, or no such game"},
    503: {"model": Problem, "description": "unavailable: the workers are busy"},
}


def lesson_routes(rooms: Rooms) -> APIRouter:
    """The ``/api/lessons`` routes, judging in ``rooms``' workers."""
    router = APIRouter(tags=["lessons"], responses=_ERRORS)
    learn = rooms.workers.learn

    @router.get("/api/lessons")
    async def list_lessons(
        game: Annotated[str, Query(max_length=16)] = "vatikanen",
        lang: Annotated[str, Query(max_length=16)] = "en",
    ) -> JSONResponse:
        """A game's lessons, in the order they are taught."""
        if game not in games.names():
            return problem(404, "not_found", "no such game")
        told = [lesson.describe(language_from(lang)) for lesson in lessons(game)]
        return JSONResponse({"game": game, "lessons": told})

    @router.post("/api/lessons/{lesson_id}/try")
    async def try_lesson(
        request: Request,
        lesson_id: Annotated[str, Path(max_length=32)],
        body: Annotated[Attempt, Body()],
    ) -> JSONResponse:
        """Where the learner's moves stand: ``going``, ``done``, ``missed`` (set up again)
        or ``refused`` (the last move broke ``rule``), with what the seat sees."""
        lang = language_from(body.lang)
        too_long = problem(400, "bad_request", "the moves take too long to judge")
        try:
            out = await judged(
                learn, request, 0, too_long, attempt_json, lesson_id, body.moves, lang
            )
        except Refused as no:
            return no.answer
        if out.get("error") == "not_found":
            return problem(404, "not_found", "no such lesson")
        return JSONResponse(out)

    @router.post("/api/lessons/{lesson_id}/help")
    async def lesson_help(
        request: Request,
        lesson_id: Annotated[str, Path(max_length=32)],
        body: Annotated[Help, Body()],
    ) -> JSONResponse:
        """A check of a draft, a hint or an arrangement in the lesson's position after the
        learner's moves, as a seat at a table gets it (``checked``, ``hint``,
        ``arranged``, or an ``error``)."""
        lang = language_from(body.lang)
        too_long = problem(400, "bad_request", "the request takes too long")
        try:
            out = await judged(
                learn, request, 0, too_long, help_job, lesson_id, body.moves, body.request, lang
            )
        except Refused as no:
            return no.answer
        if out.get("code") == "not_found":
            return problem(404, "not_found", "no such lesson")
        return JSONResponse(out)

    return router
