"""Kontraktsrummy: the seven-deal game of K1-K15 as a state machine.

A :class:`KontraktGame` is created from a seed (every deal shuffled from it)
or from explicit decks (one per deal, as in a record). Actions are the
frozen values of :mod:`rummykit.kontrakt_actions`; for each there is a trio
(pokerkit style): ``verify_*`` raises :class:`~rummykit.errors.RuleError`
naming the rule, ``can_*`` answers yes or no, and the plain verb verifies,
changes the state and returns the :class:`ActionEvent` appended to
:attr:`KontraktGame.log`. :meth:`KontraktGame.apply` takes any action. A
rejected action changes nothing.

Physical cards are tracked by their place in the deal's deck (an id), so that
card conservation can be checked exactly.

>>> game = KontraktGame(["Anna", "Bo", "Cilla"], seed=7)
>>> str(game.phase), game.turn, str(game.contract)
('upcard_offer', 1, '2 groups')
>>> event = game.decline_upcard(1)
>>> game.can(PassUpcard(2)), game.can(TakeUpcard(2))
(True, False)
"""

from __future__ import annotations

import copy
import functools
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any

from rummykit.cards import JOKER, Card, Meaning, Suit, format_cards, full_deck, kontrakt_value
from rummykit.contracts import CONTRACTS, Contract, candidate_melds, find_melds, largest_part
from rummykit.dealing import deal_indices, forhand, shuffled_deck
from rummykit.errors import RuleError
from rummykit.kontrakt_actions import (
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
    action_from_json,
)
from rummykit.melds import KONTRAKT, Meld, MeldError, MeldKind, read_meld
from rummykit.record import DealRecord, GameRecord, ReplayResult

__all__ = [
    "CARDS_EACH",
    "DEALS",
    "Action",
    "ActionEvent",
    "BuyUpcard",
    "DealEnded",
    "DealStarted",
    "DeclineUpcard",
    "Discard",
    "Draw",
    "Event",
    "KontraktGame",
    "KontraktOptions",
    "LayDown",
    "LayOff",
    "PassUpcard",
    "Phase",
    "SwapJoker",
    "TableMeld",
    "TakeUpcard",
    "deck_for",
    "game_deck",
    "hint_for",
    "legal_actions_for",
    "parse_card",
    "replay_record",
]

DEALS = 7
"""K4: a game (parti) is seven deals."""
CARDS_EACH = 10
"""K3: ten cards to each player."""
MIN_PLAYERS, MAX_PLAYERS = 2, 8


class Phase(StrEnum):
    """Where a deal stands."""

    UPCARD = "upcard_offer"
    """K7: the first upcard is being offered."""
    DRAW = "draw"
    """K8: the player whose turn it is draws."""
    PLAY = "play"
    """K8-K13: the player lays down, lays off, swaps jokers, and discards."""
    WAITING = "waiting"
    """A deal is over and no deck is there for the next (a record that stops)."""
    OVER = "game_over"
    """K14: all seven deals are played."""


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
    def from_json(cls, data: Mapping[str, Any]) -> KontraktOptions:
        """Options from a record's ``options``; ``ValueError`` for unknown or wrong ones."""
        known = {f.name for f in fields(cls)}
        for key, value in data.items():
            if key not in known:
                raise ValueError(
                    f"unknown Kontrakt option {key!r}: the options are {', '.join(sorted(known))}"
                )
            if not isinstance(value, bool):
                raise ValueError(f"option {key!r} is true or false")
        return cls(**dict(data))

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
        raise RuleError("K1", f"Kontraktsrummy is for 2 to 8 players, not {players}")
    return (2, 2) if players <= 4 else (3, 3)


def game_deck(players: int, options: Mapping[str, Any]) -> list[Card]:
    """The unshuffled deck of one deal (K2); ``ValueError`` for a wrong table (records)."""
    KontraktOptions.from_json(options)
    packs, jokers = deck_for(players)
    return full_deck(packs, jokers)


@dataclass(frozen=True)
class TableMeld:
    """A meld on the table: its number (in laying order), who laid it, and its cards (K10).

    ``ids`` are the physical cards in meld order; ``contract`` tells whether it
    was laid as part of the owner's contract.
    """

    number: int
    owner: int
    meld: Meld
    ids: tuple[int, ...]
    contract: bool

    def to_json(self) -> dict[str, Any]:
        """The meld as plain data for views (a fresh copy each time)."""
        out = self._json
        return {**out, "cards": list(out["cards"])}

    @functools.cached_property
    def _json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "number": self.number,
            "owner": self.owner,
            "kind": str(self.meld.kind),
            "cards": [str(c) for c in self.meld.cards],
            "contract": self.contract,
        }
        if self.meld.kind is MeldKind.GROUP:
            out["rank"] = self.meld.start
        else:
            suit = self.meld.suit
            assert suit is not None
            out.update(suit=suit.letter, low=self.meld.start, high=self.meld.end)
        return out


@dataclass(frozen=True)
class ActionEvent:
    """An applied action and what it did: the log entry (pokerkit's operation).

    ``shown`` are cards that went into the hand in view of everyone (the
    upcard, the discard pile's top, a swapped joker); ``hidden`` those only
    the player saw (from the stock). ``restock`` is the new stock's order when
    the stock was shuffled anew (K15): never shown to players.
    """

    deal: int
    index: int
    action: Action
    shown: tuple[Card, ...] = ()
    hidden: tuple[Card, ...] = ()
    restock: tuple[Card, ...] | None = None
    went_out: bool = False

    def to_json(self, viewer: int | str | None = "all") -> dict[str, Any]:
        """The entry as a viewer may see it: ``"all"`` for a replay, a seat, or None."""
        out = self.action.to_json()
        out.pop("restock", None)
        out.update(deal=self.deal, index=self.index)
        if self.shown:
            out["shown"] = [str(c) for c in self.shown]
        if self.hidden and (viewer == "all" or viewer == self.action.seat):
            out["drawn"] = [str(c) for c in self.hidden]
        if self.restock is not None:
            out["restocked"] = len(self.restock)
            if viewer == "all":
                out["restock"] = [str(c) for c in self.restock]
        if self.went_out:
            out["went_out"] = True
        return out


