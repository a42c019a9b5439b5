"""The tables this process serves: loaded on first use, let go when nobody plays at them.

:class:`Rooms` is the server process's set of rooms. A table is loaded when a
request or connection for it arrives, or when it is due (its bots, clocks or
stand-ins must move and no process serves it: :meth:`Store.due`, one indexed
query a second, however many tables are stored), and only if this process
can claim it (:mod:`rummykit.server.presence`). Loading it costs what its
current unit needs: the seats' events and the unit's own
(:meth:`HostedTable.replay`). It leaves memory when it has had no
connection for ``idle_after`` seconds and nothing is due sooner; its row then
says when it is due again. Start-up loads nothing, so it does not grow with
the number of tables stored. Lists (the lobby, "my tables") are read from the
store's summaries, page by page, without loading any table.

A table whose events no longer replay is set aside (never loaded again, and
logged), and never stops the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Coroutine, Mapping, Sequence
from dataclasses import dataclass

from rummykit import games
from rummykit.server.finished import rebuild_finished
from rummykit.server.gameinfo import seatable_levels
from rummykit.server.hosted import HostedTable, SeatSpec, TableSettings
from rummykit.server.ids import public_id
from rummykit.server.limits import Bucket, Limits
from rummykit.server.moderation import Moderation
from rummykit.server.presence import HOLD, LetGo, decode, encode
from rummykit.server.protocol import Close, dumps
from rummykit.server.puzzlemaker import PuzzleMaker
from rummykit.server.puzzleplay import by_id
from rummykit.server.room import Room, RoomHost
from rummykit.server.store import (
    FinishedGame,
    Listing,
    StatusFilter,
    Store,
    StoreBusy,
    TableRow,
)
from rummykit.server.workers import JobTimeout, Workers

__all__ = ["Busy", "Rooms", "TableGames", "TooMany"]

log = logging.getLogger("rummykit.server")

DUE_EVERY = 1.0
"""Seconds between two looks for due tables nobody serves."""
CLEANUP_EVERY = 600.0
"""Seconds between two removals of abandoned tables."""
COLLECT_EVERY = 1.0
"""Seconds between two collections of the objects made since the last (the survivors
are then frozen: :meth:`Rooms._collect_loop`)."""
FULL_EVERY = 6 * 3600.0
"""Seconds between two collections of every object (what a cycle frozen and then
dropped waits for)."""


class Busy(Exception):
    """The table could not be had now (another process would not let it go, or the store
    is busy): try again."""


class TooMany(Exception):
    """One client made too many tables."""


@dataclass(frozen=True)
class TableGames:
    """A table's finished games as kept (without their records), oldest first; the number
    of the game in play (None: none); whether its first game waits for its players."""

    games: tuple[FinishedGame, ...]
    playing: int | None
    waiting: bool

    def to_json(self) -> dict[str, object]:
        """PROTOCOL.md's ``GET /api/tables/{id}/games``."""
        out: list[dict[str, object]] = [
            {
                "game": g.game,
                "status": "over",
                "ended": g.ended,
                "result": None if g.result is None else json.loads(g.result),
            }
            for g in self.games
        ]
        if self.playing is not None:
            out.append({"game": self.playing, "status": "playing"})
        return {"games": out}


PUZZLES_AFTER = 5.0
"""Seconds after the start at which the shipped puzzle sets are read."""


