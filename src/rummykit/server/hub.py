"""The live server: every table's room, its connections, its bots and clocks.

The :class:`Hub` holds one :class:`Room` per table. A room owns its table in
this process: every change goes through the room's lock, so two actions
never race (lichess's one actor per game). A change is committed to the
store first, then applied, then a ``state`` goes to every connection of the
table (PROTOCOL.md); a rejected message is answered to its sender only.

Bot seats, and the seats of players away for longer than the table's grace
(or whose turn clock ran out), are played by the table's *driver*: a timer
that lets the seat's bot think in the worker pool, off the event loop, and
takes its move like any other, unless the table changed meanwhile.

With PostgreSQL several server processes share the tables: each keeps every
table, hears every other process's events (``LISTEN``) and applies them; a
table's driver runs in the one process that owns the table (an advisory
lock), and another takes over when that process dies. Who is connected where
is announced too, so that everyone knows which players are away.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Protocol

from rummykit import games
from rummykit.cards import parse_cards
from rummykit.errors import ActionError, RuleError
from rummykit.i18n import language_from
from rummykit.narration import narrate_log
from rummykit.server.bots import assist, bot_seed, check, make_pool, think
from rummykit.server.gameinfo import seatable_levels
from rummykit.server.replay import replay_request
from rummykit.server.store import Conflict, Store, TableRow
from rummykit.server.tables import (
    NameTaken,
    SeatSpec,
    Table,
    TableSettings,
    event_json,
    hash_token,
    new_token,
)

__all__ = ["Hub", "Limits", "Link", "ProtocolError", "Room"]

log = logging.getLogger("rummykit.server")

PING = '{"type":"ping"}'


@dataclass(frozen=True)
class Limits:
    """The server's limits (PROTOCOL.md and what rummykit adds)."""

    max_message: int = 64 * 1024
    """Bytes in one WebSocket message or HTTP body."""
    max_name: int = 40
    """Characters in a player's name."""
    rate: float = 30.0
    """Messages a second a connection may send in the long run (at least 20, PROTOCOL.md)."""
    burst: float = 60.0
    """Messages a connection may send at once."""
    connections_per_table: int = 64
    hello_timeout: float = 20.0
    ping_after: float = 5.0
    """Seconds of silence on a connection before the server sends a ``ping``."""
    max_tables: int = 100_000


class ProtocolError(Exception):
    """A message answered with an ``error`` (PROTOCOL.md's codes); nothing changed."""

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule

    def to_json(self) -> dict[str, object]:
        """The ``error`` message."""
        return {"type": "error", "code": self.code, "rule": self.rule, "message": self.message}


class Link(Protocol):
    """A connection's way out: the WebSocket, as the hub sees it."""

    async def send(self, text: str) -> None:
        """Send one text frame."""
        ...


