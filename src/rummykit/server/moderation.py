"""Moderation as the server applies it (docs/hosting.md, "Moderation"): who is muted or
banned now, whom an account blocks; read from the store and kept a few seconds in memory,
so that a chat message costs no query (a host's mute takes effect within
:data:`FRESH` seconds on every process).

- A **mute** (of an account, or an address) refuses that player's chat (``muted``).
- A **ban** refuses signing in, taking a seat, making a table and seeking a game
  (``banned``), at once.
- A **block** hides the blocked player's chat from the blocker, and the two are never
  paired by "Play now".
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Collection

from rummykit.server.hosted import hash_token
from rummykit.server.store.base import Store, StoreBusy
from rummykit.server.store.moderation import ModerationStore, Sanction

__all__ = ["FRESH", "Moderation", "address_key", "until_text"]

FRESH = 5.0
"""Seconds a process keeps what it read of the mutes, bans and blocks."""
KEPT = 10_000
"""Accounts whose blockers a process remembers (the oldest forgotten first)."""


def until_text(until: float) -> str:
    """When a mute or a ban ends, as a message says it (UTC)."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(until))


def address_key(address: str) -> str:
    """An address as moderation keeps it: hashed."""
    return hash_token(f"address:{address}")


class Moderation:
    """The mutes, bans and blocks of a server whose tables are in ``store``."""

    def __init__(self, store: Store) -> None:
        self.db = ModerationStore(store)
        self._sanctions: list[Sanction] = []
        self._read = -FRESH
        self._blockers: OrderedDict[str, tuple[float, set[str]]] = OrderedDict()

    async def _active(self) -> list[Sanction]:
        now = time.monotonic()
        if now - self._read > FRESH:
            try:
                self._sanctions = await self.db.active(time.time())
                self._read = now
            except StoreBusy:
                pass  # what was read last stands a little longer
        wall = time.time()
        return [s for s in self._sanctions if s.until > wall]

    async def _under(self, kind: str, account: str | None, address: str | None) -> Sanction | None:
        key = None if address is None else address_key(address)
        for s in await self._active():
            if s.kind == kind and (
                (account is not None and s.account == account)
                or (key is not None and s.address == key)
            ):
                return s
        return None

    async def muted(self, account: str | None, address: str | None) -> Sanction | None:
        """The mute in force on this account or address, if any."""
        return await self._under("mute", account, address)

    async def banned(self, account: str | None, address: str | None) -> Sanction | None:
        """The ban in force on this account or address, if any: read from the database
        each time (a sign-in, a seat, a table, a seek are worth a query; a ban takes
        effect at once). A database that is busy refuses no one."""
        key = None if address is None else address_key(address)
        try:
            return await self.db.in_force("ban", account, key, time.time())
        except StoreBusy:
            return await self._under("ban", account, address)

    async def blockers_of(self, account: str) -> set[str]:
        """The accounts that block ``account`` (their pages do not show its chat)."""
        now = time.monotonic()
        kept = self._blockers.get(account)
        if kept is not None and now - kept[0] <= FRESH:
            return kept[1]
        try:
            found = await self.db.blockers_of(account)
        except StoreBusy:
            return set() if kept is None else kept[1]
        self._blockers[account] = (now, found)
        self._blockers.move_to_end(account)
        while len(self._blockers) > KEPT:
            self._blockers.popitem(last=False)
        return found

    def forget(self, blocked: str) -> None:
        """Who blocks ``blocked`` changed on this process: read it again next time (other
        processes read it within :data:`FRESH` seconds)."""
        self._blockers.pop(blocked, None)

    async def blocked_pairs(self, accounts: Collection[str]) -> set[frozenset[str]]:
        """The pairs among ``accounts`` one of whom blocks the other."""
        return await self.db.blocked_pairs(accounts)