@dataclass(frozen=True)
class DealStarted:
    """A deal was dealt (K3): its number (0-6), dealer and contract."""

    deal: int
    dealer: int
    upcard: Card

    def to_json(self, viewer: int | str | None = "all") -> dict[str, Any]:
        """The entry as plain data (nothing secret in it)."""
        return {
            "type": "deal_start",
            "deal": self.deal,
            "dealer": self.dealer,
            "contract": str(CONTRACTS[self.deal]),
            "upcard": str(self.upcard),
        }


@dataclass(frozen=True)
class DealEnded:
    """A deal ended (K13, K15): who went out, each hand shown for scoring, the penalties,
    and the table as it stood (the next deal is dealt at once, so this is the only
    place a player can still see it)."""

    deal: int
    out: int | None
    hands: tuple[tuple[Card, ...], ...]
    penalties: tuple[int, ...]
    totals: tuple[int, ...]
    table: tuple[TableMeld, ...] = ()

    def to_json(self, viewer: int | str | None = "all") -> dict[str, Any]:
        """The entry as plain data: the hands are shown to all for scoring."""
        return {
            "type": "deal_end",
            "deal": self.deal,
            "out": self.out,
            "hands": [[str(c) for c in h] for h in self.hands],
            "penalties": list(self.penalties),
            "totals": list(self.totals),
            "table": [m.to_json() for m in self.table],
        }


Event = ActionEvent | DealStarted | DealEnded
"""Any entry of the log."""


@dataclass
class _DealState:
    """Everything of the deal in progress; copied whole for snapshots."""

    number: int
    dealer: int
    deck: tuple[Card, ...]
    hands: list[list[int]]
    stock: list[int]  # top at the end
    pile: list[int]  # top at the end
    table: list[TableMeld] = field(default_factory=list)
    laid: list[list[int]] = field(default_factory=list)  # per seat [groups, runs] of contract
    complete: list[bool] = field(default_factory=list)
    phase: Phase = Phase.UPCARD
    turn: int = 0
    offer_to: int | None = None
    stock_only: bool = False
    picked: int | None = None
    buyer: int | None = None  # K7: bought the upcard; förhand has not drawn yet
    actions: list[dict[str, Any]] = field(default_factory=list)
    text: list[str] = field(default_factory=list)  # each physical card as text


