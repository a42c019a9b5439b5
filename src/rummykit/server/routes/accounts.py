"""The routes of optional accounts, under ``/api/account`` (docs/protocol.md, "Accounts";
docs/accounts.md): sign up, sign in with a password or a passkey, sign out (here or
everywhere), who is signed in, delete the account, and the seats the account holds.

A session is the cookie :data:`COOKIE`: HttpOnly, SameSite=Lax, Secure when the page came
over https, naming a session the server keeps (and revokes). Nothing else of the API
reads it: a table's seat is still its token, and anonymous play is as it was.

Against cross-site requests (CSRF) each ``POST`` here must say its body is JSON (a form of
another site cannot, without a CORS preflight this server never allows with cookies), and
a browser's ``Origin``, when sent, must be this server's own; the cookie is SameSite=Lax
besides.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import APIRouter, Body, Request
from fastapi.responses import JSONResponse, Response

from rummykit.server.accounts import (
    Accounts,
    BadLogin,
    Busy,
    RateLimited,
    Signed,
    Taken,
    session_id,
)
from rummykit.server.moderation import Moderation, until_text
from rummykit.server.passkeys import PasskeyRefused, Passkeys, RelyingParty
from rummykit.server.routes.account_bodies import (
    Credentials,
    Finish,
    Forget,
    Logout,
    Nothing,
    Password,
    Seats,
)
from rummykit.server.routes.answers import client_address, problem
from rummykit.server.schemas import Problem
from rummykit.server.store.accounts import AccountRow, HeldSeat

__all__ = ["COOKIE", "account_routes", "same_site", "signed_in"]

COOKIE = "rummykit_session"
"""The session cookie's name."""


_ERRORS: dict[int | str, dict[str, object]] = {
    400: {"model": Problem, "description": "a bad request (bad_request, bad_passkey)"},
    401: {"model": Problem, "description": "not_signed_in, or bad_login"},
    403: {"model": Problem, "description": "forbidden: a page of another origin"},
    409: {"model": Problem, "description": "name_taken"},
    415: {"model": Problem, "description": "a POST whose body is not JSON"},
    429: {"model": Problem, "description": "rate_limited"},
    503: {"model": Problem, "description": "unavailable: busy; nothing was done"},
}
"""Every account route's errors, each ``{"error": CODE, "message": ...}``."""


def _me(account: AccountRow, passkeys: int) -> dict[str, object]:
    return {"name": account.name, "created": account.created, "passkeys": passkeys}


def same_site(request: Request, allowed_origins: tuple[str, ...] = ()) -> bool:
    """Whether a request may act with its session cookie: a browser's ``Origin``, when
    sent, is this server's own or an allowed one (CSRF; see the module's docstring)."""
    origin = request.headers.get("origin")
    host = request.headers.get("host", "")
    return origin is None or origin in allowed_origins or urlsplit(origin).netloc == host


async def signed_in(
    accounts: Accounts, request: Request, allowed_origins: tuple[str, ...] = ()
) -> Signed | None:
    """The account a request's session cookie names, if it lives and the request may use
    it (:func:`same_site`)."""
    if not same_site(request, allowed_origins):
        return None
    return await accounts.signed(request.cookies.get(COOKIE))


