"""Bring a game to mid-play: bots of one level move for it, one per seat (seeds 0..n-1)."""

from __future__ import annotations

from typing import Any

from rummykit.bots import Bot, make_bot


def advance(game: Any, name: str, level: str, players: int, moves: int) -> list[Bot]:
    """Let ``level`` bots of game ``name`` make ``moves`` moves of ``game``; the bots."""
    bots = [make_bot(name, level, s) for s in range(players)]
    for _ in range(moves):
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat)))
    return bots
