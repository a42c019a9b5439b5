"""The routes of puzzles, under ``/api/puzzles`` (docs/protocol.md, "Puzzles";
docs/puzzles.md): the next puzzle near a rating, and an answer judged.

A guest's puzzle rating lives in the browser: the answer sends it and gets the new one,
rated by Glicko-2 against the puzzle's rating; a guest's word never moves a puzzle's
rating (a guest's "first try" is only the browser's word, which a client could send again
and again). A signed-in player's rating lives on the server: the server's record of first
tries decides (:class:`PuzzleRatingStore`), and a first try moves both the account's and
the puzzle's rating in one transaction; later tries change nothing. The next puzzle of a
signed-in player is near its rating and one it has not tried.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from typing import Annotated

from fastapi import APIRouter, Body, Path, Query, Request
from fastapi.responses import JSONResponse

from rummykit.i18n import language_from
from rummykit.puzzles.rating import Rating, rate
from rummykit.puzzles.store import AnyPuzzle
from rummykit.server.accounts import Accounts
from rummykit.server.puzzlemaker import NotMade
from rummykit.server.puzzleplay import (
    CANDIDATES,
    MAX_CARDS,
    answer_job,
    by_id,
    closest,
    from_line,
    position,
    turn_job,
)
from rummykit.server.rooms import Rooms
from rummykit.server.routes.accounts import signed_in
from rummykit.server.routes.answers import client_address, problem
from rummykit.server.routes.judged import Refused, judged
from rummykit.server.routes.puzzle_bodies import Answer, TurnHelp, TurnSoFar
from rummykit.server.schemas import Problem
from rummykit.server.store.base import StoreBusy
from rummykit.server.store.puzzles import PuzzleRatingStore, Taken

__all__ = ["puzzle_routes"]


def _json(rating: Rating) -> dict[str, float]:
    return {"rating": rating.rating, "rd": rating.rd, "volatility": rating.volatility}


_ERRORS: dict[int | str, dict[str, object]] = {
    400: {"model": Problem, "description": "a bad answer (bad_request, bad_card)"},
    404: {"model": Problem, "description": "no such puzzle, or no puzzles for that game"},
    409: {"model": Problem, "description": "not_over: the game is not finished"},
    429: {"model": Problem, "description": "rate_limited: enough puzzles were made today"},
    503: {"model": Problem, "description": "unavailable: the workers are busy"},
}
"""The puzzle routes' errors, each ``{"error": CODE, "message": ...}``."""


AMONG = 20
"""A puzzle is picked at random among the this many closest (untried) ones."""

_STATUS = {"not_found": 404, "not_over": 409, "rate_limited": 429, "unavailable": 503}
"""The status of each reason the maker gives for making nothing."""

GUEST_RD = 100.0
"""The RD a shipped puzzle's rating starts with."""


