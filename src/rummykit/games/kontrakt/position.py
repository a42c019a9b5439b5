"""A Kontraktsrummy position in the middle of a deal, like a chess position from FEN.

:meth:`KontraktGame.from_position <rummykit.games.kontrakt.game.KontraktGame.from_position>`
sets a game up from one: bots that play a guessed deal forward (determinized
search), the review (each turn as its player saw it), and tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.cards import Card
from rummykit.games.kontrakt.state import Phase

__all__ = ["KontraktPosition"]


@dataclass(frozen=True, slots=True)
class KontraktPosition:
    """Where every card of deal ``deal`` (0-6) lies, and who is to act.

    ``hands`` per seat; ``stock`` top card first; ``discard_pile`` bottom
    first; ``table`` the melds in laying order as (owner, cards in meld order,
    laid as a contract part), a joker saying what it stands for (``*:8h``);
    ``laid`` per seat (groups, runs, complete) of the contract (None: nothing
    laid); ``turn`` the seat to act in ``phase`` (:attr:`Phase.DRAW` or
    :attr:`Phase.PLAY`); ``picked_up`` the card taken from the pile this turn
    (K8); ``stock_only`` after the first upcard went round (K7); ``scores``
    the earlier deals' penalties (None: zeros). Together the places must hold
    the deck of K2 exactly.
    """

    hands: Sequence[Sequence[Card]]
    deal: int
    dealer: int
    stock: Sequence[Card]
    discard_pile: Sequence[Card]
    turn: int
    table: Sequence[tuple[int, Sequence[Card], bool]] = ()
    laid: Sequence[tuple[int, int, bool]] | None = None
    phase: Phase = Phase.DRAW
    picked_up: Card | None = None
    stock_only: bool = False
    scores: Sequence[Sequence[int]] | None = None
