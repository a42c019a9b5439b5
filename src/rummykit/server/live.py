"""One live connection (PROTOCOL.md's WebSocket): hello, then messages until it closes.

:func:`serve_connection` reads the hello (within ``hello_timeout``), finds
the table's room (loading it if needed), attaches the connection, and then
reads one message at a time: each is read by :mod:`rummykit.server.protocol`
(bounded), counted against the connection's rate, and handed to the room.
Every bad frame gets an ``error``, or a coded close with a reason: a client
that will not slow down is closed (4429), one that does not read its frames
too (4413); nothing a client sends ends a connection without a word.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from rummykit.cards import parse_cards
from rummykit.errors import ActionError
from rummykit.server import assist
from rummykit.server.fanout import Conn, Link
from rummykit.server.protocol import (
    ActionMessage,
    Assist,
    ChatMessage,
    Close,
    Hello,
    Message,
    NextMessage,
    Ping,
    ProtocolError,
    Seen,
    dumps,
    error_text,
    read_hello,
    read_message,
)
from rummykit.server.room import Room
from rummykit.server.rooms import Busy, Rooms

__all__ = ["Socket", "serve_connection"]

log = logging.getLogger("rummykit.server")


class Socket(Link, Protocol):
    """What :func:`serve_connection` needs of a WebSocket: text in, text out, close."""

    async def receive(self) -> str | None:
        """The next text frame (a binary frame as text that is no JSON); None when closed."""
        ...


async def serve_connection(
    rooms: Rooms, socket: Socket, table_id: str, address: str | None = None
) -> None:
    """Serve one connection of table ``table_id`` (from ``address``) until it closes."""
    limits = rooms.limits

    async def refuse(error: ProtocolError, code: int) -> None:
        with contextlib.suppress(Exception):
            await socket.send(error_text(error))
            await socket.close(code, error.message[:120])

    try:
        first = await asyncio.wait_for(socket.receive(), limits.hello_timeout)
    except TimeoutError:
        with contextlib.suppress(Exception):
            await socket.close(Close.HELLO_TIMEOUT, "no hello in time")
        return
    if first is None:
        return
    try:
        hello = read_hello(first, limits)
    except ProtocolError as exc:
        code = Close.UNAUTHORIZED if exc.code == "unauthorized" else Close.BAD_HELLO
        await refuse(exc, code)
        return
    try:
        room = await rooms.get(table_id)
    except Busy as exc:
        await refuse(ProtocolError("unavailable", str(exc)), Close.MOVED)
        return
    if room is None:
        await refuse(ProtocolError("not_found", "no such table"), Close.NOT_FOUND)
        return
    seat = None
    if hello.token is not None:
        seat = room.table.seat_of(hello.token)
        if seat is None:
            error = ProtocolError("unauthorized", "this token is no seat's at this table")
            await refuse(error, Close.UNAUTHORIZED)
            return
    conn = Conn(socket, seat, limits, lang=hello.lang or "en", address=address)
    try:
        await room.attach(conn)
    except ProtocolError as exc:  # too many, or the room left memory meanwhile: reconnect
        await refuse(exc, Close.MOVED if exc.code == "unavailable" else Close.TOO_MANY)
        return
    try:
        while (text := await socket.receive()) is not None:
            if conn.closed or room.gone:
                break
            await _one(room, conn, text)
            if conn.backlogged:
                # frames that came in one burst are read without a pause: let the writer
                # send the answers, so that a burst fills no backlog of a client that reads
                await asyncio.sleep(0)
    except Exception:
        log.exception("table %s: a connection failed", table_id)
    finally:
        await room.detach(conn)
        # the close the server began (and its reason) goes out before the handler ends:
        # the web server drops the socket then, and the client would see no reason (1006)
        await conn.wait_closed(limits.close_wait)


async def _one(room: Room, conn: Conn, text: str) -> None:
    """One message after the hello; its error, if any, goes to ``conn`` alone."""
    limits = room.host.limits
    if not conn.bucket.take():
        conn.refused += 1
        if conn.refused > limits.flood:
            conn.shut(Close.TOO_MANY, "too many messages: the client did not slow down")
        else:
            conn.put(error_text(ProtocolError("rate_limited", "too many messages: slow down")))
        return
    conn.refused = 0
    try:
        message = read_message(text, limits)
        await _HANDLERS[type(message)](room, conn, message)
    except ProtocolError as exc:
        conn.put(error_text(exc))
    except Exception:
        log.exception("table %s: a message failed", room.id)
        conn.put(error_text(ProtocolError("internal", "the server failed to answer that")))


async def _action(room: Room, conn: Conn, message: Message) -> None:
    assert isinstance(message, ActionMessage)
    await room.act(conn.seat, message.version, message.action, conn=conn, ref=message.ref)


async def _next(room: Room, conn: Conn, message: Message) -> None:
    assert isinstance(message, NextMessage)
    await room.next_unit(conn.seat, message.version, message.ref, conn=conn)


async def _chat(room: Room, conn: Conn, message: Message) -> None:
    assert isinstance(message, ChatMessage)
    await room.chat(conn, message.text, message.ref)


async def _ping(room: Room, conn: Conn, message: Message) -> None:
    assert isinstance(message, Ping)
    pong: dict[str, object] = {"type": "pong"}
    if message.ref is not None:
        pong["ref"] = message.ref
    conn.put(dumps(pong))


async def _seen(room: Room, conn: Conn, message: Message) -> None:
    assert isinstance(message, Seen)
    room.seen(conn.seat)


async def _hello(room: Room, conn: Conn, message: Message) -> None:
    """A hello on an open connection: a resync (and perhaps another language)."""
    assert isinstance(message, Hello)
    if message.lang is not None:
        conn.lang = message.lang
    async with room.lock:
        room.send_state(conn)
    await room.send_chat_history(conn)


async def _assist(room: Room, conn: Conn, message: Message) -> None:
    """A hint, an arrangement or a check for the seat to act: made in a worker, heard only
    by the asking connection (with its ``ref``)."""
    assert isinstance(message, Assist)
    table, ref = room.table, message.ref
    async with room.lock:  # a position that is committed
        game = table.game
        if conn.seat is None or game is None or game.to_act != conn.seat:
            raise ProtocolError("not_your_turn", "help is given to the seat to act", ref=ref)
        version, position = table.version, game.copy()
    workers = room.host.workers
    if message.kind == "check":
        try:
            action = table.spec.action_from_json(message.action, seat=conn.seat)
        except ActionError as exc:
            raise ProtocolError("bad_message", exc.translated(conn.lang), ref=ref) from None
        if table.spec.searches(action.to_json()):
            answer = await workers.run(assist.check, position, action, conn.lang)
        else:  # no search: as cheap as the message itself
            answer = assist.check(position, action, conn.lang)
        kind = "checked"
    elif message.kind == "arrange":
        try:
            parse_cards(list(message.cards))
        except ValueError as exc:
            raise ProtocolError("bad_message", str(exc), ref=ref) from None
        answer = await workers.run(
            assist.arrange, position, conn.seat, list(message.cards), conn.lang
        )
        if "message" in answer:
            rule = answer.get("rule")
            raise ProtocolError(
                "illegal",
                str(answer["message"]),
                rule if isinstance(rule, str) else None,
                ref=ref,
            )
        kind = "arranged"
    else:
        answer = await workers.run(assist.hint, position)
        kind = "hint"
    out: dict[str, object] = {"type": kind, "version": version, **answer}
    if ref is not None:
        out["ref"] = ref
    conn.put(dumps(out))


_HANDLERS: dict[type, Callable[[Room, Conn, Message], Awaitable[None]]] = {
    ActionMessage: _action,
    NextMessage: _next,
    ChatMessage: _chat,
    Ping: _ping,
    Seen: _seen,
    Hello: _hello,
    Assist: _assist,
}
