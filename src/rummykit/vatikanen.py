"""Vatikanen: the game engine (RULES.md, V1-V16), as a pure state machine.

A :class:`Game` is one deal; a :class:`Session` is a series of games with
zero-sum balances (V16), the deal passing to the left. The engine is the only
authority on what is legal: every action has a trio ``verify_*`` (raises
:class:`~rummykit.errors.RuleError` naming the rule), ``can_*`` (a bool) and
the action itself, which verifies, changes the state and returns the
:class:`Event` appended to :attr:`Game.log`. A rejected action changes
nothing.

Every physical card is tracked by its place in the dealt deck, so card
conservation (hands + stock + table = the deck) can be checked exactly
(:meth:`Game.check_invariants`). :meth:`Game.view` is the only way an
interface sees the game: plain JSON data with other seats' cards removed.

>>> game = Game(2, seed=7)
>>> game.turn, len(game.hand(0)), game.stock_size
(0, 13, 80)
>>> game.can_pass(0)
False
>>> event = game.draw(0)
>>> game.turn, len(game.hand(0)), game.stock_size
(1, 14, 79)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from rummykit.cards import Card, format_cards, full_deck, parse_cards, vatikanen_value
from rummykit.dealing import deal_indices, forhand, shuffled_deck
from rummykit.errors import RuleError
from rummykit.melds import VATIKANEN, Meld, MeldError, read_meld
from rummykit.record import DealRecord, GameRecord, RecordError, ReplayResult
from rummykit.vatikanen_table import check_opening, check_table

__all__ = [
    "CARDS_PER_PLAYER",
    "JOKERS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PACKS",
    "Action",
    "Draw",
    "Event",
    "Game",
    "GameEnd",
    "Pass",
    "Play",
    "Session",
    "action_from_json",
    "action_to_json",
    "deck_size",
    "game_deck",
    "replay_record",
]

MIN_PLAYERS, MAX_PLAYERS = 2, 5
"""V1: 2-5 players."""
PACKS, JOKERS = 2, 2
"""V2: two 52-card packs and two jokers, 106 cards."""
CARDS_PER_PLAYER = 13
"""V3: 13 cards each."""

Objective = Literal["cards", "points"]


# ---------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Play:
    """V4a: put ``add`` from the hand onto the table.

    ``table`` is the whole new table, meld by meld (V9); without it the engine
    arranges the table with the solver and rejects the play if it cannot.
    """

    seat: int
    add: tuple[Card, ...]
    table: tuple[tuple[Card, ...], ...] | None = None

    @classmethod
    def parse(cls, seat: int, add: str, table: str | None = None) -> Play:
        """A play from text: ``Play.parse(0, "7h 8h 9h")``; melds of a table split by ``|``."""
        melds = None
        if table is not None:
            melds = tuple(tuple(parse_cards(m)) for m in table.split("|"))
        return cls(seat, tuple(parse_cards(add)), melds)


@dataclass(frozen=True, slots=True)
class Draw:
    """V4b: draw the top card of the stock; the turn ends."""

    seat: int


@dataclass(frozen=True, slots=True)
class Pass:
    """V14: with an empty stock, do nothing this turn."""

    seat: int


Action = Play | Draw | Pass


@dataclass(frozen=True, slots=True)
class GameEnd:
    """How a game ended: ``reason`` is ``out`` (V13), ``blocked`` (V15) or ``no_winner``.

    ``hand_values`` are the V13 values of the hands at the end; ``payments`` the
    net gain of each seat (zero-sum).
    """

    reason: Literal["out", "blocked", "no_winner"]
    winners: tuple[int, ...]
    hand_values: tuple[int, ...]
    payments: tuple[Fraction, ...]

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {
            "reason": self.reason,
            "winners": list(self.winners),
            "hand_values": list(self.hand_values),
            "payments": [number(p) for p in self.payments],
        }


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of the game log: the action taken and what it did.

    ``card`` is the card a draw took (hidden from the other seats); ``table``
    the whole table after a play, as the engine checked and keeps it (a play
    that named its table is logged with that checked table, not as written);
    ``opening`` whether a play was the player's opening (V7); ``end`` is set
    on the action that ended the game.
    """

    index: int
    action: Action
    card: Card | None = None
    table: tuple[Meld, ...] | None = None
    end: GameEnd | None = None
    opening: bool = False

    @property
    def seat(self) -> int:
        """The seat that acted."""
        return self.action.seat

    def to_json(self, viewer: int | Literal["all"] | None = "all") -> dict[str, Any]:
        """The event as plain data for ``viewer`` (a seat, None for a spectator, or all)."""
        out = action_to_json(self.action)
        if isinstance(self.action, Play) and self.table is not None:
            out["table"] = [[str(c) for c in m.cards] for m in self.table]
            out["opening"] = self.opening
        if self.card is not None and (viewer == "all" or viewer == self.seat):
            out["card"] = str(self.card)
        if self.end is not None:
            out["end"] = self.end.to_json()
        return out


