"""The errors every part of rummykit raises when a player breaks a rule."""

from __future__ import annotations

__all__ = ["RuleError"]


class RuleError(ValueError):
    """An action that the rules forbid.

    ``rule`` is the id from RULES.md (``"V9"``, ``"K7"``); ``message`` says in a
    player's words what is wrong. A rejected action changes nothing.

    >>> str(RuleError("V7", "your first play must be one run from your hand"))
    'your first play must be one run from your hand (V7)'
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.message = message
