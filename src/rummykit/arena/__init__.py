"""The arena: bot matches on duplicate deals, with statistics and Elo.

- :mod:`~rummykit.arena.specs`: bot specs (``strong(samples=8)``, ``cmd:...``) and seeds;
- :mod:`~rummykit.arena.match`: the match, one game at a time, through the game interface;
- :mod:`~rummykit.arena.summary`: win rates with intervals, scores, Elo, faults;
- :mod:`~rummykit.arena.stats`: the statistics (Wilson, clustered intervals, Elo);
- :mod:`~rummykit.arena.run`: running a match in this process, on local processes, or on Ray.
"""

from rummykit.arena.match import (
    ArenaConfig,
    GameResult,
    play_game,
    play_games,
    schedule,
    seat_bots,
)
from rummykit.arena.specs import (
    derive_seed,
    fill_lineup,
    level_settings,
    normalize_spec,
    split_specs,
)
from rummykit.arena.summary import MIN_CLUSTER_DECKS, TIMING_KEYS, comparable, summarize

__all__ = [
    "MIN_CLUSTER_DECKS",
    "TIMING_KEYS",
    "ArenaConfig",
    "GameResult",
    "comparable",
    "derive_seed",
    "fill_lineup",
    "level_settings",
    "normalize_spec",
    "play_game",
    "play_games",
    "schedule",
    "seat_bots",
    "split_specs",
    "summarize",
]
