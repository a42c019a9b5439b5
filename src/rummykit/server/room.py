"""A room: one table served by this process, the one authority over it.

Every change of the table goes through :meth:`Room.change`, under the room's
lock (lichess's one actor per game): the action is read once from the
client's JSON with the sender's seat (the game's spec), the engine takes it
once (:meth:`HostedTable.take`: checking is taking, and a refused action
changes nothing), the event it returns is committed to the store in the
record's form with the table's new meta (status, summary, when it is due),
and only then does any connection hear of it (:mod:`rummykit.server.fanout`).
An action whose check would need a search (the spec's ``arranger`` game, a
play sent without its table) is first completed in a worker, never on the
event loop. A commit that fails, for any reason (a busy or locked database,
a full disk, an I/O error), leaves the room in memory ahead of the store:
the sender is told ``unavailable``, nothing of the change is sent to anyone,
and the room is let go at once (connections are told to reconnect), so the
table is loaded again as the store holds it, at its last stored version.

The room also keeps who is connected, the turn clock, the chat, and its
:class:`~rummykit.server.driver.Driver` (bots, clocks, stand-ins).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

from rummykit.errors import ActionError, RuleError
from rummykit.game import AnyAction
from rummykit.record import DealRecord, parse_record
from rummykit.server.driver import Driver
from rummykit.server.fanout import Conn, Narration, StateMaker
from rummykit.server.finished import finished_game
from rummykit.server.hosted import HostedTable, NameTaken, event_json, hash_token, new_token
from rummykit.server.limits import Limits
from rummykit.server.moderation import Moderation
from rummykit.server.protocol import Close, ProtocolError, Ref, dumps, error_text
from rummykit.server.ratings import rate_table
from rummykit.server.store import ChatRow, Conflict, Store, StoreBusy, StoreFailed, TableMeta
from rummykit.server.workers import Workers, complete

__all__ = ["PART_PAUSE", "Room", "RoomHost"]

PART_PAUSE = 20.0
"""Seconds the bots wait, at most, after a part (a Kontrakt deal) ended, for the players
connected to see its end (``seen``)."""

log = logging.getLogger("rummykit.server")


@dataclass(frozen=True)
class RoomHost:
    """What a room uses of its process: the store, the workers, the limits, the bots'
    delay, and how to let the room go (its process forgets it)."""

    store: Store
    workers: Workers
    limits: Limits
    bot_delay: float
    let_go: Callable[[Room], Awaitable[None]]
    idle: Callable[[Room], None]
    moderation: Moderation | None = None
    game_over: Callable[[str, int], None] | None = None
    """Told of each game kept as it ends (table id, game number): the puzzle maker's cue."""


