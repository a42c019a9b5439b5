"""The two errors a game raises for an action it does not take.

- :class:`RuleError`: a well-formed action of the game that the rules forbid
  now; it names the rule (``"V9"``, ``"K7"``) and says, in a player's words,
  what is wrong.
- :class:`ActionError`: something that is not an action of the game at all
  (an unknown type, a missing field, a card that is no card, another game's
  action).

Both are :class:`ValueError`, so a host may catch either with one clause, and
a rejected action changes nothing.
"""

from __future__ import annotations

__all__ = ["ActionError", "RuleError"]


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


class ActionError(ValueError):
    """Not an action of the game: its JSON has no known ``type``, lacks a field, or holds
    a value of the wrong kind; or it is an action of another game.

    >>> str(ActionError("'card' must be one card written as text, like '7h'"))
    "'card' must be one card written as text, like '7h'"
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
