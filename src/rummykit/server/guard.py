"""The connections' guard: how long a request head may take, how large it may be, and how
many connections one address may hold, kept below the app, in uvicorn's protocols.

uvicorn's httptools protocol has none of these of its own (measured before this module: a
head sent a byte at a time was kept open 150 s and more, a connection that sent nothing
75 s and more, one unfinished request with 45 MiB of header fields held 320 MiB, and 1,100
connections from one address at the default 1,024 open files made every other request
fail). So ``rummykit serve`` runs uvicorn with :class:`GuardedHttp` and
:class:`GuardedWebSocket`, made for one :class:`Guard` by :meth:`Guard.protocols`:

- A new connection that sends nothing for the idle time (uvicorn's keep-alive time,
  ``--idle-timeout``) is closed, as uvicorn already closes one between requests.
- A request head (request line and header fields) must be complete
  :attr:`ConnectionLimits.head_timeout` seconds after the connection was made or the
  request's first byte came; if not, the server answers 408 and closes.
- A head over :attr:`ConnectionLimits.max_head` bytes, or of more than
  :attr:`ConnectionLimits.max_fields` fields, is answered 431 and the connection closed;
  what was received is counted as it comes, so an unfinished head is refused once it has
  passed the limit, not when it ends (the parser holds at most the limit and one read).
- One address holds at most :attr:`ConnectionLimits.per_address` connections at a time,
  an open WebSocket included (it began as one of its HTTP connections, and keeps its
  place). The one more is answered 429 and closed. A connection from a trusted front end
  (uvicorn's ``--forwarded-allow-ips``, 127.0.0.1 and ::1 by default) counts for the
  client its request names in ``X-Forwarded-For`` (as uvicorn reads it), from its head to
  its answer's end, or for as long as its WebSocket is open: all a front end's
  connections come from its own address, and they are its clients' connections.

Every refusal carries a JSON body ``{"error", "message"}`` like the API's, and
``Connection: close``; the server then ends its side and reads what still comes for
:attr:`ConnectionLimits.linger` seconds, discarding it, so that the answer is not lost to
a reset. Nothing here reads or keeps a body.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import resource
from dataclasses import dataclass, field
from typing import ClassVar

import httptools
from uvicorn.middleware.proxy_headers import _TrustedHosts
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

from rummykit.server.middleware import SECURITY_HEADERS
from rummykit.server.wsprotocol import WebSocketProtocol

__all__ = [
    "ConnectionLimits",
    "Guard",
    "GuardedHttp",
    "GuardedWebSocket",
    "Slot",
    "raise_open_files",
]


@dataclass(frozen=True)
class ConnectionLimits:
    """The bounds on a connection before the app sees it (``docs/hosting.md``)."""

    head_timeout: float = 10.0
    """Seconds a request head may take, from the connection (or the request's first byte)
    to its blank line (``--header-timeout``)."""
    max_head: int = 16 * 1024
    """Bytes of a request head: its request line and header fields."""
    max_fields: int = 100
    """Header fields in one request."""
    per_address: int = 64
    """Connections one client address may hold at once (``--connections-per-address``)."""
    linger: float = 1.0
    """Seconds a refused connection is read (and what comes discarded) before it is
    closed, so that the refusal reaches a client that is still sending."""


@dataclass
class Slot:
    """One connection's place in its address's count; given back once."""

    guard: Guard
    address: str
    released: bool = False

    def release(self) -> None:
        """Give the place back (a second call does nothing)."""
        if not self.released:
            self.released = True
            self.guard.release(self.address)


@dataclass
class Guard:
    """One server's limits, its count of connections per address, and its trusted front
    ends (the same list as uvicorn's ``forwarded_allow_ips``)."""

    limits: ConnectionLimits
    trusted: list[str] | str = "127.0.0.1,::1"
    open: dict[str, int] = field(default_factory=dict)
    """Connections held, per client address (an address holding none is not kept)."""

    def __post_init__(self) -> None:
        # uvicorn's own reading of --forwarded-allow-ips and X-Forwarded-For (private, but
        # the one the app's client address comes from: the cap and the app agree on it)
        self.trusted_hosts = _TrustedHosts(self.trusted)

    def take(self, address: str) -> Slot | None:
        """A place for one more connection of ``address``, or None at the cap."""
        held = self.open.get(address, 0)
        if held >= self.limits.per_address:
            return None
        self.open[address] = held + 1
        return Slot(self, address)

    def release(self, address: str) -> None:
        """One connection of ``address`` closed."""
        held = self.open.get(address, 0) - 1
        if held > 0:
            self.open[address] = held
        else:
            self.open.pop(address, None)

    def is_trusted(self, host: str | None) -> bool:
        """Whether ``host`` is a front end whose ``X-Forwarded-For`` names the client."""
        return host in self.trusted_hosts

    def client_of(self, peer: str, forwarded: list[bytes]) -> str:
        """The client a trusted front end's request is for: as uvicorn's proxy headers
        middleware reads ``X-Forwarded-For``; the front end itself if it names none."""
        if not forwarded:
            return peer
        host, _ = self.trusted_hosts.get_trusted_client_address(
            b", ".join(forwarded).decode("latin-1")
        )
        return host or peer

    def protocols(self) -> tuple[type[GuardedHttp], type[GuardedWebSocket]]:
        """uvicorn's protocol classes (``Config(http=..., ws=...)``) bound to this guard."""
        guard = self

        class Http(GuardedHttp):
            pass

        class WebSocket(GuardedWebSocket):
            pass

        Http.guard = guard
        WebSocket.guard = guard
        return Http, WebSocket


class _Refused(Exception):
    """A request refused from a parser callback (the parser wraps it; see data_received)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def _head_too_large(limits: ConnectionLimits) -> _Refused:
    return _Refused(
        431,
        "headers_too_large",
        f"a request's head is at most {limits.max_head} bytes and"
        f" {limits.max_fields} header fields",
    )


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol with the guard's head timeout, head limits and
    per-address cap (the module's docstring); made by :meth:`Guard.protocols`."""

    guard: ClassVar[Guard]
    slot: Slot | None = None
    """This connection's place in its address's count (None: holds none now)."""
    trusted_peer: bool = False
    """The peer is a front end: the place is taken per request, for the client it names."""
    in_head: bool = True
    """The connection waits for (the rest of) a request head."""
    head_received: int = 0
    """Bytes received while the head was not complete."""
    head_size: int = 0
    """Bytes of the head's request target and fields, as the parser gave them."""
    head_fields: int = 0
    """Fields of the head so far."""
    head_timer: asyncio.TimerHandle | None = None
    refused: bool = False
    """An answer refusing the connection is sent: what comes is discarded."""

    # ------------------------------------------------------------ the connection

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Count the connection for its address (a direct client's, at once); close it if
        it sends nothing for the idle time or no whole head within the head timeout."""
        super().connection_made(transport)
        host = self.client[0] if self.client else ""
        self.trusted_peer = self.guard.is_trusted(host)
        if not self.trusted_peer:
            self.slot = self.guard.take(host)
            if self.slot is None:
                self._refuse(_too_many(self.guard.limits))
                return
        # uvicorn arms its keep-alive timer only after a response; a new connection too
        # is closed if it sends nothing for that long (the first data cancels it)
        self.timeout_keep_alive_task = self.loop.call_later(
            self.timeout_keep_alive, self.timeout_keep_alive_handler
        )
        self._start_head()

    def connection_lost(self, exc: Exception | None) -> None:
        """Give the connection's place back and stop its timer."""
        self._stop_head()
        if self.slot is not None:
            self.slot.release()
            self.slot = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        """Parse what came (uvicorn's own, with the head's bounds kept)."""
        if self.refused:
            return
        self._unset_keepalive_if_required()
        if self.in_head:
            self.head_received += len(data)
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserCallbackError as exc:
            if isinstance(exc.__context__, _Refused):
                self._refuse(exc.__context__)
                return
            self._bad_request()
            return
        except httptools.HttpParserError:
            self._bad_request()
            return
        except httptools.HttpParserUpgrade:
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()
            return
        if self.in_head and self.head_received > self.guard.limits.max_head:
            self._refuse(_head_too_large(self.guard.limits))

    def _bad_request(self) -> None:
        msg = "Invalid HTTP request received."
        self.logger.warning(msg)
        self.send_400_response(msg)

    # ------------------------------------------------------------ the parser's callbacks

    def on_message_begin(self) -> None:
        """A request's first byte: its head's bounds start again."""
        super().on_message_begin()
        self.in_head = True
        self.head_size = 0
        self.head_fields = 0
        if self.head_timer is None:
            self._start_head()

    def on_url(self, url: bytes) -> None:
        """The request target (maybe in parts): counted."""
        self.head_size += len(url)
        if self.head_size > self.guard.limits.max_head:
            raise _head_too_large(self.guard.limits)
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        """A header field: counted, in bytes and fields."""
        self.head_size += len(name) + len(value) + 4
        self.head_fields += 1
        limits = self.guard.limits
        if self.head_size > limits.max_head or self.head_fields > limits.max_fields:
            raise _head_too_large(limits)
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        """The head is whole: its timer stops; a front end's request takes the place of the
        client it names."""
        self.in_head = False
        self._stop_head()
        if self.trusted_peer and self.slot is None:
            peer = self.client[0] if self.client else ""
            forwarded = [v for k, v in self.headers if k == b"x-forwarded-for"]
            self.slot = self.guard.take(self.guard.client_of(peer, forwarded))
            if self.slot is None:
                raise _too_many(self.guard.limits)
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        """The request is whole: what comes next is the next head."""
        super().on_message_complete()
        self.in_head = True
        self.head_received = 0

    def on_response_complete(self) -> None:
        """The answer is sent: a front end's connection gives its client's place back."""
        if self.trusted_peer and self.slot is not None and not self.pipeline:
            self.slot.release()
            self.slot = None
        super().on_response_complete()

    def handle_websocket_upgrade(self) -> None:
        """The connection becomes a WebSocket, which keeps its place."""
        slot, self.slot = self.slot, None
        super().handle_websocket_upgrade()
        protocol = self.transport.get_protocol()
        if isinstance(protocol, GuardedWebSocket):
            protocol.slot = slot
        elif slot is not None:
            slot.release()

    # ------------------------------------------------------------ timers and refusals

    def _start_head(self) -> None:
        self.head_timer = self.loop.call_later(self.guard.limits.head_timeout, self._head_late)

    def _stop_head(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def _head_late(self) -> None:
        self.head_timer = None
        if self.in_head and not self.transport.is_closing():
            seconds = f"{self.guard.limits.head_timeout:g}"
            self._refuse(_Refused(408, "timeout", f"a request's head must come within {seconds} s"))

    def _refuse(self, refusal: _Refused) -> None:
        """Answer ``refusal`` and close: end this side, discard what still comes, close
        once the client has or after the linger time."""
        if self.refused or self.transport.is_closing():
            return
        self.refused = True
        self._stop_head()
        self._unset_keepalive_if_required()
        if self.cycle is None or self.cycle.response_complete:
            body = json.dumps({"error": refusal.code, "message": refusal.message}).encode()
            fields = [
                *SECURITY_HEADERS,
                (b"cache-control", b"no-store"),
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ]
            head = b"".join(name + b": " + value + b"\r\n" for name, value in fields)
            self.transport.write(STATUS_LINE[refusal.status] + head + b"\r\n" + body)
        if self.transport.can_write_eof():
            with contextlib.suppress(OSError):
                self.transport.write_eof()
        self.loop.call_later(self.guard.limits.linger, self.transport.close)

    def eof_received(self) -> None:
        """The client ended its side: a refused connection is closed at once."""
        if self.refused:
            self.transport.close()


def _too_many(limits: ConnectionLimits) -> _Refused:
    return _Refused(
        429,
        "too_many_connections",
        f"one address may hold at most {limits.per_address} connections at once",
    )


class GuardedWebSocket(WebSocketProtocol):
    """rummykit's WebSocket protocol, holding the place its HTTP connection had."""

    guard: ClassVar[Guard]
    slot: Slot | None = None

    def connection_lost(self, exc: Exception | None) -> None:
        """Give the place back."""
        if self.slot is not None:
            self.slot.release()
            self.slot = None
        super().connection_lost(exc)


def raise_open_files() -> tuple[int, int]:
    """Raise this process's soft limit of open files to its hard one (each connection is
    one; the soft limit is often 1,024); the limits after, soft and hard."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else 1 << 20
    if soft == resource.RLIM_INFINITY or soft >= target:
        return soft, hard
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)
