"""Kontraktsrummy's table: players and decks (K1, K2), house rules, and the deal's length cap."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from rummykit.cards import Card, full_deck
from rummykit.errors import RuleError
from rummykit.games.spec import HouseRule, OptionValue, check_house_rules
from rummykit.i18n import N_

__all__ = [
    "CARDS_EACH",
    "DEALS",
    "HOUSE_RULES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "TURN_LIMIT",
    "KontraktOptions",
    "deck_for",
    "game_deck",
]

DEALS = 7
"""K4: a game (parti) is seven deals."""
CARDS_EACH = 10
"""K3: ten cards to each player."""
MIN_PLAYERS, MAX_PLAYERS = 2, 8
"""K1: 2-8 players."""
TURN_LIMIT = 1000
"""The longest a deal may run: this many turns per player (draws from the stock or the
pile). A deal that reaches it ends as an empty stock ends one (K15): everyone scores the
hand. Without a cap two players could pass cards back and forth for ever. Measured: bots
that play to win end a deal in 10-50 turns each; of 1,050 deals between random bots the
longest took 672 turns per player, the median 18 (docs/rules-decisions.md)."""

HOUSE_RULES = (
    HouseRule(
        "reshuffle_stock",
        True,
        "K15",
        N_("an empty stock is refilled from the discard pile (off: the deal ends there)"),
        title=N_("Reshuffle the pile"),
    ),
    HouseRule(
        "rediscard_pickup",
        False,
        "K8",
        N_("a card taken from the discard pile may be discarded again the same turn"),
        title=N_("Discard the card taken"),
    ),
)
"""The options a Kontrakt table may switch, with RULES.md's defaults."""


@dataclass(frozen=True)
class KontraktOptions:
    """The table's house rules (RULES.md), keyword-only, defaults as RULES.md gives them.

    ``reshuffle_stock`` (K15): when a player must draw from an empty stock,
    the discard pile but its top card is shuffled into a new stock; off, the
    deal ends there and everyone scores the hand.
    ``rediscard_pickup`` (not in RULES.md; off by default): whether a card just
    taken from the discard pile may be discarded again in the same turn.
    """

    reshuffle_stock: bool = True
    rediscard_pickup: bool = False

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> KontraktOptions:
        """Options from a record's ``options``; ``ValueError`` for unknown or wrong ones."""
        values = check_house_rules(HOUSE_RULES, data, "Kontrakt")
        return cls(**{k: bool(v) for k, v in values.items()})

    def to_json(self) -> dict[str, Any]:
        """The options that differ from their defaults (RECORD.md)."""
        default = KontraktOptions()
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if getattr(self, f.name) != getattr(default, f.name)
        }


def deck_for(players: int) -> tuple[int, int]:
    """K1, K2: (packs, jokers) for ``players``: two packs and 2 jokers up to 4, else 3 and 3."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RuleError("K1", N_("Kontraktsrummy is for 2 to 8 players, not {n}"), n=players)
    return (2, 2) if players <= 4 else (3, 3)


def game_deck(players: int, options: Mapping[str, OptionValue]) -> list[Card]:
    """The unshuffled deck of one deal (K2) for ``players``."""
    packs, jokers = deck_for(players)
    return full_deck(packs, jokers)
