"""rummykit: Vatikanen and Kontraktsrummy, exactly by the rules.

The games are pure state machines (:mod:`rummykit.games.vatikanen`,
:mod:`rummykit.games.kontrakt`), found by name in the registry
(:func:`rummykit.games.get`) and held by every host through one interface
(:class:`rummykit.game.Game`); cards and melds live in :mod:`rummykit.cards`
and :mod:`rummykit.melds`; the exact table solver in :mod:`rummykit.solver`.
"""

from rummykit.cards import JOKER, Card, Suit, format_cards, parse_cards
from rummykit.errors import RuleError
from rummykit.melds import KONTRAKT, RUMMIKUB, VATIKANEN, Meld, MeldKind, MeldRules, read_meld

__version__ = "0.1.0"

__all__ = [
    "JOKER",
    "KONTRAKT",
    "RUMMIKUB",
    "VATIKANEN",
    "Card",
    "Meld",
    "MeldKind",
    "MeldRules",
    "RuleError",
    "Suit",
    "format_cards",
    "parse_cards",
    "read_meld",
]
