"""Replaying a record to check it: ``rummykit replay`` and RECORD.md's JSON answer.

The game found by name rebuilds itself from the record
(:meth:`rummykit.games.GameSpec.from_record`), checking every action on the
way; :func:`replay` reports the first illegal action by rule id, or how the
game stands where the record ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rummykit.errors import RuleError, message_of
from rummykit.record.format import GameRecord, IllegalAction, RecordError

__all__ = ["ReplayResult", "replay"]


@dataclass(frozen=True)
class ReplayResult:
    """What replaying a record found: legal to where it ends, or the first illegal action.

    ``scores`` are each seat's score after the last deal replayed (Vatikanen:
    the session's balances; Kontrakt: the penalty totals). ``finished`` says
    whether the record ends with its game over (a Vatikanen game, a
    Kontrakt game's seventh deal); if not, ``to_act`` is the seat whose turn
    it is where the record stops (None between deals). ``error`` is the illegal
    action's :class:`~rummykit.errors.RuleError`, whose ``translated(language)``
    is ``message`` in another language.
    """

    ok: bool
    deals: int
    scores: Sequence[float]  # V15 can split a payment between tied winners
    deal: int | None = None
    action: int | None = None
    rule: str | None = None
    message: str | None = None
    finished: bool = True
    to_act: int | None = None
    error: RuleError | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict[str, object]:
        """The JSON answer of ``rummykit replay --json`` (RECORD.md)."""
        if self.ok:
            return {
                "ok": True,
                "deals": self.deals,
                "scores": [int(s) if s == int(s) else s for s in self.scores],
                "finished": self.finished,
                "to_act": self.to_act,
            }
        return {
            "ok": False,
            "deal": self.deal,
            "action": self.action,
            "rule": self.rule,
            "message": self.message,
        }


def replay(record: GameRecord) -> ReplayResult:
    """Replay ``record`` with its game's engine, checking every action.

    :class:`RecordError` when the record cannot be played at all.
    """
    from rummykit import games

    try:
        spec = games.get(record.game)
    except ValueError as exc:
        raise RecordError(message_of(exc)) from None
    try:
        game = spec.from_record(record)
    except IllegalAction as exc:
        return ReplayResult(
            ok=False,
            deals=exc.deal + 1,
            scores=[],
            deal=exc.deal,
            action=exc.action,
            rule=exc.rule,
            message=exc.message,
            error=exc,
        )
    except ValueError as exc:
        raise RecordError(message_of(exc)) from None
    return ReplayResult(
        ok=True,
        deals=len(record.deals),
        scores=list(game.standings),
        finished=game.over,
        to_act=game.to_act,
    )
