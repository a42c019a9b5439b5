"""A lesson's attempt as plain data, for a server's worker
(:mod:`rummykit.server.routes.lessons`)."""

from __future__ import annotations

from rummykit.tutorial import find
from rummykit.tutorial.lesson import attempt

__all__ = ["attempt_json"]


def attempt_json(lesson_id: str, moves: list[dict[str, object]], lang: str) -> dict[str, object]:
    """:func:`attempt` as plain data, for a server's worker: the outcome with the lesson
    described; ``{"error": "not_found"}`` for no such lesson."""
    lesson = find(lesson_id)
    if lesson is None:
        return {"error": "not_found"}
    out = attempt(lesson, moves, lang)
    return {
        "lesson": lesson.describe(lang),
        "verdict": out.verdict,
        "message": out.message,
        "rule": out.rule,
        "steps": out.steps,
        "state": out.state,
    }
