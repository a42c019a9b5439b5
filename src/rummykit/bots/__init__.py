"""Bots for rummykit's games, found by game and level (``make_bot("vatikanen", "greedy")``).

See :mod:`rummykit.bots.base` for the interface. Vatikanen levels: ``random``
and ``greedy`` (:mod:`rummykit.bots.vatikanen_basic`).
"""

from rummykit.bots.base import Bot, play_out, register
from rummykit.bots.levels import levels, make_bot

__all__ = ["Bot", "levels", "make_bot", "play_out", "register"]