def number(value: Fraction | int) -> int | float:
    """A balance as JSON: an int when whole, else a float (V15 can split a payment)."""
    f = Fraction(value)
    return f.numerator if f.denominator == 1 else float(f)


def action_to_json(action: Action) -> dict[str, Any]:
    """The RECORD.md JSON object of an action."""
    if isinstance(action, Play):
        out: dict[str, Any] = {
            "seat": action.seat,
            "type": "play",
            "add": [str(c) for c in action.add],
        }
        if action.table is not None:
            out["table"] = [[str(c) for c in m] for m in action.table]
        return out
    if isinstance(action, Draw):
        return {"seat": action.seat, "type": "draw"}
    return {"seat": action.seat, "type": "pass"}


def action_from_json(data: Mapping[str, Any]) -> Action:
    """An action from its RECORD.md JSON; RuleError for an action Vatikanen does not have."""
    seat = data.get("seat")
    kind = data.get("type")
    if not isinstance(seat, int):
        raise RuleError("V4", "every action names the seat that takes it")
    if kind == "draw":
        return Draw(seat)
    if kind == "pass":
        return Pass(seat)
    if kind == "play":
        add = tuple(parse_cards(data.get("add") or []))
        raw = data.get("table")
        table = None if raw is None else tuple(tuple(parse_cards(m)) for m in raw)
        return Play(seat, add, table)
    if kind == "discard":
        raise RuleError("V3", "no card is ever discarded in Vatikanen")
    raise RuleError("V4", f"Vatikanen has no action {kind!r}: a turn is play, draw or pass")


# ---------------------------------------------------------------- the game