def puzzle_routes(
    rooms: Rooms, accounts: Accounts, allowed_origins: tuple[str, ...] = ()
) -> APIRouter:
    """The ``/api/puzzles`` routes, judging in ``rooms``' workers, keeping signed-in
    players' ratings in ``accounts``' database."""
    router = APIRouter()
    rng = random.Random()
    kept = PuzzleRatingStore(rooms.store)
    learn = rooms.workers.learn

    @router.get("/api/puzzles/next", responses=_ERRORS)
    async def next_puzzle(
        request: Request,
        game: Annotated[str, Query(max_length=16)] = "vatikanen",
        rating: Annotated[int, Query(ge=0, le=4000)] = 1500,
        lang: Annotated[str, Query(max_length=16)] = "en",
    ) -> JSONResponse:
        """A puzzle near ``rating`` (a signed-in player's: near its kept rating, and not
        tried yet), as a seat sees it: never its solution."""
        signed = await signed_in(accounts, request, allowed_origins)
        player: Rating | None = None
        tried: set[str] = set()
        try:
            if signed is not None:
                player = await kept.player(signed.account.id, game)
                rating = round(player.rating)
            # puzzles made from this server's games beside the shipped set, first among equals
            made = await rooms.puzzles.recent(game)
            ours = {p.id for p in made}
            candidates = sorted(
                [*made, *await asyncio.to_thread(closest, game, rating)],
                key=lambda p: (abs(p.rating - rating), p.id not in ours, p.id),
            )[:CANDIDATES]
            if signed is not None:
                tried = await kept.tried(signed.account.id, [p.id for p in candidates])
        except KeyError:
            return problem(404, "not_found", "no puzzles for that game")
        except StoreBusy as exc:
            return problem(503, "unavailable", str(exc))
        fresh = [p for p in candidates if p.id not in tried] or candidates
        puzzle = rng.choice(fresh[:AMONG])
        out: dict[str, object] = {**position(puzzle, language_from(lang)), "rating": puzzle.rating}
        if player is not None:
            out["player"] = _json(player)
        return JSONResponse(out)

    async def any_puzzle(puzzle_id: str) -> tuple[AnyPuzzle | None, str]:
        """A shipped puzzle, or one made from this server's games with its file line."""
        # a thread: the first call reads the shipped sets (half a second), which the
        # event loop, serving every table, must never wait for
        shipped = await asyncio.to_thread(by_id, puzzle_id)
        if shipped is not None:
            return shipped, ""
        line = await kept.game_puzzle(puzzle_id)
        return (from_line(line), line) if line else (None, "")

    @router.get("/api/puzzles/{puzzle_id}", responses=_ERRORS)
    async def one_puzzle(
        puzzle_id: Annotated[str, Path(max_length=64)],
        lang: Annotated[str, Query(max_length=16)] = "en",
    ) -> JSONResponse:
        """A puzzle by id (shipped, or made from this server's finished games), as a seat
        sees it."""
        try:
            puzzle, _ = await any_puzzle(puzzle_id)
        except StoreBusy as exc:
            return problem(503, "unavailable", str(exc))
        if puzzle is None:
            return problem(404, "not_found", "no such puzzle")
        rating = puzzle.rating
        with contextlib.suppress(StoreBusy):
            moved = await kept.puzzle(puzzle_id)
            rating = round(moved.rating) if moved else rating
        return JSONResponse({**position(puzzle, language_from(lang)), "rating": rating})

    @router.get("/api/tables/{table_id}/games/{game}/puzzles", responses=_ERRORS)
    async def game_puzzles(
        table_id: Annotated[str, Path(max_length=64)],
        game: Annotated[int, Path(ge=0, le=1_000_000)],
    ) -> JSONResponse:
        """The ids of the puzzles made from a finished game, and whether the maker ran."""
        found = await kept.game_puzzles(table_id, game)
        return JSONResponse({"made": found is not None, "puzzles": found or []})

    @router.post("/api/tables/{table_id}/games/{game}/puzzles", responses=_ERRORS)
    async def make_game_puzzles(
        request: Request,
        table_id: Annotated[str, Path(max_length=64)],
        game: Annotated[int, Path(ge=0, le=1_000_000)],
    ) -> JSONResponse:
        """Run the puzzle maker on a finished game (once; never a game in play), in the
        records workers, bounded in time and in games a day; the ids found."""
        client = client_address(request)
        try:
            made = await rooms.puzzles.make(table_id, game, client)
        except NotMade as exc:
            return problem(_STATUS[exc.code], exc.code, str(exc))
        except StoreBusy as exc:
            return problem(503, "unavailable", str(exc))
        return JSONResponse({"made": True, "puzzles": made})

    @router.post("/api/puzzles/{puzzle_id}/answer", responses=_ERRORS)
    async def answer(
        request: Request,
        puzzle_id: Annotated[str, Path(max_length=64)],
        body: Annotated[Answer, Body()],
    ) -> JSONResponse:
        """The checker's verdict, the solution to draw, and the new ratings on a first try."""
        try:
            found, line = await any_puzzle(puzzle_id)
        except StoreBusy as exc:
            return problem(503, "unavailable", str(exc))
        if found is None:
            return problem(404, "not_found", "no such puzzle")
        cells = len(body.add) + sum(len(m) for m in body.table or [])
        if cells > MAX_CARDS:
            return problem(400, "bad_request", "too many cards")
        lang = language_from(body.lang)
        try:
            verdict = await judged(
                learn,
                request,
                0,
                problem(400, "bad_request", "the answer takes too long to check"),
                answer_job,
                puzzle_id,
                list(body.add),
                body.table,
                lang,
                line,
                body.actions,
            )
        except Refused as no:
            return no.answer
        if verdict is None:
            return problem(404, "not_found", "no such puzzle")
        if verdict.get("error") == "bad_action":
            return problem(400, "bad_request", "an answer holds what is not an action")
        if "error" in verdict:
            return problem(400, "bad_card", "an answer names a card that is not one")
        out: dict[str, object] = dict(verdict)
        signed = await signed_in(accounts, request, allowed_origins)
        if signed is not None:
            shipped = found
            try:
                moved = await kept.first_try(
                    signed.account.id,
                    shipped.game,
                    puzzle_id,
                    Rating(float(shipped.rating), GUEST_RD),
                    bool(verdict["right"]),
                    rate,
                    time.time(),
                )
            except Taken:
                out["first"] = False
            except StoreBusy as exc:
                return problem(503, "unavailable", str(exc))
            else:
                out["first"] = True
                out["player"] = _json(moved.player)
                out["puzzle_rating"] = _json(moved.puzzle)
        elif body.first:
            player = Rating(**body.player.model_dump()) if body.player else Rating()
            fixed = Rating(float(found.rating), GUEST_RD)  # as shipped, unless moved
            with contextlib.suppress(StoreBusy):  # a store that keeps no ratings
                fixed = await kept.puzzle(puzzle_id) or fixed
            new_player, _ = rate(player, fixed, bool(verdict["right"]))
            out["player"] = _json(new_player)
            out["puzzle_rating"] = _json(fixed)
        return JSONResponse(out)

    async def turn(
        asked: Request,
        puzzle_id: str,
        moves: list[dict[str, object]],
        request: dict[str, object] | None,
        lang: str,
    ) -> JSONResponse:
        """A Kontrakt puzzle's turn on the board, judged in a learning worker
        (``turn_job``), in turn by the address that ``asked``."""
        too_long = problem(400, "bad_request", "the moves take too long to judge")
        try:
            _, line = await any_puzzle(puzzle_id)
            out = await judged(
                learn, asked, 0, too_long, turn_job, puzzle_id, moves, request, lang, line
            )
        except StoreBusy as exc:
            return problem(503, "unavailable", str(exc))
        except Refused as no:
            return no.answer
        if out is None:
            return problem(404, "not_found", "no such Kontrakt puzzle")
        if "error" in out:
            return problem(400, "bad_request", "the moves hold what is not an action")
        return JSONResponse(out)

    @router.post("/api/puzzles/{puzzle_id}/try", responses=_ERRORS)
    async def try_turn(
        request: Request,
        puzzle_id: Annotated[str, Path(max_length=64)],
        body: Annotated[TurnSoFar, Body()],
    ) -> JSONResponse:
        """Where a Kontrakt puzzle's turn stands after ``moves``: ``going``, ``out`` (the
        answer is ready) or ``refused`` (the last move broke ``rule``), with what the seat
        sees then (a ``state`` message for the board)."""
        return await turn(request, puzzle_id, body.moves, None, language_from(body.lang))

    @router.post("/api/puzzles/{puzzle_id}/help", responses=_ERRORS)
    async def turn_help(
        request: Request,
        puzzle_id: Annotated[str, Path(max_length=64)],
        body: Annotated[TurnHelp, Body()],
    ) -> JSONResponse:
        """A board's help in a Kontrakt puzzle's turn: a draft ``checked`` by the engine, or
        a ``hint`` of the lay-offs and joker swaps (never the lay-downs asked for)."""
        return await turn(request, puzzle_id, body.moves, body.request, language_from(body.lang))

    return router
