"""The "Play now" matcher (issue 42 item 3; docs/protocol.md, "Play now"): every second it
pairs the waiting seeks (:func:`rummykit.server.pairing.pair`) and makes their tables.

One matcher runs at a time, however many processes serve a database: on PostgreSQL the
one that holds the matcher's advisory lock (the table store's own lock connection, as a
table is held; when that process dies its lock goes with it and another takes over
within a second); on SQLite the one process. Even two matchers at once could not pair a
seek twice: a table is made only for seeks it first moved from ``waiting`` to
``claimed`` in one transaction (:meth:`SeekStore.claim`).

A table is made as the lobby makes one (:meth:`Rooms.create`: its pace's clock, bots
of the ladder level nearest the seek's rating for the empty seats) and each person is
seated (:meth:`Room.join`, with their account). It is rated when every person at it has
an account (a stranger's table is rated only between accounts). On PostgreSQL the
table is then let go at once (:meth:`Rooms.put_down`): a router sends its players to
the process their table's id hashes to, which need not be the matcher's, and that
process claims it at once rather than after the 10 s a table just loaded is held.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass

from rummykit import games
from rummykit.ratings import ALPHA, TARGET, Rating, bot_rating
from rummykit.server.accounts import AccountLimits
from rummykit.server.gameinfo import seatable_levels
from rummykit.server.hosted import NameTaken
from rummykit.server.pairing import Match, pair
from rummykit.server.rooms import Rooms
from rummykit.server.store.accounts import AccountStore, HeldSeat
from rummykit.server.store.base import StoreBusy
from rummykit.server.store.seeks import SeekStore

__all__ = ["EVERY", "MATCHER_LOCK", "PACES", "Matcher", "Pace", "bot_for", "skill"]

log = logging.getLogger(__name__)

EVERY = 1.0
"""Seconds between two rounds of pairing."""
MATCHER_LOCK = "matcher:play-now"
"""The name the matcher's lock is taken by (the store's ``claim``, as a table's is)."""
STALE = 12.0
"""Seconds a waiting seek lives after its page last asked after it (the page asks every
1.5 s; a closed page's seek is gone within this)."""
KEPT = 600.0
"""Seconds a finished seek (and the seat token it holds) is kept for its page."""
STUCK = 30.0
"""Seconds after which a claim its matcher never finished waits again."""
MOST = 2000
"""Seeks one round reads at most."""
HELD = AccountLimits().seats
"""Seats an account holds at most (its accounts' limit)."""

Blocked = Callable[[Collection[str]], Awaitable[Collection[frozenset[str]]]]


@dataclass(frozen=True, slots=True)
class Pace:
    """A pace a seek may ask for, as the lobby's presets make a table."""

    clock: int
    grace: int
    stand_in: bool


PACES = {
    "fast": Pace(60, 60, True),
    "normal": Pace(0, 60, True),
    "day": Pace(86_400, 86_400, False),
}
"""The paces of "Play now": the lobby's three presets."""


def skill(rating: Rating) -> float:
    """The figure seeks are paired by: the rating's skill on the shown scale (not less its
    uncertainty: a newcomer is paired as an average player, not as the 400 shown)."""
    return TARGET + ALPHA * rating.mu


def bot_for(game: str, rating: float) -> str | None:
    """The bot level a table can seat whose ladder skill is nearest ``rating``."""
    best: tuple[float, str] | None = None
    for level in seatable_levels(game):
        ladder = bot_rating(game, level)
        if ladder is None:
            continue
        gap = abs(skill(ladder) - rating)
        if best is None or gap < best[0]:
            best = (gap, level)
    return None if best is None else best[1]


class Matcher:
    """Pairs the seeks of ``rooms``' database and makes their tables."""

    def __init__(self, rooms: Rooms, blocked: Blocked | None = None) -> None:
        self.rooms = rooms
        self.seeks = SeekStore(rooms.store)
        self.held = AccountStore(rooms.store)
        self.blocked = blocked or rooms.moderation.blocked_pairs
        self._task: asyncio.Task[None] | None = None
        self._lock: str | None = None

    def start(self) -> None:
        """Run the rounds in the background."""
        if self._task is None:
            self._task = asyncio.ensure_future(self._loop())

    async def stop(self) -> None:
        """Stop the rounds."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(EVERY)
            try:
                if self._lock is None:  # one matcher a schema: servers may share a database
                    self._lock = f"{MATCHER_LOCK}:{await self.seeks.namespace()}"
                if await self.rooms.store.claim(self._lock):
                    await self.round(time.time())
            except StoreBusy:
                continue
            except Exception:
                log.exception("a round of pairing failed")

    async def round(self, now: float) -> list[str]:
        """One round: forget the seeks nobody asks after, pair the others, make their
        tables. The tables made."""
        await self.seeks.sweep(now - STALE, now - KEPT, now - STUCK)
        rows = await self.seeks.waiting(now - STALE, MOST)
        if not rows:
            return []
        names = {r.seek.id: r.name for r in rows}
        accounts = {r.seek.account for r in rows if r.seek.account is not None}
        blocked = await self.blocked(accounts) if accounts else ()
        matches = pair(
            [r.seek for r in rows],
            now,
            most_players=lambda game: games.get(game).max_players,
            bot_for=bot_for,
            blocked=blocked,
        )
        made: list[str] = []
        for match in matches:
            table = await self._make(match, names, now)
            if table is not None:
                made.append(table)
        return made

    async def _make(self, match: Match, names: dict[str, str], now: float) -> str | None:
        """Claim the match's seeks, make its table and seat them; None when a seek was no
        longer waiting (nothing is made) or the table could not be made (they wait
        again)."""
        ids = [s.id for s in match.seeks]
        if not await self.seeks.claim(ids, now):
            return None
        first = match.seeks[0]
        pace = PACES[first.pace]
        seats = ["human"] * len(match.seeks) + [f"bot:{level}" for level in match.bots]
        try:
            summary = await self.rooms.create(
                first.game,
                seats,
                clock=pace.clock,
                grace=pace.grace,
                stand_in=pace.stand_in,
                rated=all(s.account is not None for s in match.seeks),
            )
            table_id = str(json.loads(summary)["id"])
            room = await self.rooms.get(table_id)
            assert room is not None, "a table just made is there"
            places: list[tuple[str, str, int, str]] = []
            for seat, seek in enumerate(match.seeks):
                name = names[seek.id]
                try:
                    _, token = await room.join(name, seat, account=seek.account)
                except NameTaken:  # two strangers of one name: the later one is told apart
                    _, token = await room.join(f"{name} {seat + 1}", seat, account=seek.account)
                places.append((seek.id, table_id, seat, token))
                if seek.account is not None:  # "my tables" follow the account
                    await self.held.add_seats(
                        seek.account, [HeldSeat(table_id, seat, token)], now, HELD
                    )
            await self.seeks.matched(places)
        except Exception:
            log.exception("a Play now table could not be made; its players wait again")
            with contextlib.suppress(StoreBusy):
                await self.seeks.release(ids)
            return None
        log.info("play now: table %s for %d player(s)", table_id, len(match.seeks))
        if self.rooms.store.shared:  # the players' pages may reach another process
            with contextlib.suppress(StoreBusy):
                await self.rooms.put_down(table_id)
        return table_id
