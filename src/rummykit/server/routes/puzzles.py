"""The routes of puzzles, under ``/api/puzzles`` (docs/protocol.md, "Puzzles";
docs/puzzles.md): the next puzzle near a rating, and an answer judged.

A guest's puzzle rating lives in the browser: the answer sends it and gets the new one,
rated by Glicko-2 against the puzzle's rating. A puzzle's rating is the one it ships with:
it does not move yet, since a guest's "first try" is only the browser's word (a client
could send it again and again); it moves once first tries are kept per account.
"""

from __future__ import annotations

import random
from typing import Annotated

from fastapi import APIRouter, Body, Path, Query
from fastapi.responses import JSONResponse

from rummykit.i18n import language_from
from rummykit.puzzles.rating import Rating, rate
from rummykit.server.puzzleplay import MAX_CARDS, answer_job, by_id, position, puzzle_near
from rummykit.server.rooms import Rooms
from rummykit.server.routes.answers import problem
from rummykit.server.routes.puzzle_bodies import Answer
from rummykit.server.schemas import Problem
from rummykit.server.workers import JobTimeout, QueueFull, TooManyJobs

__all__ = ["puzzle_routes"]


def _json(rating: Rating) -> dict[str, float]:
    return {"rating": rating.rating, "rd": rating.rd, "volatility": rating.volatility}


_ERRORS: dict[int | str, dict[str, object]] = {
    400: {"model": Problem, "description": "a bad answer (bad_request, bad_card)"},
    404: {"model": Problem, "description": "no such puzzle, or no puzzles for that game"},
    503: {"model": Problem, "description": "unavailable: the workers are busy"},
}
"""The puzzle routes' errors, each ``{"error": CODE, "message": ...}``."""


def puzzle_routes(rooms: Rooms) -> APIRouter:
    """The ``/api/puzzles`` routes, judging in ``rooms``' workers."""
    router = APIRouter()
    rng = random.Random()

    @router.get("/api/puzzles/next", responses=_ERRORS)
    async def next_puzzle(
        game: Annotated[str, Query(max_length=16)] = "vatikanen",
        rating: Annotated[int, Query(ge=0, le=4000)] = 1500,
    ) -> JSONResponse:
        """A puzzle near ``rating``, as a seat sees it: never its solution."""
        try:
            puzzle = puzzle_near(game, rating, rng)
        except KeyError:
            return problem(404, "not_found", "no puzzles for that game")
        return JSONResponse({**position(puzzle), "rating": puzzle.rating})

    @router.post("/api/puzzles/{puzzle_id}/answer", responses=_ERRORS)
    async def answer(
        puzzle_id: Annotated[str, Path(max_length=64)],
        body: Annotated[Answer, Body()],
    ) -> JSONResponse:
        """The checker's verdict, the solution to draw, and the new ratings on a first try."""
        if by_id(puzzle_id) is None:
            return problem(404, "not_found", "no such puzzle")
        cells = len(body.add) + sum(len(m) for m in body.table or [])
        if cells > MAX_CARDS:
            return problem(400, "bad_request", "too many cards")
        try:
            verdict = await rooms.workers.run(
                answer_job, puzzle_id, list(body.add), body.table, language_from(body.lang)
            )
        except JobTimeout:
            return problem(400, "bad_request", "the answer takes too long to check")
        except (TooManyJobs, QueueFull) as exc:
            return problem(503, "unavailable", str(exc))
        if verdict is None:
            return problem(404, "not_found", "no such puzzle")
        if "error" in verdict:
            return problem(400, "bad_card", "an answer names a card that is not one")
        out: dict[str, object] = dict(verdict)
        if body.first:
            player = Rating(**body.player.model_dump()) if body.player else Rating()
            puzzle = by_id(puzzle_id)
            assert puzzle is not None
            fixed = Rating(float(puzzle.rating), 100.0)  # as shipped: see the docstring
            new_player, _ = rate(player, fixed, bool(verdict["right"]))
            out["player"] = _json(new_player)
            out["puzzle_rating"] = _json(fixed)
        return JSONResponse(out)

    return router