class Game:
    """One Vatikanen game (deal), from a seed or an explicit deck.

    ``players`` is the number of players (2-5, V1) or their names. The deck is
    ``deck`` (top card first, 106 cards, V2) or shuffled from ``seed``; it is
    dealt as RECORD.md says (V3): one card at a time, förhand =
    ``(dealer + 1) % n`` first. ``dealer`` defaults to the last seat, so seat 0
    is förhand and plays first.

    Options (keyword-only; RULES.md house rules):

    - ``free_jokers=False``: when True, table jokers move freely as wild
      cards in a rearrangement (V9 alone) instead of keeping their meaning (V11).
    - ``blocked_game=True``: V15. When every player passes in succession with
      an empty stock, the game ends and the lowest hand wins the differences.
      When False, such a game ends with no winner and no payments.

    ``number`` and ``balances`` place the game in a session (V16).
    """

    def __init__(
        self,
        players: int | Sequence[str] = 2,
        *,
        seed: int | None = None,
        deck: Sequence[Card] | None = None,
        dealer: int | None = None,
        free_jokers: bool = False,
        blocked_game: bool = True,
        number: int = 1,
        balances: Sequence[Fraction | int] | None = None,
    ) -> None:
        names = _player_names(players)
        n = len(names)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise RuleError("V1", f"Vatikanen is for 2 to 5 players, not {n}")
        if deck is None:
            deck = shuffled_deck(PACKS, JOKERS, seed)
        deck = tuple(c.plain() for c in deck)
        if Counter(deck) != Counter(full_deck(PACKS, JOKERS)):
            raise RuleError("V2", "the deck must be two 52-card packs and two jokers, 106 cards")
        if dealer is None:
            dealer = n - 1
        if not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat from 0 to {n - 1}")
        self.players: tuple[str, ...] = names
        self.deck: tuple[Card, ...] = deck
        self.dealer = dealer
        self.free_jokers = free_jokers
        self.blocked_game = blocked_game
        self.number = number
        self.start_balances: tuple[Fraction, ...] = tuple(
            Fraction(b) for b in (balances if balances is not None else [0] * n)
        )
        hands, stock = deal_indices(len(deck), n, CARDS_PER_PLAYER, dealer)
        self._hands: list[list[int]] = hands
        self._stock: list[int] = stock[::-1]  # top card last, so drawing pops
        self._table: list[Meld] = []
        self._table_ids: list[int] = []
        self._opened: list[bool] = [False] * n
        self._turn = forhand(dealer, n)
        self._passes = 0
        self.log: list[Event] = []
        self._log_json: list[tuple[dict[str, Any], dict[str, Any]]] = []  # (public, actor's)
        self.end: GameEnd | None = None
        self._position = False

    @classmethod
    def from_position(
        cls,
        hands: Sequence[Sequence[Card] | str],
        table: Sequence[Sequence[Card] | str] = (),
        *,
        stock: Sequence[Card] | str | None = None,
        turn: int = 0,
        opened: Sequence[bool] | None = None,
        free_jokers: bool = False,
        blocked_game: bool = True,
    ) -> Game:
        """A game set up mid-play, like a chess position from FEN (for puzzles and tests).

        ``hands`` per seat and the ``table``'s melds are card text or cards
        (a joker may say what it stands for: ``*:8h``). ``stock`` is the stock,
        top first; by default it is every other card of the 106, in deck order.
        When ``stock`` is given, the game's deck is only the cards in play.
        Every seat counts as opened unless ``opened`` says otherwise. Such a
        game has no deal to record (:meth:`to_record` refuses).
        """
        hand_cards = [parse_cards(h) if isinstance(h, str) else list(h) for h in hands]
        melds = [read_meld(parse_cards(m) if isinstance(m, str) else m, VATIKANEN) for m in table]
        placed = [c.plain() for h in hand_cards for c in h]
        placed += [c.plain() for m in melds for c in m.cards]
        rest = Counter(full_deck(PACKS, JOKERS))
        if stock is None:
            below = []
            rest.subtract(placed)
            for card in full_deck(PACKS, JOKERS):
                if rest[card] > 0:
                    rest[card] -= 1
                    below.append(card)
        else:
            below = [c.plain() for c in (parse_cards(stock) if isinstance(stock, str) else stock)]
            rest.subtract(placed + below)
        if any(k < 0 for k in rest.values()):
            extra = sorted({str(c) for c, k in rest.items() if k < 0})
            raise ValueError(f"more copies than the deck holds: {' '.join(extra)}")
        n = len(hand_cards)
        game = cls(n, free_jokers=free_jokers, blocked_game=blocked_game)
        game.deck = tuple([*placed, *below])
        ids = iter(range(len(game.deck)))
        game._hands = [[next(ids) for _ in h] for h in hand_cards]
        game._table = melds
        game._table_ids = [next(ids) for m in melds for _ in m.cards]
        game._stock = list(ids)[::-1]
        game._turn = turn
        game._opened = [True] * n if opened is None else list(opened)
        game._position = True
        return game

    # ------------------------------------------------------------ state

    @property
    def n_players(self) -> int:
        """How many players sit at the table."""
        return len(self.players)

    @property
    def turn(self) -> int | None:
        """The seat to act, or None once the game is over."""
        return None if self.end is not None else self._turn

    @property
    def over(self) -> bool:
        """True once the game has ended (V13, V15)."""
        return self.end is not None

    @property
    def stock_size(self) -> int:
        """Cards left in the stock."""
        return len(self._stock)

    @property
    def table(self) -> tuple[Meld, ...]:
        """The melds on the table, jokers annotated with what they stand for."""
        return tuple(self._table)

    @property
    def passes_in_row(self) -> int:
        """Passes in succession since the last play (V15)."""
        return self._passes

    def hand(self, seat: int) -> list[Card]:
        """The cards in ``seat``'s hand, in the order they came."""
        return [self.deck[i] for i in self._hands[seat]]

    def hand_ids(self, seat: int) -> tuple[int, ...]:
        """The deck positions of ``seat``'s cards (physical card ids)."""
        return tuple(self._hands[seat])

    def stock_ids(self) -> tuple[int, ...]:
        """The deck positions of the stock, top first (never shown to a player)."""
        return tuple(reversed(self._stock))

    def table_ids(self) -> tuple[int, ...]:
        """The deck positions of the cards on the table."""
        return tuple(self._table_ids)

    def opened(self, seat: int) -> bool:
        """True once ``seat`` has made its opening play (V7)."""
        return self._opened[seat]

    def hand_value(self, seat: int) -> int:
        """V13: the value of the cards in ``seat``'s hand."""
        return sum(vatikanen_value(c) for c in self.hand(seat))

    @property
    def balances(self) -> tuple[Fraction, ...]:
        """The session balances after this game's payments so far (V16)."""
        pay = self.end.payments if self.end else (Fraction(0),) * self.n_players
        return tuple(b + p for b, p in zip(self.start_balances, pay, strict=True))

    def options(self) -> dict[str, bool]:
        """The options, by their record names."""
        return {"free_jokers": self.free_jokers, "blocked_game": self.blocked_game}

    def check_invariants(self) -> None:
        """Raise AssertionError if card conservation or the table breaks."""
        ids = [*self._stock, *self._table_ids]
        for hand in self._hands:
            ids += hand
        assert sorted(ids) == list(range(len(self.deck))), "cards are lost or doubled"
        table_cards = [c.plain() for m in self._table for c in m.cards]
        assert Counter(table_cards) == Counter(self.deck[i] for i in self._table_ids)
        for meld in self._table:
            read_meld(meld.cards, VATIKANEN)

    # ------------------------------------------------------------ checks

    def _check_turn(self, seat: int) -> None:
        if self.end is not None:
            if self.end.reason == "out":
                who = self.players[self.end.winners[0]]
                raise RuleError("V13", f"the game is over: {who} went out")
            raise RuleError("V15", "the game is over: every player passed with an empty stock")
        if not 0 <= seat < self.n_players:
            raise RuleError("V1", f"there is no seat {seat} at this table")
        if seat != self._turn:
            raise RuleError("V4", f"it is not your turn: it is {self.players[self._turn]}'s turn")

    def _take_from_hand(self, seat: int, cards: Sequence[Card]) -> list[int]:
        """The ids of ``cards`` in ``seat``'s hand (first copies first); RuleError if missing."""
        left = list(self._hands[seat])
        taken = []
        for card in cards:
            plain = card.plain()
            for k, i in enumerate(left):
                if self.deck[i] == plain:
                    taken.append(left.pop(k))
                    break
            else:
                need = sum(1 for c in cards if c == plain)
                have = sum(1 for i in self._hands[seat] if self.deck[i] == plain)
                what = f"{need} of {plain}, you hold {have}" if have else f"{plain}"
                raise RuleError("V4", f"you can only play cards from your hand: you play {what}")
        return taken

    def _check_play(self, action: Play) -> tuple[list[int], list[Meld]]:
        """The hand ids played and the new table; RuleError if the play is illegal."""
        self._check_turn(action.seat)
        if not action.add:
            if action.table is None:
                raise RuleError("V4", "a play puts at least one card from your hand on the table")
            if not self._opened[action.seat]:
                raise RuleError(
                    "V7",
                    "your first play must be one run of at least 3 cards from your hand;"
                    " you add none",
                )
            raise RuleError(
                "V9",
                "a play that rearranges the table must add at least one card from your hand;"
                " to play no card, draw (or pass when the stock is empty)",
            )
        ids = self._take_from_hand(action.seat, action.add)
        table = self._table
        if not self._opened[action.seat]:
            return ids, check_opening(table, action.add, action.table)
        if action.table is not None:
            return ids, check_table(table, action.add, action.table, free_jokers=self.free_jokers)
        arranged = self._arrange(action.add)
        return ids, arranged

    def _arrange(self, add: Sequence[Card]) -> list[Meld]:
        """The solver's table with ``add`` placed, checked like an explicit table."""
        from rummykit import solver

        plain = [c.plain() for c in add]
        melds = solver.arrange_play(
            self._table, plain, rules=VATIKANEN, free_jokers=self.free_jokers
        )
        if melds is None:
            what = format_cards(plain)
            if not self.free_jokers and solver.arrange_play(
                self._table, plain, rules=VATIKANEN, free_jokers=True
            ):
                raise RuleError(
                    "V11",
                    f"{what} fits only by moving a table joker, which stays what it stands for"
                    " until a real copy of its card takes its place",
                )
            if not self._table:
                reason = "it is no run or group"
            else:
                reason = "no arrangement of the table and these cards is all valid melds"
            raise RuleError("V9", f"{what} cannot go on the table: {reason}")
        new = [list(m.cards) for m in melds]
        return check_table(self._table, plain, new, free_jokers=self.free_jokers)

    def verify_play(self, action: Play) -> None:
        """Raise RuleError unless ``action`` is legal now (V4, V7-V12)."""
        self._check_play(action)

    def verify_draw(self, action: Draw) -> None:
        """Raise RuleError unless ``action`` may draw now (V4b, V14)."""
        self._check_turn(action.seat)
        if not self._stock:
            raise RuleError("V14", "the stock is empty: play or pass")

    def verify_pass(self, action: Pass) -> None:
        """Raise RuleError unless ``action`` may pass now (V14: only with an empty stock)."""
        self._check_turn(action.seat)
        if self._stock:
            raise RuleError(
                "V14", "you may pass only when the stock is empty: play or draw instead"
            )

    def verify(self, action: Action) -> None:
        """Raise RuleError unless ``action`` is legal now."""
        if isinstance(action, Play):
            self.verify_play(action)
        elif isinstance(action, Draw):
            self.verify_draw(action)
        else:
            self.verify_pass(action)

    def can_play(self, action: Play) -> bool:
        """True when the play is legal now."""
        return _can(self.verify_play, action)

    def can_draw(self, seat: int) -> bool:
        """True when ``seat`` may draw now."""
        return _can(self.verify_draw, Draw(seat))

    def can_pass(self, seat: int) -> bool:
        """True when ``seat`` may pass now."""
        return _can(self.verify_pass, Pass(seat))

    def is_legal(self, action: Action) -> bool:
        """True when ``action`` is legal now."""
        return _can(self.verify, action)

    # ------------------------------------------------------------ actions

    def play(self, action: Play) -> Event:
        """Make the play (V4a, V7-V12); V13 if the hand is now empty."""
        ids, table = self._check_play(action)
        hand = self._hands[action.seat]
        for i in ids:
            hand.remove(i)
        self._table = table
        self._table_ids = sorted([*self._table_ids, *ids])
        opening = not self._opened[action.seat]
        self._opened[action.seat] = True
        self._passes = 0
        end = self._settle_out(action.seat) if not hand else None
        if action.table is not None:  # the log keeps the table as checked, not as written
            action = Play(action.seat, action.add, _table_cards(table))
        return self._log(action, table=tuple(table), end=end, opening=opening)

    def draw(self, seat: int) -> Event:
        """Draw the top card of the stock (V4b)."""
        action = Draw(seat)
        self.verify_draw(action)
        card_id = self._stock.pop()
        self._hands[seat].append(card_id)
        self._passes = 0
        return self._log(action, card=self.deck[card_id])

    def pass_turn(self, seat: int) -> Event:
        """Pass with an empty stock (V14); every player in succession ends the game (V15)."""
        action = Pass(seat)
        self.verify_pass(action)
        self._passes += 1
        end = self._settle_blocked() if self._passes >= self.n_players else None
        return self._log(action, end=end)

    def apply(self, action: Action) -> Event:
        """Verify and take any action; return the event logged."""
        if isinstance(action, Play):
            return self.play(action)
        if isinstance(action, Draw):
            return self.draw(action.seat)
        return self.pass_turn(action.seat)

    def _log(
        self,
        action: Action,
        *,
        card: Card | None = None,
        table: tuple[Meld, ...] | None = None,
        end: GameEnd | None = None,
        opening: bool = False,
    ) -> Event:
        event = Event(len(self.log), action, card, table, end, opening)
        self.log.append(event)
        public = event.to_json(None)
        self._log_json.append((public, event.to_json(event.seat) if card else public))
        if end is None:
            self._turn = (self._turn + 1) % self.n_players
        else:
            self.end = end
        return event

    def _settle_out(self, winner: int) -> GameEnd:
        """V13: each other player pays the winner the value of their hand."""
        values = tuple(self.hand_value(s) for s in range(self.n_players))
        pay = [Fraction(-v) for v in values]
        pay[winner] = Fraction(sum(values))
        return GameEnd("out", (winner,), values, tuple(pay))

    def _settle_blocked(self) -> GameEnd:
        """V15: the lowest hand wins the differences, split between tied winners."""
        n = self.n_players
        values = tuple(self.hand_value(s) for s in range(n))
        if not self.blocked_game:
            return GameEnd("no_winner", (), values, (Fraction(0),) * n)
        low = min(values)
        winners = tuple(s for s in range(n) if values[s] == low)
        pay = [Fraction(0)] * n
        for s in range(n):
            if s in winners:
                continue
            for w in winners:
                share = Fraction(values[s] - low, len(winners))
                pay[s] -= share
                pay[w] += share
        return GameEnd("blocked", winners, values, tuple(pay))

    # ------------------------------------------------------------ help

    def best_opening(self, seat: int | None = None, objective: Objective = "cards") -> Play | None:
        """The solver's best legal opening run for ``seat`` (V7), as a play; None if none."""
        from rummykit import solver

        seat = self._seat(seat)
        found = solver.best_opening(self.hand(seat), rules=VATIKANEN, objective=objective)
        if found is None:
            return None
        want = Counter(c.plain() for c in found.cards)
        run = next(m for m in found.table if Counter(m.plain_cards()) == want)
        return Play(seat, run.cards, (*_table_cards(self._table), run.cards))

    def best_play(self, seat: int | None = None, objective: Objective = "cards") -> Play | None:
        """The solver's best legal play for ``seat`` (most cards or points); None if none.

        Before the seat has opened this is the best opening (V7).
        """
        from rummykit import solver

        seat = self._seat(seat)
        if not self._opened[seat]:
            return self.best_opening(seat, objective)
        found = solver.best_play(
            self._table,
            self.hand(seat),
            rules=VATIKANEN,
            objective=objective,
            free_jokers=self.free_jokers,
        )
        if found is None:
            return None
        return Play(seat, tuple(found.cards), _table_cards(found.table))

    def can_play_at_all(self, seat: int | None = None) -> bool:
        """True when ``seat`` has some legal play now (asks the solver)."""
        return self.best_play(seat) is not None

    def _seat(self, seat: int | None) -> int:
        if seat is None:
            if self.end is not None:
                raise ValueError("the game is over")
            return self._turn
        return seat

    # ------------------------------------------------------------ views

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """Everything ``seat`` may know, as JSON-ready data (None: a spectator).

        Own hand (none for a spectator), the table with joker meanings, every
        hand's size, the stock's size (never its order), whose turn, who has
        opened, balances, and the log with other seats' drawn cards removed.
        The log's entries are shared between views: treat a view as read-only.
        """
        return {
            "game": "vatikanen",
            "game_number": self.number,
            "players": list(self.players),
            "seat": seat,
            "dealer": self.dealer,
            "forhand": forhand(self.dealer, self.n_players),
            "options": self.options(),
            "hand": None if seat is None else [str(c) for c in self.hand(seat)],
            "table": [[str(c) for c in m.cards] for m in self._table],
            "hand_sizes": [len(h) for h in self._hands],
            "stock_size": len(self._stock),
            "turn": self.turn,
            "opened": list(self._opened),
            "passes_in_row": self._passes,
            "balances": [number(b) for b in self.balances],
            "over": self.over,
            "end": None if self.end is None else self.end.to_json(),
            "log": [own if e.seat == seat else public for e, (public, own) in self._logged()],
        }

    def _logged(self) -> Iterable[tuple[Event, tuple[dict[str, Any], dict[str, Any]]]]:
        return zip(self.log, self._log_json, strict=True)

    # ------------------------------------------------------------ records

    def deal_record(self) -> DealRecord:
        """This game as one RECORD.md deal; every play carries the table it made."""
        if self._position:
            raise ValueError("a game set up from a position has no deal to record")
        actions = []
        for e in self.log:
            out = action_to_json(e.action)
            if isinstance(e.action, Play) and e.table is not None:
                out["table"] = [[str(c) for c in m.cards] for m in e.table]
            actions.append(out)
        return DealRecord(self.dealer, self.deck, tuple(actions))

    def to_record(self) -> GameRecord:
        """The game as a one-deal RECORD.md record."""
        return _record(self.players, [self], self.options())