class Room:
    """One table in this process, and everything live about it (see the module docstring)."""

    def __init__(self, table: HostedTable, host: RoomHost, presence: str | None = None) -> None:
        self.table = table
        self.host = host
        self.lock = asyncio.Lock()
        self.conns: list[Conn] = []
        self.epoch = 0
        self.deadline: float | None = None
        self.deadline_version = -1
        self.chat_count = 0
        self._live: list[bool] | None = None
        self.part = -1 if table.game is None else table.game.part
        self.part_began = 0.0
        """When the unit's current part began here (0: long ago, or not while served)."""
        self.part_seen: set[int] = set()
        """The seats whose players have seen the last part's end (``seen``)."""
        self.narration = Narration()
        self.gone = False
        self._later: asyncio.Future[None] | None = None
        now = time.time()
        self.away_since: list[float | None] = [
            None if table.is_bot(s) else now for s in range(table.n_players)
        ]
        self._restore(presence)
        self.driver = Driver(self)
        self.summary_text = dumps(self.summary())

    # ------------------------------------------------------------ who is here

    @property
    def id(self) -> str:
        """The table's id."""
        return self.table.id

    def connected(self) -> list[bool]:
        """Per seat: does the player have a live connection? (Kept as connections come and
        go: every state asks.)"""
        if self._live is None:
            here = {c.seat for c in self.conns}
            self._live = [s in here for s in range(self.table.n_players)]
        return list(self._live)

    def someone_here(self) -> bool:
        """Whether a player (a human seat) has a live connection: only then does a bot play
        for a human seat (a stand-in, a turn clock at zero). A table with nobody there
        waits, so that it does not play itself to the end (issue 40)."""
        live = self.connected()
        return any(live[s] for s in range(self.table.n_players) if not self.table.is_bot(s))

    def waiting_for_players(self) -> bool:
        """Whether the table waits for a player to come back: its game runs, a human seat
        is to act, and no player is connected (the lobby says so)."""
        game = self.table.game
        if game is None or game.over or game.to_act is None:
            return False
        return not self.table.is_bot(game.to_act) and not self.someone_here()

    def stand_ins(self) -> list[bool]:
        """Per seat: is a bot playing for an away player now (away longer than the grace,
        where the table has stand-ins, while another player is connected, and only while
        a game runs: once it is over nothing is left to play for anyone)?"""
        settings, game = self.table.settings, self.table.game
        if not settings.stand_in or all(since is None for since in self.away_since):
            return [False] * self.table.n_players
        if game is None or game.over:
            return [False] * self.table.n_players
        if not self.someone_here():
            return [False] * self.table.n_players
        now, live = time.time(), self.connected()
        return [
            not self.table.is_bot(s)
            and self.table.token_hashes[s] is not None
            and not live[s]
            and (since := self.away_since[s]) is not None
            and now - since >= settings.grace
            for s in range(self.table.n_players)
        ]

    def summary(self) -> dict[str, object]:
        """The table's summary as it stands (PROTOCOL.md)."""
        return self.table.summary(self.connected(), self.stand_ins(), self.waiting_for_players())

    def live_summary(self) -> str:
        """The summary as JSON text: as it stands, unless a change is being committed (then
        as it stood at the last commit: nothing is told before it is stored)."""
        if not self.lock.locked():
            self.summary_text = dumps(self.summary())
        return self.summary_text

    def meta(self) -> TableMeta:
        """What the table's row says between loads (with the summary as it stands; lists
        are told it once it is stored: :meth:`live_summary`)."""
        presence = {
            "away": self.away_since,
            "deadline": self.deadline,
            "deadline_version": self.deadline_version,
        }
        return TableMeta(
            self.table.status,
            self.table.version,
            dumps(self.summary()),
            self.driver.wake_at(),
            self.table.base,
            dumps(presence),
        )

    def _restore(self, presence: str | None) -> None:
        if not presence:
            return
        try:
            data = json.loads(presence)
            away = data.get("away")
            if isinstance(away, list) and len(away) == self.table.n_players:
                self.away_since = [
                    None if self.table.is_bot(s) or a is None else float(a)
                    for s, a in enumerate(away)
                ]
            if data.get("deadline_version") == self.table.version:
                self.deadline = float(data["deadline"]) if data.get("deadline") else None
                self.deadline_version = self.table.version
        except (ValueError, TypeError, KeyError):
            log.warning("table %s: its presence could not be read; starting afresh", self.id)

    # ------------------------------------------------------------ connections

    async def attach(self, conn: Conn) -> None:
        """A connection that said hello: it gets the table's state at once, whole, and the
        chat's last messages. ProtocolError ``too_many_connections`` past the limits
        (spectators are counted apart: a seat's player always gets in), ``unavailable``
        if the room was let go meanwhile (a commit failed)."""
        limits = self.host.limits
        async with self.lock:  # counted and added at once: no burst passes the limit
            self._check_here()
            same = [c for c in self.conns if c.seat == conn.seat]
            if conn.seat is None and len(same) >= limits.spectators_per_table:
                raise ProtocolError(
                    "too_many_connections", "this table has as many spectators as it may"
                )
            if conn.seat is not None and len(same) >= limits.seats_per_table:
                # a seat's player always gets in: its oldest connection makes way
                same[0].shut(Close.TOO_MANY, "replaced by a newer connection of this seat")
                self.conns.remove(same[0])
                self._live = None
            first = conn.seat is not None and not self.connected()[conn.seat]
            self.conns.append(conn)
            self._live = None
            conn.start()
            if conn.seat is not None:
                self.away_since[conn.seat] = None
            self.send_state(conn)
        await self.send_chat_history(conn)
        if first:
            await self.presence_changed()

    async def detach(self, conn: Conn) -> None:
        """A connection closed."""
        if conn not in self.conns:
            return
        self.conns.remove(conn)
        self._live = None
        conn.stop()
        seat = conn.seat
        if seat is not None and not self.connected()[seat] and not self.gone:
            self.away_since[seat] = time.time()
            await self.presence_changed()
        if not self.conns:
            self.host.idle(self)

    async def presence_changed(self) -> None:
        """A player came or went: tell everyone, look at the driver again, and write the
        summary (lists read it). Under the lock: no state is sent while a change is being
        committed."""
        async with self.lock:
            self.broadcast(quiet=True)
            if self.gone:
                return
            meta = self.meta()
            self.summary_text = meta.summary  # who is here: no change of the table's
            try:
                await self.host.store.save_meta(self.id, meta)
            except StoreBusy as exc:  # the store logs the stretch of failures once
                log.info("table %s: its summary could not be written (%s)", self.id, exc)

    def send_state(self, conn: Conn, *, whole: bool = True) -> None:
        """The table's state to one connection (whole: from the log's start)."""
        conn.put(self._maker().text(conn, whole=whole))

    def broadcast(self, *, quiet: bool = False) -> None:
        """After a change: a state to every connection; the driver looks again (``quiet``: a
        player came or went, which only moves the driver's stand-in timers)."""
        maker = self._maker()
        for conn in self.conns:
            conn.put(maker.text(conn))
        self.driver.schedule()

    def _maker(self) -> StateMaker:
        table, game = self.table, self.table.game
        clock = None
        if self.deadline is not None and game is not None and game.to_act is not None:
            clock = {
                "seat": game.to_act,
                "seconds": table.settings.clock,
                "deadline": self.deadline,
                "remaining": max(0.0, self.deadline - time.time()),
            }
        envelope = {
            "type": "state",
            "version": table.version,
            "status": table.status,
            "seats": table.seats_json(self.connected(), self.stand_ins()),
            "games_played": table.games_played,
            "clock": clock,
            "server_time": time.time(),
        }
        names = [n or "" for n in table.names]
        return StateMaker(game, envelope, self.epoch, names, self.narration)

    # ------------------------------------------------------------ changes

    async def join(
        self, name: str, seat: int | None, *, account: str | None = None
    ) -> tuple[int, str]:
        """Take a free human seat (by a signed-in ``account``, if any: it is kept with the
        seat, for a rated table's ratings); the seat and its token (given only here,
        never again).

        ValueError for a bad name (NameTaken: a player at the table has it), or an account
        that holds a seat here already; LookupError when there is no such free seat.
        """
        limits = self.host.limits
        name = " ".join(name.split())
        if not name or len(name) > limits.max_name or not name.isprintable():
            raise ValueError(f"a name is 1 to {limits.max_name} printable characters")
        token = new_token()
        async with self.lock:
            self._check_here()
            free = self.table.free_seats()
            if seat is None:
                if not free:
                    raise LookupError("no human seat is free at this table")
                seat = free[0]
            if seat not in free:
                raise LookupError(f"seat {seat} is not a free human seat")
            if account is not None and account in self.table.accounts:
                raise ValueError("this account holds a seat at this table already")
            if self.table.name_taken(name):
                raise NameTaken(f"a player at this table is already called {name}")
            data = self.table.join(seat, name, hash_token(token), account)
            self.away_since[seat] = time.time()
            self._turn_changed()  # the last seat taken starts the game, and its clock
            await self._commit("join", data)
        log.info("table %s: seat %d taken", self.id, seat)
        self.broadcast()
        return seat, token

    async def act(
        self,
        seat: int | None,
        version: int,
        raw: object,
        *,
        by: str = "player",
        conn: Conn | None = None,
        ref: Ref | None = None,
    ) -> None:
        """A seat's action (a player's, or the driver's for a bot, a stand-in or a clock).

        The action is read once (the game's spec, with the seat), taken once by
        the engine, committed, then sent to everyone. ProtocolError with
        PROTOCOL.md's code if refused; nothing changed then.
        """
        table = self.table
        async with self.lock:
            self._check_here(ref)
            self._check_turn(seat, version, ref)
            assert seat is not None
            if by in ("stand_in", "clock") and self.driver.reason(seat) != by:
                # checked again under the lock: the player came back while the bot thought
                raise ProtocolError("stale", "the player is back: the turn is theirs", ref=ref)
            try:
                action = table.spec.action_from_json(raw, seat=seat)
            except ActionError as exc:
                raise ProtocolError("bad_message", exc.translated(_lang(conn)), ref=ref) from None
            action = await self._completed(action, conn, ref)
            try:
                event = table.take(action)
            except ActionError as exc:
                raise ProtocolError("bad_message", exc.translated(_lang(conn)), ref=ref) from None
            except RuleError as exc:
                raise ProtocolError(
                    "illegal", exc.translated(_lang(conn)), exc.rule, ref=ref
                ) from None
            self._turn_changed(by_action=True)
            await self._commit(
                "action", {"action": dict(event.record_json()), "by": by}, conn=conn, ref=ref
            )
            if conn is not None:
                conn.ref = ref
            if table.status == "over":  # kept (and rated) before anyone hears of the end
                await self._keep_game(time.time())
                if table.settings.rated:
                    await rate_table(self.host.store, table)
        self.broadcast()

    async def _completed(self, action: AnyAction, conn: Conn | None, ref: Ref | None) -> AnyAction:
        """``action`` complete, so that the engine takes it without searching: a play the
        game would arrange itself is arranged in a worker first."""
        spec, game = self.table.spec, self.table.game
        assert game is not None
        if not spec.searches(action.to_json()):
            return action
        try:
            done = await self.host.workers.run(complete, game.copy(), action)
        except ActionError as exc:
            raise ProtocolError("bad_message", exc.translated(_lang(conn)), ref=ref) from None
        except RuleError as exc:
            raise ProtocolError("illegal", exc.translated(_lang(conn)), exc.rule, ref=ref) from None
        return spec.action_from_json(done)

    async def next_unit(
        self,
        seat: int | None,
        version: int,
        ref: Ref | None = None,
        *,
        conn: Conn | None = None,
    ) -> None:
        """The next game at the table (``next``, sent by ``conn``), once this one is over."""
        async with self.lock:
            self._check_here(ref)
            if version != self.table.version:
                raise ProtocolError(
                    "stale",
                    f"version {version} is not the table's version {self.table.version}",
                    ref=ref,
                )
            if seat is None:
                raise ProtocolError("not_your_turn", "a spectator does not start games", ref=ref)
            if self.table.status != "over":
                raise ProtocolError(
                    "not_over", "the next game starts only when this one is over", ref=ref
                )
            if self.table.settings.rated:
                raise ProtocolError(
                    "rated_over", "a rated table is one game: find the next with Play now", ref=ref
                )
            unit = self.table.games_played - 1
            await self._keep_game(time.time())  # kept already, unless it ended elsewhere
            data, finished = self.table.next_unit(seat)
            self.epoch += 1
            self._turn_changed()
            carried = data.get("carried")
            if isinstance(carried, dict) and carried:  # the same record goes on
                await self._keep_unit(unit, dumps(finished.to_json()), conn, ref)
            await self._commit("next", data, conn=conn, ref=ref)
            sender = conn or next((c for c in self.conns if c.seat == seat), None)
            if sender is not None:
                sender.ref = ref
        self.broadcast()

    async def _keep_game(self, ended: float) -> None:
        """Keep the game that just ended as it is now, for the reading routes (see
        :mod:`rummykit.server.finished`); under the lock. A store that is busy leaves it to
        be rebuilt from the events when it is read."""
        store = self.host.store
        try:
            earlier: list[DealRecord] = []
            if self.table.base:
                for text in await store.units(self.id):
                    earlier += parse_record(json.loads(text)).deals
            kept = finished_game(self.table, earlier, ended)
            await store.add_game(self.id, kept)
        except StoreBusy:
            log.warning("table %s: a finished game could not be kept (busy)", self.id)
            return
        if self.host.game_over is not None:
            self.host.game_over(self.id, kept.game)

    async def _keep_unit(self, unit: int, record: str, conn: Conn | None, ref: Ref | None) -> None:
        try:
            await self.host.store.add_unit(self.id, unit, record)
        except Exception as exc:  # the table took the next unit: it is ahead of the store
            raise self._failed(exc, conn, ref) from None

    def _check_here(self, ref: Ref | None = None) -> None:
        """Under the lock: the room is still this table's; else ``unavailable``. A change (or
        a connection) that waited for the lock behind a commit that failed, or while the
        room left memory, must neither see nor change it (the table is loaded again as
        stored), and the client tries again."""
        if self.gone:
            raise ProtocolError("unavailable", "the table is being reloaded: try again", ref=ref)

    def _check_turn(self, seat: int | None, version: int, ref: Ref | None) -> None:
        table, game = self.table, self.table.game
        if version != table.version:
            raise ProtocolError(
                "stale", f"version {version} is not the table's version {table.version}", ref=ref
            )
        if seat is None:
            raise ProtocolError("not_your_turn", "a spectator does not play", ref=ref)
        if game is None or game.to_act is None:
            raise ProtocolError(
                "not_your_turn", f"nobody may act now: the table is {table.status}", ref=ref
            )
        if game.to_act != seat:
            raise ProtocolError(
                "not_your_turn", f"it is {table.names[game.to_act]}'s turn", ref=ref
            )

    def seen(self, seat: int | None) -> None:
        """A player has seen the last part's end: the bots may go on sooner."""
        if seat is not None and seat not in self.part_seen:
            self.part_seen.add(seat)
            self.driver.schedule()

    def held_until(self) -> float | None:
        """Until when the bots wait after a new part began (a Kontrakt deal's end, its
        scores shown), so that each player connected sees it: until each has said ``seen``,
        or :data:`PART_PAUSE` seconds have passed. None: they need not wait."""
        if not self.part_began:
            return None
        waiting = [
            s
            for s, live in enumerate(self.connected())
            if live and not self.table.is_bot(s) and s not in self.part_seen
        ]
        if not waiting:
            return None
        until = self.part_began + PART_PAUSE
        return until if until > time.time() else None

    def _turn_changed(self, *, by_action: bool = False) -> None:
        """A new position: the turn clock starts again for a human seat to act. A part that
        began by itself after an action (a Kontrakt deal dealt when the last ended) holds
        the bots for a moment (:meth:`held_until`); one a player asked for does not."""
        game = self.table.game
        if game is not None and game.part != self.part:
            self.part = game.part
            self.part_began = time.time() if by_action else 0.0
            self.part_seen = set()
        game, clock = self.table.game, self.table.settings.clock
        seat = None if game is None else game.to_act
        if clock and seat is not None and not self.table.is_bot(seat):
            self.deadline = time.time() + clock
        else:
            self.deadline = None
        self.deadline_version = self.table.version  # the position the deadline is for

    async def _commit(
        self,
        kind: str,
        data: Mapping[str, object],
        *,
        conn: Conn | None = None,
        ref: Ref | None = None,
    ) -> None:
        """Store the event the table just took (version ``table.version``) with the table's
        meta; under the room's lock. On any failure the room is let go (it is ahead of the
        store): the sender (``conn``) is told ``unavailable`` (with its ``ref``), and then
        every connection to reconnect (4503)."""
        meta = self.meta()
        try:
            await self.host.store.append(self.id, self.table.version, kind, event_json(data), meta)
        except Exception as exc:  # whatever it was, the store does not have this version
            raise self._failed(exc, conn, ref) from None
        self.summary_text = meta.summary

    def _failed(self, exc: Exception, sender: Conn | None, ref: Ref | None) -> ProtocolError:
        """The error for the sender of a change that could not be stored; the room is let
        go, its connections closed after what is queued for them (the error included).
        A store's failure is logged by the store, once for a stretch of them; anything
        else is a fault of the server's, logged with its traceback."""
        if isinstance(exc, StoreBusy | Conflict):
            log.info("table %s: a change could not be stored (%s); reloading it", self.id, exc)
        else:
            log.error("table %s: a change could not be stored; reloading it", self.id, exc_info=exc)
        error = ProtocolError("unavailable", _unstored(exc), ref=ref)
        self.gone = True
        if sender is not None:
            sender.put(error_text(error))
        for conn in list(self.conns):
            conn.shut(Close.MOVED, "the table is being reloaded: reconnect", flush=True)
        self._later = asyncio.ensure_future(self.host.let_go(self))
        return error

    # ------------------------------------------------------------ chat

    def account_at(self, seat: int | None) -> str | None:
        """The account that took ``seat`` (None: a guest's seat, a bot's, a spectator)."""
        return None if seat is None else self.table.accounts[seat]

    async def chat(self, conn: Conn, text: str, ref: Ref | None) -> None:
        """A chat message to every connection (PROTOCOL.md, Chat), kept apart from the
        game's events; refused (``muted``) for a muted player, and not sent to the
        connections of accounts that block the sender (docs/hosting.md, "Moderation")."""
        self._check_here(ref)
        if not conn.chat_bucket.take():
            raise ProtocolError("rate_limited", "too many chat messages: slow down", ref=ref)
        seat = conn.seat
        account = self.account_at(seat)
        moderation = self.host.moderation
        hidden: set[str] = set()
        if moderation is not None:
            if await moderation.muted(account, conn.address) is not None:
                raise ProtocolError("muted", "you are muted here: your chat is not sent", ref=ref)
            if account is not None:
                hidden = await moderation.blockers_of(account)
            self._check_here(ref)  # checked again after the awaits
        name = None if seat is None else self.table.names[seat]
        message = ChatRow(seat, name, text, round(time.time(), 3))
        self.chat_count += 1
        n = self.chat_count
        try:
            await self.host.store.add_chat(self.id, n, message, self.host.limits.chat_kept)
        except StoreBusy as exc:
            # n is not taken back: another message may have taken the next number meanwhile
            raise ProtocolError("unavailable", _unstored(exc), ref=ref) from None
        out = dumps(_chat_json(message, n=n))
        for other in self.conns:
            if other is not conn and self.account_at(other.seat) in hidden:
                continue  # its player blocks the sender
            # the sender's copy carries its ref: the client knows its message went through
            other.put(
                out if other is not conn or ref is None else dumps(_chat_json(message, ref, n))
            )

    async def send_chat_history(self, conn: Conn) -> None:
        """The table's last chat messages, after a hello's state: never one the host
        removed, nor one of an account the connection's player blocks."""
        moderation = self.host.moderation
        try:
            kept = await self.host.store.chat(self.id, self.host.limits.chat_history)
            removed: set[int] = set()
            blocked: set[str] = set()
            if moderation is not None and kept:
                removed = await moderation.db.removed(self.id)
                mine = self.account_at(conn.seat)
                if mine is not None:
                    blocked = {b for b, _ in await moderation.db.blocks(mine, 500)}
        except StoreBusy:
            kept = []
        if kept:
            self.chat_count = max(self.chat_count, kept[-1][0])
        shown = [
            _chat_json(c, n=n)
            for n, c in kept
            if n not in removed and (c.seat is None or self.account_at(c.seat) not in blocked)
        ]
        conn.put(dumps({"type": "chat_history", "messages": shown}))

    # ------------------------------------------------------------ leaving memory

    def close_all(self, code: int, reason: str) -> None:
        """Close every connection (the room leaves this process)."""
        self.gone = True
        self.driver.stop()
        for conn in list(self.conns):
            conn.shut(code, reason)


def _chat_json(chat: ChatRow, ref: Ref | None = None, n: int | None = None) -> dict[str, object]:
    out: dict[str, object] = {
        "type": "chat",
        "seat": chat.seat,
        "name": chat.name,
        "text": chat.text,
        "at": chat.at,
    }
    if n is not None:
        out["n"] = n  # added: the message's number at its table (to report it)
    if ref is not None:
        out["ref"] = ref
    return out


def _unstored(exc: Exception) -> str:
    """The ``unavailable`` error's message for a change the store did not keep."""
    if isinstance(exc, StoreFailed) or not isinstance(exc, StoreBusy | Conflict):
        return "the database could not store that: try again later"
    return "the database is busy: try again"


def _lang(conn: Conn | None) -> str:
    return "en" if conn is None else conn.lang


def limits_of(room: Room) -> Limits:
    """The limits a room keeps."""
    return room.host.limits
