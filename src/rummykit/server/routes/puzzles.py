"""The routes of puzzles, under ``/api/puzzles`` (docs/protocol.md, "Puzzles";
docs/puzzles.md): the next puzzle near a rating, and an answer judged.

A guest's puzzle rating lives in the browser: the answer sends it and gets the new one.
Each puzzle's rating is the server's, kept in memory for the server's life, and moves only
on a player's first try of the puzzle (the answer says ``first``).
"""

from __future__ import annotations

import asyncio
import random
from typing import Annotated

from fastapi import APIRouter, Body, Path, Query
from fastapi.responses import JSONResponse

from rummykit.i18n import language_from
from rummykit.puzzles.rating import Rating, rate
from rummykit.server.puzzleplay import MAX_CARDS, answer_job, by_id, position, puzzle_near
from rummykit.server.rooms import Rooms
from rummykit.server.routes.puzzle_bodies import Answer
from rummykit.server.workers import JobTimeout, QueueFull, TooManyJobs

__all__ = ["puzzle_routes"]


def _problem(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def _json(rating: Rating) -> dict[str, float]:
    return {"rating": rating.rating, "rd": rating.rd, "volatility": rating.volatility}


def puzzle_routes(rooms: Rooms) -> APIRouter:
    """The ``/api/puzzles`` routes, judging in ``rooms``' workers."""
    router = APIRouter()
    ratings: dict[str, Rating] = {}
    lock = asyncio.Lock()
    rng = random.Random()

    @router.get("/api/puzzles/next")
    async def next_puzzle(
        game: Annotated[str, Query(max_length=16)] = "vatikanen",
        rating: Annotated[int, Query(ge=0, le=4000)] = 1500,
    ) -> JSONResponse:
        """A puzzle near ``rating``, as a seat sees it: never its solution."""
        try:
            puzzle = puzzle_near(game, rating, rng)
        except KeyError:
            return _problem(404, "not_found", "no puzzles for that game")
        own = ratings.get(puzzle.id, Rating(float(puzzle.rating)))
        return JSONResponse({**position(puzzle), "rating": round(own.rating)})

    @router.post("/api/puzzles/{puzzle_id}/answer")
    async def answer(
        puzzle_id: Annotated[str, Path(max_length=64)],
        body: Annotated[Answer, Body()],
    ) -> JSONResponse:
        """The checker's verdict, the solution to draw, and the new ratings on a first try."""
        if by_id(puzzle_id) is None:
            return _problem(404, "not_found", "no such puzzle")
        cells = len(body.add) + sum(len(m) for m in body.table or [])
        if cells > MAX_CARDS:
            return _problem(400, "bad_request", "too many cards")
        try:
            verdict = await rooms.workers.run(
                answer_job, puzzle_id, list(body.add), body.table, language_from(body.lang)
            )
        except JobTimeout:
            return _problem(400, "bad_request", "the answer takes too long to check")
        except (TooManyJobs, QueueFull) as exc:
            return _problem(503, "unavailable", str(exc))
        if verdict is None:
            return _problem(404, "not_found", "no such puzzle")
        if "error" in verdict:
            return _problem(400, "bad_card", "an answer names a card that is not one")
        out: dict[str, object] = dict(verdict)
        if body.first:
            player = Rating(**body.player.model_dump()) if body.player else Rating()
            async with lock:
                puzzle = by_id(puzzle_id)
                assert puzzle is not None
                old = ratings.get(puzzle_id, Rating(float(puzzle.rating), 100.0))
                new_player, new_puzzle = rate(player, old, bool(verdict["right"]))
                ratings[puzzle_id] = new_puzzle
            out["player"] = _json(new_player)
            out["puzzle_rating"] = _json(new_puzzle)
        return JSONResponse(out)

    return router