def _can(verify: Any, action: Action) -> bool:
    try:
        verify(action)
    except RuleError:
        return False
    return True


def _table_cards(melds: Iterable[Meld]) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(m.cards) for m in melds)


def _player_names(players: int | Sequence[str]) -> tuple[str, ...]:
    if isinstance(players, int):
        return tuple(f"Player {i + 1}" for i in range(players))
    return tuple(players)


def _record(
    players: Sequence[str], games: Sequence[Game], options: Mapping[str, bool]
) -> GameRecord:
    defaults = {"free_jokers": False, "blocked_game": True}
    changed = {k: v for k, v in options.items() if defaults.get(k) != v}
    last = games[-1]
    return GameRecord(
        game="vatikanen",
        players=tuple(players),
        deals=tuple(g.deal_record() for g in games),
        options=changed,
        result={"scores": [number(b) for b in last.balances]},
    )


# ---------------------------------------------------------------- sessions


class Session:
    """A series of Vatikanen games with zero-sum running balances (V16).

    The first game's dealer is ``dealer`` (default: the last seat, so seat 0
    plays first); the deal passes to the left after each game. Each game's deck
    is shuffled from a seed drawn from ``seed``, so a session is reproducible.
    Options are those of :class:`Game`.
    """

    def __init__(
        self,
        players: int | Sequence[str] = 2,
        *,
        seed: int | None = None,
        dealer: int | None = None,
        free_jokers: bool = False,
        blocked_game: bool = True,
    ) -> None:
        self.players = _player_names(players)
        n = len(self.players)
        self.free_jokers = free_jokers
        self.blocked_game = blocked_game
        self._rng = random.Random(seed)
        self._first_dealer = n - 1 if dealer is None else dealer
        self.games: list[Game] = []
        self.next_game()

    @property
    def game(self) -> Game:
        """The current (last started) game."""
        return self.games[-1]

    @property
    def balances(self) -> tuple[Fraction, ...]:
        """The running balances after the current game's payments so far (V16)."""
        return self.game.balances

    def next_game(self, deck: Sequence[Card] | None = None) -> Game:
        """Start the next game, the deal passing to the left; the current one must be over."""
        if self.games and not self.game.over:
            raise RuleError("V16", "finish the current game before the next one starts")
        n = len(self.players)
        k = len(self.games)
        balances = self.balances if self.games else None
        game = Game(
            self.players,
            seed=self._rng.randrange(2**63),
            deck=deck,
            dealer=(self._first_dealer + k) % n,
            free_jokers=self.free_jokers,
            blocked_game=self.blocked_game,
            number=k + 1,
            balances=balances,
        )
        self.games.append(game)
        return game

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The current game's view for ``seat`` (see :meth:`Game.view`)."""
        return self.game.view(seat)

    def to_record(self) -> GameRecord:
        """The whole session as a RECORD.md record, one deal per game."""
        return _record(self.players, self.games, self.game.options())


