"""Who plays whom in "Play now" (issue 42 item 3; docs/protocol.md, "Play now"): a pure
function from the waiting seeks to tables, so that it is tested alone.

A seek asks for a game, a number of players (or any), a pace, and perhaps bots after a
wait. Seeks are paired oldest first: each with the oldest others of its game and pace
who want the same number of players and whose ratings are near enough. *Near enough*
widens with waiting (lichess's pools do the same): :func:`window` points either way,
100 at once and 50 more every 5 seconds, and two seeks meet only within both their
windows. A seek that allowed bots and has waited that long gets a table at once: the
humans near it who fit, and bots of the ladder level nearest its rating for the rest.
Two players one of whom blocks the other never meet.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

__all__ = ["MAX_WINDOW", "Match", "Seek", "pair", "window"]

MAX_WINDOW = 1000.0
"""The widest a rating window grows (points either way)."""


@dataclass(frozen=True, slots=True)
class Seek:
    """A player waiting for a table: its id, game, players (None: any number), pace,
    the rating it is paired by, when it began, its account (None: a guest) and after how
    many seconds bots may fill the table (None: never)."""

    id: str
    game: str
    players: int | None
    pace: str
    rating: float
    created: float
    account: str | None = None
    bots_after: float | None = None


@dataclass(frozen=True, slots=True)
class Match:
    """A table to make: its people (seat order) and the bot levels of the other seats."""

    seeks: tuple[Seek, ...]
    bots: tuple[str, ...] = ()

    @property
    def players(self) -> int:
        """How many seats the table has."""
        return len(self.seeks) + len(self.bots)


def window(seek: Seek, now: float) -> float:
    """How far (rating points either way) ``seek`` accepts another after waiting until
    ``now``."""
    waited = max(0.0, now - seek.created)
    return min(MAX_WINDOW, 100.0 + 50.0 * (waited // 5))


def _sizes(seek: Seek, most: int) -> list[int]:
    return [seek.players] if seek.players is not None else list(range(2, most + 1))


def pair(
    seeks: Sequence[Seek],
    now: float,
    *,
    most_players: Callable[[str], int],
    bot_for: Callable[[str, float], str | None],
    blocked: Collection[frozenset[str]] = (),
) -> list[Match]:
    """The tables to make of ``seeks`` at ``now``; each seek is in one at most.

    ``most_players(game)`` bounds "any"; ``bot_for(game, rating)`` names the bot level
    nearest a rating (None: no bot for that game); ``blocked`` holds the pairs of
    accounts who must not meet.
    """
    order = sorted(seeks, key=lambda s: (s.created, s.id))
    used: set[str] = set()
    out: list[Match] = []

    def apart(a: Seek, b: Seek) -> bool:
        return (
            a.account is not None
            and b.account is not None
            and frozenset((a.account, b.account)) in blocked
        )

    def near(a: Seek, b: Seek) -> bool:
        return abs(a.rating - b.rating) <= min(window(a, now), window(b, now))

    def together(a: Seek, b: Seek) -> bool:
        return near(a, b) and not apart(a, b)

    for seek in order:
        if seek.id in used:
            continue
        others = [
            o
            for o in order
            if o.id not in used
            and o.id != seek.id
            and o.game == seek.game
            and o.pace == seek.pace
            and together(seek, o)
        ]
        most = most_players(seek.game)
        found: Match | None = None
        for size in _sizes(seek, most):
            group = _group(seek, [o for o in others if size in _sizes(o, most)], size, together)
            if len(group) == size - 1:
                found = Match((seek, *group))
                break
        if found is None and seek.bots_after is not None and now - seek.created >= seek.bots_after:
            size = seek.players or 2
            level = bot_for(seek.game, seek.rating)
            if level is not None:
                group = _group(seek, [o for o in others if size in _sizes(o, most)], size, together)
                found = Match((seek, *group), (level,) * (size - 1 - len(group)))
        if found is not None:
            used.update(s.id for s in found.seeks)
            out.append(found)
    return out


def _group(
    seek: Seek, fitting: list[Seek], size: int, together: Callable[[Seek, Seek], bool]
) -> list[Seek]:
    """Up to ``size - 1`` of ``fitting`` (each fits ``seek``), oldest first, each fitting
    every other chosen: near in rating, and none blocking another."""
    group: list[Seek] = []
    for other in fitting:
        if len(group) == size - 1:
            break
        if all(together(other, g) for g in group):
            group.append(other)
    return group
