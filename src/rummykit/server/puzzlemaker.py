"""The server's puzzle maker (docs/puzzles.md, "Puzzles from this server's games"): it runs
the maker (:func:`~rummykit.server.puzzleplay.mine_job`) once on each finished game, by
itself as a game ends and when a review asks, never on a game in play.

It is bounded as a public server must be: the records workers run it (their own time and
per-client limits apply), at most :data:`MINE_SECONDS` on a game, at most
:data:`MINE_PER_DAY` games a day, and at most :data:`RUNNING` games at once by itself (a
game that ends while that many are made waits for its review to ask). What it finds is
stored in one transaction with the mark that it ran (:meth:`PuzzleRatingStore.keep_mined`),
so two processes, or the review and the end of the game, make a game's puzzles once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable

from rummykit.puzzles.store import AnyPuzzle
from rummykit.server.puzzleplay import from_line, mine_job
from rummykit.server.store.base import FinishedGame, Store, StoreBusy
from rummykit.server.store.puzzles import PuzzleRatingStore, Taken
from rummykit.server.workers import JobTimeout, QueueFull, TooManyJobs, Workers

__all__ = ["MINE_PER_DAY", "MINE_SECONDS", "RECENT", "RUNNING", "NotMade", "PuzzleMaker"]

log = logging.getLogger(__name__)

MINE_SECONDS = 10.0
"""The maker's time on one finished game (the records worker's own limit stops it too)."""

MINE_PER_DAY = 500
"""The most finished games the maker runs on in a day."""

RUNNING = 2
"""The most games the maker works on at once by itself, as games end."""

RECENT = 300
"""How many of the puzzles made last are offered beside the shipped set."""

RECENT_SECONDS = 30.0
"""How long the puzzles made last are read once for every player asking."""

Finished = Callable[[str, int], Awaitable[FinishedGame | str]]


class NotMade(Exception):
    """Why a game's puzzles were not made: ``code`` is ``not_found``, ``not_over``,
    ``rate_limited`` or ``unavailable``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class PuzzleMaker:
    """The maker of one server process, over ``store``'s database and ``workers``;
    ``finished`` reads a finished game (:meth:`Rooms.finished`)."""

    def __init__(self, store: Store, workers: Workers, finished: Finished) -> None:
        self.kept = PuzzleRatingStore(store)
        self.workers = workers
        self.finished = finished
        self._running: set[asyncio.Task[None]] = set()
        self._recent: tuple[float, list[AnyPuzzle]] = (-RECENT_SECONDS, [])

    async def make(self, table_id: str, game: int, client: str) -> list[str]:
        """The ids of the puzzles of finished game ``game`` of ``table_id``, made now if
        the maker has not run on it (NotMade: why not; StoreBusy)."""
        already = await self.kept.game_puzzles(table_id, game)
        if already is not None:
            return already
        finished = await self.finished(table_id, game)
        if isinstance(finished, str):
            raise NotMade(finished, "no finished game there")
        if await self.kept.mined_since(time.time() - 86400) >= MINE_PER_DAY:
            raise NotMade("rate_limited", "enough puzzles were made today")
        try:
            lines = await self.workers.records.submit(
                client, len(finished.record), mine_job, json.loads(finished.record), MINE_SECONDS
            )
        except JobTimeout:
            lines = []
        except TooManyJobs as exc:
            raise NotMade("rate_limited", str(exc)) from None
        except QueueFull as exc:
            raise NotMade("unavailable", str(exc)) from None
        pairs = [(str(json.loads(line)["id"]), line) for line in lines]
        with contextlib.suppress(Taken):  # made meanwhile, by a review or another process
            await self.kept.keep_mined(table_id, game, pairs, time.time())
        return await self.kept.game_puzzles(table_id, game) or []

    async def recent(self, game: str) -> list[AnyPuzzle]:
        """The puzzles of ``game`` among the :data:`RECENT` made last from this server's
        games (read at most once every :data:`RECENT_SECONDS`; StoreBusy)."""
        at, found = self._recent
        if time.monotonic() - at >= RECENT_SECONDS:
            lines = await self.kept.recent_lines(RECENT)
            found = [p for p in map(from_line, lines) if p is not None]
            self._recent = (time.monotonic(), found)
        return [p for p in found if p.game == game]

    def soon(self, table_id: str, game: int) -> None:
        """Make the puzzles of a game that just ended, in the background, unless
        :data:`RUNNING` games are being made already (its review will ask)."""
        if len(self._running) >= RUNNING:
            return
        task = asyncio.get_running_loop().create_task(self._quietly(table_id, game))
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def _quietly(self, table_id: str, game: int) -> None:
        try:
            await self.make(table_id, game, "server")
        except (NotMade, StoreBusy) as exc:
            log.info("table %s game %s: no puzzles made now (%s)", table_id, game, exc)

    async def stop(self) -> None:
        """Stop the makings under way (a game not made is made when its review asks)."""
        for task in list(self._running):
            task.cancel()
        for task in list(self._running):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
