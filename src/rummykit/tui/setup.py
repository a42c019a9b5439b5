"""Set up a game for terminal play: names, bots, adapter and controller."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rummykit.bots import Bot, levels, make_bot
from rummykit.tui.controller import BOT_NAMES, Controller, GameAdapter

__all__ = ["DEFAULTS", "GAMES", "bot_levels", "make_controller"]

GAMES = ("vatikanen", "kontrakt")

DEFAULTS: dict[str, tuple[int, str, int, int]] = {
    "vatikanen": (3, "greedy", 2, 5),
    "kontrakt": (4, "basic", 2, 8),
}
"""Per game: default players, default bot level, fewest and most players."""


def bot_levels(game: str, spec: str | None, bots: int) -> list[str]:
    """The level of each bot from ``--bots`` (one level for all, or one per bot).

    >>> bot_levels("vatikanen", "random,greedy", 2)
    ['random', 'greedy']
    >>> bot_levels("kontrakt", None, 3)
    ['basic', 'basic', 'basic']
    """
    if not spec:
        return [DEFAULTS[game][1]] * bots
    wanted = [s.strip() for s in spec.split(",") if s.strip()]
    if len(wanted) == 1:
        wanted *= bots
    if len(wanted) != bots:
        raise ValueError(f"--bots names one level, or one for each of the {bots} bots")
    known = levels(game)
    for level in wanted:
        if level not in known:
            raise ValueError(f"no {game} bot called {level!r}: the levels are {', '.join(known)}")
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
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}: play vatikanen or kontrakt")
    default_n, _, low, high = DEFAULTS[game]
    n = default_n if players is None else players
    if not low <= n <= high:
        raise ValueError(f"{game} is for {low} to {high} players, not {n}")
    spec = bots if isinstance(bots, str) or bots is None else ",".join(bots)
    chosen = bot_levels(game, spec, n - 1)
    bot_seed = None if seed is None else seed * 1000
    seats: list[Bot | None] = [None]
    for i, level in enumerate(chosen, start=1):
        seats.append(make_bot(game, level, None if bot_seed is None else bot_seed + i))
    names = [name, *BOT_NAMES[: n - 1]]
    adapter: GameAdapter
    if game == "vatikanen":
        from rummykit.tui.vatikanen_play import VatikanenAdapter

        adapter = VatikanenAdapter(names, seats, seed=seed)
    else:
        from rummykit.tui.kontrakt_play import KontraktAdapter

        adapter = KontraktAdapter(names, seats, seed=seed)
    return Controller(adapter, Path(records))
