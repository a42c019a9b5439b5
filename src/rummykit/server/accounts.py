"""Optional accounts (docs/accounts.md): a name and a password, sessions that can be
revoked, the seats an account holds; what the routes of :mod:`rummykit.server.routes.accounts`
call.

Passwords are hashed with argon2id (``argon2-cffi``'s :class:`PasswordHasher`, its
defaults), on threads of their own: a hash is slow and large on purpose (tens of
milliseconds, 64 MiB), so at most :attr:`AccountLimits.hash_threads` run at once and
at most :attr:`AccountLimits.hash_queue` wait; past that a request is refused
(:class:`Busy`), never queued without end. A session is a random secret in the player's
cookie; the server keeps only its SHA-256, so a copy of the database opens no session.

Login and signup are rate-limited per address and per name, with token buckets kept in
this process's memory (a bounded number of keys, the least recently used forgotten):
with several server processes each counts its own, so a host's proxy should send one
client to one process, or count the limits as that many times larger.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from rummykit.server.hosted import hash_token
from rummykit.server.limits import Bucket
from rummykit.server.lookalike import name_keys
from rummykit.server.store.accounts import AccountRow, AccountStore, HeldSeat, Taken
from rummykit.server.store.base import Store, StoreBusy

log = logging.getLogger(__name__)

__all__ = [
    "AccountLimits",
    "Accounts",
    "BadLogin",
    "Busy",
    "RateLimited",
    "Signed",
    "Taken",
    "session_id",
]

T = TypeVar("T")


@dataclass(frozen=True)
class AccountLimits:
    """The bounds of the accounts (a public server: docs/accounts.md lists them)."""

    max_name: int = 40
    """Characters in an account's name (as at a table)."""
    min_password: int = 8
    """Characters in a password, at least."""
    max_password: int = 256
    """Characters in a password, at most (argon2 reads all of it)."""
    session_days: float = 30.0
    """Days a session lives after its last use."""
    sessions_kept: int = 20
    """Live sessions of one account; a new one past it revokes the least recently used."""
    passkeys: int = 10
    """Passkeys of one account."""
    seats: int = 500
    """Seats one account holds (its "my tables")."""
    seats_at_once: int = 100
    """Seats adopted in one request."""
    challenges: int = 10_000
    """Passkey challenges handed out and not yet used, in all."""
    challenge_seconds: float = 300.0
    """Seconds a passkey challenge may be answered in."""
    hash_threads: int = 2
    """Passwords hashed at once."""
    hash_queue: int = 32
    """Passwords waiting to be hashed; one more is refused (503)."""
    login_per_address: tuple[float, float] = (1 / 3, 20.0)
    """Sign-ins (a password's or a passkey's) from one address: a second, and at once."""
    login_per_name: tuple[float, float] = (1 / 60, 5.0)
    """Sign-ins to one name: a second, and at once."""
    signup_per_address: tuple[float, float] = (10 / 3600, 10.0)
    """Accounts made from one address: a second, and at once."""
    signup_per_name: tuple[float, float] = (1 / 60, 3.0)
    """Tries to make an account of one name: a second, and at once."""
    tracked: int = 10_000
    """Keys (addresses, names) each rate limit remembers; the least recent are forgotten."""


class BadLogin(Exception):
    """No account of that name, or not that password (the two are not told apart)."""


class RateLimited(Exception):
    """Too many tries from this address or for this name: try again later."""


class Busy(Exception):
    """Too many passwords wait to be hashed: try again in a moment."""


@dataclass(frozen=True, slots=True)
class Signed:
    """A request's account and the id of the session it came with."""

    account: AccountRow
    session: str