# ---------------------------------------------------------------- records

_OPTIONS = {"free_jokers": False, "blocked_game": True}


def _read_options(options: Mapping[str, Any]) -> dict[str, bool]:
    out = dict(_OPTIONS)
    for key, value in options.items():
        if key not in _OPTIONS:
            known = ", ".join(_OPTIONS)
            raise ValueError(f"unknown Vatikanen option {key!r}: the options are {known}")
        if not isinstance(value, bool):
            raise ValueError(f"option {key!r} must be true or false")
        out[key] = value
    return out


def game_deck(players: int, options: Mapping[str, Any]) -> list[Card]:
    """The unshuffled Vatikanen deck (V2) for a record; ValueError for a bad setup (V1)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Vatikanen is for 2 to 5 players, not {players} (V1)")
    _read_options(options)
    return full_deck(PACKS, JOKERS)


def deck_size(players: int, options: Mapping[str, Any]) -> int:
    """How many cards a Vatikanen deal uses (V2): 106."""
    return len(game_deck(players, options))


def replay_record(record: GameRecord) -> ReplayResult:
    """Replay a Vatikanen record, checking every action; the first illegal one is reported.

    ``scores`` are the zero-sum balances after the last deal replayed (V16).
    A deal that stops before its game is over is allowed only as the last one.
    """
    try:
        options = _read_options(record.options)
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    balances: tuple[Fraction, ...] = (Fraction(0),) * len(record.players)
    for d, deal in enumerate(record.deals):
        game = Game(
            record.players,
            deck=deal.deck,
            dealer=deal.dealer,
            number=d + 1,
            balances=balances,
            **options,
        )
        for a, raw in enumerate(deal.actions):
            try:
                game.apply(action_from_json(raw))
            except (RuleError, MeldError) as exc:
                rule = exc.rule if isinstance(exc, RuleError) else "V9"
                message = exc.message if isinstance(exc, RuleError) else str(exc)
                return ReplayResult(
                    ok=False,
                    deals=d + 1,
                    scores=[number(b) for b in balances],
                    deal=d,
                    action=a,
                    rule=rule,
                    message=message,
                )
            except ValueError as exc:
                raise RecordError(f"deal {d}, action {a}: {exc}") from None
        if not game.over and d + 1 < len(record.deals):
            return ReplayResult(
                ok=False,
                deals=d + 1,
                scores=[number(b) for b in balances],
                deal=d,
                action=len(deal.actions),
                rule="V16",
                message="this game is not over (nobody went out, V13/V15),"
                " but the record starts another deal",
            )
        balances = game.balances
    return ReplayResult(ok=True, deals=len(record.deals), scores=[number(b) for b in balances])
