"""A learner's help in a lesson (docs/tutorial.md): the same check, hint and arrangement a
seat gets at a table (:mod:`rummykit.server.assist`), for the lesson's position after the
learner's moves. Run in a worker: arranging calls the solver."""

from __future__ import annotations

from collections.abc import Mapping

from rummykit import games
from rummykit.errors import ActionError
from rummykit.server import assist
from rummykit.tutorial import find
from rummykit.tutorial.lesson import replay

__all__ = ["help_job"]


def help_job(
    lesson_id: str, moves: list[dict[str, object]], request: Mapping[str, object], lang: str
) -> dict[str, object]:
    """The answer to a help ``request`` (``check`` with an ``action``, ``arrange`` with
    ``cards``, or ``hint``) in the shape the live protocol gives it (``checked``,
    ``arranged``, ``hint``, or an ``error``)."""
    lesson = find(lesson_id)
    if lesson is None:
        return {"type": "error", "code": "not_found", "rule": None, "message": "no such lesson"}
    game = replay(lesson, moves)
    if game is None:
        return {"type": "error", "code": "stale", "rule": None, "message": "set it up again"}
    kind = request.get("type")
    if kind == "check":
        raw = request.get("action")
        try:
            if not isinstance(raw, Mapping):
                return {"type": "error", "code": "bad_message", "rule": None, "message": "action"}
            action = games.get(lesson.game).action_from_json(dict(raw), seat=0)
        except (ActionError, TypeError, ValueError) as exc:
            return {"type": "error", "code": "bad_message", "rule": None, "message": str(exc)}
        return {"type": "checked", **assist.check(game, action, lang)}
    if kind == "arrange":
        cards = request.get("cards")
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            return {"type": "error", "code": "bad_message", "rule": None, "message": "cards"}
        try:
            answer = assist.arrange(game, 0, list(cards), lang)
        except ValueError as exc:
            return {"type": "error", "code": "bad_message", "rule": None, "message": str(exc)}
        if "message" in answer:
            return {"type": "error", "code": "illegal", **answer}
        return {"type": "arranged", **answer}
    if kind == "hint":
        return {"type": "hint", **assist.hint(game)}
    return {"type": "error", "code": "bad_message", "rule": None, "message": "no such help"}
