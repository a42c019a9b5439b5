"""A lesson and a learner's attempt at it, judged by the engine (see the package's
docstring)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from rummykit import games
from rummykit.errors import ActionError, RuleError
from rummykit.game import Game
from rummykit.i18n import N_, translate
from rummykit.seat_state import seat_state

__all__ = ["MAX_STEPS", "Lesson", "Outcome", "attempt", "replay"]

MAX_STEPS = 12
"""The most moves an attempt may hold (a lesson takes a few: a Kontrakt turn is a draw,
a lay-down or two and a discard)."""

Verdict = Literal["going", "done", "missed", "refused"]


@dataclass(frozen=True, slots=True)
class Lesson:
    """One rule or idea taught by playing it.

    ``title``, ``teach`` (the rule in a player's words), ``task`` (what to do now),
    ``missed`` (said of a legal move that is not the point) and ``done`` are catalog
    messages (English, translated when read; ``done`` may name ``{paid}``, filled by
    ``paid``). ``start`` sets up the position, the learner at seat 0 to act; ``reached``
    says whether the game, after the learner's moves, shows the lesson done; with
    ``one_move`` the first legal move must reach it (taking the pile's top: a draw from
    the stock is legal but misses the point at once). ``solution`` is one way to do it
    (the tests play it; the engine, not the solution, decides what else is right).
    """

    id: str
    game: str
    rules: tuple[str, ...]
    title: str
    teach: str
    task: str
    missed: str
    done: str
    start: Callable[[], Game]
    reached: Callable[[Game], bool]
    paid: Callable[[Game], int] | None = None
    one_move: bool = False
    solution: tuple[Mapping[str, object], ...] = ()
    names: tuple[str, ...] = (N_("You"), "Bo")

    def describe(self, lang: str) -> dict[str, object]:
        """The lesson in ``lang``, as a list shows it."""
        return {
            "id": self.id,
            "game": self.game,
            "rules": list(self.rules),
            "title": translate(self.title, lang),
            "teach": translate(self.teach, lang),
            "task": translate(self.task, lang),
        }


@dataclass(frozen=True, slots=True)
class Outcome:
    """Where an attempt stands: ``going`` (legal so far, the learner still to act),
    ``done``, ``missed`` (legal, but the turn ended without the lesson's point: set it up
    again) or ``refused`` (the last move broke ``rule``; the moves before it stand);
    ``message`` what to tell the learner; ``state`` what seat 0 sees now (the protocol's
    ``state`` message shape); ``steps`` the moves that stand."""

    verdict: Verdict
    message: str
    rule: str | None
    state: dict[str, object]
    steps: int


def attempt(lesson: Lesson, moves: Sequence[Mapping[str, object]], lang: str) -> Outcome:
    """The learner's ``moves`` (the game's actions as JSON, at most :data:`MAX_STEPS`)
    played from the lesson's start, each judged by the engine. ValueError for too many."""
    if len(moves) > MAX_STEPS:
        raise ValueError(f"an attempt holds at most {MAX_STEPS} moves")
    spec = games.get(lesson.game)
    game = lesson.start()
    done = 0
    for raw in moves:
        if lesson.reached(game) or game.to_act != 0:
            break
        try:
            game.apply(spec.action_from_json(dict(raw), seat=0))
        except (ActionError, RuleError) as exc:
            rule = exc.rule if isinstance(exc, RuleError) else None
            return Outcome("refused", exc.translated(lang), rule, _state(lesson, game, lang), done)
        done += 1
    if lesson.reached(game):
        paid = lesson.paid(game) if lesson.paid is not None else 0
        message = translate(lesson.done, lang, paid=paid)
        return Outcome("done", message, None, _state(lesson, game, lang), done)
    if game.to_act != 0 or (lesson.one_move and done):
        message = translate(lesson.missed, lang)
        return Outcome("missed", message, None, _state(lesson, lesson.start(), lang), 0)
    return Outcome("going", translate(lesson.task, lang), None, _state(lesson, game, lang), done)


def replay(lesson: Lesson, moves: Sequence[Mapping[str, object]]) -> Game | None:
    """The lesson's game after ``moves`` (each legal, the learner to act after each), or
    None if they do not all stand: the position a learner's draft is checked in."""
    if len(moves) > MAX_STEPS:
        return None
    spec = games.get(lesson.game)
    game = lesson.start()
    for raw in moves:
        if game.to_act != 0:
            return None
        try:
            game.apply(spec.action_from_json(dict(raw), seat=0))
        except (ActionError, RuleError):
            return None
    return game if game.to_act == 0 else None


def _state(lesson: Lesson, game: Game, lang: str) -> dict[str, object]:
    """What seat 0 sees (:func:`~rummykit.seat_state.seat_state`)."""
    return seat_state(game, 0, [translate(n, lang) for n in lesson.names], lang)
