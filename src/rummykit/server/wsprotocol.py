"""The WebSocket protocol under the app: uvicorn's (websockets' sans-I/O), with a reason on
every close it makes by itself, and a bounded send buffer.

- uvicorn closes a connection whose text frame is not UTF-8 with code 1007 and
  no reason. Every bad frame a client sends gets an ``error`` or a close with a
  code and a reason (``docs/protocol.md``), so :class:`WebSocketProtocol`
  checks a text message's UTF-8 first and closes such a one with 1007 and why.
- When uvicorn fails a connection for a bad frame (not UTF-8, too big), it
  sends its close and closes the socket at once, though the client may still
  be sending (the rest of a frame of megabytes): a socket closed with data
  unread is reset, and the reset may reach the client before it has read the
  close, which it then never sees (1006). This protocol sends its close, ends
  its side (FIN) and reads what still comes, discarding it, until the client
  closes or :data:`LINGER` seconds have passed.
- The kernel grows a socket's send buffer to megabytes for a peer that does not
  read; a WebSocket's is kept at :data:`SEND_BUFFER`, so that what a client that
  does not read is owed piles up in its outbox, which is bounded
  (:attr:`~rummykit.server.limits.Limits.outbox`: closed 4413), within seconds
  and not megabytes.

``rummykit serve`` runs uvicorn with it.
"""

from __future__ import annotations

import contextlib
import socket
from asyncio import BaseTransport

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

__all__ = ["SEND_BUFFER", "WebSocketProtocol"]

INVALID_DATA = 1007
"""RFC 6455: a text message that is not UTF-8."""
SEND_BUFFER = 128 * 1024
"""Bytes of a WebSocket's kernel send buffer: a few whole states; the kernel doubles it."""
LINGER = 2.0
"""Seconds a failed connection is read (and what comes discarded) before it is closed."""


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol; a text message that is not UTF-8 is closed with 1007
    and a reason saying so; a failed connection's close is not lost to a reset; the
    socket's send buffer is :data:`SEND_BUFFER`."""

    lingering = False
    """The connection failed: its close is sent, and what still comes is discarded."""

    def connection_made(self, transport: BaseTransport) -> None:
        """The upgraded connection: its send buffer bounded."""
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        super().connection_made(transport)

    def send_receive_event_to_app(self) -> None:
        """Hand a whole message to the app, unless it is a text message that is no UTF-8."""
        if self.curr_msg_data_type == "text" and not self.close_sent:
            data = b"".join(self.frames)
            try:
                data.decode()
            except UnicodeDecodeError as exc:
                self.frames = []
                reason = f"a text message is UTF-8: {exc.reason} at byte {exc.start}"
                self.conn.send_close(INVALID_DATA, reason[:120])
                self.handle_parser_exception()
                return
        super().send_receive_event_to_app()

    def data_received(self, data: bytes) -> None:
        """Read a frame's bytes (and discard them once the connection has failed)."""
        if not self.lingering:
            super().data_received(data)

    def handle_parser_exception(self) -> None:
        """The connection failed (a bad frame): send the close, end this side, and close the
        socket once the client has, or after :data:`LINGER` seconds."""
        close = self.conn.close_sent
        assert close is not None
        self.queue.put_nowait(
            {"type": "websocket.disconnect", "code": close.code, "reason": close.reason}
        )
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        self.lingering = True
        self.stop_keepalive()
        if self.read_paused:
            self.read_paused = False
            self.transport.resume_reading()
        if self.transport.can_write_eof():
            self.transport.write_eof()
        if self.close_timer is None:
            self.close_timer = self.loop.call_later(LINGER, self.transport.close)
