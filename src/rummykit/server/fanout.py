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

A frame is written to the socket at once: writing to a transport that is not
full never waits, so no task is made for it (measured: a task and a queue a
connection cost more than the rest of a send). Only when the transport is
full does a task finish the send and the frames queued behind it; a client
that does not read them is closed (4413) before the queue grows without
bound. A connection that has had nothing for ``ping_after`` seconds gets a
``ping`` (PROTOCOL.md, Heartbeat): one timer a connection, re-armed at most
once per ``ping_after``, never a sweep.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import deque
from collections.abc import Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from rummykit.game import Game
from rummykit.narration import narrate_log
from rummykit.server.limits import Bucket, Limits
from rummykit.server.protocol import PING, Close, Ref, dumps

__all__ = ["Conn", "Link", "Narration", "StateMaker"]


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
    address: str | None = None
    """The client's address (for a host's mute of an address; never sent or logged)."""
    epoch: int = -1
    log_sent: int = 0
    ref: Ref | None = None
    """The ``ref`` of this connection's accepted action, until a state holding it is sent."""
    refused: int = 0
    """Messages refused for the rate in a row."""
    closed: bool = False
    bucket: Bucket = field(init=False)
    chat_bucket: Bucket = field(init=False)
    last_sent: float = field(default_factory=time.monotonic)
    _backlog: deque[str] = field(default_factory=deque)
    _backlog_size: int = 0
    _writing: bool = False
    _drained: asyncio.Future[None] | None = None
    _pinger: asyncio.TimerHandle | None = None
    _closing: asyncio.Future[None] | None = None

    def __post_init__(self) -> None:
        self.bucket = Bucket(self.limits.rate, self.limits.burst)
        self.chat_bucket = Bucket(self.limits.chat_rate, self.limits.chat_burst)

    def start(self) -> None:
        """Start the heartbeat."""
        self._arm()

    def put(self, text: str) -> None:
        """Send a frame: at once when the socket takes it (the usual case: writing to a
        transport that is not full does not wait), else after the frames before it; a
        client too slow to take ``limits.outbox`` frames, or ``limits.outbox_bytes``
        characters of them, is closed."""
        if self.closed:
            return
        if self._writing:
            size = self._backlog_size + len(text)
            if len(self._backlog) >= self.limits.outbox or size > self.limits.outbox_bytes:
                self.shut(Close.TOO_SLOW, "too slow: the client does not read its messages")
                return
            self._backlog.append(text)
            self._backlog_size = size
            return
        self._send(text)

    @property
    def backlogged(self) -> bool:
        """True while frames wait for the socket (its transport is full)."""
        return self._writing

    def _send(self, text: str) -> None:
        """Run the socket's send. It finishes at once unless the transport is full; then it
        goes on when the transport has room (the future it waits on is done), and the
        frames queued meanwhile follow, in order. No task is made for either."""
        self._step(self.link.send(text))

    def _step(self, sending: Coroutine[object, object, None]) -> None:
        try:
            waiting = sending.send(None)
        except StopIteration:
            self.last_sent = time.monotonic()
            self._writing = False
            if self._backlog:
                text = self._backlog.popleft()
                self._backlog_size -= len(text)
                self._send(text)
            elif self._drained is not None and not self._drained.done():
                self._drained.set_result(None)
            return
        except Exception:  # the socket is gone: the reader will see it close
            self.closed = True
            self._writing = False
            self._drop_backlog()
            if self._drained is not None and not self._drained.done():
                self._drained.set_result(None)
            return
        self._writing = True
        if isinstance(waiting, asyncio.Future):  # resumed only once it is done
            waiting.add_done_callback(lambda _: self._step(sending))
        else:
            asyncio.get_running_loop().call_soon(self._step, sending)

    def shut(self, code: int, reason: str, *, flush: bool = False) -> None:
        """Close the connection with a code and reason: after what is queued (``flush``),
        or dropping it (a client too slow to read it, one that will not slow down)."""
        if self.closed:
            return
        self.closed = True
        if self._pinger is not None:
            self._pinger.cancel()
        if not flush or len(self._backlog) >= self.limits.outbox:
            self._drop_backlog()
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
        self.closed = True
        self._drop_backlog()

    def _drop_backlog(self) -> None:
        self._backlog.clear()
        self._backlog_size = 0

    async def _close(self, code: int, reason: str) -> None:
        if self._writing:  # what is being sent (and, flushing, what is queued) goes first
            self._drained = asyncio.get_running_loop().create_future()
            await self._drained
        with contextlib.suppress(Exception):
            await self.link.close(code, reason)

    def _arm(self) -> None:
        loop = asyncio.get_running_loop()
        at = self.last_sent + self.limits.ping_after
        self._pinger = loop.call_at(loop.time() + max(0.05, at - time.monotonic()), self._ping)

    def _ping(self) -> None:
        if self.closed:
            return
        if time.monotonic() - self.last_sent >= self.limits.ping_after - 0.05 and (
            not self._writing
        ):
            self.put(PING)
            self.last_sent = time.monotonic()
        self._arm()


@dataclass
class Narration:
    """The log in words, per viewer and language, told once per entry and kept: the log
    only grows (a new unit, ``epoch``, starts it again). An entry every viewer sees alike
    (the engines share it: a spectator's) is told once for all of them."""

    epoch: int = -1
    _public: dict[str, list[str]] = field(default_factory=dict)
    _lines: dict[tuple[int | None, str], list[str]] = field(default_factory=dict)

    def lines(
        self,
        game: Game,
        viewer: int | None,
        lang: str,
        start: int,
        names: Sequence[str],
        epoch: int,
    ) -> list[str]:
        """The entries from ``start`` on, in words, as ``viewer`` reads them in ``lang``."""
        if epoch != self.epoch:
            self._lines.clear()
            self._public.clear()
            self.epoch = epoch
        public = self._public.setdefault(lang, [])
        size = game.log_size
        if len(public) < size:
            public += narrate_log(game.name, game.log_entries(None, len(public)), names, lang)
        if viewer is None:
            return public[start:]
        told = self._lines.setdefault((viewer, lang), [])
        if len(told) < size:
            done = len(told)
            own = game.log_entries(viewer, done)
            shared = game.log_entries(None, done)
            for i, (mine, theirs) in enumerate(zip(own, shared, strict=True)):
                if mine is theirs:
                    told.append(public[done + i])
                else:
                    told += narrate_log(game.name, [mine], names, lang)
        return told[start:]


@dataclass
class StateMaker:
    """The ``state`` messages of one change: each made once per seat and log position."""

    game: Game | None
    envelope: Mapping[str, object]
    """The fields every state of this change shares (version, status, seats, clock...)."""
    epoch: int
    names: Sequence[str] = ()
    """The seats' names, for the log in words."""
    narration: Narration = field(default_factory=Narration)
    _views: dict[int | None, str] = field(default_factory=dict)
    _envelope: str | None = None
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
        if self._envelope is None:
            self._envelope = dumps(self.envelope)[:-1]
        head = f'{self._envelope},"seat":{"null" if seat is None else seat}'

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
        told = self.narration.lines(game, seat, lang, start, self.names, self.epoch)
        text = (
            f'{head},"log_start":{start},"view":{view},"log":{dumps(entries)}}},'
            f'"log_text":{dumps(told)}}}'
        )
        return text, size
