"""A Vatikanen session (V16): a series of games with running zero-sum balances.

The session is the hosted unit (:class:`rummykit.game.Game`) and its games
are its parts. It answers for its current game; once that game is over the
session is over too (V16: the players may stop after any game), and
:meth:`Session.next_part` deals the next game, the deal passing to the left,
the balances carried on.

>>> session = Session(["Anna", "Bo"], seed=7)
>>> session.to_act, session.part, session.game.number, session.standings
(0, 0, 1, (0.0, 0.0))
>>> session.can_next_part(), session.over
(False, False)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Self

from rummykit.cards import Card
from rummykit.errors import RuleError
from rummykit.game import AnyAction, Result
from rummykit.games.vatikanen.actions import Action, Play
from rummykit.games.vatikanen.events import Event
from rummykit.games.vatikanen.game import VatikanenGame, player_names
from rummykit.games.vatikanen.recording import session_record
from rummykit.games.vatikanen.view import VatikanenLogEntry, VatikanenView
from rummykit.i18n import N_

if TYPE_CHECKING:
    from rummykit.record import GameRecord

__all__ = ["Session"]


class Session:
    """A series of Vatikanen games with zero-sum running balances (V16).

    The first game's dealer is ``dealer`` (default: the last seat, so seat 0
    plays first); the deal passes to the left after each game. The first
    game is shuffled from ``seed`` itself (so a one-game session is
    ``VatikanenGame(seed=seed)``), each later one from a seed drawn from it, so
    a session is reproducible. ``decks`` (top card first) are played first,
    one per game, in order. Options are those of :class:`VatikanenGame`.

    ``number`` and ``balances`` carry a session on from where another left off:
    the first game here is game ``number`` of the series, its balances start
    at ``balances`` (a host that keeps finished games apart, :meth:`carried`).
    """

    name = "vatikanen"

    def __init__(
        self,
        players: int | Sequence[str] = 2,
        *,
        seed: int | None = None,
        decks: Sequence[Sequence[Card]] = (),
        dealer: int | None = None,
        free_jokers: bool = False,
        blocked_game: bool = True,
        number: int = 1,
        balances: Sequence[Fraction | int] | None = None,
    ) -> None:
        self._players = player_names(players)
        n = len(self._players)
        self.free_jokers = free_jokers
        self.blocked_game = blocked_game
        self._seed = seed
        self._rng = random.Random(seed)
        self._decks = [tuple(d) for d in decks]
        self._first_dealer = n - 1 if dealer is None else dealer
        self._first_number = number
        self._first_balances = tuple(Fraction(b) for b in balances) if balances else None
        self.games: list[VatikanenGame] = []
        self._deal(None, None)

    @classmethod
    def playing(cls, game: VatikanenGame, players: Sequence[str] | None = None) -> Session:
        """A one-game session whose game is ``game`` (a position set up mid-play, as the
        tutorial's lessons are), so that it is played and seen as any session is."""
        session = cls(
            list(players or game.players),
            free_jokers=game.free_jokers,
            blocked_game=game.blocked_game,
        )
        session.games = [game]
        return session

    # ------------------------------------------------------------ the games: its parts

    @property
    def game(self) -> VatikanenGame:
        """The current (last started) game."""
        return self.games[-1]

    @property
    def part(self) -> int:
        """The current game's place in the session, from 0 (its ``number`` less one)."""
        return len(self.games) - 1

    @property
    def part_over(self) -> bool:
        """True once the current game is over (V13, V15): the same as :attr:`over`."""
        return self.game.over

    def verify_next_part(self) -> None:
        """Raise RuleError unless the current game is over, so the next may start (V16)."""
        if not self.game.over:
            raise RuleError("V16", N_("finish the current game before the next one starts"))

    def can_next_part(self) -> bool:
        """True once the current game is over: the session may go on (V16)."""
        try:
            self.verify_next_part()
        except RuleError:
            return False
        return True

    def next_part(self, deck: Sequence[Card] | None = None, *, dealer: int | None = None) -> None:
        """Start the next game, the deal passing to the left; the current one must be over (V16).

        ``deck`` and ``dealer`` (a record's deal) override the session's own.
        The new game has a log of its own; :attr:`game` is the new game.
        """
        self.verify_next_part()
        self._deal(deck, dealer)

    def _deal(self, deck: Sequence[Card] | None, dealer: int | None) -> None:
        k = len(self.games)
        seed = self._seed if k == 0 else self._rng.randrange(2**63)
        if deck is None and k < len(self._decks):
            deck = self._decks[k]
        if dealer is None:
            dealer = (self._first_dealer + k) % len(self._players)
        game = VatikanenGame(
            self._players,
            seed=seed,
            deck=deck,
            dealer=dealer,
            free_jokers=self.free_jokers,
            blocked_game=self.blocked_game,
            number=self._first_number + k,
            balances=self.balances if self.games else self._first_balances,
        )
        self.games.append(game)

    @property
    def balances(self) -> tuple[Fraction, ...]:
        """The running balances after the current game's payments so far (V16)."""
        return self.game.balances

    @property
    def standings(self) -> tuple[float, ...]:
        """Each seat's balance so far (V16)."""
        return tuple(float(b) for b in self.balances)

    def carried(self) -> dict[str, object]:
        """What the next game of the series starts from, as JSON (its number, the balances
        as exact fractions, its dealer): a new session started with it
        (``SPEC.new(..., carried=...)``) goes on from here (V16)."""
        game = self.game
        return {
            "number": game.number + 1,
            "balances": [str(b) for b in self.balances],
            "dealer": (game.dealer + 1) % self.n_players,
        }

    def options(self) -> dict[str, bool]:
        """The house rules, by their record names."""
        return self.game.options()

    # ------------------------------------------------------------ the protocol

    @property
    def players(self) -> tuple[str, ...]:
        """The seats' names, seat 0 first."""
        return self._players

    @property
    def n_players(self) -> int:
        """How many players sit at the table."""
        return len(self._players)

    @property
    def to_act(self) -> int | None:
        """The seat to act in the current game; None once it is over."""
        return self.game.to_act

    @property
    def over(self) -> bool:
        """True once the current game is over (V13, V15): a session has no fixed end (V16),
        so the players may stop here, and :meth:`next_part` goes on."""
        return self.game.over

    def view(self, seat: int, *, log: bool = True) -> VatikanenView:
        """The current game's view for ``seat`` (see :meth:`VatikanenGame.view`)."""
        return self.game.view(seat, log=log)

    def spectator_view(self, *, log: bool = True) -> VatikanenView:
        """The current game's view for a spectator."""
        return self.game.spectator_view(log=log)

    def log_entries(self, viewer: int | None, start: int = 0) -> list[VatikanenLogEntry]:
        """The current game's log from ``start`` on, as ``viewer`` sees it."""
        return self.game.log_entries(viewer, start)

    @property
    def log_size(self) -> int:
        """How many entries the current game's log holds."""
        return self.game.log_size

    def verify(self, action: AnyAction) -> None:
        """Raise RuleError (or ActionError) unless ``action`` is legal in the current game."""
        self.game.verify(action)

    def can(self, action: AnyAction) -> bool:
        """True when ``action`` is legal in the current game."""
        return self.game.can(action)

    def apply(self, action: AnyAction) -> Event:
        """Take ``action`` in the current game; return the event logged."""
        return self.game.apply(action)

    def arrange(self, seat: int, cards: Sequence[Card]) -> Play:
        """The current game's arranged play of ``cards`` (see :meth:`VatikanenGame.arrange`)."""
        return self.game.arrange(seat, cards)

    def suggested_actions(self) -> list[Action]:
        """The current game's draw or pass and candidate plays (see VatikanenGame)."""
        return self.game.suggested_actions()

    def result(self) -> Result | None:
        """Once over (the current game over): that game's winners and the session's balances."""
        return self.game.result()

    def to_record(self) -> GameRecord:
        """The whole session as a RECORD.md record, one deal per game."""
        deals = [g.deal_record() for g in self.games]
        return session_record(self._players, deals, self.games[-1].balances, self.options())

    def copy(self) -> Self:
        """An independent copy: finished games are shared (they no longer change)."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._rng = random.Random()
        other._rng.setstate(self._rng.getstate())
        other.games = [*self.games[:-1], self.game.copy()]
        return other

    def card_places(self) -> dict[str, list[int]]:
        """Where every physical card of the current game is (see VatikanenGame)."""
        return self.game.card_places()

    def check_invariants(self) -> None:
        """Raise AssertionError if the current game loses or doubles a card."""
        self.game.check_invariants()
