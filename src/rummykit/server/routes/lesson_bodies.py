"""The body of the lesson route (:mod:`rummykit.server.routes.lessons`): a pydantic
model, every field bounded."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from rummykit.tutorial.lesson import MAX_STEPS

__all__ = ["Attempt", "Help"]


class Attempt(BaseModel):
    """The learner's moves so far in a lesson (the game's actions as JSON), and the
    language of the answer."""

    model_config = ConfigDict(extra="forbid")
    moves: list[dict[str, object]] = Field(default_factory=list, max_length=MAX_STEPS)
    lang: str = Field("en", max_length=16)


class Help(Attempt):
    """A help request (``check``, ``hint``, ``arrange``: the live protocol's messages
    without their ``ref``) in the position after the learner's moves."""

    request: dict[str, object] = Field(default_factory=dict)
