"""The tutorial: short lessons that teach each rule by playing it (issue 43 item 5,
docs/tutorial.md).

A lesson is one rule or idea, with its rule ids: a scripted position (a game set up
mid-play, seat 0 the learner's, the learner to act), what to do, and when it is done.
The learner's moves are the game's own actions, judged by the engine itself: a move the
rules forbid is refused with the rule it breaks, in the engine's words; a legal one that
is not the lesson's point is said so, and the position is set up again. Nothing here
decides what is legal.

Each game gives its lessons through its spec (``lessons``,
``games/vatikanen/lessons.py``, ``games/kontrakt/lessons.py``), in the order they are
taught.

>>> [lesson.id for lesson in lessons("vatikanen")][:2]
['v-run', 'v-group']
>>> find("v-run").rules
('V5', 'V7')
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import cast

from rummykit import games
from rummykit.tutorial.lesson import Lesson, Outcome, attempt

__all__ = ["Lesson", "Outcome", "attempt", "find", "lessons"]


@functools.cache
def lessons(game: str) -> tuple[Lesson, ...]:
    """The lessons of ``game``, in the order they are taught (none for a game without)."""
    make = games.get(game).hook("lessons")
    if make is None:
        return ()
    return tuple(cast(Callable[[], Sequence[Lesson]], make)())


def find(lesson_id: str) -> Lesson | None:
    """The lesson ``lesson_id`` of any game, or None."""
    for game in games.names():
        for lesson in lessons(game):
            if lesson.id == lesson_id:
                return lesson
    return None
