"""The HTTP layer's guards, as ASGI middleware: the body limit, the headers every answer
carries, the names the server answers to.

- :class:`LimitBody`: a body over the limit is refused (400) before the app reads it;
- :class:`Headers`: the security headers (:data:`SECURITY_HEADERS`) and the cache rules;
- :class:`AllowedHosts`: a ``Host`` that is none of the server's names is refused (421),
  against DNS rebinding.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
from collections.abc import Awaitable, Callable, Mapping, MutableMapping, Sequence
from urllib.parse import urlsplit

from rummykit.server.protocol import Close

__all__ = ["SECURITY_HEADERS", "AllowedHosts", "Headers", "LimitBody"]

Scope = MutableMapping[str, object]
Message = MutableMapping[str, object]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class LimitBody:
    """ASGI middleware: refuse an HTTP body over the limit (400) before the app reads it."""

    def __init__(self, app: ASGIApp, limit: int, larger: Mapping[str, int] | None = None) -> None:
        self.app = app
        self.limit = limit
        self.larger = dict(larger or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.larger.get(str(scope.get("path", "")), self.limit)
        raw = scope.get("headers")
        headers = dict(raw) if isinstance(raw, list) else {}
        length = headers.get(b"content-length")
        if length is not None and length.isdigit() and int(length) > limit:
            await _too_large(send, limit)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            body = message.get("body")
            if isinstance(body, bytes | bytearray):
                seen += len(body)
                if seen > limit:
                    raise _TooLarge
            return message

        try:
            await self.app(scope, counted, send)
        except _TooLarge:
            await _too_large(send, limit)


SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
        b" connect-src 'self'; font-src 'self'; manifest-src 'self'; worker-src 'self';"
        b" object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
"""Sent with every answer: no inline script or style, nothing from elsewhere, never in a
frame, no referrer (an invite link names its table)."""


class Headers:
    """ASGI middleware: the security headers on every answer; the API's answers are never
    stored by a cache (the join answer holds a seat's token), and the browser UI's files
    are asked for again (ETag, 304) on every load, so a page never runs an older rummykit's
    scripts."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = str(scope.get("path", "")).startswith("/api/")
        cache = b"no-store" if api else b"no-cache"

        async def headed(message: Message) -> None:
            if message["type"] == "http.response.start":
                raw = message.get("headers")
                headers = [
                    (k, v)
                    for k, v in (list(raw) if isinstance(raw, list) else [])
                    if k != b"cache-control"
                ]
                headers += [*SECURITY_HEADERS, (b"cache-control", cache)]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, headed)


class AllowedHosts:
    """ASGI middleware: answer only requests whose ``Host`` is one of the server's names
    (421 otherwise; a WebSocket is refused before it opens: HTTP 403), against DNS
    rebinding."""

    def __init__(self, app: ASGIApp, names: frozenset[str], any_ip: bool) -> None:
        self.app = app
        self.names = frozenset(n.lower() for n in names)
        self.any_ip = any_ip

    def _allowed(self, scope: Scope) -> bool:
        raw = scope.get("headers")
        headers = dict(raw) if isinstance(raw, list) else {}
        host = headers.get(b"host", b"").decode("latin-1").strip().lower()
        name = urlsplit(f"//{host}").hostname or ""
        if name in self.names or f"[{name}]" in self.names:
            return True
        if self.any_ip:
            with contextlib.suppress(ValueError):
                ipaddress.ip_address(name)
                return True
        return False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or self._allowed(scope):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await receive()  # the connect
            await send({"type": "websocket.close", "code": Close.ORIGIN, "reason": "unknown host"})
            return
        # outside Headers (app.py): this answer carries the security headers itself
        error = {"error": "bad_host", "message": "this server has no such name"}
        extra = (*SECURITY_HEADERS, (b"cache-control", b"no-store"))
        await _send_json(send, 421, error, extra)


class _TooLarge(Exception):
    pass


async def _too_large(send: Send, limit: int) -> None:
    size = f"{limit >> 20} MiB" if limit >= 1 << 20 else f"{limit >> 10} KiB"
    await _send_json(send, 400, {"error": "bad_request", "message": f"a body is at most {size}"})


async def _send_json(
    send: Send, status: int, error: Mapping[str, str], extra: Sequence[tuple[bytes, bytes]] = ()
) -> None:
    """Answer with an error as JSON, straight from a middleware (the app is not called)."""
    body = json.dumps(error).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": [*headers, *extra]})
    await send({"type": "http.response.body", "body": body})
