"""Set up a game for terminal play: names, bots, adapter and controller, from the registry."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rummykit import games
from rummykit.bots import Bot
from rummykit.tui.controller import BOT_NAMES, Controller, GameAdapter

__all__ = ["bot_levels", "make_controller"]


def bot_levels(game: str, spec: str | None, bots: int) -> list[str]:
    """The level of each bot from ``--bots`` (one level for all, or one per bot).

    >>> bot_levels("vatikanen", "random,greedy", 2)
    ['random', 'greedy']
    >>> bot_levels("kontrakt", None, 3)
    ['basic', 'basic', 'basic']
    """
    known = games.get(game)
    if not spec:
        return [known.default_bot] * bots
    wanted = [s.strip() for s in spec.split(",") if s.strip()]
    if len(wanted) == 1:
        wanted *= bots
    if len(wanted) != bots:
        raise ValueError(f"--bots names one level, or one for each of the {bots} bots")
    levels = known.bot_levels()
    for level in wanted:
        if level not in levels:
            raise ValueError(f"no {game} bot called {level!r}: the levels are {', '.join(levels)}")
    return wanted


def make_controller(
    game: str = "vatikanen",
    *,
    players: int | None = None,
    seed: int | None = None,
    bots: str | Sequence[str] | None = None,
    name: str = "You",
    records: str | Path = "records",
) -> Controller:
    """A controller for ``name`` at seat 0 against bots; ValueError for a bad setup."""
    spec = games.get(game)
    n = spec.default_players if players is None else players
    spec.check_players(n)
    wanted = bots if isinstance(bots, str) or bots is None else ",".join(bots)
    chosen = bot_levels(game, wanted, n - 1)
    bot_seed = None if seed is None else seed * 1000
    seats: list[Bot | None] = [None]
    for i, level in enumerate(chosen, start=1):
        seats.append(spec.make_bot(level, None if bot_seed is None else bot_seed + i))
    names = [name, *BOT_NAMES[: n - 1]]
    adapter = spec.terminal_adapter()(names, seats, seed=seed)
    assert isinstance(adapter, GameAdapter)
    return Controller(adapter, Path(records))