def session_id(secret: str) -> str:
    """What the server keeps of a session's secret: its SHA-256, as hex."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


class _Limiter:
    """Token buckets by key, at most ``tracked`` keys (the least recently used go)."""

    def __init__(self, rate: tuple[float, float], tracked: int) -> None:
        self.rate, self.burst = rate
        self.tracked = tracked
        self.buckets: OrderedDict[str, Bucket] = OrderedDict()

    def take(self, key: str) -> bool:
        bucket = self.buckets.pop(key, None) or Bucket(self.rate, self.burst)
        self.buckets[key] = bucket
        while len(self.buckets) > self.tracked:
            self.buckets.popitem(last=False)
        return bucket.take()


class Accounts:
    """The accounts of a server whose tables are in ``store``."""

    def __init__(self, store: Store, limits: AccountLimits | None = None) -> None:
        self.limits = limits = limits or AccountLimits()
        self.db = AccountStore(store)
        self.hasher = PasswordHasher()
        self._pool = ThreadPoolExecutor(limits.hash_threads, thread_name_prefix="rummykit-hash")
        self._waiting = 0
        self._dummy: str | None = None
        n = limits.tracked
        self._login_address = _Limiter(limits.login_per_address, n)
        self._login_name = _Limiter(limits.login_per_name, n)
        self._signup_address = _Limiter(limits.signup_per_address, n)
        self._signup_name = _Limiter(limits.signup_per_name, n)

    def close(self) -> None:
        """Let the hashing threads go."""
        self._pool.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------ rules

    def check_name(self, name: str) -> str:
        """The name as kept (spaces collapsed); ValueError saying what a name is."""
        name = " ".join(name.split())
        if not name or len(name) > self.limits.max_name or not name.isprintable():
            raise ValueError(f"a name is 1 to {self.limits.max_name} printable characters")
        return name

    def check_password(self, password: str) -> None:
        """ValueError unless the password's length is within the limits."""
        low, high = self.limits.min_password, self.limits.max_password
        if not low <= len(password) <= high:
            raise ValueError(f"a password is {low} to {high} characters")

    def limit_login(self, address: str, name: str | None) -> None:
        """RateLimited past the sign-ins allowed from the address or to the name."""
        if not self._login_address.take(address):
            raise RateLimited("too many sign-ins from this address: wait a minute")
        if name is not None and not self._login_name.take(min(name_keys(name))):
            raise RateLimited("too many sign-ins to this name: wait a minute")

    # ------------------------------------------------------------ hashing

    async def _hashing(self, fn: Callable[[], T]) -> T:
        if self._waiting >= self.limits.hash_queue:
            raise Busy("the server is busy signing people in: try again in a moment")
        self._waiting += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, fn)
        finally:
            self._waiting -= 1

    async def _verify(self, stored: str | None, password: str) -> bool:
        """Whether the password is the one hashed (an unknown name checks a dummy hash, so
        that it takes as long)."""
        if stored is None:
            if self._dummy is None:
                self._dummy = await self._hashing(lambda: self.hasher.hash(secrets.token_hex(8)))
            stored, password = self._dummy, password + "\0"
        hashed = stored

        def check() -> bool:
            try:
                return self.hasher.verify(hashed, password)
            except (VerificationError, InvalidHashError):
                return False

        return await self._hashing(check)

    # ------------------------------------------------------------ accounts

    async def signup(self, name: str, password: str, address: str) -> tuple[AccountRow, str]:
        """A new account and a session's secret. ValueError for a bad name or password,
        RateLimited, Taken (a look-alike name is another account's), Busy."""
        name = self.check_name(name)
        self.check_password(password)
        keys = sorted(name_keys(name))
        if not self._signup_address.take(address):
            raise RateLimited("too many new accounts from this address: try again later")
        if not self._signup_name.take(keys[0]):
            raise RateLimited("too many tries at this name: wait a minute")
        if await self.db.by_name(name, keys) is not None:
            raise Taken(f"the name {name} (or one that looks like it) is taken")
        hashed = await self._hashing(lambda: self.hasher.hash(password))
        account = AccountRow(secrets.token_urlsafe(12), name, hashed, time.time())
        try:
            await self.db.create(account.id, name, keys, hashed, account.created)
        except Taken:
            raise Taken(f"the name {name} (or one that looks like it) is taken") from None
        return account, await self.new_session(account)

    async def login(self, name: str, password: str, address: str) -> tuple[AccountRow, str]:
        """The account of that name and password, and a new session's secret. BadLogin,
        RateLimited, Busy."""
        if len(password) > self.limits.max_password or len(name) > 4 * self.limits.max_name:
            raise BadLogin("no account has that name and password")
        name = " ".join(name.split())
        self.limit_login(address, name or "-")
        found = await self.db.by_name(name, sorted(name_keys(name))) if name else None
        if not await self._verify(None if found is None else found.password, password):
            raise BadLogin("no account has that name and password")
        assert found is not None and found.password is not None
        if self.hasher.check_needs_rehash(found.password):
            hashed = await self._hashing(lambda: self.hasher.hash(password))
            await self.db.set_password(found.id, hashed)
        return found, await self.new_session(found)

    async def delete(self, signed: Signed, password: str) -> None:
        """Delete the account (docs/accounts.md says what goes); BadLogin for a wrong
        password."""
        if len(password) > self.limits.max_password or not await self._verify(
            signed.account.password, password
        ):
            raise BadLogin("that is not the account's password")
        await self.db.delete(signed.account.id, time.time())

    # ------------------------------------------------------------ sessions

    def _expired(self, now: float) -> float:
        return now - self.limits.session_days * 86_400

    async def new_session(self, account: AccountRow) -> str:
        """A new session of the account: its secret (for the cookie; kept hashed)."""
        secret = secrets.token_urlsafe(32)
        now = time.time()
        await self.db.add_session(
            session_id(secret), account.id, now, self._expired(now), self.limits.sessions_kept
        )
        return secret

    async def signed(self, secret: str | None) -> Signed | None:
        """The account a session's secret names, if the session lives; its last use is
        noted (at most once an hour)."""
        if not secret or len(secret) > 100:
            return None
        sid = session_id(secret)
        now = time.time()
        found = await self.db.session(sid, self._expired(now))
        if found is None:
            return None
        account, seen = found
        if now - seen > 3600:
            await self.db.touch_session(sid, now)
        return Signed(account, sid)

    async def logout(self, signed: Signed, everywhere: bool) -> None:
        """Revoke the session (``everywhere``: every session of the account)."""
        every_of = signed.account.id if everywhere else None
        await self.db.revoke(signed.session, time.time(), every_of=every_of)

    # ------------------------------------------------------------ seats

    async def keep_seat(self, signed: Signed, seat: HeldSeat) -> None:
        """Keep a seat the account just took (its token is the table's own); a store that
        is busy leaves it to the browser, which holds the seat too."""
        try:
            await self.db.add_seats(signed.account.id, [seat], time.time(), self.limits.seats)
        except StoreBusy:
            log.warning("a seat taken could not be kept with its account (busy)")

    async def adopt(self, signed: Signed, seats: Sequence[HeldSeat]) -> list[HeldSeat]:
        """Keep the seats whose tokens are the tables' own for the account; those kept."""
        good: list[HeldSeat] = []
        hashes: dict[str, dict[int, str]] = {}
        for seat in seats[: self.limits.seats_at_once]:
            if seat.table not in hashes:
                hashes[seat.table] = await self.db.join_hashes(seat.table)
            known = hashes[seat.table].get(seat.seat)
            if known is not None and secrets.compare_digest(known, hash_token(seat.token)):
                good.append(seat)
        kept = await self.db.add_seats(signed.account.id, good, time.time(), self.limits.seats)
        return good[:kept] if kept < len(good) else good