@dataclass(eq=False)
class Conn:
    """One WebSocket connection of a table: its seat (None: a spectator) and what it has."""

    link: Link
    seat: int | None
    lang: str = "en"
    epoch: int = -1
    log_sent: int = 0
    tokens: float = 0.0
    stamp: float = field(default_factory=time.monotonic)
    outbox: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(maxsize=256))
    writer: asyncio.Task[None] | None = None
    ref: int | str | None = None
    """The ``ref`` of this connection's accepted action, until a state holding it is sent."""

    def allow(self, limits: Limits) -> bool:
        """The rate limit (a token bucket): True if one more message may be taken now."""
        now = time.monotonic()
        self.tokens = min(limits.burst, self.tokens + (now - self.stamp) * limits.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def put(self, text: str | None) -> None:
        """Queue a frame (None: close the writer); a client too slow to take 256 frames is
        cut off."""
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            with contextlib.suppress(asyncio.QueueEmpty):
                while True:
                    self.outbox.get_nowait()
            self.outbox.put_nowait(None)


@dataclass(eq=False)
class Room:
    """A table in this process, and everything live about it."""

    table: Table
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[Conn] = field(default_factory=set)
    away_since: list[float | None] = field(default_factory=list)
    remote: dict[tuple[str, int], tuple[int, float]] = field(default_factory=dict)
    deadline: float | None = None
    epoch: int = 0
    owned: bool = False
    timer: asyncio.TimerHandle | None = None
    thinking: asyncio.Task[None] | None = None

    def __post_init__(self) -> None:
        now = time.time()
        self.away_since = [None if self.table.is_bot(s) else now for s in range(self.n)]

    @property
    def n(self) -> int:
        """Seats at the table."""
        return self.table.n_players

    def connected(self) -> list[bool]:
        """Per seat: does the player have a live connection (here or in another process)?"""
        here = {c.seat for c in self.conns}
        now = time.time()
        there = {seat for (_, seat), (k, at) in self.remote.items() if k > 0 and now - at < 45}
        return [s in here or s in there for s in range(self.n)]

    def stand_ins(self) -> list[bool]:
        """Per seat: is a bot playing for an away player now (away longer than the grace)?"""
        now = time.time()
        live = self.connected()
        grace = self.table.settings.grace
        return [
            not self.table.is_bot(s)
            and self.table.token_hashes[s] is not None
            and not live[s]
            and (since := self.away_since[s]) is not None
            and now - since >= grace
            for s in range(self.n)
        ]


class Hub:
    """Every table of this server process (see the module docstring)."""

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 1.0,
        workers: int = 1,
        limits: Limits | None = None,
        pool: Executor | None = None,
    ) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.limits = limits or Limits()
        self.rooms: dict[str, Room] = {}
        self.process = f"{os.getpid()}-{secrets.token_hex(4)}"
        self._pool = pool if pool is not None else make_pool(workers)
        self._tasks: set[asyncio.Task[None]] = set()
        self._loading: dict[str, asyncio.Task[Room | None]] = {}
        self.started = False

    # ------------------------------------------------------------ start and stop

    async def start(self) -> None:
        """Open the store, rebuild every table from its events, and set the bots going."""
        await self.store.open()
        for row in await self.store.tables():
            room = await self._load(row)
            self.rooms[row.id] = room
        await self.store.listen(self._heard)
        for room in self.rooms.values():
            await self._claim(room)
        self._spawn(self._housekeeping())
        self.started = True
        log.info("rummykit server: %d table(s) loaded from %s", len(self.rooms), self._where())

    def _where(self) -> str:
        url = self.store.url
        return url.split("@")[-1] if "@" in url else url  # no password in a log line

    async def stop(self) -> None:
        """Stop the timers and the workers, close every connection's writer and the store."""
        for room in self.rooms.values():
            if room.timer is not None:
                room.timer.cancel()
            if room.thinking is not None:
                room.thinking.cancel()
            for conn in list(room.conns):
                conn.put(None)
        for task in list(self._tasks):
            task.cancel()
        self._pool.shutdown(wait=False, cancel_futures=True)
        await self.store.close()

    def _spawn(self, coro: Coroutine[object, object, None]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _load(self, row: TableRow) -> Room:
        """A table rebuilt from its settings and events (the engine checks every action)."""
        settings = TableSettings.from_json(json.loads(row.settings))
        table = Table(row.id, settings, row.created)
        room = Room(table)
        for event in await self.store.events(row.id):
            table.apply(event.kind, json.loads(event.data))
            if event.kind == "next":
                room.epoch += 1
        self._set_deadline(room)
        return room

    # ------------------------------------------------------------ tables (HTTP)

    async def create(
        self,
        game: str,
        seats: Sequence[str],
        options: Mapping[str, object] | None = None,
        *,
        clock: int = 0,
        grace: int = 60,
    ) -> Room:
        """A new table; ValueError saying what is wrong with the request."""
        spec = games.get(game)
        spec.check_players(len(seats))
        parsed = tuple(SeatSpec.parse(s, spec) for s in seats)
        for s in parsed:
            if s.kind == "bot" and s.level not in seatable_levels(spec.name):
                raise ValueError(f"a {s.level} bot needs settings a table cannot give it")
        if all(s.kind == "bot" for s in parsed):
            raise ValueError("a table needs at least one human seat")
        if not 0 <= clock <= 3600 or not 0 <= grace <= 86_400:
            raise ValueError("clock is 0-3600 seconds, grace 0-86400")
        if len(self.rooms) >= self.limits.max_tables:
            raise ValueError("the server holds as many tables as it may")
        settings = TableSettings(
            game=spec.name,
            seats=parsed,
            options=spec.check_options(options or {}),
            seed=secrets.randbits(63),
            clock=clock,
            grace=grace,
        )
        table_id = secrets.token_urlsafe(9)
        created = time.time()
        await self.store.create_table(
            TableRow(table_id, spec.name, json.dumps(settings.to_json()), created)
        )
        room = Room(Table(table_id, settings, created))
        room.owned = await self.store.own(table_id)
        self.rooms[table_id] = room
        log.info("table %s made: %s, %d seats", table_id, spec.name, len(parsed))
        return room

    def summary(self, room: Room) -> dict[str, object]:
        """The table's summary (PROTOCOL.md)."""
        return room.table.summary(room.connected(), room.stand_ins())

    async def join(self, room: Room, name: str, seat: int | None) -> tuple[int, str]:
        """Take a free human seat; the seat and its token (given only here, never again).

        ValueError for a bad name (NameTaken: a player at the table has it); LookupError
        when there is no such free seat.
        """
        name = " ".join(name.split())
        if not name or len(name) > self.limits.max_name or not name.isprintable():
            raise ValueError(f"a name is 1 to {self.limits.max_name} printable characters")
        token = new_token()
        async with room.lock:
            free = room.table.free_seats()
            if seat is None:
                if not free:
                    raise LookupError("no human seat is free at this table")
                seat = free[0]
            if seat not in free:
                raise LookupError(f"seat {seat} is not a free human seat")
            if room.table.name_taken(name):
                raise NameTaken(f"a player at this table is already called {name}")
            data = {"seat": seat, "name": name, "token_hash": hash_token(token)}
            await self._commit(room, "join", data)
            room.away_since[seat] = time.time()
        log.info("table %s: seat %d taken", room.table.id, seat)
        self._changed(room)
        return seat, token

    async def replay(
        self, record: object, seat: int | None, start: int, count: int, lang: str = "en"
    ) -> dict[str, object]:
        """The replay viewer's frames of a record (``POST /api/replay``), made in a worker;
        the logs told in ``lang``."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._pool, replay_request, record, seat, start, count, lang
        )

    # ------------------------------------------------------------ live play (WebSocket)

    @staticmethod
    def language(data: Mapping[str, object]) -> str:
        """The language a ``hello`` asks for (``"lang"``, added to the protocol): ``sv``
        for any Swedish tag (``sv``, ``sv-SE``), else ``en``. Rule errors are sent in it."""
        lang = data.get("lang")
        return language_from(lang[:35]) if isinstance(lang, str) else language_from(None)

    def hello(self, room: Room, data: object) -> int | None:
        """The seat a ``hello`` message speaks for (None: a spectator); ProtocolError if bad."""
        if not isinstance(data, dict) or data.get("type") != "hello":
            raise ProtocolError("bad_message", 'the first message is {"type": "hello", ...}')
        token = data.get("token")
        version = data.get("version")
        if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
            raise ProtocolError("bad_message", "'version' is the last version seen, or null")
        if token is None:
            return None
        if not isinstance(token, str) or len(token) > 200:
            raise ProtocolError("unauthorized", "this token is no seat's at this table")
        seat = room.table.seat_of(token)
        if seat is None:
            raise ProtocolError("unauthorized", "this token is no seat's at this table")
        return seat

    async def attach(self, room: Room, conn: Conn) -> None:
        """A connection that said hello: it gets the table's state at once, whole."""
        if len(room.conns) >= self.limits.connections_per_table:
            raise ProtocolError(
                "too_many_connections", "this table has as many connections as it may"
            )
        room.conns.add(conn)
        conn.tokens = self.limits.burst
        conn.writer = asyncio.create_task(self._write(conn))
        if conn.seat is not None:
            room.away_since[conn.seat] = None
            await self._announce(room, conn.seat)
        self._send_state(room, conn)
        if conn.seat is not None:
            self._changed(room, quiet=True)

    async def detach(self, room: Room, conn: Conn) -> None:
        """A connection closed."""
        room.conns.discard(conn)
        conn.put(None)
        seat = conn.seat
        if seat is not None and not any(c.seat == seat for c in room.conns):
            room.away_since[seat] = time.time()
            await self._announce(room, seat)
            self._changed(room, quiet=True)

    async def _write(self, conn: Conn) -> None:
        """Send what is queued; after ``ping_after`` seconds with nothing to send, a ``ping``
        (PROTOCOL.md, Heartbeat), so a client hears the link is alive."""
        while True:
            try:
                text = await asyncio.wait_for(conn.outbox.get(), self.limits.ping_after)
            except TimeoutError:
                text = PING
            if text is None:
                return
            try:
                await conn.link.send(text)
            except Exception:  # the socket is gone: the reader will see it close
                return

    async def message(self, room: Room, conn: Conn, text: str) -> None:
        """One message after hello: an action, the next game, a hint, an arrangement, a
        check, a resync. Errors go to ``conn``, with the message's ``ref`` if it had one."""
        ref: int | str | None = None
        try:
            if len(text.encode("utf-8")) > self.limits.max_message:
                raise ProtocolError("bad_message", "a message is at most 64 KiB")
            if not conn.allow(self.limits):
                raise ProtocolError("rate_limited", "too many messages: slow down")
            try:
                data = json.loads(text)
            except json.JSONDecodeError:
                raise ProtocolError("bad_message", "a message is one JSON object") from None
            if not isinstance(data, dict):
                raise ProtocolError("bad_message", "a message is one JSON object")
            given = data.get("ref")
            if given is not None:
                if (
                    isinstance(given, bool)
                    or not isinstance(given, int | str)
                    or len(str(given)) > 64
                ):
                    raise ProtocolError("bad_message", "'ref' is a number or a text of 64 at most")
                ref = given
            kind = data.get("type")
            if kind == "ping":
                pong: dict[str, object] = {"type": "pong"}
                if ref is not None:
                    pong["ref"] = ref
                conn.put(json.dumps(pong))
            elif kind == "action":
                await self._action(room, conn, data, ref)
            elif kind == "next":
                await self._next(room, conn, data, ref)
            elif kind in ("hint", "arrange", "check"):
                await self._assist(room, conn, data, kind, ref)
            elif kind == "hello":
                if "lang" in data:
                    conn.lang = self.language(data)
                self._send_state(room, conn, whole=True)
            else:
                raise ProtocolError("bad_message", f"unknown message type {kind!r}")
        except ProtocolError as exc:
            error = exc.to_json()
            if ref is not None:
                error["ref"] = ref
            conn.put(json.dumps(error))

    def _version(self, room: Room, data: Mapping[str, object]) -> None:
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise ProtocolError("bad_message", "'version' is the version of the state you acted on")
        if version != room.table.version:
            raise ProtocolError(
                "stale", f"version {version} is not the table's version {room.table.version}"
            )

    async def _action(
        self, room: Room, conn: Conn, data: Mapping[str, object], ref: int | str | None = None
    ) -> None:
        async with room.lock:
            self._version(room, data)
            table, game = room.table, room.table.game
            if conn.seat is None:
                raise ProtocolError("not_your_turn", "a spectator does not play")
            if game is None or game.to_act is None:
                raise ProtocolError(
                    "not_your_turn", f"nobody may act now: the table is {table.status}"
                )
            if game.to_act != conn.seat:
                raise ProtocolError("not_your_turn", f"it is {table.names[game.to_act]}'s turn")
            try:
                action = table.spec.action_from_json(data.get("action"), seat=conn.seat)
                game.verify(action)
            except ActionError as exc:
                raise ProtocolError("bad_message", exc.translated(conn.lang)) from None
            except RuleError as exc:
                raise ProtocolError("illegal", exc.translated(conn.lang), exc.rule) from None
            await self._commit(room, "action", {"action": action.to_json(), "by": "player"})
            conn.ref = ref
        self._changed(room)

    async def _next(
        self, room: Room, conn: Conn, data: Mapping[str, object], ref: int | str | None = None
    ) -> None:
        async with room.lock:
            self._version(room, data)
            if conn.seat is None:
                raise ProtocolError("not_your_turn", "a spectator does not start games")
            if room.table.status != "over":
                raise ProtocolError("not_over", "the next game starts only when this one is over")
            await self._commit(room, "next", {"by": conn.seat})
            conn.ref = ref
        self._changed(room)

    async def _assist(
        self,
        room: Room,
        conn: Conn,
        data: Mapping[str, object],
        kind: str,
        ref: int | str | None,
    ) -> None:
        """A hint, an arrangement or a check for the seat to act: it changes no table, and
        only the asking connection hears it (with the request's ``ref``, if any)."""
        table, game = room.table, room.table.game
        if conn.seat is None or game is None or game.to_act != conn.seat:
            raise ProtocolError("not_your_turn", "help is given to the seat to act")
        version = table.version
        loop = asyncio.get_running_loop()
        if kind == "check":
            try:
                action = table.spec.action_from_json(data.get("action"), seat=conn.seat)
            except ActionError as exc:
                raise ProtocolError("bad_message", exc.translated(conn.lang)) from None
            raw = action.to_json()
            if table.spec.arranger is not None and raw["type"] == "play" and "table" not in raw:
                # the engine would arrange the table with the solver: not on the event loop
                answer = await loop.run_in_executor(
                    self._pool, check, game.copy(), action, conn.lang
                )
            else:
                answer = check(game, action, conn.lang)
            out = {"type": "checked", "version": version, **answer}
            if ref is not None:
                out["ref"] = ref
            conn.put(json.dumps(out, separators=(",", ":")))
            return
        raw_cards = data.get("cards", [])
        cards: list[str] = []
        if kind == "arrange":
            if (
                not isinstance(raw_cards, list)
                or not raw_cards
                or not all(isinstance(c, str) and len(c) <= 8 for c in raw_cards)
            ):
                raise ProtocolError("bad_message", "'cards' is a list of cards, like [\"7h\"]")
            cards = [str(c) for c in raw_cards]
            try:
                parse_cards(cards)
            except ValueError as exc:
                raise ProtocolError("bad_message", str(exc)) from None
        answer = await loop.run_in_executor(
            self._pool, assist, game.copy(), conn.seat, kind, cards, conn.lang
        )
        if "message" in answer:
            rule = answer.get("rule")
            raise ProtocolError(
                "illegal", str(answer["message"]), rule if isinstance(rule, str) else None
            )
        out = {"type": "hint" if kind == "hint" else "arranged", "version": version, **answer}
        if ref is not None:
            out["ref"] = ref
        conn.put(json.dumps(out, separators=(",", ":")))

    # ------------------------------------------------------------ changes

    async def _commit(self, room: Room, kind: str, data: Mapping[str, object]) -> None:
        """Store event ``version + 1`` (committed), then apply it; under the room's lock."""
        table = room.table
        try:
            await self.store.append(table.id, table.version + 1, kind, event_json(data))
        except Conflict:
            await self._catch_up(room)
            raise ProtocolError("stale", "the table changed meanwhile: here is its state") from None
        table.apply(kind, data)
        if kind == "next":
            room.epoch += 1
        self._set_deadline(room)

    def _set_deadline(self, room: Room) -> None:
        game, clock = room.table.game, room.table.settings.clock
        seat = None if game is None else game.to_act
        if clock and seat is not None and not room.table.is_bot(seat):
            room.deadline = time.time() + clock
        else:
            room.deadline = None

    async def _catch_up(self, room: Room) -> None:
        """Apply the events other processes appended (under the room's lock)."""
        for event in await self.store.events(room.table.id, after=room.table.version):
            room.table.apply(event.kind, json.loads(event.data))
            if event.kind == "next":
                room.epoch += 1
            self._set_deadline(room)

    def _changed(self, room: Room, *, quiet: bool = False) -> None:
        """After a change: a state to every connection; the driver looks again.

        Connections of one seat that have had the same log get the same text, made once.
        """
        made: dict[tuple[int | None, int, int, str], tuple[str, int]] = {}
        seats = room.table.seats_json(room.connected(), room.stand_ins())
        for conn in list(room.conns):
            start = 0 if conn.epoch != room.epoch else conn.log_sent
            key = (conn.seat, start, conn.epoch, conn.lang)
            if key in made:
                text, conn.log_sent = made[key]
                conn.epoch = room.epoch
            else:
                text = self._state_text(room, conn, seats=seats)
                made[key] = (text, conn.log_sent)
            if conn.ref is not None:  # Acknowledgement: the sender's own action went through
                text = f'{text[:-1]},"ref":{json.dumps(conn.ref)}}}'
                conn.ref = None
            conn.put(text)
        if not quiet or room.timer is None:
            self._drive(room)

    def _send_state(self, room: Room, conn: Conn, *, whole: bool = False) -> None:
        conn.put(self._state_text(room, conn, whole=whole))

    def _state_text(
        self,
        room: Room,
        conn: Conn,
        *,
        whole: bool = False,
        seats: list[dict[str, object]] | None = None,
    ) -> str:
        state = self.state(room, conn, whole=whole, seats=seats)
        return json.dumps(state, separators=(",", ":"))

    def state(
        self,
        room: Room,
        conn: Conn,
        *,
        whole: bool = False,
        seats: list[dict[str, object]] | None = None,
    ) -> dict[str, object]:
        """The ``state`` message for ``conn``: only the log entries it has not had, unless
        ``whole`` or its first (``log_start`` 0), and each of them in words in the
        connection's language (``log_text``, :mod:`rummykit.narration`). ``seats``: the
        summary's seats, if made."""
        table, game = room.table, room.table.game
        start = 0 if whole or conn.epoch != room.epoch else conn.log_sent
        view: dict[str, object] | None = None
        told: list[str] = []
        if game is not None:
            view = dict(game.view(conn.seat) if conn.seat is not None else game.spectator_view())
            entries = view.get("log")
            assert isinstance(entries, list)
            if start > len(entries):
                start = 0
            view["log"] = entries[start:]
            names = [n or "" for n in table.names]
            told = narrate_log(table.spec.name, entries[start:], names, conn.lang)
            conn.log_sent, conn.epoch = len(entries), room.epoch
        clock = None
        if room.deadline is not None and game is not None:
            clock = {
                "seat": game.to_act,
                "seconds": table.settings.clock,
                "deadline": room.deadline,
                "remaining": max(0.0, room.deadline - time.time()),
            }
        return {
            "type": "state",
            "version": table.version,
            "seat": conn.seat,
            "status": table.status,
            "seats": seats
            if seats is not None
            else table.seats_json(room.connected(), room.stand_ins()),
            "log_start": start,
            "view": view,
            "log_text": told,
            "games_played": table.games_played,
            "clock": clock,
            "server_time": time.time(),
        }

    # ------------------------------------------------------------ the driver (bots)

    def _drive(self, room: Room) -> None:
        """Set the room's timer for its next automatic move, if any (owner only)."""
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None
        if not room.owned or room.thinking is not None:
            return
        table, game = room.table, room.table.game
        if game is None or game.to_act is None:
            return
        seat, now = game.to_act, time.time()
        stand_ins = room.stand_ins()
        if table.is_bot(seat) or stand_ins[seat]:
            at = now + self.bot_delay
        else:
            candidates = [room.deadline] if room.deadline is not None else []
            if not room.connected()[seat] and (since := room.away_since[seat]) is not None:
                candidates.append(since + table.settings.grace)
            if not candidates:
                return
            at = min(candidates)
        version = table.version
        loop = asyncio.get_running_loop()
        room.timer = loop.call_later(
            max(0.0, at - now), lambda: self._start_thinking(room, version, seat)
        )

    def _start_thinking(self, room: Room, version: int, seat: int) -> None:
        room.timer = None
        room.thinking = asyncio.create_task(self._auto(room, version, seat))

    async def _auto(self, room: Room, version: int, seat: int) -> None:
        """The seat's bot plays this turn (a bot seat, a stand-in, a clock at zero)."""
        try:
            table = room.table
            game = table.game
            if table.version != version or game is None or game.to_act != seat:
                return
            now = time.time()
            if table.is_bot(seat):
                by = "bot"
            elif room.stand_ins()[seat]:
                by = "stand_in"
            elif room.deadline is not None and now >= room.deadline - 0.01:
                by = "clock"
            else:  # not yet: the player came back, or the grace is not over
                return
            level = table.settings.seats[seat].level or table.spec.default_bot
            view = game.view(seat)
            seed = bot_seed(table.settings.seed, version, seat)
            loop = asyncio.get_running_loop()
            chosen = await loop.run_in_executor(
                self._pool, think, table.spec.name, level, seed, view
            )
            async with room.lock:
                game = table.game
                if table.version != version or game is None or game.to_act != seat:
                    return
                try:
                    action = table.spec.action_from_json(chosen, seat=seat)
                    game.verify(action)
                except ValueError as exc:  # a bot's bug must not stop the table
                    log.warning(
                        "table %s: the %s bot chose no legal action: %s", table.id, level, exc
                    )
                    action = game.suggested_actions()[0]
                await self._commit(room, "action", {"action": action.to_json(), "by": by})
        except ProtocolError:
            pass  # another process moved first: its state came with the catch-up
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the driver failed", room.table.id)
        finally:
            room.thinking = None
        self._changed(room)

    # ------------------------------------------------------------ other processes

    async def _heard(self, payload: str) -> None:
        """What another process announced (see :data:`rummykit.server.store.Notify`)."""
        kind, _, rest = payload.partition(":")
        if kind == "t":
            if rest not in self.rooms:
                await self._adopt(rest)
        elif kind == "e":
            table_id, _, number = rest.rpartition(":")
            room = self.rooms.get(table_id) or await self._adopt(table_id)
            if room is not None and int(number) > room.table.version:
                async with room.lock:
                    await self._catch_up(room)
                self._changed(room)
        elif kind == "p":
            process, table_id, seat, count = rest.split(":")
            room = self.rooms.get(table_id)
            if room is not None and process != self.process:
                room.remote[(process, int(seat))] = (int(count), time.time())
                if int(count) == 0 and room.away_since[int(seat)] is None:
                    room.away_since[int(seat)] = time.time()
                self._changed(room, quiet=True)

    async def _adopt(self, table_id: str) -> Room | None:
        """A table another process made: load it once."""
        task = self._loading.get(table_id)
        if task is None:

            async def load() -> Room | None:
                row = await self.store.table(table_id)
                if row is None:
                    return None
                room = self.rooms.get(table_id) or await self._load(row)
                self.rooms[table_id] = room
                return room

            task = asyncio.create_task(load())
            self._loading[table_id] = task
        return await task

    async def _announce(self, room: Room, seat: int) -> None:
        count = sum(1 for c in room.conns if c.seat == seat)
        await self.store.announce(f"p:{self.process}:{room.table.id}:{seat}:{count}")

    async def _claim(self, room: Room) -> None:
        if not room.owned:
            room.owned = await self.store.own(room.table.id)
        if room.owned:
            self._drive(room)

    async def _housekeeping(self) -> None:
        """Every few seconds: say again who is connected here, take over the tables of a
        process that died, and look at every timer again (graces and clocks run out)."""
        while True:
            await asyncio.sleep(5)
            with contextlib.suppress(Exception):
                for room in list(self.rooms.values()):
                    for seat in {c.seat for c in room.conns if c.seat is not None}:
                        await self._announce(room, seat)
                    game = room.table.game
                    if game is not None and game.to_act is not None and not room.owned:
                        await self._claim(room)
                    elif room.owned and room.timer is None and room.thinking is None:
                        self._drive(room)


def table_list(hub: Hub, wanted: Callable[[Room], bool]) -> list[dict[str, object]]:
    """The summaries of the tables ``wanted`` accepts, newest first."""
    rooms = sorted(hub.rooms.values(), key=lambda r: r.table.created, reverse=True)
    return [hub.summary(r) for r in rooms if wanted(r)]
