"""Where moderation is kept (migration 7, :mod:`.schema`; docs/hosting.md, "Moderation"):
reports, blocks, mutes and bans, the host's log, and removed chat messages, through the
account store's transactions (both backends). Addresses are kept hashed, as elsewhere.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection
from dataclasses import dataclass

from rummykit.server.ids import public_id
from rummykit.server.store.accounts import AccountStore, Step
from rummykit.server.store.base import Store

__all__ = ["LogEntry", "ModerationStore", "Report", "Sanction", "new_id"]


@dataclass(frozen=True, slots=True)
class Report:
    """A report: who made it (an account, or None), whom it names (a name at a table,
    its account if known), where (a table, a chat message's number), why, and when."""

    id: str
    reporter: str | None
    name: str | None
    account: str | None
    table: str | None
    chat_n: int | None
    reason: str
    created: float
    handled: float | None = None


@dataclass(frozen=True, slots=True)
class Sanction:
    """A mute or a ban of an account or an address (hashed) until a time."""

    id: str
    kind: str
    account: str | None
    address: str | None
    until: float
    reason: str


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One action of the host's."""

    at: float
    action: str
    target: str
    detail: str


def _opt(value: object) -> str | None:
    return None if value is None else str(value)


class ModerationStore:
    """Moderation kept in ``store``'s database (SQLite or PostgreSQL)."""

    def __init__(self, store: Store) -> None:
        self.db = AccountStore(store)

    # ------------------------------------------------------------ reports

    async def report(self, report: Report, address: str, forget_before: float) -> None:
        """Keep a report; reports made before ``forget_before`` are forgotten."""
        r = report
        await self.db._tx(
            [
                ("DELETE FROM reports WHERE created < %s", (forget_before,)),
                (
                    "INSERT INTO reports (id, reporter, address, name, account, table_id,"
                    " chat_n, reason, created) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    (
                        *(r.id, r.reporter, address, r.name, r.account),
                        *(r.table, r.chat_n, r.reason, r.created),
                    ),
                ),
            ]
        )

    async def reports_since(self, since: float) -> int:
        """How many reports were made since ``since``, from anywhere."""
        [rows] = await self.db._tx(
            [("SELECT COUNT(*) FROM reports WHERE created >= %s", (since,))], write=False
        )
        return int(str(rows[0][0]))

    async def reports_from(self, address: str, since: float) -> int:
        """How many reports ``address`` made since ``since``."""
        [rows] = await self.db._tx(
            [
                (
                    "SELECT COUNT(*) FROM reports WHERE address = %s AND created >= %s",
                    (address, since),
                )
            ],
            write=False,
        )
        return int(str(rows[0][0]))

    async def reports(self, most: int, *, open_only: bool = True) -> list[Report]:
        """The newest reports (those not handled, unless ``open_only`` is false)."""
        where = "WHERE handled IS NULL" if open_only else ""
        [rows] = await self.db._tx(
            [
                (
                    "SELECT id, reporter, name, account, table_id, chat_n, reason, created,"
                    f" handled FROM reports {where} ORDER BY created DESC LIMIT %s",
                    (most,),
                )
            ],
            write=False,
        )
        return [
            Report(
                str(i),
                _opt(rp),
                _opt(n),
                _opt(a),
                _opt(t),
                None if c is None else int(str(c)),
                str(why),
                float(str(at)),
                None if h is None else float(str(h)),
            )
            for i, rp, n, a, t, c, why, at, h in rows
        ]

    async def handle(self, report: str, now: float) -> None:
        """Mark a report handled."""
        await self.db._tx([("UPDATE reports SET handled = %s WHERE id = %s", (now, report))])

    # ------------------------------------------------------------ blocks

    async def block(self, account: str, blocked: str, now: float) -> None:
        """``account`` blocks ``blocked`` (again is no change)."""
        await self.db._tx(
            [
                (
                    "INSERT INTO blocks (account, blocked, created) VALUES (%s, %s, %s)"
                    " ON CONFLICT (account, blocked) DO NOTHING",
                    (account, blocked, now),
                )
            ]
        )

    async def unblock(self, account: str, blocked: str) -> None:
        """``account`` no longer blocks ``blocked``."""
        await self.db._tx(
            [("DELETE FROM blocks WHERE account = %s AND blocked = %s", (account, blocked))]
        )

    async def blocks(self, account: str, most: int) -> list[tuple[str, str]]:
        """Whom ``account`` blocks: (account id, its name), newest first."""
        [rows] = await self.db._tx(
            [
                (
                    "SELECT b.blocked, a.name FROM blocks b JOIN accounts a ON a.id = b.blocked"
                    " WHERE b.account = %s AND a.deleted IS NULL ORDER BY b.created DESC"
                    " LIMIT %s",
                    (account, most),
                )
            ],
            write=False,
        )
        return [(str(i), str(n)) for i, n in rows]

    async def blockers_of(self, account: str) -> set[str]:
        """The accounts that block ``account``."""
        [rows] = await self.db._tx(
            [("SELECT account FROM blocks WHERE blocked = %s", (account,))], write=False
        )
        return {str(r[0]) for r in rows}

    async def blocked_pairs(self, accounts: Collection[str]) -> set[frozenset[str]]:
        """The pairs among ``accounts`` one of whom blocks the other (never paired)."""
        ids = sorted(accounts)
        if len(ids) < 2:
            return set()
        marks = ", ".join(["%s"] * len(ids))
        [rows] = await self.db._tx(
            [
                (
                    f"SELECT account, blocked FROM blocks WHERE account IN ({marks})"
                    f" AND blocked IN ({marks})",
                    (*ids, *ids),
                )
            ],
            write=False,
        )
        return {frozenset((str(a), str(b))) for a, b in rows}

    # ------------------------------------------------------------ mutes and bans

    async def sanction(self, sanction: Sanction, now: float) -> None:
        """Keep a mute or a ban."""
        s = sanction
        await self.db._tx(
            [
                (
                    "INSERT INTO sanctions (id, kind, account, address, until, reason, created)"
                    " VALUES (%s, %s, %s, %s, %s, %s, %s)",
                    (s.id, s.kind, s.account, s.address, s.until, s.reason, now),
                )
            ]
        )

    async def lift(self, kind: str, account: str | None, address: str | None, now: float) -> int:
        """Lift the live mutes (or bans) of an account or an address; how many."""
        steps: list[Step] = []
        if account is not None:
            steps.append(
                (
                    "UPDATE sanctions SET lifted = %s WHERE kind = %s AND account = %s"
                    " AND lifted IS NULL AND until > %s RETURNING id",
                    (now, kind, account, now),
                )
            )
        if address is not None:
            steps.append(
                (
                    "UPDATE sanctions SET lifted = %s WHERE kind = %s AND address = %s"
                    " AND lifted IS NULL AND until > %s RETURNING id",
                    (now, kind, address, now),
                )
            )
        rows = await self.db._tx(steps)
        return sum(len(r) for r in rows)

    async def active(self, now: float) -> list[Sanction]:
        """Every mute and ban in force now."""
        [rows] = await self.db._tx(
            [
                (
                    "SELECT id, kind, account, address, until, reason FROM sanctions"
                    " WHERE lifted IS NULL AND until > %s ORDER BY until",
                    (now,),
                )
            ],
            write=False,
        )
        return [
            Sanction(str(i), str(k), _opt(a), _opt(ad), float(str(u)), str(r))
            for i, k, a, ad, u, r in rows
        ]

    async def in_force(
        self, kind: str, account: str | None, address: str | None, now: float
    ) -> Sanction | None:
        """The mute (or ban) in force now on ``account`` or ``address``, if any."""
        [rows] = await self.db._tx(
            [
                (
                    "SELECT id, kind, account, address, until, reason FROM sanctions"
                    " WHERE kind = %s AND lifted IS NULL AND until > %s"
                    " AND (account = %s OR address = %s) ORDER BY until DESC LIMIT 1",
                    (kind, now, account, address),
                )
            ],
            write=False,
        )
        return (
            Sanction(
                str(rows[0][0]),
                str(rows[0][1]),
                _opt(rows[0][2]),
                _opt(rows[0][3]),
                float(str(rows[0][4])),
                str(rows[0][5]),
            )
            if rows
            else None
        )

    # ------------------------------------------------------------ the host's actions

    async def log(self, entry: LogEntry) -> None:
        """Write an action of the host's to the log."""
        e = entry
        await self.db._tx(
            [
                (
                    "INSERT INTO admin_log (id, at, action, target, detail)"
                    " VALUES (%s, %s, %s, %s, %s)",
                    (secrets.token_hex(8), e.at, e.action, e.target, e.detail),
                )
            ]
        )

    async def log_entries(self, most: int) -> list[LogEntry]:
        """The host's last actions, newest first."""
        [rows] = await self.db._tx(
            [
                (
                    "SELECT at, action, target, detail FROM admin_log ORDER BY at DESC LIMIT %s",
                    (most,),
                )
            ],
            write=False,
        )
        return [LogEntry(float(str(a)), str(x), str(t), str(d)) for a, x, t, d in rows]

    async def remove_chat(self, table: str, n: int, now: float) -> bool:
        """Remove a table's chat message ``n`` (False: there is none)."""
        rows = await self.db._tx(
            [
                ("SELECT 1 FROM table_chat WHERE table_id = %s AND n = %s", (table, n)),
                (
                    "INSERT INTO chat_removed (table_id, n, at) VALUES (%s, %s, %s)"
                    " ON CONFLICT (table_id, n) DO NOTHING",
                    (table, n, now),
                ),
            ]
        )
        return bool(rows[0])

    async def removed(self, table: str) -> set[int]:
        """The numbers of a table's removed chat messages."""
        [rows] = await self.db._tx(
            [("SELECT n FROM chat_removed WHERE table_id = %s", (table,))], write=False
        )
        return {int(str(r[0])) for r in rows}

    async def close_table(self, table: str, why: str) -> bool:
        """Set a table aside (it is no longer served: "no such table"); False: none."""
        rows = await self.db._tx(
            [
                (
                    "UPDATE game_tables SET broken = %s, wake_at = NULL WHERE id = %s RETURNING id",
                    (why, table),
                )
            ]
        )
        return bool(rows[0])


def new_id() -> str:
    """A new report's or sanction's id."""
    return public_id()