def account_routes(
    accounts: Accounts,
    *,
    allowed_origins: tuple[str, ...] = (),
    moderation: Moderation | None = None,
) -> APIRouter:
    """The routes of a server's ``accounts`` (a banned account or address cannot sign in:
    ``moderation``)."""
    passkeys = Passkeys(accounts)
    router = APIRouter(prefix="/api/account", tags=["accounts"], responses=_ERRORS)
    days = accounts.limits.session_days

    def refused(request: Request) -> JSONResponse | None:
        """The CSRF rule of a POST (see the module's docstring), or None if it passes."""
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            return problem(415, "bad_request", "the body must be JSON (application/json)")
        if not same_site(request, allowed_origins):
            return problem(403, "forbidden", "this page's origin may not use accounts")
        return None

    def address(request: Request) -> str:
        return client_address(request)

    async def banned(account: str, secret: str, request: Request) -> JSONResponse | None:
        """A banned account (or address) is refused, its new session revoked at once."""
        ban = None if moderation is None else await moderation.banned(account, address(request))
        if ban is None:
            return None
        await accounts.db.revoke(session_id(secret), time.time())
        return problem(403, "banned", f"this account is banned until {until_text(ban.until)}")

    def party(request: Request) -> RelyingParty:
        url = request.url
        return RelyingParty(url.hostname or "localhost", f"{url.scheme}://{url.netloc}")

    def with_cookie(
        body: dict[str, object], secret: str, request: Request, status: int
    ) -> Response:
        answer = JSONResponse(body, status_code=status)
        answer.set_cookie(
            COOKIE,
            secret,
            max_age=int(days * 86_400),
            path=request.scope.get("root_path") or "/",
            secure=request.url.scheme == "https",
            httponly=True,
            samesite="lax",
        )
        return answer

    def without_cookie(body: dict[str, object], request: Request) -> Response:
        answer = JSONResponse(body)
        answer.delete_cookie(
            COOKIE,
            path=request.scope.get("root_path") or "/",
            secure=request.url.scheme == "https",
            httponly=True,
            samesite="lax",
        )
        return answer

    async def signed_in(request: Request) -> Signed | JSONResponse:
        found = await accounts.signed(request.cookies.get(COOKIE))
        if found is None:
            return problem(401, "not_signed_in", "no account is signed in here")
        return found

    async def guarded(
        request: Request, fn: Callable[[], Awaitable[Response]], *, post: bool = True
    ) -> Response:
        """``fn``'s answer, or the error an account's failure is answered with."""
        if post and (no := refused(request)) is not None:
            return no
        try:
            return await fn()
        except RateLimited as exc:
            return problem(429, "rate_limited", str(exc))
        except Busy as exc:
            return problem(503, "unavailable", str(exc))
        except BadLogin as exc:
            return problem(401, "bad_login", str(exc))
        except Taken as exc:
            return problem(409, "name_taken", str(exc))
        except PasskeyRefused as exc:
            return problem(400, "bad_passkey", str(exc))
        except ValueError as exc:
            return problem(400, "bad_request", str(exc))

    @router.post("/signup", status_code=201)
    async def signup(body: Annotated[Credentials, Body()], request: Request) -> Response:
        """Make an account (a name as at a table, a password of 8 to 256 characters) and
        sign in: the answer sets the session cookie."""

        async def run() -> Response:
            account, secret = await accounts.signup(body.name, body.password, address(request))
            return with_cookie(_me(account, 0), secret, request, 201)

        return await guarded(request, run)

    @router.post("/login")
    async def login(body: Annotated[Credentials, Body()], request: Request) -> Response:
        """Sign in with a name and a password (``401 bad_login`` for either wrong)."""

        async def run() -> Response:
            account, secret = await accounts.login(body.name, body.password, address(request))
            if (refused := await banned(account.id, secret, request)) is not None:
                return refused
            keys = await accounts.db.passkeys(account.id)
            return with_cookie(_me(account, len(keys)), secret, request, 200)

        return await guarded(request, run)

    @router.post("/logout")
    async def logout(body: Annotated[Logout, Body()], request: Request) -> Response:
        """Sign out: the session is revoked (``everywhere``: every session of the account)."""

        async def run() -> Response:
            signed = await accounts.signed(request.cookies.get(COOKIE))
            if signed is not None:
                await accounts.logout(signed, body.everywhere)
            return without_cookie({"signed_in": False}, request)

        return await guarded(request, run)

    @router.get("/me")
    async def me(request: Request) -> Response:
        """The signed-in account: its name, when it was made, its passkeys' number."""

        async def run() -> Response:
            signed = await signed_in(request)
            if isinstance(signed, JSONResponse):
                return signed
            keys = await accounts.db.passkeys(signed.account.id)
            return JSONResponse(_me(signed.account, len(keys)))

        return await guarded(request, run, post=False)

    @router.post("/delete")
    async def delete(body: Annotated[Password, Body()], request: Request) -> Response:
        """Delete the signed-in account (its password again): docs/accounts.md says what
        goes and what stays."""

        async def run() -> Response:
            signed = await signed_in(request)
            if isinstance(signed, JSONResponse):
                return signed
            accounts.limit_login(address(request), signed.account.name)
            await accounts.delete(signed, body.password)
            return without_cookie({"deleted": True}, request)

        return await guarded(request, run)

    @router.post("/passkey/register/begin")
    async def register_begin(body: Annotated[Nothing, Body()], request: Request) -> Response:
        """Options for ``navigator.credentials.create()`` to add a passkey to the account."""

        async def run() -> Response:
            signed = await signed_in(request)
            if isinstance(signed, JSONResponse):
                return signed
            ceremony = await passkeys.register_begin(signed, party(request))
            return JSONResponse(ceremony.to_json())

        return await guarded(request, run)

    @router.post("/passkey/register/finish")
    async def register_finish(body: Annotated[Finish, Body()], request: Request) -> Response:
        """Keep the passkey the browser made (``400 bad_passkey`` if it does not check)."""

        async def run() -> Response:
            signed = await signed_in(request)
            if isinstance(signed, JSONResponse):
                return signed
            key = await passkeys.register_finish(
                signed, body.challenge, body.credential, party(request)
            )
            return JSONResponse({"passkey": key})

        return await guarded(request, run)

    @router.post("/passkey/login/begin")
    async def login_begin(body: Annotated[Nothing, Body()], request: Request) -> Response:
        """Options for ``navigator.credentials.get()`` to sign in with a passkey."""

        async def run() -> Response:
            accounts.limit_login(address(request), None)
            ceremony = await passkeys.login_begin(party(request))
            return JSONResponse(ceremony.to_json())

        return await guarded(request, run)

    @router.post("/passkey/login/finish")
    async def login_finish(body: Annotated[Finish, Body()], request: Request) -> Response:
        """Sign in with the passkey's answer: the answer sets the session cookie."""

        async def run() -> Response:
            account, secret = await passkeys.login_finish(
                body.challenge, body.credential, party(request)
            )
            if (refused := await banned(account.id, secret, request)) is not None:
                return refused
            keys = await accounts.db.passkeys(account.id)
            return with_cookie(_me(account, len(keys)), secret, request, 200)

        return await guarded(request, run)

    @router.get("/seats")
    async def seats(request: Request) -> Response:
        """The seats the account holds, with their tokens ("my tables" on another device)."""

        async def run() -> Response:
            signed = await signed_in(request)
            if isinstance(signed, JSONResponse):
                return signed
            held = await accounts.db.seats(signed.account.id, accounts.limits.seats)
            return JSONResponse({"seats": [_seat(s) for s in held]})

        return await guarded(request, run, post=False)

    @router.post("/seats")
    async def adopt(body: Annotated[Seats, Body()], request: Request) -> Response:
        """Adopt seats this browser holds: those whose token is the seat's are kept."""

        async def run() -> Response:
            signed = await signed_in(request)
            if isinstance(signed, JSONResponse):
                return signed
            given = [HeldSeat(s.table, s.seat, s.token) for s in body.seats]
            kept = await accounts.adopt(signed, given)
            return JSONResponse({"adopted": [_seat(s) for s in kept]})

        return await guarded(request, run)

    @router.post("/seats/forget")
    async def forget(body: Annotated[Forget, Body()], request: Request) -> Response:
        """The account lets go of its seat at a table (the seat's token still works)."""

        async def run() -> Response:
            signed = await signed_in(request)
            if isinstance(signed, JSONResponse):
                return signed
            await accounts.db.forget_seat(signed.account.id, body.table)
            return JSONResponse({"forgotten": body.table})

        return await guarded(request, run)

    return router


def _seat(seat: HeldSeat) -> dict[str, object]:
    return {"table": seat.table, "seat": seat.seat, "token": seat.token}
