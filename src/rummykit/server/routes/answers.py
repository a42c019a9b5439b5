"""How every route answers: PROTOCOL.md's JSON errors (``{"error": CODE, "message": ...}``),
JSON kept as text, and the app's handlers for what a route did not answer itself (a
request that is not valid, an unknown path, a busy or failing store)."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from rummykit.server.rooms import Busy
from rummykit.server.store import StoreBusy

__all__ = ["add_error_answers", "client_address", "json_text", "problem"]


def problem(status: int, code: str, message: str) -> JSONResponse:
    """A protocol error: ``status``, its code and a message for people."""
    return JSONResponse({"error": code, "message": message}, status_code=status)


def client_address(request: Request) -> str:
    """The client's address (as a trusted proxy gave it), or "" when there is none: the
    key of every per-address limit."""
    return request.client.host if request.client else ""


def json_text(text: str, status: int = 200) -> Response:
    """JSON already encoded (a summary as stored, a record as kept): sent as it is."""
    return Response(text, status_code=status, media_type="application/json")


def add_error_answers(app: FastAPI) -> None:
    """Answer in the protocol's JSON what no route answered: a request that is not valid
    (422), an unknown path or method, a busy room or a busy or failing store (503)."""

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        text = first.get("msg", "the request is not valid")
        return problem(422, "bad_request", f"{where}: {text}" if where else str(text))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "bad_request"}.get(exc.status_code, "bad_request")
        return problem(exc.status_code, code, str(exc.detail))

    @app.exception_handler(Busy)
    async def busy(request: Request, exc: Busy) -> JSONResponse:
        return problem(503, "unavailable", str(exc))

    @app.exception_handler(StoreBusy)
    async def store_busy(request: Request, exc: StoreBusy) -> JSONResponse:
        """Any route whose store is busy or failing (StoreFailed is a StoreBusy): nothing
        was done; the store has logged it (once for a stretch of failures)."""
        return problem(503, "unavailable", str(exc))
