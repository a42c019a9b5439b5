"""Fan-out: each connection of a table gets the table's state after each change, made
from what that connection already has.

A :class:`Conn` knows how much of the unit's log it has (``log_sent``, in
``epoch``, the unit it has it of). After a change a state is made once per
seat and log position (:class:`StateMaker`): the seat's view without its log
(:meth:`rummykit.game.Game.view` with ``log=False``) and only the log entries
the connection lacks (:meth:`rummykit.game.Game.log_entries`), never a whole
view sliced, with those entries in words in the connection's language
(``log_text``, :mod:`rummykit.narration`). Connections of one seat at the
same position and language share one text.

Each connection has an outbox of frames and a writer task that sends them; a
client that does not read its frames is closed (4413) before the queue
grows without bound, and one that has had nothing for ``ping_after`` seconds
gets a ``ping`` (PROTOCOL.md, Heartbeat): one timer a connection, re-armed at
most once per ``ping_after``, never a sweep.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from rummykit.game import Game
from rummykit.narration import narrate_log
from rummykit.server.limits import Bucket, Limits
from rummykit.server.protocol import PING, Close, Ref, dumps

__all__ = ["Conn", "Link", "StateMaker"]


class Link(Protocol):
    """A connection's way out: the WebSocket, as the server sees it."""

    async def send(self, text: str) -> None:
        """Send one text frame."""
        ...

    async def close(self, code: int, reason: str) -> None:
        """Close the connection with a code and a reason."""
        ...


@dataclass(eq=False)
class Conn:
    """One WebSocket connection of a table: its seat (None: a spectator) and what it has."""

    link: Link
    seat: int | None
    limits: Limits
    lang: str = "en"
    epoch: int = -1
    log_sent: int = 0
    ref: Ref | None = None
    """The ``ref`` of this connection's accepted action, until a state holding it is sent."""
    refused: int = 0
    """Messages refused for the rate in a row."""
    closed: bool = False
    bucket: Bucket = field(init=False)
    chat_bucket: Bucket = field(init=False)
    outbox: asyncio.Queue[str | None] = field(init=False)
    writer: asyncio.Task[None] | None = None
    last_sent: float = field(default_factory=time.monotonic)
    _pinger: asyncio.TimerHandle | None = None
    _closing: asyncio.Future[None] | None = None

    def __post_init__(self) -> None:
        self.bucket = Bucket(self.limits.rate, self.limits.burst)
        self.chat_bucket = Bucket(self.limits.chat_rate, self.limits.chat_burst)
        self.outbox = asyncio.Queue(maxsize=self.limits.outbox)

    def start(self) -> None:
        """Start the writer and the heartbeat."""
        self.writer = asyncio.create_task(self._write())
        self._arm()

    def put(self, text: str) -> None:
        """Queue a frame; a client too slow to take ``limits.outbox`` frames is closed."""
        if self.closed:
            return
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.shut(Close.TOO_SLOW, "too slow: the client does not read its messages")

    def shut(self, code: int, reason: str, *, flush: bool = False) -> None:
        """Close the connection with a code and reason: after what is queued (``flush``),
        or dropping it (a client too slow to read it, one that will not slow down)."""
        if self.closed:
            return
        self.closed = True
        if self._pinger is not None:
            self._pinger.cancel()
        if not flush or self.outbox.full():
            with contextlib.suppress(asyncio.QueueEmpty):
                while True:
                    self.outbox.get_nowait()
        self.outbox.put_nowait(None)
        self._closing = asyncio.ensure_future(self._close(code, reason))

    async def wait_closed(self, timeout: float) -> None:
        """Wait until the close :meth:`shut` began has been sent (at most ``timeout``
        seconds: a client that does not read may never take it)."""
        if self._closing is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._closing), timeout)

    def stop(self) -> None:
        """The connection is gone: stop writing."""
        if self._pinger is not None:
            self._pinger.cancel()
        if not self.closed:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.outbox.put_nowait(None)

    async def _close(self, code: int, reason: str) -> None:
        if self.writer is not None:  # what is still queued goes first
            await asyncio.wait({self.writer})
        with contextlib.suppress(Exception):
            await self.link.close(code, reason)

    async def _write(self) -> None:
        while (text := await self.outbox.get()) is not None:
            try:
                await self.link.send(text)
            except Exception:  # the socket is gone: the reader will see it close
                return
            self.last_sent = time.monotonic()

    def _arm(self) -> None:
        loop = asyncio.get_running_loop()
        at = self.last_sent + self.limits.ping_after
        self._pinger = loop.call_at(loop.time() + max(0.05, at - time.monotonic()), self._ping)

    def _ping(self) -> None:
        if self.closed:
            return
        if time.monotonic() - self.last_sent >= self.limits.ping_after - 0.05 and (
            self.outbox.empty()
        ):
            self.put(PING)
            self.last_sent = time.monotonic()
        self._arm()


@dataclass
class StateMaker:
    """The ``state`` messages of one change: each made once per seat and log position."""

    game: Game | None
    envelope: Mapping[str, object]
    """The fields every state of this change shares (version, status, seats, clock...)."""
    epoch: int
    names: Sequence[str] = ()
    """The seats' names, for the log in words."""
    _views: dict[int | None, str] = field(default_factory=dict)
    _texts: dict[tuple[int | None, int, str], tuple[str, int]] = field(default_factory=dict)

    def text(self, conn: Conn, *, whole: bool = False) -> str:
        """The state for ``conn``: the log entries it lacks (all of them if ``whole``, or if
        it had them of another unit); afterwards it has the whole log."""
        start = 0 if whole or conn.epoch != self.epoch else conn.log_sent
        key = (conn.seat, start, conn.lang)
        made = self._texts.get(key)
        if made is None:
            made = self._make(conn.seat, start, conn.lang)
            self._texts[key] = made
        text, size = made
        conn.log_sent, conn.epoch = size, self.epoch
        if conn.ref is not None:  # Acknowledgement: the first state holding its own action
            text = f'{text[:-1]},"ref":{json.dumps(conn.ref)}}}'
            conn.ref = None
        return text

    def _make(self, seat: int | None, start: int, lang: str) -> tuple[str, int]:
        game = self.game
        head = dumps({**self.envelope, "seat": seat})[:-1]
        if game is None:
            return f'{head},"log_start":0,"view":null,"log_text":[]}}', 0
        view = self._views.get(seat)
        if view is None:
            body = (
                game.view(seat, log=False) if seat is not None else game.spectator_view(log=False)
            )
            view = dumps(body)[:-1]
            self._views[seat] = view
        size = game.log_size
        if start > size:
            start = 0
        entries = game.log_entries(seat, start)
        told = narrate_log(game.name, entries, self.names, lang)
        text = (
            f'{head},"log_start":{start},"view":{view},"log":{dumps(entries)}}},'
            f'"log_text":{dumps(told)}}}'
        )
        return text, size
