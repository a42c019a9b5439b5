"""What the two games' encodings share: card slots, the encoder interface, a few vectors.

An :class:`Encoder` turns one seat's view (``game.view(seat)``, plain JSON
data) into the fixed-size vectors a learner sees, and the actions of the
game into a fixed set of indices. It is engine-free: it gets the view and
nothing else, so an observation can hold nothing the seat may not see, and
the same encoder serves the learning environment and a trained policy
playing as an ordinary bot in the arena.

Two sides of the action mask:

- :meth:`Encoder.propose` gives, from the view alone, the action each index
  stands for now (indices that stand for nothing are left out). A bot uses this.
- :meth:`Encoder.engine_legal` is the environment's side: the engine decides,
  and the mask is complete over the action set. Every index's action (for
  Kontrakt the help's candidates, for Vatikanen every proposal) is asked of
  the engine's :meth:`~rummykit.game.Game.can`, and the index is set exactly
  when ``can`` accepts it. The engine's
  :meth:`~rummykit.game.Game.suggested_actions` alone would not do: they are
  legal, but not all the legal actions. The tests play thousands of games
  checking that both sides agree.

>>> card_index(Card.parse("Ac")), card_index(Card.parse("Ks")), card_index(Card.parse("*:7h"))
(0, 51, 52)
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from rummykit.cards import Card

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from rummykit.game import AnyAction, Game

    Vector = npt.NDArray[np.float32]

__all__ = [
    "CARD_SLOTS",
    "JOKER_SLOT",
    "Encoder",
    "card_index",
    "card_of_index",
    "encoder_of",
    "text_index",
]

CARD_SLOTS = 53
"""One slot per natural card (suit by suit, ace to king: ``Ac`` is 0, ``Ks`` 51), and the
joker (52)."""
JOKER_SLOT = 52


def card_index(card: Card) -> int:
    """The card's slot: ``13 * suit + rank - 1`` for a natural card, 52 for a joker."""
    if card.suit is None:
        return JOKER_SLOT
    return 13 * int(card.suit) + card.rank - 1


def card_of_index(index: int) -> Card:
    """The plain card of slot ``index`` (the inverse of :func:`card_index`).

    >>> str(card_of_index(0)), str(card_of_index(51)), str(card_of_index(52))
    ('Ac', 'Ks', '*')
    """
    from rummykit.cards import JOKER, Suit

    if index == JOKER_SLOT:
        return JOKER
    return Card(index % 13 + 1, Suit(index // 13))


class Encoder(Protocol):
    """One game's observation and action encoding (see the module docstring)."""

    game: str
    """The game's name in the registry."""
    actions: tuple[str, ...]
    """The name of every action index, in order (``docs/envs.md`` explains each)."""
    size: int
    """The length of the observation vector."""

    def propose(self, view: Mapping[str, object]) -> dict[int, AnyAction]:
        """The action at each index that stands for one now, from the seat's view alone
        (none off turn)."""
        ...

    def observe(self, view: Mapping[str, object], actions: Mapping[int, AnyAction]) -> Vector:
        """The observation vector (float32, every entry in [0, 1]) of the seat viewing
        ``view``, given the action at each index (what :meth:`propose` or
        :meth:`engine_legal` gave)."""
        ...

    def view(self, game: Game, seat: int) -> Mapping[str, object]:
        """``game.view(seat)``, as much of it as the encoding reads (Kontrakt's without its
        log: the encoding does not read the log)."""
        ...

    def engine_legal(self, game: Game, view: Mapping[str, object]) -> dict[int, AnyAction]:
        """The action at each index as the engine allows it (the environment's mask);
        ``view`` is the view of the seat to act."""
        ...


@functools.lru_cache(maxsize=512)
def text_index(text: str) -> int:
    """The slot of the card written ``text`` (:func:`card_index`), remembered.

    >>> text_index("Ac"), text_index("*")
    (0, 52)
    """
    return card_index(Card.parse(text))


def encoder_of(game: str) -> Encoder:
    """The encoding of ``game``, as its registry entry names it (``GameSpec.encoding``);
    ValueError naming the games for a game the registry does not know."""
    from rummykit import games

    module, _, name = games.get(game).encoding.partition(":")
    encoder: Encoder = getattr(importlib.import_module(module), name)
    return encoder