class Rooms:
    """Every table this server process serves (see the module docstring)."""

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 1.0,
        workers: int = 1,
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.workers = Workers(workers, record_seconds=self.limits.replay_seconds)
        self.process = secrets.token_hex(6)
        self.moderation = Moderation(store)
        self.puzzles = PuzzleMaker(store, self.workers, self.finished)
        self.host = RoomHost(
            store,
            self.workers,
            self.limits,
            bot_delay,
            self._let_go,
            self._idle,
            self.moderation,
            self.puzzles.soon,
        )
        self.rooms: dict[str, Room] = {}
        self._held_since: dict[str, float] = {}
        self._loading: dict[str, asyncio.Task[Room | None]] = {}
        self._idle_timers: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._makers: OrderedDict[str, Bucket] = OrderedDict()
        self.started = False
        self.stopping = False

    # ------------------------------------------------------------ start and stop

    async def start(self) -> None:
        """Open the store and start looking for due tables; no table is loaded."""
        await self.store.open()
        await self.store.listen(self._heard, self._lost)
        self._spawn(self._due_loop())
        self._spawn(self._cleanup_loop())
        self._spawn(self._summarize_old())
        self._spawn(self._collect_loop())
        self._spawn(self._read_puzzles())
        self.started = True
        log.info("rummykit server: serving from %s", _where(self.store.url))

    async def _read_puzzles(self) -> None:
        """Read the shipped puzzle sets (half a second) in a thread, a few seconds after the
        start, so that the first puzzle asked for does not read them while the tables wait,
        and the start itself is not slowed (a puzzle asked for sooner reads them then, in a
        thread too)."""
        await asyncio.sleep(PUZZLES_AFTER)
        await asyncio.to_thread(by_id, "")

    async def stop(self) -> None:
        """Let every table go (connections are told to reconnect), stop the workers, close
        the store."""
        self.stopping = True
        for task in list(self._tasks):
            task.cancel()
        await self.puzzles.stop()
        for room in list(self.rooms.values()):
            room.close_all(Close.MOVED, "the server is stopping: reconnect")
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._forget(room), 5)
        self.workers.shutdown()
        await self.store.close()

    def _spawn(self, coro: Coroutine[object, object, None]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------ tables

    async def create(
        self,
        game: str,
        seats: Sequence[str],
        options: Mapping[str, object] | None = None,
        *,
        clock: int = 0,
        grace: int = 60,
        stand_in: bool = True,
        rated: bool = False,
        client: str | None = None,
    ) -> str:
        """A new table, stored (not loaded: nobody is at it yet); its summary as JSON text.

        ValueError saying what is wrong with the request; TooMany when ``client``
        (an address) has made too many tables lately.
        """
        spec = games.get(game)
        spec.check_players(len(seats))
        parsed = tuple(SeatSpec.parse(s, spec) for s in seats)
        for seat in parsed:
            if seat.kind == "bot" and seat.level not in seatable_levels(spec.name):
                raise ValueError(f"a {seat.level} bot needs settings a table cannot give it")
        if all(s.kind == "bot" for s in parsed):
            raise ValueError("a table needs at least one human seat")
        most = self.limits.max_clock
        if not 0 <= clock <= most or not 0 <= grace <= most:
            raise ValueError(f"clock and grace are 0-{most} seconds")
        if client is not None and not self._may_make(client):
            raise TooMany("too many tables from one address: try again later")
        settings = TableSettings(
            game=spec.name,
            seats=parsed,
            options=spec.check_options(options or {}),
            seed=secrets.randbits(63),
            clock=clock,
            grace=grace,
            stand_in=stand_in,
            rated=rated,
        )
        table = HostedTable(public_id(), settings, time.time())
        summary = dumps(table.summary([False] * len(parsed), [False] * len(parsed)))
        from rummykit.server.store import TableMeta

        row = TableRow(
            table.id,
            spec.name,
            json.dumps(settings.to_json()),
            table.created,
            TableMeta("waiting", 0, summary),
        )
        await self.store.create_table(row, None if client is None else _hashed(client))
        log.info("table %s made: %s, %d seats", table.id, spec.name, len(parsed))
        return summary

    def _may_make(self, client: str) -> bool:
        bucket = self._makers.get(client)
        if bucket is None:
            most = self.limits.tables_per_hour
            bucket = Bucket(most / 3600, most)
            self._makers[client] = bucket
            if len(self._makers) > self.limits.clients_tracked:
                self._makers.popitem(last=False)
        self._makers.move_to_end(client)
        return bucket.take()

    async def summary(self, table_id: str) -> str | None:
        """The table's summary as JSON text (live if it is served here), or None."""
        room = self.rooms.get(table_id)
        if room is not None and not room.gone:
            return room.live_summary()
        found = await self.store.summaries([table_id])
        return found[0] if found else None

    async def listing(self, status: StatusFilter, before: str | None) -> Listing:
        """A page of summaries, newest first (ValueError for a bad cursor)."""
        return await self.store.listing(status, before, self.limits.page)

    async def summaries(self, ids: Sequence[str]) -> list[str]:
        """The summaries of these tables ("my tables"), live where served here."""
        wanted = list(dict.fromkeys(ids))[: self.limits.page]
        stored = await self.store.summaries(
            [i for i in wanted if i not in self.rooms or self.rooms[i].gone]
        )
        by_id = {json.loads(s)["id"]: s for s in stored}
        for i in wanted:
            room = self.rooms.get(i)
            if room is not None and not room.gone:
                by_id[i] = room.live_summary()
        return [by_id[i] for i in wanted if i in by_id]

    async def games(self, table_id: str) -> TableGames | None:
        """The table's finished games as kept (PROTOCOL.md, "Finished games of a table"), and
        the game in play; None for no such table. Read from the store alone, never from a
        live table: what a running game holds is never part of it. Games a table finished
        before they were kept are rebuilt from its events, once."""
        row = await self.store.table(table_id) if len(table_id) <= 64 else None
        if row is None or row.broken is not None:
            return None
        status, played = "waiting", 0
        if row.meta is not None:
            status = row.meta.status
            played = int(json.loads(row.meta.summary).get("games_played", 0))
        ended = played if status == "over" else max(0, played - 1)
        kept = await self.store.games(table_id)
        if row.meta is None or not set(range(ended)) <= {g.game for g in kept}:
            events = [
                (e.version, e.kind, e.data, e.created) for e in await self.store.events(table_id)
            ]
            try:
                rebuilt = await self.workers.records.run(
                    rebuild_finished, table_id, row.settings, events
                )
            except JobTimeout:
                rebuilt = []
                log.warning("table %s: its finished games take too long to rebuild", table_id)
            for game in rebuilt:
                await self.store.add_game(table_id, game)
            kept = await self.store.games(table_id)
        numbers = {g.game for g in kept}
        playing = played - 1 if status == "playing" and played - 1 not in numbers else None
        if status == "waiting" and not kept:
            playing = None
        return TableGames(tuple(kept), playing, status == "waiting")

    async def finished(self, table_id: str, game: int | None) -> FinishedGame | str:
        """Finished game ``game`` of the table with its record (None: the last finished),
        as kept; else ``not_found`` (no such table or game) or ``not_over`` (the game in
        play, or no game has ended yet)."""
        listed = await self.games(table_id)
        if listed is None:
            return "not_found"
        if game is None:
            if not listed.games:
                return "not_over"
            game = listed.games[-1].game
        if game not in {g.game for g in listed.games}:
            unplayed = listed.waiting and game == 0
            return "not_over" if game == listed.playing or unplayed else "not_found"
        found = await self.store.game_record(table_id, game)
        return "not_found" if found is None else found

    # ------------------------------------------------------------ loading

    async def get(self, table_id: str) -> Room | None:
        """The table's room, loaded (and claimed) if needed; None for no such table (or one
        set aside). Busy if it cannot be had now."""
        room = self.rooms.get(table_id)
        if room is not None and not room.gone:
            return room
        if len(table_id) > 64:
            return None
        task = self._loading.get(table_id)
        if task is None:
            task = asyncio.ensure_future(self._load(table_id))
            self._loading[table_id] = task
            task.add_done_callback(lambda _: self._loading.pop(table_id, None))
        return await asyncio.shield(task)

    async def _load(self, table_id: str) -> Room | None:
        try:
            row = await self.store.table(table_id)
        except StoreBusy as exc:
            raise Busy(str(exc)) from None
        if row is None or row.broken is not None:
            return None
        await self._claim(table_id)
        try:
            room = await self._rebuild(row)
        except StoreBusy as exc:
            await self.store.release(table_id)
            raise Busy(str(exc)) from None
        except Exception as exc:
            log.error("table %s is set aside: its events no longer replay (%r)", table_id, exc)
            with contextlib.suppress(Exception):
                await self.store.set_aside(table_id, repr(exc))
            await self.store.release(table_id)
            return None
        try:  # still held? (a lost lock connection takes it: see _lost)
            held = await self.store.claim(table_id)
        except StoreBusy as exc:
            raise Busy(str(exc)) from None
        if not held:
            raise Busy("another server process holds this table: try again")
        self.rooms[table_id] = room
        self._held_since[table_id] = time.monotonic()
        with contextlib.suppress(StoreBusy):
            await self.store.serve(table_id, self.process)
        if row.meta is None:  # a table stored before summaries were kept
            with contextlib.suppress(StoreBusy):
                await self.store.save_meta(table_id, room.meta())
        room.driver.schedule()
        self._idle(room)
        return room

    async def _claim(self, table_id: str) -> None:
        """Become the table's one server: at once if nobody serves it, else by asking its
        server to let it go. Busy if it will not."""
        try:
            if await self.store.claim(table_id):
                return
            await self.store.announce(encode(LetGo(table_id, self.process)))
            for _ in range(50):
                await asyncio.sleep(0.1)
                if await self.store.claim(table_id):
                    return
        except StoreBusy as exc:
            raise Busy(str(exc)) from None
        raise Busy("another server process holds this table: try again")

    async def _rebuild(self, row: TableRow) -> Room:
        settings = TableSettings.from_json(json.loads(row.settings))
        table = HostedTable(row.id, settings, row.created)
        base = row.meta.base if row.meta is not None else 0
        for event in await self.store.load_events(row.id, table.human_seats, base):
            table.replay(event.version, event.kind, json.loads(event.data))
        room = Room(table, self.host, row.meta.presence if row.meta is not None else None)
        kept = await self.store.chat(row.id, 1)
        room.chat_count = kept[-1][0] if kept else 0
        return room

    # ------------------------------------------------------------ leaving memory

    def _idle(self, room: Room) -> None:
        """The room has no connection: look again in ``idle_after`` seconds."""
        old = self._idle_timers.pop(room.id, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self._idle_timers[room.id] = loop.call_later(
            self.limits.idle_after, lambda: self._spawn(self._maybe_forget(room))
        )

    async def _maybe_forget(self, room: Room) -> None:
        self._idle_timers.pop(room.id, None)
        if room.gone or self.rooms.get(room.id) is not room:
            return
        due = room.driver.wake_at()
        soon = due is not None and due - time.time() < self.limits.idle_after
        if room.conns or room.driver.busy or soon:
            if not room.conns:
                self._idle(room)
            return
        room.close_all(Close.MOVED, "the table left memory: reconnect")
        await self._forget(room)

    async def put_down(self, table_id: str) -> None:
        """Let a table go at once if nobody is connected to it and nothing is under way:
        one this process loaded only to seat its players (the "Play now" matcher), so
        that the process their pages reach claims it at once rather than after
        :data:`HOLD` seconds."""
        room = self.rooms.get(table_id)
        if room is not None and not room.gone and not room.conns and not room.driver.busy:
            await self._forget(room)

    async def _let_go(self, room: Room) -> None:
        """Forget a room whose commit failed (it is ahead of the store)."""
        room.close_all(Close.MOVED, "the table is being reloaded: reconnect")
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
        timer = self._idle_timers.pop(room.id, None)
        if timer is not None:
            timer.cancel()
        with contextlib.suppress(Exception):
            await self.store.release(room.id)
        self._spawn(self._unserve(room.id))

    def _lost(self, tables: frozenset[str]) -> None:
        """The database connection holding these tables' locks is gone, and the locks with
        it: another process may load them now, so stop serving them at once. Their
        connections are told to reconnect (4503, through the router); a table is claimed
        again only when it is asked for again."""
        for table_id in tables:
            room = self.rooms.pop(table_id, None)
            self._held_since.pop(table_id, None)
            timer = self._idle_timers.pop(table_id, None)
            if timer is not None:
                timer.cancel()
            if room is not None and not room.gone:
                log.warning("table %s: the database connection holding it was lost", table_id)
                room.close_all(Close.MOVED, "the server lost its hold on the table: reconnect")

    async def _unserve(self, table_id: str) -> None:
        """Write that nobody serves a table let go after a failed commit, once the store
        takes writes again: it is then found due as before (its bots and clocks go on)
        without waiting for a client."""
        while table_id not in self.rooms and table_id not in self._loading:
            try:
                await self.store.serve(table_id, None)
                return
            except StoreBusy:
                await asyncio.sleep(1.0)

    async def _forget(self, room: Room) -> None:
        """Write what the table's row must say (when it is due), and let it go."""
        room.gone = True
        room.driver.stop()
        async with room.lock:  # a change under way is committed first
            if self.rooms.get(room.id) is room:
                del self.rooms[room.id]
            timer = self._idle_timers.pop(room.id, None)
            if timer is not None:
                timer.cancel()
            try:
                await self.store.save_meta(room.id, room.meta())
                await self.store.serve(room.id, None)
            except StoreBusy:  # once it writes again, the table is found due as before
                if not self.stopping:
                    self._spawn(self._unserve(room.id))
            await self.store.release(room.id)
        log.info("table %s left memory", room.id)

    # ------------------------------------------------------------ loops and notices

    async def _collect_loop(self) -> None:
        """Keep the garbage collector's pauses short (see :data:`COLLECT_EVERY`).

        Python's full collections look at every object, so with a thousand tables
        in memory one took up to 850 ms (``benchmarks/server.py``): every request in
        flight waited. Instead the automatic full collection is off; every
        :data:`COLLECT_EVERY` seconds the objects made since the last time are
        collected (only those: a few milliseconds) and the survivors frozen, out of
        later collections. An object frozen and later dropped is still freed (by its
        count of references); only one dropped in a cycle waits for the whole
        collection made every :data:`FULL_EVERY` seconds.
        """
        gc.collect()
        gc.freeze()
        young, middle, _ = gc.get_threshold()
        gc.set_threshold(young, middle, 1_000_000)
        full = time.monotonic()
        while True:
            await asyncio.sleep(COLLECT_EVERY)
            if time.monotonic() - full >= FULL_EVERY:
                gc.unfreeze()
                found = gc.collect()
                full = time.monotonic()
                log.info("full collection: %d objects freed", found)
            else:
                gc.collect()  # only what is not frozen: what lived through the last second
            gc.freeze()

    async def _due_loop(self) -> None:
        """Load the tables that are due and that nobody serves (their bots, clocks and
        stand-ins move), a few at a time."""
        while True:
            await asyncio.sleep(DUE_EVERY)
            try:
                for table_id in await self.store.due(time.time(), 20):
                    if table_id not in self.rooms:
                        with contextlib.suppress(Busy):
                            await self.get(table_id)
            except StoreBusy:
                continue
            except Exception:
                log.exception("looking for due tables failed")

    async def _cleanup_loop(self) -> None:
        """Remove tables nobody joined for a day (PROTOCOL.md, Limits)."""
        while True:
            try:
                removed = await self.store.remove_abandoned(
                    time.time() - self.limits.abandoned_after
                )
                if removed:
                    log.info("%d abandoned table(s) removed", removed)
            except StoreBusy:
                pass
            except Exception:
                log.exception("removing abandoned tables failed")
            await asyncio.sleep(CLEANUP_EVERY)

    async def _summarize_old(self) -> None:
        """Tables stored before summaries were kept get one, once, a table at a time."""
        while True:
            try:
                ids = await self.store.unsummarized(50)
            except StoreBusy:
                await asyncio.sleep(5)
                continue
            if not ids:
                return
            for table_id in ids:
                try:
                    room = await self.get(table_id)
                except Busy:
                    continue
                if room is not None and not room.conns:
                    await self._maybe_forget(room)

    async def _heard(self, payload: str) -> None:
        """Another process would serve a table this one serves: let it go, unless it was
        taken only just now."""
        try:
            notice = decode(payload)
        except ValueError:
            return
        if isinstance(notice, LetGo) and notice.asker != self.process:
            room = self.rooms.get(notice.table)
            held = self._held_since.get(notice.table, 0.0)
            if room is None or room.gone or time.monotonic() - held < HOLD:
                return
            room.close_all(Close.MOVED, "the table is served by another process now: reconnect")
            await self._forget(room)


def _hashed(client: str) -> str:
    import hashlib

    return hashlib.sha256(f"rummykit-client:{client}".encode()).hexdigest()[:32]


def _where(url: str) -> str:
    return url.split("@")[-1] if "@" in url else url  # no password in a log line
