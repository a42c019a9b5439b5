"""Bots on the server: they think in worker processes, off the event loop.

:func:`think` runs in a process of the pool: it makes the seat's bot (seeded
from the table's seed, the version and the seat, so the same position gets
the same move, also after a restart) and returns its action as JSON. The bot
sees only the seat's view, as every bot does.
"""

from __future__ import annotations

import hashlib
import multiprocessing
from collections.abc import Mapping
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from rummykit import games

__all__ = ["bot_seed", "make_pool", "think"]


def bot_seed(table_seed: int, version: int, seat: int) -> int:
    """The seed of a bot's move: from the table, the version it moves at, and the seat."""
    text = f"rummykit-bot:{table_seed}:{version}:{seat}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def think(game: str, level: str, seed: int, view: Mapping[str, object]) -> dict[str, object]:
    """The action ``level``'s bot chooses from ``view``, as RECORD.md JSON (in a worker)."""
    bot = games.get(game).make_bot(level, seed)
    return dict(bot.choose(view).to_json())


def make_pool(workers: int) -> Executor:
    """The pool bots think in: ``workers`` processes (0: a thread, for tests and tiny hosts)."""
    if workers <= 0:
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="rummykit-bots")
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
