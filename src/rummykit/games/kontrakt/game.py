"""Kontraktsrummy: the seven-deal game of K1-K15 as a state machine, :class:`KontraktGame`.

A game is created from a seed (every deal shuffled from it) or from explicit
decks (one per deal, as in a record). Actions are the frozen values of
:mod:`~rummykit.games.kontrakt.actions`; for each there is a trio (pokerkit
style): ``verify_*`` raises :class:`~rummykit.errors.RuleError` naming the
rule, ``can_*`` answers yes or no, and the plain verb verifies, changes the
state and returns the event appended to :attr:`KontraktGame.log`.
:meth:`KontraktGame.apply` takes any action. A rejected action changes
nothing. The rules of laying down live in
:mod:`~rummykit.games.kontrakt.laying`, the legal-move help in
:mod:`~rummykit.games.kontrakt.help`.

Physical cards are tracked by their place in the deal's deck (an id), so that
card conservation can be checked exactly.

>>> game = KontraktGame(["Anna", "Bo", "Cilla"], seed=7)
>>> str(game.phase), game.to_act, str(game.contract)
('upcard_offer', 1, '2 groups')
>>> event = game.decline_upcard(DeclineUpcard(1))
>>> game.can_pass_upcard(PassUpcard(2)), game.can(TakeUpcard(2))
(True, False)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal, Self

from rummykit.cards import JOKER, Card, full_deck, kontrakt_value
from rummykit.dealing import deal_indices, forhand, shuffled_deck
from rummykit.errors import RuleError
from rummykit.game import AnyAction, Result, frozen
from rummykit.games.kontrakt.actions import (
    Action,
    BuyUpcard,
    DeclineUpcard,
    Discard,
    Draw,
    LayDown,
    LayOff,
    PassUpcard,
    SwapJoker,
    TakeUpcard,
)
from rummykit.games.kontrakt.contracts import CONTRACTS, Contract
from rummykit.games.kontrakt.events import ActionEvent, DealEnded, DealStarted, Event
from rummykit.games.kontrakt.laying import (
    check_lay_down,
    lay_off_result,
    order_ids,
    swap_result,
    take,
)
from rummykit.games.kontrakt.options import (
    CARDS_EACH,
    DEALS,
    TURN_LIMIT,
    KontraktOptions,
    deck_for,
)
from rummykit.games.kontrakt.position import KontraktPosition
from rummykit.games.kontrakt.state import DealState, Phase, TableMeld
from rummykit.games.kontrakt.view import KontraktLogEntry, KontraktView
from rummykit.games.verbs import Verb, Verbs, can
from rummykit.i18n import N_
from rummykit.melds import KONTRAKT, Meld, MeldError, MeldKind, read_meld

if TYPE_CHECKING:
    from rummykit.record import GameRecord

__all__ = ["KontraktGame"]

_PUBLIC = None
"""The log as everyone sees it (a spectator): the key of the shared entries."""


def _private(event: Event, viewer: int) -> bool:
    """True when ``viewer`` sees more of ``event`` than everyone: a stock card it drew."""
    return isinstance(event, ActionEvent) and bool(event.hidden) and event.action.seat == viewer


class KontraktGame:
    """A game of Kontraktsrummy: seven deals for 2-8 players (K1-K15).

    ``players`` is a count or the seat names (seat 0 first, clockwise).
    Give ``seed`` to shuffle every deal from it, or ``decks`` (top card first,
    one per deal) to play given decks first; after the given decks, the deals
    are shuffled from ``seed``, or, with no seed, the game waits
    (:attr:`Phase.WAITING`). ``dealer`` deals the first deal; the deal passes
    to the left. ``options`` holds the house rules.
    """

    name = "kontrakt"

    def __init__(
        self,
        players: int | Sequence[str] = 4,
        *,
        seed: int | None = None,
        decks: Sequence[Sequence[Card]] | None = None,
        dealer: int = 0,
        options: KontraktOptions | None = None,
    ) -> None:
        names = (
            [f"Player {i + 1}" for i in range(players)]
            if isinstance(players, int)
            else list(players)
        )
        self.players: tuple[str, ...] = tuple(names)
        self.packs, self.jokers = deck_for(len(names))
        if not 0 <= dealer < len(names):
            raise ValueError(f"the dealer is a seat from 0 to {len(names) - 1}")
        self.options = options or KontraktOptions()
        self.seed = seed
        expected = Counter(full_deck(self.packs, self.jokers))
        self._decks: list[tuple[Card, ...]] | None = None
        if decks is not None:
            self._decks = [tuple(c.plain() for c in d) for d in decks]
            for i, d in enumerate(self._decks):
                if Counter(d) != expected:
                    raise ValueError(f"deck {i} is not the {len(expected)}-card deck of K2")
        master = random.Random(seed)
        self._deal_seeds = [master.getrandbits(64) for _ in range(DEALS)]
        self._rng: random.Random | None = (
            random.Random(master.getrandbits(64)) if seed is not None or decks is None else None
        )
        self.log: list[Event] = []
        # each viewer's log entries, read-only and written once; the public ones are shared
        self._log_views: dict[int | None, list[KontraktLogEntry]] = {}
        self.scores: list[tuple[int, ...]] = []
        self._history: list[tuple[int, tuple[Card, ...], list[dict[str, Any]]]] = []
        self._state: DealState | None = None
        self._position = False
        self._start_deal(0, dealer)

    @classmethod
    def from_position(
        cls,
        position: KontraktPosition,
        *,
        players: Sequence[str] | None = None,
        seed: int | None = None,
        options: KontraktOptions | None = None,
    ) -> KontraktGame:
        """A game set up at ``position``, in the middle of its deal (like a chess position
        from FEN; :class:`KontraktPosition` says where each card lies).

        For bots that play a guessed deal forward (determinized search), the
        review and tests. The places must hold the deck of K2 exactly
        (``ValueError`` otherwise). Later deals and any new stock (K15) are
        shuffled from ``seed``. The engine judges every action from here on as
        usual; the log starts empty and such a game has no record
        (:meth:`to_record` refuses).
        """
        p = position
        hands, deal, dealer, turn, phase = p.hands, p.deal, p.dealer, p.turn, p.phase
        table, laid, picked_up, scores = p.table, p.laid, p.picked_up, p.scores
        n = len(hands)
        packs, jokers = deck_for(n)
        if not 0 <= deal < DEALS:
            raise ValueError(f"the deal is a number from 0 to {DEALS - 1}")
        if phase not in (Phase.DRAW, Phase.PLAY):
            raise ValueError("a position starts in the draw or the play phase")
        if not 0 <= turn < n:
            raise ValueError(f"the turn is a seat from 0 to {n - 1}")
        melds: list[tuple[int, Meld, bool]] = []
        for owner, cards, part in table:
            try:
                melds.append((owner, read_meld(list(cards), KONTRAKT), part))
            except MeldError as exc:
                raise ValueError(f"table meld {len(melds)}: {exc}") from None
        places: list[list[Card]] = [[c.plain() for c in h] for h in hands]
        places.append([c.plain() for c in p.discard_pile])
        places.append([c.plain() for c in reversed(p.stock)])
        places += [m.plain_cards() for _, m, _ in melds]
        deck = tuple(c for place in places for c in place)
        if Counter(deck) != Counter(full_deck(packs, jokers)):
            raise ValueError(f"the position does not hold the {len(deck)}-card deck of K2 exactly")
        ids = iter(range(len(deck)))
        located = [[next(ids) for _ in place] for place in places]
        state_laid = [[0, 0] for _ in range(n)] if laid is None else [[g, r] for g, r, _ in laid]
        complete = [False] * n if laid is None else [bool(c) for _, _, c in laid]
        picked = None
        if picked_up is not None:  # K8: it may not be discarded again this turn
            if phase is not Phase.PLAY:
                raise ValueError("a card is picked up only by the seat playing its turn")
            matches = [i for i in located[turn] if deck[i] == picked_up.plain()]
            picked = matches[-1] if matches else None  # gone onto the table: no matter
        game = cls(players if players is not None else n, seed=seed, dealer=dealer, options=options)
        earlier = [tuple(d) for d in scores] if scores is not None else [(0,) * n] * deal
        if len(earlier) != deal:
            raise ValueError(f"deal {deal} follows {deal} scored deals, not {len(earlier)}")
        game.scores = earlier
        game.log = []
        game._history = []
        game._position = True
        game._state = DealState(
            number=deal,
            dealer=dealer,
            deck=deck,
            hands=located[:n],
            stock=located[n + 1],
            pile=located[n],
            table=[
                TableMeld(k, owner, meld, order_ids(deck, ids_, meld), part)
                for k, ((owner, meld, part), ids_) in enumerate(
                    zip(melds, located[n + 2 :], strict=True)
                )
            ],
            laid=state_laid,
            complete=complete,
            phase=phase,
            turn=turn,
            stock_only=p.stock_only,
            picked=picked,
            text=[str(c) for c in deck],
        )
        return game

    # ----------------------------------------------------------------- state

    @property
    def n_players(self) -> int:
        """The number of players."""
        return len(self.players)

    @property
    def deal(self) -> int:
        """The deal in progress (0-6), or the last one when waiting or over."""
        return self._s.number

    @property
    def contract(self) -> Contract:
        """The contract of the deal in progress (K4)."""
        return CONTRACTS[self._s.number]

    @property
    def dealer(self) -> int:
        """The seat that dealt this deal."""
        return self._s.dealer

    @property
    def forhand(self) -> int:
        """The dealer's left: first asked about the upcard and first to play."""
        return forhand(self._s.dealer, self.n_players)

    @property
    def phase(self) -> Phase:
        """Where the deal stands."""
        return self._s.phase

    @property
    def to_act(self) -> int | None:
        """The seat that must act now: the one asked about the upcard, or whose turn it is.

        None between deals of a record that stops, and once the game is over.
        """
        s = self._s
        if s.phase is Phase.UPCARD:
            return s.offer_to
        if s.phase in (Phase.DRAW, Phase.PLAY):
            return s.turn
        return None

    @property
    def over(self) -> bool:
        """True when all seven deals are played (K4): the hosted unit is over, for good."""
        return self._s.phase is Phase.OVER

    # ------------------------------------------------------------ the deals: its parts

    @property
    def part(self) -> int:
        """The deal being played (0-6), or the last one when waiting or over: :attr:`deal`."""
        return self._s.number

    @property
    def part_over(self) -> bool:
        """True when a deal has ended and no next one is dealt: after the seventh (K4), or
        while waiting for a deck (a record's decks played, no seed to shuffle more)."""
        return self._s.phase in (Phase.OVER, Phase.WAITING)

    def verify_next_part(self) -> None:
        """Always raises RuleError (K4): the seven deals follow one another by themselves,
        and after the seventh the game is over; a host starts a new game instead."""
        if self.over:
            raise RuleError(
                "K4", N_("the game is over after its seventh deal: start a new game to play on")
            )
        raise RuleError("K4", N_("the deals of a game follow one another by themselves"))

    def can_next_part(self) -> bool:
        """Never: a host does not start a Kontrakt deal (see :meth:`verify_next_part`)."""
        try:
            self.verify_next_part()
        except RuleError:
            return False
        return True  # pragma: no cover - verify_next_part always raises

    def next_part(self) -> None:
        """Verify (which always refuses, K4): there is no next part for a host to start."""
        self.verify_next_part()

    @property
    def totals(self) -> list[int]:
        """K13, K14: each seat's penalty points summed over the deals played."""
        return [sum(d[i] for d in self.scores) for i in range(self.n_players)]

    @property
    def winners(self) -> list[int]:
        """K14: the seats with the lowest total (ties share the win); empty until over."""
        if not self.over:
            return []
        totals = self.totals
        best = min(totals)
        return [i for i, t in enumerate(totals) if t == best]

    @property
    def standings(self) -> tuple[float, ...]:
        """Each seat's penalty points so far (K13, K14)."""
        return tuple(float(t) for t in self.totals)

    def result(self) -> Result | None:
        """Once the seven deals are played: the lowest totals win (K14), lower is better."""
        if not self.over:
            return None
        return Result(tuple(self.winners), self.standings, False)

    @property
    def turns_left(self) -> int:
        """Turns (draws) the deal may still take before the turn limit ends it."""
        return max(0, TURN_LIMIT * self.n_players - self._s.draws)

    @property
    def _s(self) -> DealState:
        assert self._state is not None
        return self._state

    def hand(self, seat: int) -> list[Card]:
        """The cards in ``seat``'s hand (for the engine's owner; views censor)."""
        return [self._s.deck[i] for i in self._s.hands[seat]]

    @property
    def table(self) -> list[TableMeld]:
        """The melds on the table, in laying order (number = index)."""
        return list(self._s.table)

    @property
    def stock(self) -> list[Card]:
        """The stock, top card first (secret: never in a player's view)."""
        return [self._s.deck[i] for i in reversed(self._s.stock)]

    @property
    def discard_pile(self) -> list[Card]:
        """The discard pile, bottom first (public)."""
        return [self._s.deck[i] for i in self._s.pile]

    def laid(self, seat: int) -> tuple[int, int, bool]:
        """(groups, runs, complete): what of the contract ``seat`` has laid."""
        g, r = self._s.laid[seat]
        return g, r, self._s.complete[seat]

    def card_places(self) -> dict[str, list[int]]:
        """Every physical card of the deal (its place in the deal's deck) by where it is:
        ``stock`` (top last), ``pile`` (top last), ``hand0``, ``hand1``..., ``table``.

        For conservation checks and tests; never shown to a player."""
        s = self._s
        out: dict[str, list[int]] = {"stock": list(s.stock), "pile": list(s.pile)}
        for seat, h in enumerate(s.hands):
            out[f"hand{seat}"] = list(h)
        out["table"] = [i for m in s.table for i in m.ids]
        return out

    def check_invariants(self) -> None:
        """Raise AssertionError if a card is lost or doubled, or a table meld is no meld (K5)."""
        s = self._s
        ids = [i for place in self.card_places().values() for i in place]
        assert sorted(ids) == list(range(len(s.deck))), "cards are lost or doubled"
        for m in s.table:
            assert [s.deck[i] for i in m.ids] == m.meld.plain_cards(), f"meld {m.number} ids"
            read_meld(m.meld.cards, KONTRAKT)

    def copy(self) -> Self:
        """An independent copy (the deal's lists copied; events and melds are immutable)."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        state = self._s.copy()
        other._state = state
        other.log = list(self.log)
        other._log_views = {k: list(v) for k, v in self._log_views.items()}
        other.scores = list(self.scores)
        other._history = (  # a game set up from a position has no history
            [*self._history[:-1], (*self._history[-1][:2], state.actions)] if self._history else []
        )
        if self._rng is not None:
            other._rng = random.Random()
            other._rng.setstate(self._rng.getstate())
        return other

    # ---------------------------------------------------------------- deals

    def _next_deck(self, number: int) -> tuple[Card, ...] | None:
        if self._decks is not None and number < len(self._decks):
            return self._decks[number]
        if self._decks is not None and self.seed is None:
            return None  # a record's decks are over and no seed shuffles more: wait
        return tuple(shuffled_deck(self.packs, self.jokers, self._deal_seeds[number]))

    def _start_deal(self, number: int, dealer: int) -> None:
        deck = self._next_deck(number)
        n = self.n_players
        if deck is None:
            assert self._state is not None
            self._state.phase = Phase.WAITING
            return
        hands, rest = deal_indices(len(deck), n, CARDS_EACH, dealer)
        upcard = rest[0]
        first = forhand(dealer, n)
        self._state = DealState(
            number=number,
            dealer=dealer,
            deck=deck,
            hands=hands,
            stock=list(reversed(rest[1:])),
            pile=[upcard],
            laid=[[0, 0] for _ in range(n)],
            complete=[False] * n,
            phase=Phase.UPCARD,
            turn=first,
            offer_to=first,
            text=[str(c) for c in deck],
        )
        self._history.append((dealer, deck, self._state.actions))
        self.log.append(DealStarted(number, dealer, deck[upcard]))

    def _end_deal(
        self, out: int | None, reason: Literal["out", "stock", "limit"], cause: ActionEvent
    ) -> DealEnded:
        s = self._s
        hands = tuple(tuple(s.deck[i] for i in h) for h in s.hands)
        penalties = tuple(sum(kontrakt_value(c) for c in h) for h in hands)
        self.scores.append(penalties)
        event = DealEnded(
            s.number, out, hands, penalties, tuple(self.totals), tuple(s.table), reason, cause
        )
        self.log.append(event)
        if s.number + 1 >= DEALS:
            s.phase = Phase.OVER
        else:
            s.phase = Phase.WAITING
            self._start_deal(s.number + 1, (s.dealer + 1) % self.n_players)
        return event

    # ------------------------------------------------------------- checking

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < self.n_players:
            raise RuleError(
                "K1",
                N_("there is no seat {seat}: seats are 0 to {last}"),
                seat=seat,
                last=self.n_players - 1,
            )

    def _check_live(self) -> None:
        if self._s.phase is Phase.OVER:
            raise RuleError("K4", N_("the game is over: all seven deals have been played"))
        if self._s.phase is Phase.WAITING:
            raise RuleError("K13", N_("this deal is over and the next has not been dealt"))

    def _name(self, seat: int) -> str:
        return self.players[seat]

    def _check_offer(self, seat: int, forhand_only: bool) -> None:
        self._check_live()
        self._check_seat(seat)
        s = self._s
        if s.phase is not Phase.UPCARD:
            raise RuleError("K7", N_("the first upcard is only offered at the start of a deal"))
        if seat != s.offer_to:
            assert s.offer_to is not None
            who = self._name(s.offer_to)
            if forhand_only and seat != self.forhand:
                raise RuleError(
                    "K7", N_("only förhand ({name}) may take the first upcard"), name=who
                )
            raise RuleError("K7", N_("the upcard is now offered to {name}, not to you"), name=who)
        if forhand_only and seat != self.forhand:
            raise RuleError(
                "K7", N_("only förhand takes or declines the upcard; you may buy it or pass")
            )
        if not forhand_only and seat == self.forhand:
            raise RuleError("K7", N_("förhand takes or declines the upcard, and does not buy it"))

    def _check_turn(self, seat: int, phase: Phase) -> None:
        self._check_live()
        self._check_seat(seat)
        s = self._s
        if s.phase is Phase.UPCARD:
            assert s.offer_to is not None
            raise RuleError(
                "K7",
                N_("the first upcard is being offered: {name} must answer first"),
                name=self._name(s.offer_to),
            )
        if seat != s.turn:
            if seat == s.buyer:
                raise RuleError(
                    "K7",
                    N_("you bought the upcard: you may not lay anything down at that moment"),
                )
            raise RuleError(
                "K8",
                N_("it is not your turn: the player to act is {name}"),
                name=self._name(s.turn),
            )
        if phase is Phase.PLAY and s.phase is Phase.DRAW:
            raise RuleError("K8", N_("draw a card first: from the stock or the discard pile"))
        if phase is Phase.DRAW and s.phase is Phase.PLAY:
            raise RuleError("K8", N_("you have drawn already: lay down, lay off, or discard"))

    # -------------------------------------------------------- the upcard (K7)

    def verify_take_upcard(self, action: TakeUpcard) -> None:
        """K7: förhand may take the first upcard (as the draw of the first turn)."""
        self._check_offer(action.seat, forhand_only=True)

    def can_take_upcard(self, action: TakeUpcard) -> bool:
        """True when förhand may take the upcard now."""
        return can(self.verify_take_upcard, action)

    def take_upcard(self, action: TakeUpcard) -> ActionEvent:
        """K7: förhand takes the upcard and plays on (lay down, discard)."""
        self.verify_take_upcard(action)
        s = self._s
        card = s.pile.pop()
        s.hands[action.seat].append(card)
        s.offer_to = None
        s.phase = Phase.PLAY
        s.picked = card
        return self._record(TakeUpcard(action.seat), shown=(s.deck[card],))

    def verify_decline_upcard(self, action: DeclineUpcard) -> None:
        """K7: förhand may decline the first upcard; the others are then asked in turn."""
        self._check_offer(action.seat, forhand_only=True)

    def can_decline_upcard(self, action: DeclineUpcard) -> bool:
        """True when förhand may decline the upcard now."""
        return can(self.verify_decline_upcard, action)

    def decline_upcard(self, action: DeclineUpcard) -> ActionEvent:
        """K7: förhand declines; the next player is asked."""
        self.verify_decline_upcard(action)
        self._s.offer_to = (action.seat + 1) % self.n_players
        return self._record(DeclineUpcard(action.seat))

    def verify_buy_upcard(self, action: BuyUpcard) -> None:
        """K7: the asked player (not förhand) may take the upcard and the top of the stock."""
        self._check_offer(action.seat, forhand_only=False)
        if not self._s.stock:
            raise RuleError("K7", N_("the stock is empty, so the upcard cannot be bought"))

    def can_buy_upcard(self, action: BuyUpcard) -> bool:
        """True when the asked player may buy the upcard now."""
        return can(self.verify_buy_upcard, action)

    def buy_upcard(self, action: BuyUpcard) -> ActionEvent:
        """K7: take the upcard and the stock's top; förhand then draws from the stock."""
        self.verify_buy_upcard(action)
        s = self._s
        up = s.pile.pop()
        extra = s.stock.pop()
        s.hands[action.seat] += [up, extra]
        s.buyer = action.seat
        self._after_offer()
        return self._record(BuyUpcard(action.seat), shown=(s.deck[up],), hidden=(s.deck[extra],))

    def verify_pass_upcard(self, action: PassUpcard) -> None:
        """K7: the asked player (not förhand) may pass."""
        self._check_offer(action.seat, forhand_only=False)

    def can_pass_upcard(self, action: PassUpcard) -> bool:
        """True when the asked player may pass on the upcard now."""
        return can(self.verify_pass_upcard, action)

    def pass_upcard(self, action: PassUpcard) -> ActionEvent:
        """K7: pass; after the last player the upcard stays and förhand draws from the stock."""
        self.verify_pass_upcard(action)
        nxt = (action.seat + 1) % self.n_players
        if nxt == self.forhand:
            self._after_offer()
        else:
            self._s.offer_to = nxt
        return self._record(PassUpcard(action.seat))

    def _after_offer(self) -> None:
        s = self._s
        s.offer_to = None
        s.phase = Phase.DRAW
        s.turn = self.forhand
        s.stock_only = True

    # ------------------------------------------------------------- draw (K8)

    def verify_draw(self, action: Draw) -> None:
        """K8: draw the stock's top, or the top of the discard pile laid by the previous player.

        K7: after the upcard was offered round, förhand draws from the stock.
        K15: ``restock`` (records only) orders the new stock when the stock is empty.
        """
        seat, from_, restock = action.seat, action.from_, action.restock
        self._check_turn(seat, Phase.DRAW)
        s = self._s
        if from_ not in ("stock", "discard"):
            raise RuleError("K8", N_("draw from the 'stock' or the 'discard' pile"))
        if from_ == "discard":
            if s.stock_only:
                raise RuleError(
                    "K7",
                    N_("the first upcard was offered round: förhand now draws from the stock"),
                )
            if not s.pile:
                raise RuleError("K8", N_("the discard pile is empty: draw from the stock"))
            if restock is not None:
                raise RuleError("K15", N_("only a draw from an empty stock shuffles a new stock"))
            return
        if restock is not None:
            if s.stock:
                raise RuleError("K15", N_("the stock is not empty, so no new stock is shuffled"))
            if not self.options.reshuffle_stock:
                raise RuleError("K15", N_("at this table an empty stock ends the deal"))
            want = Counter(s.deck[i] for i in s.pile[:-1])
            if Counter(c.plain() for c in restock) != want:
                raise RuleError(
                    "K15", N_("the new stock must be the discard pile without its top card")
                )

    def can_draw(self, action: Draw) -> bool:
        """True when the draw is legal now."""
        return can(self.verify_draw, action)

    def draw(self, action: Draw) -> ActionEvent | DealEnded:
        """K8, K15: draw; an empty stock is refilled from the pile or ends the deal."""
        self.verify_draw(action)
        seat, from_, restock = action.seat, action.from_, action.restock
        s = self._s
        s.draws += 1
        if s.draws > TURN_LIMIT * self.n_players:  # no deal runs for ever
            cause = self._record(Draw(seat, "discard" if from_ == "discard" else "stock"))
            return self._end_deal(None, "limit", cause)
        if from_ == "discard":
            card = s.pile.pop()
            s.hands[seat].append(card)
            s.picked = card
            s.phase = Phase.PLAY
            return self._record(Draw(seat, "discard"), shown=(s.deck[card],))
        new_stock: tuple[Card, ...] | None = None
        if not s.stock:
            ending = not self.options.reshuffle_stock or len(s.pile) <= 1
            if ending:
                cause = self._record(Draw(seat, "stock"))
                return self._end_deal(None, "stock", cause)
            new_stock = self._restock(restock)
        card = s.stock.pop()
        s.hands[seat].append(card)
        s.stock_only = False
        s.buyer = None
        s.picked = None
        s.phase = Phase.PLAY
        return self._record(
            Draw(seat, "stock", new_stock), hidden=(s.deck[card],), restock=new_stock
        )

    def _restock(self, order: Sequence[Card] | None) -> tuple[Card, ...]:
        """K15: the pile but its top becomes the stock; returns the new order, top first."""
        s = self._s
        top = s.pile[-1]
        rest = s.pile[:-1]
        ids = list(rest)  # turned over: the bottom of the pile becomes the top
        if self._rng is not None:
            self._rng.shuffle(ids)  # also when a record gives the order: the generator stays
            # where it would be, so a game rebuilt from its record shuffles on as it would have
        if order is not None:
            pool = list(rest)
            ids = []
            for card in order:
                i = next(i for i in pool if s.deck[i] == card.plain())
                pool.remove(i)
                ids.append(i)
        s.pile = [top]
        s.stock = list(reversed(ids))
        return tuple(s.deck[i] for i in ids)

    # --------------------------------------------------- laying down (K9-K12)

    def verify_lay_down(self, action: LayDown) -> None:
        """K9, K10, K12: lay melds from the hand; contract parts first, extras once complete."""
        self._check_turn(action.seat, Phase.PLAY)
        check_lay_down(self._s, action.seat, action.melds, self.contract)

    def can_lay_down(self, action: LayDown) -> bool:
        """True when the melds may be laid now."""
        return can(self.verify_lay_down, action)

    def lay_down(self, action: LayDown) -> ActionEvent | DealEnded:
        """Lay the melds; numbered in laying order, in front of the seat (K10). K13 if empty."""
        seat, melds = action.seat, action.melds
        self._check_turn(seat, Phase.PLAY)
        s = self._s
        read, parts = check_lay_down(s, seat, melds, self.contract)
        for meld, part in zip(read, parts, strict=True):
            ids = take(s, seat, meld.plain_cards(), "K9")
            for i in ids:
                s.hands[seat].remove(i)
            s.table.append(TableMeld(len(s.table), seat, meld, tuple(ids), part))
            if part:
                s.laid[seat][0 if meld.kind is MeldKind.GROUP else 1] += 1
        g, r = s.laid[seat]
        if any(g >= cg and r >= cr for cg, cr in self.contract.choices):
            s.complete[seat] = True
        # logged as read: each joker says what it stands for (★=Q♣), however it was sent
        return self._maybe_out(seat, LayDown(seat, tuple(m.cards for m in read)))

    def verify_lay_off(self, action: LayOff) -> None:
        """K10: once the whole contract is down, add a card to any meld on the table."""
        self._check_turn(action.seat, Phase.PLAY)
        lay_off_result(self._s, action.seat, action.card, action.meld, action.as_)

    def can_lay_off(self, action: LayOff) -> bool:
        """True when the card may be laid off now."""
        return can(self.verify_lay_off, action)

    def lay_off(self, action: LayOff) -> ActionEvent | DealEnded:
        """K10: lay one card off onto table meld ``meld``; K13 when the hand empties."""
        seat, card, meld, as_ = action.seat, action.card, action.meld, action.as_
        self._check_turn(seat, Phase.PLAY)
        s = self._s
        target, result, at = lay_off_result(s, seat, card, meld, as_)
        (i,) = take(s, seat, [card], "K10")
        s.hands[seat].remove(i)
        ids = list(target.ids)
        ids.insert(at, i)
        s.table[target.number] = replace(target, meld=result, ids=order_ids(s.deck, ids, result))
        return self._maybe_out(seat, LayOff(seat, card.plain(), meld, as_))

    def verify_swap_joker(self, action: SwapJoker) -> None:
        """K11: once the contract is down, swap the real card for a table joker."""
        self._check_turn(action.seat, Phase.PLAY)
        swap_result(self._s, action.seat, action.card, action.meld)

    def can_swap_joker(self, action: SwapJoker) -> bool:
        """True when the card may take a table joker's place now."""
        return can(self.verify_swap_joker, action)

    def swap_joker(self, action: SwapJoker) -> ActionEvent:
        """K11: the card takes the joker's place; the joker goes to the hand."""
        seat, card, meld = action.seat, action.card, action.meld
        self._check_turn(seat, Phase.PLAY)
        s = self._s
        target, pos, result = swap_result(s, seat, card, meld)
        (i,) = take(s, seat, [card], "K11")
        s.hands[seat].remove(i)
        ids = list(target.ids)
        joker = ids[pos]
        ids[pos] = i
        s.hands[seat].append(joker)
        s.table[target.number] = replace(target, meld=result, ids=order_ids(s.deck, ids, result))
        return self._record(SwapJoker(seat, card.plain(), meld), shown=(JOKER,))

    # ---------------------------------------------------------- discard (K8)

    def verify_discard(self, action: Discard) -> None:
        """K8: end the turn by discarding one card; K13: the last card goes out."""
        seat, card = action.seat, action.card
        self._check_turn(seat, Phase.PLAY)
        s = self._s
        (i,) = take(self._s, seat, [card], "K8")
        if i == s.picked and len(s.hands[seat]) > 1 and not self.options.rediscard_pickup:
            raise RuleError(
                "K8",
                N_("you just took {card} from the pile: discard another card"),
                card=card.plain().pretty(),
            )

    def can_discard(self, action: Discard) -> bool:
        """True when the card may be discarded now."""
        return can(self.verify_discard, action)

    def discard(self, action: Discard) -> ActionEvent | DealEnded:
        """Discard; the turn passes to the left (K8), or the deal ends (K13)."""
        self.verify_discard(action)
        seat, card = action.seat, action.card
        s = self._s
        (i,) = take(self._s, seat, [card], "K8")
        s.hands[seat].remove(i)
        s.pile.append(i)
        logged = Discard(seat, card.plain())
        if not s.hands[seat]:
            return self._maybe_out(seat, logged)
        s.turn = (seat + 1) % self.n_players
        s.phase = Phase.DRAW
        s.picked = None
        s.stock_only = False
        return self._record(logged)

    # ------------------------------------------------------------- generic

    def _record(
        self,
        action: Action,
        *,
        shown: tuple[Card, ...] = (),
        hidden: tuple[Card, ...] = (),
        restock: tuple[Card, ...] | None = None,
        went_out: bool = False,
    ) -> ActionEvent:
        s = self._s
        event = ActionEvent(
            s.number, len(s.actions), action, shown, hidden, restock, went_out=went_out
        )
        s.actions.append(action.to_json())
        self.log.append(event)
        return event

    def _maybe_out(self, seat: int, action: Action) -> ActionEvent | DealEnded:
        """K13: with an empty hand the player has gone out and the deal ends."""
        if self._s.hands[seat]:
            return self._record(action)
        cause = self._record(action, went_out=True)
        return self._end_deal(seat, "out", cause)

    # ------------------------------------------------------------ any action

    def verify(self, action: AnyAction) -> None:
        """Raise :class:`RuleError` if ``action`` is not legal now; ActionError if it is no
        Kontrakt action; otherwise return."""
        VERBS.verify(self, action)

    def can(self, action: AnyAction) -> bool:
        """True if ``action`` is legal now (``verify`` does not raise)."""
        return VERBS.can(self, action)

    def apply(self, action: AnyAction) -> ActionEvent | DealEnded:
        """Verify and apply any action; returns the event (or the deal's end it caused)."""
        return VERBS.apply(self, action)

    def suggested_actions(self) -> list[Action]:
        """Legal actions of the seat to act, but not all: every kind, with representative melds.

        Laying down is listed by the contract melds the hand can make (the
        smallest ones and the most at once), not every possible subset.
        """
        from rummykit.games.kontrakt.help import candidate_actions_for

        seat = self.to_act
        if seat is None:
            return []
        return [a for a in candidate_actions_for(self._view(seat, log=False)) if self.can(a)]

    def hint(self, seat: int) -> dict[str, Any]:
        """Which contract melds ``seat``'s hand can already make (see :func:`hint_for`)."""
        from rummykit.games.kontrakt.help import hint_for

        self._check_seat(seat)
        return hint_for(self._view(seat, log=False))

    # ---------------------------------------------------------------- views

    def view(self, seat: int, *, log: bool = True) -> KontraktView:
        """What ``seat`` may see, as fresh JSON data (ValueError for no such seat).

        Never the stock order nor another player's hand; the log shows a
        stock draw's card only to the player who drew it. ``log=False`` leaves
        the log out (bots that do not read it). The view is a new object; the
        log's entries are read-only (changing one raises TypeError), so nothing
        a host can change is shared with the engine or another view.
        """
        self._check_viewer(seat)
        return self._view(seat, log=log)

    def _check_viewer(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n_players:
            raise ValueError(f"there is no seat {seat!r}: the seats are 0 to {self.n_players - 1}")

    def spectator_view(self, *, log: bool = True) -> KontraktView:
        """What a spectator may see: the view of no seat (no hand at all)."""
        return self._view(None, log=log)

    def _view(self, seat: int | None, *, log: bool) -> KontraktView:
        s = self._s
        picked = s.deck[s.picked] if s.picked is not None else None
        options = self.options
        out: KontraktView = {
            "game": "kontrakt",
            "seat": seat,
            "players": list(self.players),
            "deal": s.number,
            "deals": DEALS,
            "dealer": s.dealer,
            "forhand": self.forhand,
            "contract": self.contract.to_json(),
            "phase": str(s.phase),
            "turn": self.to_act,
            "over": self.over,
            "offer_to": s.offer_to,
            "stock_only": s.stock_only,
            "hand": None if seat is None else [s.text[i] for i in s.hands[seat]],
            "hand_sizes": [len(h) for h in s.hands],
            "stock_size": len(s.stock),
            "discard_pile": [s.text[i] for i in s.pile],
            "picked_up": None if picked is None else str(picked),
            "table": [m.to_json() for m in s.table],
            "laid": [
                {"groups": g, "runs": r, "complete": done}
                for (g, r), done in zip(s.laid, s.complete, strict=True)
            ],
            "scores": [list(d) for d in self.scores],
            "totals": self.totals,
            "winners": self.winners,
            "options": {
                "reshuffle_stock": options.reshuffle_stock,
                "rediscard_pickup": options.rediscard_pickup,
            },
            "turns_left": self.turns_left,
        }
        if log:
            out["log"] = self.log_entries(seat)
        return out

    def log_entries(self, viewer: int | None, start: int = 0) -> list[KontraktLogEntry]:
        """The log from index ``start`` on, as ``viewer`` (a seat, or None) sees it: a new list
        of read-only entries (:func:`rummykit.game.frozen`).

        Each entry is written once per viewer (the log only grows) and shared.
        """
        if viewer is not None:
            self._check_viewer(viewer)
        cache = self._log_views.setdefault(viewer, [])
        if len(cache) < len(self.log):
            public = self._log_views.setdefault(_PUBLIC, [])
            for i in range(len(public), len(self.log)):
                public.append(frozen(self.log[i].to_json(None)))
            if viewer is not None:
                cache.extend(
                    frozen(e.to_json(viewer)) if _private(e, viewer) else public[i]
                    for i, e in enumerate(self.log[len(cache) :], start=len(cache))
                )
        return cache[start:]

    @property
    def log_size(self) -> int:
        """How many entries the game's log holds (all seven deals)."""
        return len(self.log)

    # -------------------------------------------------------------- records

    def carried(self) -> dict[str, object]:
        """Nothing: a new game at the table is a game of its own (K4), with its own
        record."""
        return {}

    def to_record(self) -> GameRecord:
        """The game as a RECORD.md record: one ``deals`` entry per deal dealt."""
        from rummykit.record import DealRecord, GameRecord

        if self._position:
            raise ValueError("a game set up from a position has no record of its deals")
        result = {"scores": self.totals}
        return GameRecord(
            game="kontrakt",
            players=self.players,
            deals=tuple(DealRecord(d, deck, tuple(a)) for d, deck, a in self._history),
            options=self.options.to_json(),
            result=result,
        )


VERBS: Verbs[KontraktGame, ActionEvent | DealEnded] = Verbs(
    N_("{action} is not a Kontrakt action"),
    Verb(TakeUpcard, KontraktGame.verify_take_upcard, KontraktGame.take_upcard),
    Verb(DeclineUpcard, KontraktGame.verify_decline_upcard, KontraktGame.decline_upcard),
    Verb(BuyUpcard, KontraktGame.verify_buy_upcard, KontraktGame.buy_upcard),
    Verb(PassUpcard, KontraktGame.verify_pass_upcard, KontraktGame.pass_upcard),
    Verb(Draw, KontraktGame.verify_draw, KontraktGame.draw),
    Verb(LayDown, KontraktGame.verify_lay_down, KontraktGame.lay_down),
    Verb(LayOff, KontraktGame.verify_lay_off, KontraktGame.lay_off),
    Verb(SwapJoker, KontraktGame.verify_swap_joker, KontraktGame.swap_joker),
    Verb(Discard, KontraktGame.verify_discard, KontraktGame.discard),
)
"""Kontrakt's actions (K7-K11) and their trios: what ``verify``, ``can`` and ``apply`` use."""
