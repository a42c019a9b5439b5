"""Where accounts are kept (docs/accounts.md): their names, password hashes, sessions,
passkeys, the seats they hold and the passkey challenges handed out, in the tables of
migration 4 (:mod:`.schema`), on the table store's own connections.

One SQL text for both backends (``%s`` marks; SQLite gets ``?``): each call is one
transaction of a few statements (:meth:`AccountStore._tx`), on SQLite's writer or
reader thread, on a PostgreSQL pooled connection. A database that is busy or failing
raises what the table store raises (:class:`StoreBusy`, :class:`StoreFailed`), a name or
passkey another account has raises :class:`Taken`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rummykit.server.lookalike import name_keys
from rummykit.server.store.base import Store, StoreBusy
from rummykit.server.store.postgres import PostgresStore, _postgres_error
from rummykit.server.store.sqlite import SqliteStore

__all__ = ["AccountRow", "AccountStore", "HeldSeat", "Passkey", "Taken"]

Step = tuple[str, Sequence[object]]
Rows = list[tuple[object, ...]]
Then = Callable[[list[Rows]], Sequence[Step]]


class Taken(Exception):
    """The name (one of its look-alike keys) or the passkey is another account's."""


@dataclass(frozen=True, slots=True)
class AccountRow:
    """An account that is not deleted: its id, name, argon2id hash and when it was made."""

    id: str
    name: str
    password: str | None
    created: float


@dataclass(frozen=True, slots=True)
class HeldSeat:
    """A seat an account holds: the table, the seat, and the seat's token (its secret)."""

    table: str
    seat: int
    token: str


@dataclass(frozen=True, slots=True)
class Passkey:
    """A passkey as kept: the credential's id (base64url), its account, its COSE public key
    and the authenticator's signature count."""

    id: str
    account: str
    public_key: bytes
    sign_count: int


_ACCOUNT = "SELECT a.id, a.name, a.password, a.created FROM accounts a"


def _account(row: tuple[object, ...]) -> AccountRow:
    password = row[2]
    return AccountRow(
        str(row[0]), str(row[1]), None if password is None else str(password), float(str(row[3]))
    )


