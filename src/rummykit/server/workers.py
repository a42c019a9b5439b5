"""Work that can take milliseconds, done in worker processes, never on the event loop.

Three pools, so that one kind of work can never starve another:

- the *play* pool (:meth:`Workers.run`, lanes over pipes:
  :mod:`rummykit.server.lanes`): completing an action the engine would have to
  search for (:func:`complete`: a Vatikanen play sent without its table), a
  player's hint, arrangement or draft check (:mod:`rummykit.server.assist`);
- the *bots'* pool (:meth:`Workers.run_bot`, lanes likewise): a bot's move
  (:func:`think`, from the seat's view only), apart so that a bot that thinks
  long never holds up a player;
- the *records* pool (:class:`BoundedPool`): replaying or reviewing a record
  someone sent (``POST /api/replay``, ``POST /api/review``), two processes (a
  fast lane for short jobs, and one for any), each job bounded in its own CPU
  time (not its time queued): a job past it is stopped by killing its worker,
  which ran nothing else, and a fresh one is started; jobs are taken address by
  address in turn, a few at once from one address;
- the *learning* pool (:class:`BoundedPool` likewise, one process at a lower
  priority): judging puzzle answers and lesson moves for anyone who asks over
  HTTP. Judging a whole hand laid on a puzzle's table can take the solver a
  second, so a flood of answers must never queue in front of a player's hint at
  a table: it queues here, in turn by address, each job bounded in time.

No worker outlives its server: each dies with its parent (Linux's
``PR_SET_PDEATHSIG``, and a watch on the parent's pid everywhere), also when
the server is killed with SIGKILL.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import os
import pickle
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import ParamSpec, TypeVar, cast

from rummykit import games
from rummykit.game import AnyAction, Game
from rummykit.server.lanes import LaneLost, Lanes, _Lane, start_lane

__all__ = [
    "BoundedPool",
    "JobTimeout",
    "QueueFull",
    "TooManyJobs",
    "Workers",
    "bot_seed",
    "complete",
    "think",
]

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


class JobTimeout(Exception):
    """A job ran past its own time and was stopped."""


class TooManyJobs(Exception):
    """One client address has as many records jobs waiting or running as it may."""


class QueueFull(Exception):
    """The records queue is full (jobs or bytes): try again later."""


_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid: int) -> float | None:
    """The CPU seconds process ``pid`` has used (Linux's ``/proc``); None elsewhere."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / _TICK


@dataclass(eq=False)
class _Job:
    call: Callable[[], object]
    client: str
    size: int
    future: asyncio.Future[object]
    demoted: bool = False


@dataclass(eq=False)
class _Slot:
    """One worker of the records pool: a process (a lane) or, with no processes, a thread."""

    fast: bool
    lane: _Lane | None = None
    busy: bool = False
    spare: asyncio.Task[_Lane] | None = None
    """The fast lane's next worker, started and warm before it is needed."""


def warm() -> int:
    """A new records worker's first call: what its jobs use imported, before any job's
    time counts. Its process id."""
    import rummykit.review
    import rummykit.server.posted  # noqa: F401
    from rummykit import solver
    from rummykit.melds import KONTRAKT, VATIKANEN

    for name in games.names():
        games.get(name)
    solver.warm(VATIKANEN)
    solver.warm(KONTRAKT)
    return os.getpid()


def warm_learning() -> int:
    """A new learning worker's first call: :func:`warm`, and the shipped puzzles read
    (half a second), before any answer's time counts. Its process id."""
    from rummykit.server.puzzleplay import by_id

    by_id("")
    return warm()


def _retrieve(future: asyncio.Future[object]) -> None:
    if not future.cancelled():
        future.exception()


async def _fresh_lane(nice: int = 0, first: Callable[[], int] = warm) -> _Lane:
    """A records worker, started and warmed by ``first``, its priority lowered by
    ``nice``."""
    lane = await start_lane(nice)
    await lane.send(0, pickle.dumps((0, first, (), {}), pickle.HIGHEST_PROTOCOL))
    return lane


class BoundedPool:
    """Worker processes for records jobs, each job bounded in its own run time.

    - A job's time is its own: the CPU seconds its worker uses from the moment it starts
      the job (``seconds``; or three times that of wall-clock time, whichever comes first),
      never its time in the queue. A job past it is stopped by killing its worker, which
      runs no other job: nothing else is lost, and a fresh worker takes the next job.
    - With ``workers`` 2 or more, the first is a *fast lane*: it takes the smallest job
      waiting (by ``size``, bytes) of at most ``small`` bytes, and gives it ``slice`` CPU
      seconds; a job not done by then is stopped and queued again for the other workers
      (which take every job, in turn by client address), so that a short job passes long
      ones, and a long one disguised as short holds the fast lane one slice at most.
    - Fair by address: one address may have ``per_client`` jobs waiting or running
      (:class:`TooManyJobs` past it); the queue holds ``queued`` jobs and ``queued_bytes``
      bytes of their arguments at most (:class:`QueueFull`); workers take jobs address by
      address in turn.

    With ``workers`` 0 jobs run in a thread, one at a time, unbounded in time (tests).
    """

    def __init__(
        self,
        workers: int,
        seconds: float,
        *,
        small: int = 128 << 10,
        slice: float | None = None,
        per_client: int = 4,
        queued: int = 32,
        queued_bytes: int = 64 << 20,
        nice: int = 0,
        what: str = "records",
        first: Callable[[], int] = warm,
    ) -> None:
        self.workers = workers
        self.nice = nice
        self.what = what
        self.first = first
        self.seconds = seconds
        self.small = small
        self.slice = min(2.0, seconds / 8) if slice is None else slice
        self.per_client = per_client
        self.queued = queued
        self.queued_bytes = queued_bytes
        count = max(1, workers)
        self._slots = [_Slot(fast=count > 1 and k == 0) for k in range(count)]
        self._thread = (
            ThreadPoolExecutor(max_workers=1, thread_name_prefix="rummykit-records")
            if workers <= 0
            else None
        )
        self._waiting: OrderedDict[str, deque[_Job]] = OrderedDict()
        self._held: dict[str, int] = {}
        self._bytes = 0
        self._number = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._started = False

    async def run(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """``fn(*args)`` in a worker, as a job of no client and no size."""
        return await self.submit("", 0, fn, *args, **kwargs)

    async def submit(
        self, client: str, size: int, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs
    ) -> R:
        """``fn(*args)`` in a worker for ``client`` (its address), ``size`` bytes of
        arguments: its result or exception; JobTimeout past its own time, TooManyJobs,
        QueueFull."""
        if self._held.get(client, 0) >= self.per_client:
            raise TooManyJobs(f"at most {self.per_client} {self.what} at once from one address")
        waiting = sum(len(q) for q in self._waiting.values())
        if waiting >= self.queued or self._bytes + size > self.queued_bytes:
            raise QueueFull(f"the server is busy with {self.what}: try again in a moment")
        job = _Job(
            functools.partial(fn, *args, **kwargs),
            client,
            size,
            asyncio.get_running_loop().create_future(),
        )
        if self._thread is None and not self._started:  # every worker warm from the start
            self._started = True
            for slot in self._slots:
                fresh = _fresh_lane(self.nice, self.first)
                slot.spare = asyncio.get_running_loop().create_task(fresh)
        self._held[client] = self._held.get(client, 0) + 1
        self._bytes += size
        self._waiting.setdefault(client, deque()).append(job)
        try:
            self._dispatch()
            return cast(R, await job.future)
        finally:
            self._held[client] -= 1
            if not self._held[client]:
                del self._held[client]
            queue = self._waiting.get(client)
            if queue is not None and job in queue:  # the request went away: never run
                queue.remove(job)
                self._bytes -= size
                if not queue:
                    del self._waiting[client]

    def _take(self, fast: bool) -> _Job | None:
        """The next job for a worker: the fast lane's the smallest small one not demoted;
        the others' the oldest of the next address in turn."""
        best: tuple[int, str, _Job] | None = None
        for client, queue in self._waiting.items():
            for job in queue:
                if fast and (job.demoted or job.size > self.small):
                    continue
                if not fast or best is None or job.size < best[0]:
                    best = (job.size, client, job)
                if not fast:
                    break
            if best is not None and not fast:
                break
        if best is None:
            return None
        _, client, job = best
        queue = self._waiting[client]
        queue.remove(job)
        if queue:
            self._waiting.move_to_end(client)
        else:
            del self._waiting[client]
        self._bytes -= job.size
        return job

    def _dispatch(self) -> None:
        for slot in self._slots:
            if slot.busy:
                continue
            job = self._take(slot.fast)
            if job is None:
                continue
            slot.busy = True
            task = asyncio.get_running_loop().create_task(self._run_on(slot, job))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _run_on(self, slot: _Slot, job: _Job) -> None:
        try:
            limit = self.slice if slot.fast else self.seconds
            try:
                result = await self._call(slot, job.call, limit)
            except JobTimeout:
                if slot.fast and not job.future.done():  # not short after all: queue again
                    job.demoted = True
                    self._waiting.setdefault(job.client, deque()).appendleft(job)
                    self._bytes += job.size
                    return
                raise
            if not job.future.done():
                job.future.set_result(result)
        except Exception as exc:
            if not job.future.done():
                job.future.set_exception(exc)
        finally:
            slot.busy = False
            self._dispatch()

    async def _call(self, slot: _Slot, call: Callable[[], object], limit: float) -> object:
        """``call()`` on ``slot``'s worker, stopped past ``limit`` of its own CPU seconds."""
        loop = asyncio.get_running_loop()
        if self._thread is not None:
            return await loop.run_in_executor(self._thread, call)
        if slot.lane is None or not slot.lane.alive:
            spare, slot.spare = slot.spare, None
            slot.lane = await spare if spare is not None else None
            if slot.lane is None or not slot.lane.alive:
                slot.lane = await _fresh_lane(self.nice, self.first)
            if slot.fast:  # the next one, for when this one is stopped
                slot.spare = loop.create_task(_fresh_lane(self.nice, self.first))
        lane = slot.lane
        assert lane.transport is not None
        pid = lane.transport.get_pid()
        cpu0, begun = cpu_seconds(pid), time.monotonic()
        self._number += 1
        payload = pickle.dumps((self._number, call, (), {}), pickle.HIGHEST_PROTOCOL)
        future = lane.send(self._number, payload)
        future.add_done_callback(_retrieve)
        while not future.done():
            await asyncio.wait({future}, timeout=0.1)
            if future.done():
                break
            cpu = cpu_seconds(pid)
            used = cpu - cpu0 if cpu is not None and cpu0 is not None else 0.0
            if used > limit or time.monotonic() - begun > 3 * limit:
                lane.kill()
                slot.lane = None
                raise JobTimeout(f"the job took more than {limit:g} s")
        try:
            return future.result()
        except LaneLost:
            slot.lane = None
            raise JobTimeout("the job's worker stopped") from None

    def shutdown(self) -> None:
        """Stop the workers."""
        for slot in self._slots:
            if slot.lane is not None:
                slot.lane.kill()
                slot.lane = None
            if slot.spare is not None:
                spare, slot.spare = slot.spare, None
                if spare.done() and not spare.cancelled() and spare.exception() is None:
                    spare.result().kill()
                else:
                    spare.cancel()
        if self._thread is not None:
            self._thread.shutdown(wait=False, cancel_futures=True)


BOTS_NICE = 10
"""How much lower the bots' workers run than the server: a bot's move waits a second
(``--bot-delay``) anyway, a player's answer should not wait behind one."""


class _PlayPool:
    """Lanes over pipes, or with ``workers`` 0 one thread (tests, tiny hosts)."""

    def __init__(self, workers: int, name: str, nice: int = 0) -> None:
        self.lanes = Lanes(workers, nice=nice) if workers > 0 else None
        self._thread = (
            ThreadPoolExecutor(max_workers=1, thread_name_prefix=name) if workers <= 0 else None
        )

    async def run(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        if self.lanes is None:
            assert self._thread is not None
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._thread, functools.partial(fn, *args, **kwargs))
        try:
            return await self.lanes.run(fn, *args, **kwargs)
        except LaneLost:
            return await self.lanes.run(fn, *args, **kwargs)

    def shutdown(self) -> None:
        if self.lanes is not None:
            self.lanes.shutdown()
        if self._thread is not None:
            self._thread.shutdown(wait=False, cancel_futures=True)


LEARN_SECONDS = 4.0
"""The CPU seconds a puzzle answer or a lesson move may take to judge (the slowest of
the shipped puzzles' whole-hand answers takes the solver about one)."""

LEARN_PER_ADDRESS = 8
"""The puzzle answers and lesson moves one address may have judged or waiting at once: a
board checks each meld staged as it is built (a fast player stages three or four at once),
and a class learning behind one address shares it."""


class Workers:
    """The server's worker processes: ``play`` for what a player waits on (completing a
    play, a hint, a draft check), ``bots`` for the bots' moves (both lanes over pipes:
    :mod:`rummykit.server.lanes`), ``records`` for replays and reviews, ``learn`` for
    puzzles and lessons (see the module docstring). A bot that thinks long (``expert``,
    hundreds of milliseconds a move) holds up only other bots, never a player at another
    table, and its workers run at a lower priority (:data:`BOTS_NICE`) than the server's,
    so it takes no core from the server: measured by ``benchmarks/server.py --experts``.
    With ``workers`` 0 each runs in a thread of its own (tests, tiny hosts)."""

    def __init__(self, workers: int = 1, *, record_seconds: float = 20.0) -> None:
        self.workers = workers
        self.play = _PlayPool(workers, "rummykit-play")
        self.bots = _PlayPool(workers, "rummykit-bots", nice=BOTS_NICE)
        self.records = BoundedPool(2 if workers > 0 else 0, record_seconds)
        self.learn = BoundedPool(
            1 if workers > 0 else 0,
            LEARN_SECONDS,
            per_client=LEARN_PER_ADDRESS,
            queued=64,
            nice=BOTS_NICE,
            what="answers to judge",
            first=warm_learning,
        )

    async def run(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """``fn(*args)`` in the play pool. A worker that died (killed, out of memory) is
        started again, and the call made again once."""
        return await self.play.run(fn, *args, **kwargs)

    async def run_bot(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """``fn(*args)`` in the bots' pool, likewise, so that the bots never stop for good."""
        return await self.bots.run(fn, *args, **kwargs)

    def shutdown(self) -> None:
        """Stop every worker now (the server is stopping)."""
        self.play.shutdown()
        self.bots.shutdown()
        self.records.shutdown()
        self.learn.shutdown()
