"""Live play: PROTOCOL.md's WebSocket ``/api/tables/{id}/live`` (hello, then states,
actions and errors), for pages of this server's own origin or an allowed one."""

from __future__ import annotations

from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from rummykit.server.live import serve_connection
from rummykit.server.protocol import Close
from rummykit.server.rooms import Rooms

__all__ = ["live_routes"]


def live_routes(rooms: Rooms, allowed_origins: tuple[str, ...]) -> APIRouter:
    """The live route of ``rooms``' tables."""
    router = APIRouter()

    @router.websocket("/api/tables/{table_id}/live")
    async def live(websocket: WebSocket, table_id: str) -> None:
        """PROTOCOL.md's live play: hello, then states, actions and errors."""
        if not _origin_allowed(websocket, allowed_origins):
            await websocket.close(code=Close.ORIGIN, reason="this page's origin is not allowed")
            return
        await websocket.accept()
        address = websocket.client.host if websocket.client else None
        await serve_connection(rooms, _Socket(websocket), table_id, address)

    return router


def _origin_allowed(websocket: WebSocket, allowed: tuple[str, ...]) -> bool:
    """A browser's WebSocket must come from this server's own pages or an allowed origin;
    programs that send no Origin are let in."""
    origin = websocket.headers.get("origin")
    if origin is None or origin in allowed:
        return True
    host = websocket.headers.get("host", "")
    return urlsplit(origin).netloc == host


class _Socket:
    """A Starlette WebSocket as :func:`serve_connection` reads and writes it."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket

    async def receive(self) -> str | None:
        try:
            message = await self.websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return None
        if message["type"] == "websocket.disconnect":
            return None
        text = message.get("text")
        if text is None:  # a binary frame: answered as a bad message
            return "\ufffd"
        return str(text)

    async def send(self, text: str) -> None:
        await self.websocket.send_text(text)

    async def close(self, code: int, reason: str) -> None:
        await self.websocket.close(code=code, reason=reason)
