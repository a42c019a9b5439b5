"""Work that can take milliseconds, done in worker processes, never on the event loop.

Two pools, so that one kind of work can never starve the other:

- the *play* pool (:meth:`Workers.run`, lanes over pipes:
  :mod:`rummykit.server.lanes`): a bot's move (:func:`think`, from
  the seat's view only), completing an action the engine would have to search
  for (:func:`complete`: a Vatikanen play sent without its table), a player's
  hint, arrangement or draft check (:mod:`rummykit.server.assist`);
- the *records* pool (:class:`BoundedPool`): replaying or reviewing a record
  someone sent (``POST /api/replay``, ``POST /api/review``), each job bounded
  in time: a job past its time is stopped by killing its worker, and the
  pool starts a fresh one.

No worker outlives its server: each dies with its parent (Linux's
``PR_SET_PDEATHSIG``, and a watch on the parent's pid everywhere), also when
the server is killed with SIGKILL.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import functools
import hashlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import ParamSpec, TypeVar

from rummykit import games
from rummykit.game import AnyAction, Game
from rummykit.server.lanes import LaneLost, Lanes

__all__ = ["BoundedPool", "JobTimeout", "Workers", "bot_seed", "complete", "think"]

P = ParamSpec("P")
R = TypeVar("R")


def bot_seed(table_seed: int, version: int, seat: int) -> int:
    """The seed of a bot's move: from the table, the version it moves at, and the seat."""
    text = f"rummykit-bot:{table_seed}:{version}:{seat}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def think(game: str, level: str, seed: int, view: Mapping[str, object]) -> dict[str, object]:
    """The action ``level``'s bot chooses from ``view``, as RECORD.md JSON (in a worker).
    The bot sees only the seat's view, as every bot does."""
    bot = games.get(game).make_bot(level, seed)
    return dict(bot.choose(view).to_json())


def complete(game: Game, action: AnyAction) -> dict[str, object]:
    """``action`` as the engine takes it, complete (in a worker, on a copy of the game):
    the record's form, which the event loop then takes without searching. RuleError or
    ActionError, as the engine raises them, if the action is not legal."""
    return dict(game.apply(action).record_json())


def die_with_parent(parent: int) -> None:
    """A worker's initializer: end when the server process ends, however it ends."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent went before the line above took effect
        os._exit(0)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="rummykit-parent-watch", daemon=True).start()


def _process_pool(workers: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    )


class JobTimeout(Exception):
    """A job ran past its time and was stopped."""


class BoundedPool:
    """A pool of worker processes whose jobs are each bounded in time.

    A job still running after ``seconds`` is stopped: its pool's processes are
    killed and a new pool is started (jobs waiting in the old one fail with
    :class:`JobTimeout` too; there is one worker, so they are few). With
    ``workers`` 0 jobs run in a thread and are not bounded (tests).
    """

    def __init__(self, workers: int, seconds: float) -> None:
        self.workers = workers
        self.seconds = seconds
        self._pool: Executor = self._make()

    def _make(self) -> Executor:
        if self.workers <= 0:
            return ThreadPoolExecutor(max_workers=1, thread_name_prefix="rummykit-records")
        return _process_pool(self.workers)

    async def run(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """``fn(*args)`` in a worker; JobTimeout past the time."""
        loop = asyncio.get_running_loop()
        pool = self._pool
        future = loop.run_in_executor(pool, functools.partial(fn, *args, **kwargs))
        try:
            return await asyncio.wait_for(future, self.seconds)
        except TimeoutError:
            self._restart(pool)
            raise JobTimeout(f"the job took more than {self.seconds:g} s") from None
        except BrokenProcessPool:
            self._restart(pool)
            raise JobTimeout("the job's worker stopped") from None

    def _restart(self, pool: Executor) -> None:
        if pool is not self._pool:
            return
        self._pool = self._make()
        if isinstance(pool, ProcessPoolExecutor):
            for process in list(getattr(pool, "_processes", {}).values()):
                with contextlib.suppress(Exception):
                    process.kill()
        pool.shutdown(wait=False, cancel_futures=True)

    def shutdown(self) -> None:
        """Stop the workers."""
        self._restart(self._pool)
        self._pool.shutdown(wait=False, cancel_futures=True)


class Workers:
    """The server's worker processes: ``play`` for bots and players' help (lanes, over
    pipes: :mod:`rummykit.server.lanes`), ``records`` for replays and reviews (see the
    module docstring). With ``workers`` 0 both run in a thread (tests, tiny hosts)."""

    def __init__(self, workers: int = 1, *, record_seconds: float = 20.0) -> None:
        self.workers = workers
        self.lanes = Lanes(workers) if workers > 0 else None
        self._thread = (
            ThreadPoolExecutor(max_workers=1, thread_name_prefix="rummykit-play")
            if workers <= 0
            else None
        )
        self.records = BoundedPool(1 if workers > 0 else 0, record_seconds)

    async def run(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """``fn(*args)`` in the play pool. A worker that died (killed, out of memory) is
        started again, and the call made again once, so the bots never stop for good."""
        if self.lanes is None:
            assert self._thread is not None
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._thread, functools.partial(fn, *args, **kwargs))
        try:
            return await self.lanes.run(fn, *args, **kwargs)
        except LaneLost:
            return await self.lanes.run(fn, *args, **kwargs)

    def shutdown(self) -> None:
        """Stop every worker now (the server is stopping)."""
        if self.lanes is not None:
            self.lanes.shutdown()
        if self._thread is not None:
            self._thread.shutdown(wait=False, cancel_futures=True)
        self.records.shutdown()
