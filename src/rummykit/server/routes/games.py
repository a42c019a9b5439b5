"""The games' facts, under ``/api/games``: the games the server hosts, one game as the
browser shows it (in the player's language), and what a typed line means in a game."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from rummykit import games
from rummykit.i18n import language_from
from rummykit.server.commands import read_command
from rummykit.server.gameinfo import game_info
from rummykit.server.routes.answers import problem
from rummykit.server.schemas import ERRORS, Games, Typed

__all__ = ["game_routes"]


def game_routes() -> APIRouter:
    """The routes of the games' facts."""
    router = APIRouter()

    @router.get("/api/games", response_model=Games)
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

    @router.get("/api/games/{name}", responses=ERRORS)
    async def game_details(
        name: str,
        lang: Annotated[str, Query(max_length=35, description="sv or en")] = "en",
    ) -> object:
        """One game as the browser shows it, its texts in ``lang``: a line on it, its house
        rules, the bots a table can seat, the contracts (Kontrakt, K4), the command help."""
        if name not in games.names():
            return problem(404, "not_found", "no such game")
        return game_info(name, language_from(lang))

    @router.post("/api/games/{name}/command", responses=ERRORS)
    async def read_typed_command(name: str, body: Typed) -> object:
        """What a line typed at a table of game ``name`` means (the terminal's grammar): an
        action, a command for the page, or ``400 bad_command`` saying why in ``lang``."""
        if name not in games.names():
            return problem(404, "not_found", "no such game")
        answer = read_command(name, body.text, language_from(body.lang))
        if "error" in answer:
            return problem(400, "bad_command", str(answer["error"]))
        return answer

    return router