class KontraktGame:
    """A game of Kontraktsrummy: seven deals for 2-8 players (K1-K15).

    ``players`` is a count or the seat names (seat 0 first, clockwise).
    Give ``seed`` to shuffle every deal from it, or ``decks`` (top card first,
    one per deal) to play given decks; with ``decks`` the game waits after the
    last given deck (:attr:`Phase.WAITING`). ``dealer`` deals the first deal;
    the deal passes to the left. ``options`` holds the house rules.
    """

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
        self._log_views: dict[int | None, list[dict[str, Any]]] = {}
        self.scores: list[tuple[int, ...]] = []
        self._history: list[tuple[int, tuple[Card, ...], list[dict[str, Any]]]] = []
        self._state: _DealState | None = None
        self._position = False
        self._start_deal(0, dealer)

    @classmethod
    def from_position(
        cls,
        hands: Sequence[Sequence[Card]],
        *,
        deal: int,
        dealer: int,
        stock: Sequence[Card],
        discard_pile: Sequence[Card],
        table: Sequence[tuple[int, Sequence[Card], bool]] = (),
        laid: Sequence[tuple[int, int, bool]] | None = None,
        turn: int,
        phase: Phase = Phase.DRAW,
        picked_up: Card | None = None,
        stock_only: bool = False,
        scores: Sequence[Sequence[int]] | None = None,
        players: Sequence[str] | None = None,
        seed: int | None = None,
        options: KontraktOptions | None = None,
    ) -> KontraktGame:
        """A game set up in the middle of deal ``deal`` (0-6), like a chess position from FEN.

        For bots that play a guessed deal forward (determinized search) and
        for tests. ``hands`` per seat; ``stock`` top card first;
        ``discard_pile`` bottom first; ``table`` the melds in laying order as
        (owner, cards in meld order, laid as a contract part), a joker saying
        what it stands for (``*:8h``); ``laid`` per seat (groups, runs,
        complete) of the contract (default: nothing laid); ``turn`` the seat
        to act in ``phase`` (:attr:`Phase.DRAW` or :attr:`Phase.PLAY`);
        ``picked_up`` the card taken from the pile this turn (K8), ``stock_only``
        after the first upcard went round (K7). ``scores`` are the earlier
        deals' penalties (default: zeros). Together the places must hold the
        deck of K2 exactly (``ValueError`` otherwise). Later deals and any new
        stock (K15) are shuffled from ``seed``. The engine judges every action
        from here on as usual; the log starts empty and such a game has no
        record (:meth:`to_record` refuses).
        """
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
        places.append([c.plain() for c in discard_pile])
        places.append([c.plain() for c in reversed(stock)])
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
        game._state = _DealState(
            number=deal,
            dealer=dealer,
            deck=deck,
            hands=located[:n],
            stock=located[n + 1],
            pile=located[n],
            table=[
                TableMeld(k, owner, meld, _order_ids(deck, ids_, meld), part)
                for k, ((owner, meld, part), ids_) in enumerate(
                    zip(melds, located[n + 2 :], strict=True)
                )
            ],
            laid=state_laid,
            complete=complete,
            phase=phase,
            turn=turn,
            stock_only=stock_only,
            picked=picked,
            text=[str(c) for c in deck],
        )
        return game

    # ----------------------------------------------------------------- state

    @property
    def n(self) -> int:
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
        return forhand(self._s.dealer, self.n)

    @property
    def phase(self) -> Phase:
        """Where the deal stands."""
        return self._s.phase

    @property
    def turn(self) -> int | None:
        """The seat that must act now: the one asked about the upcard, or whose turn it is.

        None between deals of a record that stops, and once the game is over.
        """
        return self.to_act

    @property
    def to_act(self) -> int | None:
        """The seat that must act now (the same as :attr:`turn`)."""
        s = self._s
        if s.phase is Phase.UPCARD:
            return s.offer_to
        if s.phase in (Phase.DRAW, Phase.PLAY):
            return s.turn
        return None

    @property
    def is_over(self) -> bool:
        """True when all seven deals are played (K4)."""
        return self._s.phase is Phase.OVER

    @property
    def totals(self) -> list[int]:
        """K13, K14: each seat's penalty points summed over the deals played."""
        return [sum(d[i] for d in self.scores) for i in range(self.n)]

    @property
    def winners(self) -> list[int]:
        """K14: the seats with the lowest total (ties share the win); empty until over."""
        if not self.is_over:
            return []
        totals = self.totals
        best = min(totals)
        return [i for i, t in enumerate(totals) if t == best]

    @property
    def _s(self) -> _DealState:
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

    def card_ids(self) -> dict[str, list[int]]:
        """Every physical card of the deal by where it is (for conservation checks)."""
        s = self._s
        out: dict[str, list[int]] = {"stock": list(s.stock), "pile": list(s.pile)}
        for seat, h in enumerate(s.hands):
            out[f"hand{seat}"] = list(h)
        out["table"] = [i for m in s.table for i in m.ids]
        return out

    def snapshot(self) -> Any:
        """A deep copy of the whole state, to compare (rejected actions change nothing)."""
        return copy.deepcopy((self._state, self.log, self.scores, self._history))

    # ---------------------------------------------------------------- deals

    def _next_deck(self, number: int) -> tuple[Card, ...] | None:
        if self._decks is not None:
            return self._decks[number] if number < len(self._decks) else None
        return tuple(shuffled_deck(self.packs, self.jokers, self._deal_seeds[number]))

    def _start_deal(self, number: int, dealer: int) -> None:
        deck = self._next_deck(number)
        n = self.n
        if deck is None:
            assert self._state is not None
            self._state.phase = Phase.WAITING
            return
        hands, rest = deal_indices(len(deck), n, CARDS_EACH, dealer)
        upcard = rest[0]
        first = forhand(dealer, n)
        self._state = _DealState(
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

    def _end_deal(self, out: int | None) -> DealEnded:
        s = self._s
        hands = tuple(tuple(s.deck[i] for i in h) for h in s.hands)
        penalties = tuple(sum(kontrakt_value(c) for c in h) for h in hands)
        self.scores.append(penalties)
        event = DealEnded(s.number, out, hands, penalties, tuple(self.totals), tuple(s.table))
        self.log.append(event)
        if s.number + 1 >= DEALS:
            s.phase = Phase.OVER
        else:
            s.phase = Phase.WAITING
            self._start_deal(s.number + 1, (s.dealer + 1) % self.n)
        return event

    # ------------------------------------------------------------- checking

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < self.n:
            raise RuleError("K1", f"there is no seat {seat}: seats are 0 to {self.n - 1}")

    def _check_live(self) -> None:
        if self._s.phase is Phase.OVER:
            raise RuleError("K4", "the game is over: all seven deals have been played")
        if self._s.phase is Phase.WAITING:
            raise RuleError("K13", "this deal is over and the next has not been dealt")

    def _name(self, seat: int) -> str:
        return self.players[seat]

    def _check_offer(self, seat: int, forhand_only: bool) -> None:
        self._check_live()
        self._check_seat(seat)
        s = self._s
        if s.phase is not Phase.UPCARD:
            raise RuleError("K7", "the first upcard is only offered at the start of a deal")
        if seat != s.offer_to:
            assert s.offer_to is not None
            who = self._name(s.offer_to)
            if forhand_only and seat != self.forhand:
                raise RuleError("K7", f"only förhand ({who}) may take the first upcard")
            raise RuleError("K7", f"{who} is being asked about the upcard now, not you")
        if forhand_only and seat != self.forhand:
            raise RuleError(
                "K7", "only förhand takes or declines the upcard; you may buy it or pass"
            )
        if not forhand_only and seat == self.forhand:
            raise RuleError("K7", "förhand takes or declines the upcard, and does not buy it")

    def _check_turn(self, seat: int, phase: Phase) -> None:
        self._check_live()
        self._check_seat(seat)
        s = self._s
        if s.phase is Phase.UPCARD:
            assert s.offer_to is not None
            raise RuleError(
                "K7",
                f"the first upcard is being offered: {self._name(s.offer_to)} must answer first",
            )
        if seat != s.turn:
            if seat == s.buyer:
                raise RuleError(
                    "K7", "you bought the upcard: you may not lay anything down at that moment"
                )
            raise RuleError("K8", f"it is {self._name(s.turn)}'s turn, not yours")
        if phase is Phase.PLAY and s.phase is Phase.DRAW:
            raise RuleError("K8", "draw a card first: from the stock or the discard pile")
        if phase is Phase.DRAW and s.phase is Phase.PLAY:
            raise RuleError("K8", "you have drawn already: lay down, lay off, or discard")

    def _take(self, seat: int, cards: Iterable[Card], rule: str) -> list[int]:
        """Ids of ``cards`` in ``seat``'s hand (the picked-up card last), or RuleError."""
        s = self._s
        hand = list(s.hands[seat])
        if s.picked is not None and s.picked in hand:
            hand.remove(s.picked)
            hand.append(s.picked)
        out = []
        for card in cards:
            plain = card.plain()
            for i in hand:
                if s.deck[i] == plain:
                    hand.remove(i)
                    out.append(i)
                    break
            else:
                held = Counter(s.deck[i] for i in s.hands[seat])[plain]
                wanted = sum(1 for c in cards if c.plain() == plain)
                if held:
                    raise RuleError(rule, f"you hold {held} {plain} but want to use {wanted}")
                raise RuleError(rule, f"you do not hold {plain}")
        return out

    def _meld_of(self, number: int, rule: str) -> TableMeld:
        table = self._s.table
        if isinstance(number, bool) or not 0 <= number < len(table):
            if not table:
                raise RuleError(rule, "there are no melds on the table yet")
            raise RuleError(
                rule, f"there is no meld {number} on the table: they are 0 to {len(table) - 1}"
            )
        return table[number]

    # -------------------------------------------------------- the upcard (K7)

    def verify_take_upcard(self, seat: int) -> None:
        """K7: förhand may take the first upcard (as the draw of the first turn)."""
        self._check_offer(seat, forhand_only=True)

    def verify_decline_upcard(self, seat: int) -> None:
        """K7: förhand may decline the first upcard; the others are then asked in turn."""
        self._check_offer(seat, forhand_only=True)

    def verify_buy_upcard(self, seat: int) -> None:
        """K7: the asked player (not förhand) may take the upcard and the top of the stock."""
        self._check_offer(seat, forhand_only=False)
        if not self._s.stock:
            raise RuleError("K7", "the stock is empty, so the upcard cannot be bought")

    def verify_pass_upcard(self, seat: int) -> None:
        """K7: the asked player (not förhand) may pass."""
        self._check_offer(seat, forhand_only=False)

    def take_upcard(self, seat: int) -> ActionEvent:
        """K7: förhand takes the upcard and plays on (lay down, discard)."""
        self.verify_take_upcard(seat)
        s = self._s
        card = s.pile.pop()
        s.hands[seat].append(card)
        s.offer_to = None
        s.phase = Phase.PLAY
        s.picked = card
        return self._record(TakeUpcard(seat), shown=(s.deck[card],))

    def decline_upcard(self, seat: int) -> ActionEvent:
        """K7: förhand declines; the next player is asked."""
        self.verify_decline_upcard(seat)
        s = self._s
        s.offer_to = (seat + 1) % self.n
        return self._record(DeclineUpcard(seat))

    def buy_upcard(self, seat: int) -> ActionEvent:
        """K7: take the upcard and the stock's top; förhand then draws from the stock."""
        self.verify_buy_upcard(seat)
        s = self._s
        up = s.pile.pop()
        extra = s.stock.pop()
        s.hands[seat] += [up, extra]
        s.buyer = seat
        self._after_offer()
        return self._record(BuyUpcard(seat), shown=(s.deck[up],), hidden=(s.deck[extra],))

    def pass_upcard(self, seat: int) -> ActionEvent:
        """K7: pass; after the last player the upcard stays and förhand draws from the stock."""
        self.verify_pass_upcard(seat)
        s = self._s
        nxt = (seat + 1) % self.n
        if nxt == self.forhand:
            self._after_offer()
        else:
            s.offer_to = nxt
        return self._record(PassUpcard(seat))

    def _after_offer(self) -> None:
        s = self._s
        s.offer_to = None
        s.phase = Phase.DRAW
        s.turn = self.forhand
        s.stock_only = True

    # ------------------------------------------------------------- draw (K8)

    def verify_draw(
        self, seat: int, from_: str = "stock", restock: Sequence[Card] | None = None
    ) -> None:
        """K8: draw the stock's top, or the top of the discard pile laid by the previous player.

        K7: after the upcard was offered round, förhand draws from the stock.
        K15: ``restock`` (records only) orders the new stock when the stock is empty.
        """
        self._check_turn(seat, Phase.DRAW)
        s = self._s
        if from_ not in ("stock", "discard"):
            raise RuleError("K8", "draw from the 'stock' or the 'discard' pile")
        if from_ == "discard":
            if s.stock_only:
                raise RuleError(
                    "K7", "the first upcard was offered round: förhand now draws from the stock"
                )
            if not s.pile:
                raise RuleError("K8", "the discard pile is empty: draw from the stock")
            if restock is not None:
                raise RuleError("K15", "only a draw from an empty stock shuffles a new stock")
            return
        if restock is not None:
            if s.stock:
                raise RuleError("K15", "the stock is not empty, so no new stock is shuffled")
            if not self.options.reshuffle_stock:
                raise RuleError("K15", "at this table an empty stock ends the deal")
            want = Counter(s.deck[i] for i in s.pile[:-1])
            if Counter(c.plain() for c in restock) != want:
                raise RuleError(
                    "K15", "the new stock must be the discard pile without its top card"
                )

    def draw(
        self, seat: int, from_: str = "stock", restock: Sequence[Card] | None = None
    ) -> ActionEvent | DealEnded:
        """K8, K15: draw; an empty stock is refilled from the pile or ends the deal."""
        self.verify_draw(seat, from_, restock)
        s = self._s
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
                self._record(Draw(seat, "stock"))
                return self._end_deal(None)
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
        if order is not None:
            pool = list(rest)
            ids = []
            for card in order:
                i = next(i for i in pool if s.deck[i] == card.plain())
                pool.remove(i)
                ids.append(i)
        else:
            ids = list(rest)  # turned over: the bottom of the pile becomes the top
            if self._rng is not None:
                self._rng.shuffle(ids)
        s.pile = [top]
        s.stock = list(reversed(ids))
        return tuple(s.deck[i] for i in ids)

    # --------------------------------------------------- laying down (K9-K12)

    def _read_melds(
        self, seat: int, melds: Sequence[Sequence[Card]]
    ) -> tuple[list[Meld], list[bool]]:
        """Read each meld (K5) and decide which are contract parts (K9, K10, K12)."""
        s = self._s
        if not melds:
            raise RuleError("K9", "lay down at least one meld")
        read: list[list[Meld]] = []
        for cards in melds:
            try:
                first = read_meld(list(cards), KONTRAKT)
            except MeldError as exc:
                raise RuleError("K5", str(exc)) from None
            options = [first]
            other = _other_reading(list(cards), first)
            if other is not None:
                options.append(other)
            read.append(options)
        # At most one meld can be read two ways (it needs two of the jokers).
        choices = [[o[0] for o in read]]
        for i, o in enumerate(read):
            if len(o) > 1:
                choices.append([*choices[0][:i], o[1], *choices[0][i + 1 :]])
        if s.complete[seat]:
            return choices[0], [False] * len(melds)
        error: RuleError | None = None
        for chosen in choices:
            try:
                return chosen, self._contract_parts(seat, chosen)
            except RuleError as exc:
                error = error or exc
        assert error is not None
        raise error

    def _contract_parts(self, seat: int, melds: Sequence[Meld]) -> list[bool]:
        contract = self.contract
        g_have, r_have = self._s.laid[seat]
        groups = sum(1 for m in melds if m.kind is MeldKind.GROUP)
        runs = len(melds) - groups
        for g_need, r_need in contract.choices:
            need_g, need_r = g_need - g_have, r_need - r_have
            if groups >= need_g and runs >= need_r:
                return _mark_parts(melds, need_g, need_r)
        if contract.all_at_once:
            raise RuleError(
                "K12",
                "in the seventh deal nothing is laid until the whole contract goes down"
                " in one turn: 3 groups or 3 runs",
            )
        need_g, need_r = contract.groups - g_have, contract.runs - r_have
        if groups <= need_g and runs <= need_r:
            return [True] * len(melds)
        kind, count, need = ("group", groups, need_g) if groups > need_g else ("run", runs, need_r)
        left = f"{need} more {kind}" + ("s" if need != 1 else "") if need else f"no {kind}"
        raise RuleError(
            "K10",
            f"your contract ({contract}) needs {left}, not {count}: further melds"
            " only after the whole contract is down",
        )

    def verify_lay_down(self, seat: int, melds: Sequence[Sequence[Card]]) -> None:
        """K9, K10, K12: lay melds from the hand; contract parts first, extras once complete."""
        self._check_turn(seat, Phase.PLAY)
        read, parts = self._read_melds(seat, melds)
        used = self._take(seat, [c for m in melds for c in m], "K9")
        s = self._s
        g, r = s.laid[seat]
        g += sum(1 for m, p in zip(read, parts, strict=True) if p and m.kind is MeldKind.GROUP)
        r += sum(1 for m, p in zip(read, parts, strict=True) if p and m.kind is MeldKind.RUN)
        done = s.complete[seat] or any(g >= cg and r >= cr for cg, cr in self.contract.choices)
        if not done and len(s.hands[seat]) - len(used) < 2:
            raise RuleError(
                "K13",
                "you cannot go out before your whole contract is down:"
                " keep two cards, one to discard",
            )

    def lay_down(self, seat: int, melds: Sequence[Sequence[Card]]) -> ActionEvent | DealEnded:
        """Lay the melds; numbered in laying order, in front of ``seat`` (K10). K13 if empty."""
        self.verify_lay_down(seat, melds)
        s = self._s
        read, parts = self._read_melds(seat, melds)
        for meld, part in zip(read, parts, strict=True):
            ids = self._take(seat, meld.plain_cards(), "K9")
            for i in ids:
                s.hands[seat].remove(i)
            s.table.append(TableMeld(len(s.table), seat, meld, tuple(ids), part))
            if part:
                s.laid[seat][0 if meld.kind is MeldKind.GROUP else 1] += 1
        g, r = s.laid[seat]
        if any(g >= cg and r >= cr for cg, cr in self.contract.choices):
            s.complete[seat] = True
        action = LayDown(seat, tuple(tuple(m) for m in melds))
        return self._maybe_out(seat, action)

    def verify_lay_off(self, seat: int, card: Card, meld: int, as_: Card | None = None) -> None:
        """K10: once the whole contract is down, add a card to any meld on the table."""
        self._lay_off_result(seat, card, meld, as_)

    def _lay_off_result(
        self, seat: int, card: Card, number: int, as_: Card | None
    ) -> tuple[TableMeld, Meld, int]:
        self._check_turn(seat, Phase.PLAY)
        s = self._s
        if not s.complete[seat]:
            raise RuleError(
                "K10", "you may lay cards off only after laying down your whole contract"
            )
        target = self._meld_of(number, "K10")
        (i,) = self._take(seat, [card], "K10")
        plain = s.deck[i]
        old = list(target.meld.cards)
        m = target.meld
        if as_ is not None and as_.is_joker:  # "*:Th" says the same as "Th"
            as_ = None if as_.stands_for is None else as_.stands_for.card
        if as_ is not None and not plain.is_joker and as_.plain() != plain:
            raise RuleError("K10", "'as' is only for a joker: what it stands for")
        if m.kind is MeldKind.GROUP:
            if plain.is_joker:
                if as_ is not None and not as_.is_joker and as_.rank != m.start:
                    raise RuleError("K10", f"a joker on meld {number} stands for its rank")
                new = [*old, Card(0, None, Meaning(m.start))]
            else:
                new = [*old, plain]
            at = len(old)
        else:
            suit = m.suit
            assert suit is not None
            low, high = m.start, m.end
            if plain.is_joker:
                if as_ is None or as_.is_joker:
                    rank = high + 1 if high < 13 else low - 1
                else:
                    rank, want = as_.rank, as_.suit
                    if want != suit:
                        raise RuleError("K10", f"meld {number} is a run of {suit.symbol}")
                card_at = Card(0, None, Meaning(rank, suit)) if 1 <= rank <= 13 else None
            else:
                rank = plain.rank
                card_at = plain if plain.suit == suit else None
            if card_at is None or rank not in (low - 1, high + 1) or not 1 <= rank <= 13:
                shown = format_cards(old)
                raise RuleError(
                    "K10",
                    f"{plain if as_ is None else as_} does not fit meld {number} ({shown}):"
                    " a run grows only at its ends, the ace low (K5)",
                )
            new = [card_at, *old] if rank == low - 1 else [*old, card_at]
            at = 0 if rank == low - 1 else len(old)
        try:
            result = read_meld(new, KONTRAKT)
        except MeldError as exc:
            raise RuleError("K10", str(exc)) from None
        return target, result, at

    def lay_off(
        self, seat: int, card: Card, meld: int, as_: Card | None = None
    ) -> ActionEvent | DealEnded:
        """K10: lay one card off onto table meld ``meld``; K13 when the hand empties."""
        target, result, at = self._lay_off_result(seat, card, meld, as_)
        s = self._s
        (i,) = self._take(seat, [card], "K10")
        s.hands[seat].remove(i)
        ids = list(target.ids)
        ids.insert(at, i)
        s.table[target.number] = replace(target, meld=result, ids=_order_ids(s.deck, ids, result))
        return self._maybe_out(seat, LayOff(seat, card.plain(), meld, as_))

    def verify_swap_joker(self, seat: int, card: Card, meld: int) -> None:
        """K11: once the contract is down, swap the real card for a table joker."""
        self._swap_result(seat, card, meld)

    def _swap_result(self, seat: int, card: Card, number: int) -> tuple[TableMeld, int, Meld]:
        self._check_turn(seat, Phase.PLAY)
        s = self._s
        if not s.complete[seat]:
            raise RuleError("K11", "you may take a joker only after laying your whole contract")
        target = self._meld_of(number, "K11")
        if card.is_joker:
            raise RuleError("K11", "a joker is swapped for the real card it stands for")
        self._take(seat, [card], "K11")
        m = target.meld
        for pos, c in enumerate(m.cards):
            means = c.stands_for
            if not c.is_joker or means is None:
                continue
            if means.rank == card.rank and (m.kind is MeldKind.GROUP or means.suit == card.suit):
                new = list(m.cards)
                new[pos] = card.plain()
                try:
                    result = read_meld(new, KONTRAKT)
                except MeldError as exc:  # pragma: no cover - a real card fits where its joker sat
                    raise RuleError("K11", str(exc)) from None
                return target, pos, result
        jokers = [str(c.stands_for) for c in m.cards if c.is_joker]
        if not jokers:
            raise RuleError("K11", f"meld {number} has no joker")
        raise RuleError(
            "K11",
            f"the joker in meld {number} stands for {', '.join(jokers)}, not {card}",
        )

    def swap_joker(self, seat: int, card: Card, meld: int) -> ActionEvent:
        """K11: the card takes the joker's place; the joker goes to the hand."""
        target, pos, result = self._swap_result(seat, card, meld)
        s = self._s
        (i,) = self._take(seat, [card], "K11")
        s.hands[seat].remove(i)
        ids = list(target.ids)
        joker = ids[pos]
        ids[pos] = i
        s.hands[seat].append(joker)
        s.table[target.number] = replace(target, meld=result, ids=_order_ids(s.deck, ids, result))
        return self._record(SwapJoker(seat, card.plain(), meld), shown=(JOKER,))

    # ---------------------------------------------------------- discard (K8)

    def verify_discard(self, seat: int, card: Card) -> None:
        """K8: end the turn by discarding one card; K13: the last card goes out."""
        self._check_turn(seat, Phase.PLAY)
        s = self._s
        (i,) = self._take(seat, [card], "K8")
        if i == s.picked and len(s.hands[seat]) > 1 and not self.options.rediscard_pickup:
            raise RuleError(
                "K8", f"you just took {card.plain()} from the pile: discard another card"
            )

    def discard(self, seat: int, card: Card) -> ActionEvent | DealEnded:
        """Discard; the turn passes to the left (K8), or the deal ends (K13)."""
        self.verify_discard(seat, card)
        s = self._s
        (i,) = self._take(seat, [card], "K8")
        s.hands[seat].remove(i)
        s.pile.append(i)
        action = Discard(seat, card.plain())
        if not s.hands[seat]:
            return self._maybe_out(seat, action)
        s.turn = (seat + 1) % self.n
        s.phase = Phase.DRAW
        s.picked = None
        s.stock_only = False
        return self._record(action)

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
        self._record(action, went_out=True)
        return self._end_deal(seat)

    def verify(self, action: Action) -> None:
        """Raise :class:`RuleError` if ``action`` is not legal now; otherwise return."""
        match action:
            case TakeUpcard(seat):
                self.verify_take_upcard(seat)
            case DeclineUpcard(seat):
                self.verify_decline_upcard(seat)
            case BuyUpcard(seat):
                self.verify_buy_upcard(seat)
            case PassUpcard(seat):
                self.verify_pass_upcard(seat)
            case Draw(seat, from_, restock):
                self.verify_draw(seat, from_, restock)
            case LayDown(seat, melds):
                self.verify_lay_down(seat, melds)
            case LayOff(seat, card, meld, as_):
                self.verify_lay_off(seat, card, meld, as_)
            case SwapJoker(seat, card, meld):
                self.verify_swap_joker(seat, card, meld)
            case Discard(seat, card):
                self.verify_discard(seat, card)

    def can(self, action: Action) -> bool:
        """True if ``action`` is legal now (``verify`` does not raise)."""
        try:
            self.verify(action)
        except RuleError:
            return False
        return True

    def apply(self, action: Action) -> ActionEvent | DealEnded:
        """Verify and apply any action; returns the event (or the deal's end it caused)."""
        match action:
            case TakeUpcard(seat):
                return self.take_upcard(seat)
            case DeclineUpcard(seat):
                return self.decline_upcard(seat)
            case BuyUpcard(seat):
                return self.buy_upcard(seat)
            case PassUpcard(seat):
                return self.pass_upcard(seat)
            case Draw(seat, from_, restock):
                return self.draw(seat, from_, restock)
            case LayDown(seat, melds):
                return self.lay_down(seat, melds)
            case LayOff(seat, card, meld, as_):
                return self.lay_off(seat, card, meld, as_)
            case SwapJoker(seat, card, meld):
                return self.swap_joker(seat, card, meld)
            case Discard(seat, card):
                return self.discard(seat, card)
        raise TypeError(f"{action!r} is not a Kontrakt action")  # pragma: no cover

    def legal_actions(self) -> list[Action]:
        """Legal actions of the seat to act: every kind, with representative melds.

        Laying down is listed by the contract melds the hand can make (the
        smallest ones and the most at once), not every possible subset.
        """
        seat = self.to_act
        if seat is None:
            return []
        return [a for a in legal_actions_for(self.view(seat, log=False)) if self.can(a)]

    def hint(self, seat: int) -> dict[str, Any]:
        """Which contract melds ``seat``'s hand can already make (see :func:`hint_for`)."""
        return hint_for(self.view(seat, log=False))

    # ---------------------------------------------------------------- views

    def view(self, seat: int | None = None, *, log: bool = True) -> dict[str, Any]:
        """What ``seat`` may see, as plain JSON data (None: a spectator).

        Never the stock order nor another player's hand; the log shows a
        stock draw's card only to the player who drew it. The log's entries
        are shared between a viewer's views (each is written once): treat a
        view as read-only, or copy it.
        """
        s = self._s
        if seat is not None:
            self._check_seat(seat)
        picked = s.deck[s.picked] if s.picked is not None else None
        out: dict[str, Any] = {
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
            "over": self.is_over,
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
            "options": {f.name: getattr(self.options, f.name) for f in fields(self.options)},
        }
        if log:
            # the log only grows: each entry is written once per viewer and shared
            # between that viewer's views (treat a view as read-only)
            cache = self._log_views.setdefault(seat, [])
            cache.extend(e.to_json(seat) for e in self.log[len(cache) :])
            out["log"] = list(cache)
        return out

    # -------------------------------------------------------------- records

    def to_record(self) -> GameRecord:
        """The game as a RECORD.md record: one ``deals`` entry per deal dealt."""
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


def _other_reading(cards: list[Card], first: Meld) -> Meld | None:
    """The group reading of a one-natural meld read as a run (``7h * *``), or vice versa."""
    naturals = [c for c in cards if not c.is_joker]
    if len(naturals) != 1 or any(c.is_joker and c.stands_for is not None for c in cards):
        return None
    if first.kind is MeldKind.RUN:
        rank = naturals[0].rank
        cards = [c.with_meaning(Meaning(rank)) if c.is_joker else c for c in cards]
    else:
        cards = sorted(cards, key=lambda c: c.is_joker)
    try:
        other = read_meld(cards, KONTRAKT)
    except MeldError:
        return None
    return other if other.kind is not first.kind else None


def _mark_parts(melds: Sequence[Meld], groups: int, runs: int) -> list[bool]:
    """The first ``groups`` groups and ``runs`` runs are contract parts; the rest extras."""
    out = []
    for m in melds:
        if m.kind is MeldKind.GROUP and groups > 0:
            groups -= 1
            out.append(True)
        elif m.kind is MeldKind.RUN and runs > 0:
            runs -= 1
            out.append(True)
        else:
            out.append(False)
    return out


def _order_ids(deck: Sequence[Card], ids: list[int], meld: Meld) -> tuple[int, ...]:
    """The physical ids in the order of ``meld.cards`` (equal cards are interchangeable)."""
    pool = list(ids)
    out = []
    for card in meld.cards:
        plain = card.plain()
        i = next(i for i in pool if deck[i] == plain)
        pool.remove(i)
        out.append(i)
    return tuple(out)


# --------------------------------------------------------------- from views


parse_card = functools.lru_cache(maxsize=4096)(Card.parse)
"""``Card.parse`` remembered: views are read again and again by bots."""


def _cards(texts: Iterable[str]) -> list[Card]:
    return [parse_card(t) for t in texts]


def hint_for(view: Mapping[str, Any]) -> dict[str, Any]:
    """Which contract melds the hand in ``view`` can make now.

    ``need``: groups and runs still to lay; ``parts``: the most contract melds
    the hand can lay now (deals 1-6); ``whole``: melds that complete the
    contract, or None; ``complete``: whether the contract is already down.
    """
    seat = view["seat"]
    hand = _cards(view["hand"] or [])
    laid = view["laid"][seat] if seat is not None else {"groups": 0, "runs": 0, "complete": False}
    contract = CONTRACTS[view["deal"]]
    out: dict[str, Any] = {"complete": laid["complete"], "contract": str(contract)}
    if laid["complete"]:
        out.update(need=None, parts=[], whole=None)
        return out
    whole = None
    needs = []
    for g, r in contract.choices:
        ng, nr = max(0, g - laid["groups"]), max(0, r - laid["runs"])
        needs.append({"groups": ng, "runs": nr})
        found = find_melds(hand, ng, nr)
        if found is not None and whole is None:
            whole = [[str(c) for c in m] for m in found]
    parts: list[list[str]] = []
    if not contract.all_at_once:
        best = largest_part(hand, needs[0]["groups"], needs[0]["runs"])
        if best is not None:
            parts = [[str(c) for c in m] for m in best[2]]
    out.update(need=needs, parts=parts, whole=whole)
    return out


def legal_actions_for(view: Mapping[str, Any]) -> list[Action]:
    """Candidate actions of the seat that views ``view`` when it is to act.

    Built from the view alone (what a bot sees): every upcard answer, draw and
    discard, every lay-off and joker swap, and the contract melds the hand can
    make. The engine's :meth:`KontraktGame.legal_actions` keeps those it allows.
    """
    seat = view["seat"]
    if seat is None or view["turn"] != seat:
        return []
    phase = view["phase"]
    if phase == Phase.UPCARD:
        if seat == view["forhand"]:
            return [TakeUpcard(seat), DeclineUpcard(seat)]
        return [BuyUpcard(seat), PassUpcard(seat)]
    if phase == Phase.DRAW:
        out: list[Action] = [Draw(seat, "stock")]
        if view["discard_pile"] and not view["stock_only"]:
            out.append(Draw(seat, "discard"))
        return out
    if phase != Phase.PLAY:
        return []
    hand = _cards(view["hand"])
    distinct = list(dict.fromkeys(hand))
    acts: list[Action] = []
    laid = view["laid"][seat]
    contract = CONTRACTS[view["deal"]]
    if laid["complete"]:
        for kind in MeldKind:
            acts += [LayDown(seat, (m,)) for m in candidate_melds(hand, kind)]
        for m in view["table"]:
            acts += _layoffs(seat, distinct, m)
            acts += _swaps(seat, distinct, m)
    else:
        if not contract.all_at_once:
            need_g, need_r = contract.groups - laid["groups"], contract.runs - laid["runs"]
            for kind, need in ((MeldKind.GROUP, need_g), (MeldKind.RUN, need_r)):
                # K13: a part that does not finish the contract leaves two cards
                if need > 0 and (len(hand) >= 5 or need_g + need_r == 1):
                    acts += [LayDown(seat, (m,)) for m in candidate_melds(hand, kind)]
        hint = hint_for(view)
        if hint["whole"]:
            acts.append(LayDown(seat, tuple(tuple(_cards(m)) for m in hint["whole"])))
        parts = hint["parts"]
        if parts and len(parts) > 1 and len(hand) - sum(map(len, parts)) >= 2:
            acts.append(LayDown(seat, tuple(tuple(_cards(m)) for m in parts)))
    picked = view["picked_up"]
    for card in distinct:
        if (
            card == (parse_card(picked) if picked else None)
            and hand.count(card) == 1
            and len(hand) > 1
            and not view["options"]["rediscard_pickup"]
        ):
            continue
        acts.append(Discard(seat, card))
    return acts


def _layoffs(seat: int, cards: list[Card], meld: Mapping[str, Any]) -> list[Action]:
    out: list[Action] = []
    number = meld["number"]
    if meld["kind"] == "group":
        for c in cards:
            if c.is_joker or c.rank == meld["rank"]:
                out.append(LayOff(seat, c, number))
        return out
    suit = Suit("cdhs".index(meld["suit"]))
    ends = [r for r in (meld["low"] - 1, meld["high"] + 1) if 1 <= r <= 13]
    for c in cards:
        if c.is_joker:
            out += [LayOff(seat, c, number, Card(r, suit)) for r in ends]
        elif c.suit == suit and c.rank in ends:
            out.append(LayOff(seat, c, number))
    return out


def _swaps(seat: int, cards: list[Card], meld: Mapping[str, Any]) -> list[Action]:
    out: list[Action] = []
    meanings = [parse_card(t).stands_for for t in meld["cards"] if t.startswith("*")]
    for c in cards:
        if c.is_joker:
            continue
        for means in meanings:
            if means is not None and means.rank == c.rank and means.suit in (None, c.suit):
                out.append(SwapJoker(seat, c, meld["number"]))
                break
    return out


# -------------------------------------------------------------- replaying


def replay_record(record: GameRecord) -> ReplayResult:
    """Replay a Kontrakt record, checking every action (RECORD.md).

    ``scores`` are the running penalty totals after the last deal replayed.
    """
    n = len(record.players)
    options = KontraktOptions.from_json(record.options)
    if not record.deals:
        return ReplayResult(True, 0, [0] * n)
    if len(record.deals) > DEALS:
        return ReplayResult(
            False,
            DEALS,
            [],
            deal=DEALS,
            action=0,
            rule="K4",
            message=f"a game is seven deals, the record has {len(record.deals)}",
        )
    game = KontraktGame(
        list(record.players),
        decks=[d.deck for d in record.deals],
        dealer=record.deals[0].dealer,
        options=options,
    )
    for k, deal in enumerate(record.deals):
        if k > 0:
            prev = record.deals[k - 1]
            if game.deal != k:
                return _fail(
                    k - 1,
                    len(prev.actions),
                    "K13",
                    f"deal {k - 1} is not over (nobody has gone out) but the record goes on",
                )
            if deal.dealer != game.dealer:
                return _fail(
                    k,
                    0,
                    "K4",
                    f"the deal passes to the left: seat {game.dealer} deals deal {k},"
                    f" not seat {deal.dealer}",
                )
        for j, data in enumerate(deal.actions):
            try:
                action = action_from_json(data)
            except ValueError as exc:
                return _fail(k, j, "K8", str(exc))
            if game.deal != k or game.phase in (Phase.WAITING, Phase.OVER):
                return _fail(k, j, "K13", f"deal {k} is over: someone went out")
            try:
                game.apply(action)
            except RuleError as exc:
                return _fail(k, j, exc.rule, exc.message)
    return ReplayResult(True, len(record.deals), game.totals)


def _fail(deal: int, action: int, rule: str, message: str) -> ReplayResult:
    return ReplayResult(False, deal, [], deal=deal, action=action, rule=rule, message=message)
