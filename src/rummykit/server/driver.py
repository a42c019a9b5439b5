"""The driver: what moves at a table without anyone acting — bots, turn clocks, stand-ins.

A bot seat moves ``bot_delay`` seconds after the table's last change; a human
seat whose turn clock runs out is played by the table's bot for that turn; a
player away longer than the table's grace is played by a bot until they come
back (where the table has stand-ins). A bot plays for a human seat (a stand-in,
a clock at zero) only while a player at the table is connected: a table with
nobody there waits (its bot seats play on to the next human turn), and a
deadline that passed meanwhile is acted on when a player is back. Each room has
one timer, set again after each change for the next of these
(:meth:`Driver.schedule`); the same moment is stored with the table
(``wake_at``), so a table that has left memory, or whose process died, is
loaded again when it is due.

A bot thinks in the play pool from the seat's view only (without its log
when the bot does not read it: most of a long game's view, and of the cost of
sending it), seeded from the table, the version and the seat, so the same
position gets the same move, also after a restart; its move then goes
through the room like a player's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from typing import TYPE_CHECKING

from rummykit.bots.levels import reads_log
from rummykit.server.protocol import ProtocolError
from rummykit.server.workers import bot_seed, think

if TYPE_CHECKING:
    from rummykit.server.room import Room

__all__ = ["Driver"]

log = logging.getLogger("rummykit.server")


class Driver:
    """The automatic moves of one room."""

    def __init__(self, room: Room) -> None:
        self._room = weakref.ref(room)  # no cycle: a room let go is freed at once
        self._timer: asyncio.TimerHandle | None = None
        self._thinking: asyncio.Task[None] | None = None

    @property
    def room(self) -> Room:
        """The room this driver moves (it outlives none of its drivers)."""
        room = self._room()
        assert room is not None, "a driver outlived its room"
        return room

    def wake_at(self) -> float | None:
        """When the table's next automatic move is due (seconds since 1970), or None."""
        due = self._next()
        return None if due is None else due[0]

    def _next(self) -> tuple[float, int] | None:
        room = self.room
        table, game = room.table, room.table.game
        if game is None or game.to_act is None:
            return None
        seat, now = game.to_act, time.time()
        if table.is_bot(seat) or room.stand_ins()[seat]:
            held = room.held_until()  # the players see the last deal's end first
            return max(now + room.host.bot_delay, held or 0.0), seat
        if not room.someone_here():
            return None  # nobody at the table: it waits, its clock's and stand-ins' moves too
        candidates = [room.deadline] if room.deadline is not None else []
        since = room.away_since[seat]
        if table.settings.stand_in and not room.connected()[seat] and since is not None:
            candidates.append(since + table.settings.grace)
        return (min(candidates), seat) if candidates else None

    def schedule(self) -> None:
        """Set the timer for the next automatic move, if any."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._thinking is not None or self.room.gone:
            return
        due = self._next()
        if due is None:
            return
        at, seat = due
        version = self.room.table.version
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(
            max(0.0, at - time.time()), lambda: self._start(version, seat)
        )

    def stop(self) -> None:
        """Stop the timer and any bot thinking (the room leaves memory)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._thinking is not None:
            self._thinking.cancel()

    @property
    def busy(self) -> bool:
        """True while a bot thinks."""
        return self._thinking is not None

    def reason(self, seat: int) -> str | None:
        """Why a bot may play ``seat``'s turn now: ``bot`` (a bot's seat), ``stand_in`` (its
        player is away past the grace), ``clock`` (the turn clock ran out); None: it may
        not. Asked again by the room under its lock after the bot has thought, so a player
        who came back meanwhile keeps the turn."""
        room = self.room
        if room.table.is_bot(seat):
            return "bot"
        if room.stand_ins()[seat]:
            return "stand_in"
        if room.deadline is not None and time.time() >= room.deadline - 0.01:
            return "clock" if room.someone_here() else None  # nobody there: the table waits
        return None

    def _start(self, version: int, seat: int) -> None:
        self._timer = None
        self._thinking = asyncio.ensure_future(self._move(version, seat))

    async def _move(self, version: int, seat: int) -> None:
        """The seat's bot plays this turn (a bot seat, a stand-in, a clock at zero)."""
        room = self.room
        table = room.table
        try:
            game = table.game
            if table.version != version or game is None or game.to_act != seat:
                return
            by = self.reason(seat)
            if by is None:  # not yet: the player came back, or the grace is not over
                return
            level = table.settings.seats[seat].level or table.spec.default_bot
            seed = bot_seed(table.settings.seed, version, seat)
            view = game.view(seat, log=reads_log(table.spec.name, level))
            chosen = await room.host.workers.run_bot(think, table.spec.name, level, seed, view)
            try:
                await room.act(seat, version, chosen, by=by)
            except ProtocolError as exc:
                if exc.code != "illegal" and exc.code != "bad_message":
                    return  # the table moved on (stale), or the store failed
                log.warning("table %s: the %s bot chose no legal action: %s", room.id, level, exc)
                fallback = game.suggested_actions()[0].to_json()
                with contextlib.suppress(ProtocolError):
                    await room.act(seat, version, fallback, by=by)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the driver failed", room.id)
        finally:
            self._thinking = None
            if not room.gone:
                self.schedule()
