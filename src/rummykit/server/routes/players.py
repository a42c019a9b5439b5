"""The routes of players with an account (docs/protocol.md, "Players and ratings";
docs/ratings.md): a player's profile and each game's leaderboard.

- ``GET /api/players/{name}``: the account's rating in each game it has played rated
  (with its history, for the chart), its games played and won, its recent tables (the
  finished ones, with replay and review) and those it is at now. What it shows is public:
  tables are listed in the lobby for anyone, and a seat's token never leaves the store
  here. Asked by the player signed in (``me``), the tables where it is their turn come
  first.
- ``GET /api/leaderboard/{game}``: the players with at least
  :data:`~rummykit.ratings.PROVISIONAL_GAMES` rated games, best first, 50 a page.
"""

from __future__ import annotations

import json
from typing import Annotated

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import JSONResponse

from rummykit import games
from rummykit.ratings import PROVISIONAL_GAMES
from rummykit.server.accounts import Accounts
from rummykit.server.rooms import Rooms
from rummykit.server.routes.accounts import signed_in
from rummykit.server.routes.answers import problem
from rummykit.server.schemas import Problem
from rummykit.server.store.base import StoreBusy
from rummykit.server.store.ratings import RatingStore

__all__ = ["BOARD_PAGE", "HISTORY", "player_routes"]

BOARD_PAGE = 50
"""Players on a page of a leaderboard."""
BOARD_PAGES = 200
"""Pages of a leaderboard one may ask for (10,000 players)."""
HISTORY = 200
"""Rated games of a game drawn on a profile's chart (the last ones)."""
TABLES = 100
"""Tables of a player listed on the profile (the newest seats)."""

_ERRORS: dict[int | str, dict[str, object]] = {
    404: {"model": Problem, "description": "no such player, or no such game"},
    503: {"model": Problem, "description": "unavailable: the database is busy"},
}


def player_routes(
    rooms: Rooms, accounts: Accounts, allowed_origins: tuple[str, ...] = ()
) -> APIRouter:
    """The profile and leaderboard routes of a server's ``accounts``."""
    router = APIRouter(tags=["players"], responses=_ERRORS)
    ratings = RatingStore(rooms.store)

    @router.get("/api/players/{name}")
    async def profile(
        name: Annotated[str, Path(min_length=1, max_length=40)], request: Request
    ) -> JSONResponse:
        """A player's profile: ratings with their history, games, and tables."""
        try:
            found = await accounts.db.named(name)
            if found is None:
                return problem(404, "not_found", "no such player")
            rows = await ratings.ratings(found.id)
            charts = {r.game: await ratings.history(found.id, r.game, HISTORY) for r in rows}
            seats = await accounts.db.seats(found.id, TABLES)
            signed = await signed_in(accounts, request, allowed_origins)
        except StoreBusy:
            return problem(503, "unavailable", "the database is busy: try again")
        summaries = [json.loads(s) for s in await rooms.summaries([s.table for s in seats])]
        seat_at = {s.table: s.seat for s in seats}
        mine = signed is not None and signed.account.id == found.id
        now = [s for s in summaries if s["status"] != "over"]
        if mine:  # their own page: where it is their turn first
            now.sort(key=lambda s: s["to_act"] != seat_at.get(s["id"]))
        body = {
            "name": found.name,
            "me": mine,
            "since": found.created,
            "ratings": [
                {
                    "game": r.game,
                    **r.rating.to_json(),
                    "wins": r.wins,
                    "history": [
                        {
                            "n": h.n,
                            "at": h.at,
                            "table": h.table,
                            "place": h.place,
                            "players": h.players,
                            "rating": h.shown,
                        }
                        for h in charts[r.game]
                    ],
                }
                for r in rows
            ],
            "tables": [{**s, "my_seat": seat_at[s["id"]]} for s in now],
            "recent": [
                {**s, "my_seat": seat_at[s["id"]]} for s in summaries if s["status"] == "over"
            ],
        }
        return JSONResponse(body)

    @router.get("/api/leaderboard/{game}")
    async def leaderboard(
        game: Annotated[str, Path(max_length=16)],
        page: Annotated[int, Query(ge=0, lt=BOARD_PAGES)] = 0,
    ) -> JSONResponse:
        """A page of a game's leaderboard: rank, name, rating, games and wins."""
        if game not in games.names():
            return problem(404, "not_found", "no such game")
        try:
            rows = await ratings.board(game, PROVISIONAL_GAMES, page * BOARD_PAGE, BOARD_PAGE + 1)
        except StoreBusy:
            return problem(503, "unavailable", "the database is busy: try again")
        players = [
            {"rank": page * BOARD_PAGE + i + 1, "name": r.name, "rating": r.shown}
            | {"games": r.games, "wins": r.wins}
            for i, r in enumerate(rows[:BOARD_PAGE])
        ]
        more = len(rows) > BOARD_PAGE and page + 1 < BOARD_PAGES
        return JSONResponse({"game": game, "players": players, "next": page + 1 if more else None})

    return router