class AccountStore:
    """The accounts kept in ``store``'s database (SQLite or PostgreSQL)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def _tx(
        self, steps: Sequence[Step], *, write: bool = True, then: Then | None = None
    ) -> list[Rows]:
        """Run ``steps`` in one transaction; each one's rows. ``then``, given the rows, names
        the steps that follow in the same transaction (a read, then the writes it decides).
        Taken on a unique key; StoreBusy for a store of neither backend (a test's
        stand-in: no accounts there)."""
        if isinstance(self.store, SqliteStore):
            return await self._tx_sqlite(self.store, steps, write, then)
        if isinstance(self.store, PostgresStore):
            return await self._tx_postgres(self.store, steps, then)
        raise StoreBusy("this store keeps no accounts")

    @staticmethod
    async def _tx_sqlite(
        store: SqliteStore, steps: Sequence[Step], write: bool, then: Then | None
    ) -> list[Rows]:
        def run(db: sqlite3.Connection) -> list[Rows] | None:
            db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            out: list[Rows] = []
            try:
                for sql, params in steps:
                    out.append(list(db.execute(sql.replace("%s", "?"), tuple(params)).fetchall()))
                for sql, params in then(out) if then is not None else ():
                    out.append(list(db.execute(sql.replace("%s", "?"), tuple(params)).fetchall()))
            except sqlite3.IntegrityError:
                db.execute("ROLLBACK")
                return None
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
            return out

        found = await store._run(run, write=write)
        if found is None:
            raise Taken("taken")
        return found

    @staticmethod
    async def _tx_postgres(
        store: PostgresStore, steps: Sequence[Step], then: Then | None
    ) -> list[Rows]:
        import psycopg

        out: list[Rows] = []
        try:
            async with store._pool_().connection() as conn, conn.transaction():
                for sql, params in steps:
                    cur = await conn.execute(sql, tuple(params))
                    out.append(list(await cur.fetchall()) if cur.description else [])
                for sql, params in then(out) if then is not None else ():
                    cur = await conn.execute(sql, tuple(params))
                    out.append(list(await cur.fetchall()) if cur.description else [])
        except psycopg.errors.UniqueViolation:
            raise Taken("taken") from None
        except StoreBusy:
            raise
        except Exception as exc:
            raise store.outage.failed(_postgres_error(exc)) from None
        store.outage.ended()
        return out

    # ------------------------------------------------------------ accounts

    async def create(
        self, account: str, name: str, keys: Sequence[str], password: str, now: float
    ) -> None:
        """A new account; Taken if a look-alike of the name is another account's."""
        steps: list[Step] = [
            (
                "INSERT INTO accounts (id, name, skeleton, password, created)"
                " VALUES (%s, %s, %s, %s, %s)",
                (account, name, min(keys), password, now),
            )
        ]
        steps += [
            ("INSERT INTO account_names (key, account) VALUES (%s, %s)", (key, account))
            for key in sorted(set(keys))
        ]
        await self._tx(steps)

    async def by_id(self, account: str) -> AccountRow | None:
        """The account ``account`` (None: none, or deleted)."""
        [rows] = await self._tx(
            [(f"{_ACCOUNT} WHERE a.id = %s AND a.deleted IS NULL", (account,))], write=False
        )
        return _account(rows[0]) if rows else None

    async def named(self, name: str) -> AccountRow | None:
        """The account called ``name`` itself (spaces collapsed, case aside), not one that
        only looks like it: a profile's, a block's, a host's command's."""
        plain = " ".join(name.split())
        keys = sorted(name_keys(plain)) if plain else []
        found = await self.by_name(plain, keys) if keys else None
        return found if found is not None and found.name.casefold() == plain.casefold() else None

    async def by_name(self, name: str, keys: Sequence[str]) -> AccountRow | None:
        """The account a name (or a look-alike of it) names, or None; one with the very name
        first."""
        marks = ", ".join(["%s"] * len(keys))
        [rows] = await self._tx(
            [
                (
                    f"{_ACCOUNT} JOIN account_names n ON n.account = a.id WHERE n.key IN ({marks})"
                    " AND a.deleted IS NULL ORDER BY a.created",
                    tuple(keys),
                )
            ],
            write=False,
        )
        found = [_account(r) for r in rows]
        exact = [a for a in found if a.name == name]
        return (exact or found)[0] if found else None

    async def set_password(self, account: str, password: str) -> None:
        """Keep a new hash of the password (the hasher's parameters changed)."""
        await self._tx([("UPDATE accounts SET password = %s WHERE id = %s", (password, account))])

    async def delete(self, account: str, now: float) -> None:
        """Delete what the account kept (name, hash, sessions, passkeys, seats, challenges);
        its row stays, nameless, so that what refers to its id still can."""
        steps: list[Step] = [
            (f"DELETE FROM {table} WHERE account = %s", (account,))
            for table in (
                "account_names",
                "account_sessions",
                "account_passkeys",
                "account_seats",
                "account_challenges",
                "account_ratings",
                "rating_history",
                "account_puzzle_ratings",
                "puzzle_tries",
            )
        ]
        steps.append(
            (
                "UPDATE accounts SET name = NULL, skeleton = NULL, password = NULL, deleted = %s"
                " WHERE id = %s",
                (now, account),
            )
        )
        await self._tx(steps)

    # ------------------------------------------------------------ sessions

    async def add_session(
        self, session: str, account: str, now: float, expired: float, keep: int
    ) -> None:
        """A new session; the account's revoked and expired ones are dropped, and past
        ``keep`` live ones the oldest are revoked."""
        await self._tx(
            [
                (
                    "DELETE FROM account_sessions WHERE account = %s"
                    " AND (revoked IS NOT NULL OR seen < %s)",
                    (account, expired),
                ),
                (
                    "UPDATE account_sessions SET revoked = %s WHERE account = %s AND id IN"
                    " (SELECT id FROM account_sessions WHERE account = %s AND revoked IS NULL"
                    " ORDER BY seen DESC LIMIT 1000000 OFFSET %s)",
                    (now, account, account, keep - 1),
                ),
                (
                    "INSERT INTO account_sessions (id, account, created, seen)"
                    " VALUES (%s, %s, %s, %s)",
                    (session, account, now, now),
                ),
            ]
        )

    async def session(self, session: str, expired: float) -> tuple[AccountRow, float] | None:
        """The account of a live session, and when the session was last seen; or None."""
        [rows] = await self._tx(
            [
                (
                    "SELECT a.id, a.name, a.password, a.created, s.seen FROM accounts a"
                    " JOIN account_sessions s ON s.account = a.id WHERE s.id = %s"
                    " AND s.revoked IS NULL AND s.seen >= %s AND a.deleted IS NULL",
                    (session, expired),
                )
            ],
            write=False,
        )
        return (_account(rows[0]), float(str(rows[0][4]))) if rows else None

    async def touch_session(self, session: str, now: float) -> None:
        """Note that the session was used now (it expires that long after its last use)."""
        await self._tx([("UPDATE account_sessions SET seen = %s WHERE id = %s", (now, session))])

    async def revoke(self, session: str, now: float, *, every_of: str | None = None) -> None:
        """Revoke one session, or (``every_of``) every session of that account."""
        if every_of is None:
            step: Step = ("UPDATE account_sessions SET revoked = %s WHERE id = %s", (now, session))
        else:
            step = (
                "UPDATE account_sessions SET revoked = %s WHERE account = %s AND revoked IS NULL",
                (now, every_of),
            )
        await self._tx([step])

    # ------------------------------------------------------------ passkeys

    async def add_passkey(self, key: Passkey, now: float, most: int) -> bool:
        """Keep a passkey (False: the account has ``most`` already); Taken if it is kept."""
        [rows] = await self._tx(
            [
                (
                    "INSERT INTO account_passkeys (id, account, public_key, sign_count, created)"
                    " SELECT %s, %s, %s, %s, %s WHERE (SELECT COUNT(*) FROM account_passkeys"
                    " WHERE account = %s) < %s RETURNING id",
                    (
                        key.id,
                        key.account,
                        key.public_key.hex(),
                        key.sign_count,
                        now,
                        key.account,
                        most,
                    ),
                )
            ]
        )
        return bool(rows)

    async def passkey(self, key: str) -> tuple[Passkey, AccountRow] | None:
        """A passkey and its account (not deleted), or None."""
        [rows] = await self._tx(
            [
                (
                    "SELECT a.id, a.name, a.password, a.created, p.id, p.public_key,"
                    " p.sign_count FROM accounts a JOIN account_passkeys p ON p.account = a.id"
                    " WHERE p.id = %s AND a.deleted IS NULL",
                    (key,),
                )
            ],
            write=False,
        )
        if not rows:
            return None
        r = rows[0]
        found = Passkey(str(r[4]), str(r[0]), bytes.fromhex(str(r[5])), int(str(r[6])))
        return found, _account(r)

    async def passkeys(self, account: str) -> list[str]:
        """The ids of the account's passkeys, oldest first."""
        [rows] = await self._tx(
            [
                (
                    "SELECT id FROM account_passkeys WHERE account = %s ORDER BY created",
                    (account,),
                )
            ],
            write=False,
        )
        return [str(r[0]) for r in rows]

    async def used_passkey(self, key: str, sign_count: int, now: float) -> None:
        """Note a sign-in with the passkey and its new signature count."""
        await self._tx(
            [
                (
                    "UPDATE account_passkeys SET sign_count = %s, used = %s WHERE id = %s",
                    (sign_count, now, key),
                )
            ]
        )

    async def add_challenge(
        self,
        challenge_id: str,
        purpose: str,
        account: str | None,
        challenge: bytes,
        expires: float,
        now: float,
        most: int,
    ) -> bool:
        """Keep a challenge handed out (False: ``most`` are live already); the expired ones
        go."""
        _, rows = await self._tx(
            [
                ("DELETE FROM account_challenges WHERE expires < %s", (now,)),
                (
                    "INSERT INTO account_challenges (id, purpose, account, challenge, expires)"
                    " SELECT %s, %s, %s, %s, %s WHERE"
                    " (SELECT COUNT(*) FROM account_challenges) < %s RETURNING id",
                    (challenge_id, purpose, account, challenge.hex(), expires, most),
                ),
            ]
        )
        return bool(rows)

    async def take_challenge(
        self, challenge_id: str, purpose: str, now: float
    ) -> tuple[str | None, bytes] | None:
        """A live challenge's account and bytes, taken (a challenge is used once); or None."""
        [rows] = await self._tx(
            [
                (
                    "DELETE FROM account_challenges WHERE id = %s AND purpose = %s"
                    " AND expires >= %s RETURNING account, challenge",
                    (challenge_id, purpose, now),
                )
            ]
        )
        if not rows:
            return None
        account = rows[0][0]
        return (None if account is None else str(account)), bytes.fromhex(str(rows[0][1]))

    # ------------------------------------------------------------ seats

    async def join_hashes(self, table: str) -> dict[int, str]:
        """The token hashes of a table's taken seats (its ``join`` events, the first ones)."""
        [rows] = await self._tx(
            [
                (
                    "SELECT data FROM table_events WHERE table_id = %s AND version <= 8"
                    " AND kind = 'join'",
                    (table,),
                )
            ],
            write=False,
        )
        out: dict[int, str] = {}
        for (data,) in rows:
            event = json.loads(str(data))
            seat, digest = event.get("seat"), event.get("token_hash")
            if isinstance(seat, int) and isinstance(digest, str):
                out[seat] = digest
        return out

    async def add_seats(
        self, account: str, seats: Sequence[HeldSeat], now: float, most: int
    ) -> int:
        """Keep seats for the account (a seat kept already gets the token given); at most
        ``most`` in all. How many were kept."""
        steps: list[Step] = [
            (
                "INSERT INTO account_seats (account, table_id, seat, token, added)"
                " SELECT %s, %s, %s, %s, %s WHERE"
                " (SELECT COUNT(*) FROM account_seats WHERE account = %s) < %s"
                " ON CONFLICT (account, table_id, seat) DO UPDATE SET token = excluded.token"
                " RETURNING seat",
                (account, s.table, s.seat, s.token, now, account, most),
            )
            for s in seats
        ]
        found = await self._tx(steps) if steps else []
        return sum(1 for rows in found if rows)

    async def seats(self, account: str, most: int) -> list[HeldSeat]:
        """The seats the account holds, newest first."""
        [rows] = await self._tx(
            [
                (
                    "SELECT table_id, seat, token FROM account_seats WHERE account = %s"
                    " ORDER BY added DESC, table_id LIMIT %s",
                    (account, most),
                )
            ],
            write=False,
        )
        return [HeldSeat(str(t), int(str(s)), str(k)) for t, s, k in rows]

    async def forget_seat(self, account: str, table: str) -> None:
        """The account no longer holds a seat at the table."""
        await self._tx(
            [("DELETE FROM account_seats WHERE account = %s AND table_id = %s", (account, table))]
        )
