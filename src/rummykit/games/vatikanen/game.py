"""One game of Vatikanen (RULES.md, V1-V15) as a pure state machine: :class:`VatikanenGame`.

A game is one deal; a :class:`~rummykit.games.vatikanen.session.Session` is a
series of games with zero-sum balances (V16), and is what a host holds. The
engine is the only authority on what is legal: every action has a trio
``verify_*`` (raises :class:`~rummykit.errors.RuleError` naming the rule),
``can_*`` (a bool) and the action itself, which verifies, changes the state
and returns the :class:`~rummykit.games.vatikanen.events.Event` appended to
:attr:`VatikanenGame.log`. A rejected action changes nothing.

Every physical card is tracked by its place in the dealt deck, so card
conservation (hands + stock + table = the deck) can be checked exactly
(:meth:`VatikanenGame.check_invariants`). :meth:`VatikanenGame.view` is the
only way an interface sees the game: fresh JSON data with other seats' cards
removed.

>>> game = VatikanenGame(2, seed=7)
>>> game.to_act, len(game.hand(0)), game.stock_size
(0, 13, 80)
>>> game.can_pass_turn(Pass(0))
False
>>> event = game.draw(Draw(0))
>>> game.to_act, len(game.hand(0)), game.stock_size
(1, 14, 79)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, Self, cast

from rummykit.cards import Card, full_deck, parse_cards, pretty_cards, vatikanen_value
from rummykit.dealing import deal_indices, forhand, shuffled_deck
from rummykit.errors import RuleError
from rummykit.game import AnyAction, Result, frozen
from rummykit.games.vatikanen.actions import Action, Draw, Pass, Play
from rummykit.games.vatikanen.events import Event, GameEnd, number
from rummykit.games.vatikanen.recording import session_record
from rummykit.games.vatikanen.table import check_opening, check_table
from rummykit.games.vatikanen.view import VatikanenLogEntry, VatikanenView
from rummykit.games.verbs import Verb, Verbs, can
from rummykit.i18n import N_
from rummykit.melds import VATIKANEN, Meld, read_meld

if TYPE_CHECKING:
    from rummykit.record import DealRecord, GameRecord

__all__ = [
    "CARDS_PER_PLAYER",
    "JOKERS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PACKS",
    "Objective",
    "VatikanenGame",
]

NOT_AN_ACTION = N_("{action} is not a Vatikanen action: play, draw or pass (V4)")

MIN_PLAYERS, MAX_PLAYERS = 2, 5
"""V1: 2-5 players."""
PACKS, JOKERS = 2, 2
"""V2: two 52-card packs and two jokers, 106 cards."""
CARDS_PER_PLAYER = 13
"""V3: 13 cards each."""

Objective = Literal["cards", "points"]
"""What the solver's best play maximises: cards laid, or their points (V13 values)."""


class VatikanenGame:
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

    name = "vatikanen"

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
        names = player_names(players)
        n = len(names)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise RuleError("V1", N_("Vatikanen is for 2 to 5 players, not {n}"), n=n)
        if deck is None:
            deck = shuffled_deck(PACKS, JOKERS, seed)
        deck = tuple(c.plain() for c in deck)
        if Counter(deck) != Counter(full_deck(PACKS, JOKERS)):
            raise RuleError(
                "V2", N_("the deck must be two 52-card packs and two jokers, 106 cards")
            )
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
        self._shown_key: tuple[int, int] = (-1, -1)
        self._shown_table: list[Meld] | None = None
        self._shown_cache: tuple[
            tuple[str, ...], tuple[tuple[str, ...], ...], tuple[int | float, ...]
        ] = ((), (), ())

    def copy(self) -> Self:
        """An independent copy (lists copied; cards, melds and events are immutable)."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._hands = [list(h) for h in self._hands]
        other._stock = list(self._stock)
        other._table = list(self._table)
        other._table_ids = list(self._table_ids)
        other._opened = list(self._opened)
        other.log = list(self.log)
        other._log_json = list(self._log_json)
        return other

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
    ) -> VatikanenGame:
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
        game._shown_key = (-1, -1)
        game._shown_cache = ((), (), ())  # another deck: its texts are made again
        game._shown_table = None
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
    def to_act(self) -> int | None:
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

    def card_places(self) -> dict[str, list[int]]:
        """Every physical card of the game (its place in the deck) by where it is:
        ``stock`` (top last), ``hand0``, ``hand1``..., ``table``.

        For conservation checks and tests; never shown to a player."""
        out = {"stock": list(self._stock)}
        for seat, hand in enumerate(self._hands):
            out[f"hand{seat}"] = list(hand)
        out["table"] = list(self._table_ids)
        return out

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

    @property
    def standings(self) -> tuple[float, ...]:
        """Each seat's balance so far (V16: the session's, this game's payments included)."""
        return tuple(float(b) for b in self.balances)

    def result(self) -> Result | None:
        """Once over: the winners (V13, V15) and each seat's balance after the game (V16)."""
        if self.end is None:
            return None
        return Result(self.end.winners, self.standings, True)

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
                raise RuleError("V13", N_("the game is over: {name} went out"), name=who)
            raise RuleError("V15", N_("the game is over: every player passed with an empty stock"))
        if not 0 <= seat < self.n_players:
            raise RuleError("V1", N_("there is no seat {seat} at this table"), seat=seat)
        if seat != self._turn:
            who = self.players[self._turn]
            raise RuleError("V4", N_("it is not your turn: the player to act is {name}"), name=who)

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
                if have:
                    raise RuleError(
                        "V4",
                        N_(
                            "you play {need} copies of {card} but hold {have}:"
                            " you can only play cards from your hand"
                        ),
                        need=need,
                        card=plain.pretty(),
                        have=have,
                    )
                raise RuleError(
                    "V4",
                    N_("you do not hold {card}: you can only play cards from your hand"),
                    card=plain.pretty(),
                )
        return taken

    def _check_play(self, action: Play) -> tuple[list[int], list[Meld]]:
        """The hand ids played and the new table; RuleError if the play is illegal."""
        self._check_turn(action.seat)
        if not action.add:
            if action.table is None:
                raise RuleError(
                    "V4", N_("a play puts at least one card from your hand on the table")
                )
            if not self._opened[action.seat]:
                raise RuleError(
                    "V7",
                    N_(
                        "your first play must be one run of at least 3 cards from your hand;"
                        " you add none"
                    ),
                )
            raise RuleError(
                "V9",
                N_(
                    "a play that rearranges the table must add at least one card from your hand;"
                    " to play no card, draw (or pass when the stock is empty)"
                ),
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
            what = pretty_cards(plain)
            if not self.free_jokers and solver.arrange_play(
                self._table, plain, rules=VATIKANEN, free_jokers=True
            ):
                raise RuleError(
                    "V11",
                    N_(
                        "{cards} fits only by moving a table joker, which stays what it stands"
                        " for until a real copy of its card takes its place"
                    ),
                    cards=what,
                )
            if not self._table:
                raise RuleError(
                    "V9", N_("{cards} cannot go on the table: it is no run or group"), cards=what
                )
            raise RuleError(
                "V9",
                N_(
                    "{cards} cannot go on the table: no arrangement of the table and these cards"
                    " is all valid melds"
                ),
                cards=what,
            )
        new = [list(m.cards) for m in melds]
        return check_table(self._table, plain, new, free_jokers=self.free_jokers)

    # ------------------------------------------------------------ actions: the trios

    def verify_play(self, action: Play) -> None:
        """Raise RuleError unless ``action`` is legal now (V4, V7-V12)."""
        self._check_play(action)

    def can_play(self, action: Play) -> bool:
        """True when the play is legal now."""
        return can(self.verify_play, action)

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

    def verify_draw(self, action: Draw) -> None:
        """Raise RuleError unless ``action`` may draw now (V4b, V14)."""
        self._check_turn(action.seat)
        if not self._stock:
            raise RuleError("V14", N_("the stock is empty: play or pass"))

    def can_draw(self, action: Draw) -> bool:
        """True when the draw is legal now."""
        return can(self.verify_draw, action)

    def draw(self, action: Draw) -> Event:
        """Draw the top card of the stock (V4b)."""
        self.verify_draw(action)
        card_id = self._stock.pop()
        self._hands[action.seat].append(card_id)
        self._passes = 0
        return self._log(action, card=self.deck[card_id])

    def verify_pass_turn(self, action: Pass) -> None:
        """Raise RuleError unless ``action`` may pass now (V14: only with an empty stock)."""
        self._check_turn(action.seat)
        if self._stock:
            raise RuleError(
                "V14", N_("you may pass only when the stock is empty: play or draw instead")
            )

    def can_pass_turn(self, action: Pass) -> bool:
        """True when the pass is legal now."""
        return can(self.verify_pass_turn, action)

    def pass_turn(self, action: Pass) -> Event:
        """Pass with an empty stock (V14); every player in succession ends the game (V15)."""
        self.verify_pass_turn(action)
        self._passes += 1
        end = self._settle_blocked() if self._passes >= self.n_players else None
        return self._log(action, end=end)

    # ------------------------------------------------------------ any action

    def verify(self, action: AnyAction) -> None:
        """Raise RuleError unless ``action`` is legal now; ActionError for no Vatikanen action."""
        VERBS.verify(self, action)

    def can(self, action: AnyAction) -> bool:
        """True when ``action`` is legal now."""
        return VERBS.can(self, action)

    def apply(self, action: AnyAction) -> Event:
        """Verify and take any action; return the event logged."""
        return VERBS.apply(self, action)

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
        public = frozen(event.to_json(None))  # read-only: shared by every view
        self._log_json.append((public, frozen(event.to_json(event.seat)) if card else public))
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
        """The solver's best legal opening run for ``seat`` (V7), as a play; None if none,
        and None when it is not ``seat``'s turn (V4: a play is made on one's own turn)."""
        from rummykit import solver

        seat = self._seat(seat)
        if seat != self.to_act:
            return None
        found = solver.best_opening(self.hand(seat), rules=VATIKANEN, objective=objective)
        if found is None:
            return None
        want = Counter(c.plain() for c in found.cards)
        run = next(m for m in found.table if Counter(m.plain_cards()) == want)
        return Play(seat, run.cards, (*_table_cards(self._table), run.cards))

    def best_play(self, seat: int | None = None, objective: Objective = "cards") -> Play | None:
        """The solver's best legal play for ``seat`` (most cards or points); None if none.

        Before the seat has opened this is the best opening (V7). Legal means legal
        now, as :meth:`verify` judges it: None when the game is over or it is not
        ``seat``'s turn (V4), so that a hint never offers a play the engine refuses.
        """
        from rummykit import solver

        seat = self._seat(seat)
        if seat != self.to_act:
            return None
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

    def arrange(self, seat: int, cards: Sequence[Card]) -> Play:
        """The play of ``cards`` from ``seat``'s hand with the whole table the engine would
        make for it (the solver fits them in exactly), ready to send; RuleError if there is
        none (V4, V7, V9, V11). Nothing changes: the player may still arrange it otherwise.
        """
        action = Play(seat, tuple(cards))
        _, table = self._check_play(action)
        return Play(seat, action.add, _table_cards(table))

    def candidate_plays(self, seat: int | None = None) -> list[Play]:
        """The solver's distinct good plays for ``seat``: the most cards, the most points.

        Not every legal play (there can be very many): the ones an interface
        offers and a bot or a learning agent chooses between.
        """
        out: list[Play] = []
        for objective in ("cards", "points"):
            play = self.best_play(seat, objective)
            if play is not None and play not in out:
                out.append(play)
        return out

    def suggested_actions(self) -> list[Action]:
        """The seat to act's draw (or pass, V14) and the candidate plays; empty when over.

        Each is legal, but they are not every legal action: a table allows very many plays.
        """
        seat = self.to_act
        if seat is None:
            return []
        simple: Action = Draw(seat) if self._stock else Pass(seat)
        return [simple, *self.candidate_plays(seat)]

    def _seat(self, seat: int | None) -> int:
        if seat is None:
            if self.end is not None:
                raise ValueError("the game is over")
            return self._turn
        return seat

    # ------------------------------------------------------------ views

    def view(self, seat: int, *, log: bool = True) -> VatikanenView:
        """Everything ``seat`` may know, as fresh JSON data (ValueError for no such seat).

        Own hand, the table with joker meanings, every hand's size, the stock's
        size (never its order), whose turn, who has opened, balances, and the
        log with other seats' drawn cards removed (``log=False`` leaves the log
        out). The view is a new object; the log's entries are read-only
        (changing one raises TypeError), so nothing a host can change is shared
        with the engine or another view.
        """
        self._check_seat(seat)
        return self._view(seat, log)

    def spectator_view(self, *, log: bool = True) -> VatikanenView:
        """What a spectator may know: the view of no seat (no hand at all)."""
        return self._view(None, log)

    def _check_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n_players:
            raise ValueError(f"there is no seat {seat!r}: the seats are 0 to {self.n_players - 1}")

    def _view(self, seat: int | None, log: bool) -> VatikanenView:
        text, table, balances = self._shown()
        out: VatikanenView = {
            "game": "vatikanen",
            "game_number": self.number,
            "players": list(self.players),
            "seat": seat,
            "dealer": self.dealer,
            "forhand": forhand(self.dealer, self.n_players),
            "options": {"free_jokers": self.free_jokers, "blocked_game": self.blocked_game},
            "hand": None if seat is None else [text[i] for i in self._hands[seat]],
            "table": [list(m) for m in table],
            "hand_sizes": [len(h) for h in self._hands],
            "stock_size": len(self._stock),
            "turn": self.to_act,
            "opened": list(self._opened),
            "passes_in_row": self._passes,
            "balances": list(balances),
            "over": self.over,
            "end": None if self.end is None else self.end.to_json(),
        }
        if log:
            out["log"] = self.log_entries(seat)
        return out

    def _shown(
        self,
    ) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...], tuple[int | float, ...]]:
        """The cards' texts, the table's and the balances, made again only after a change."""
        key = (len(self.deck), len(self.log))
        if self._shown_key != key:
            deck, table, balances = self._shown_cache
            if len(deck) != len(self.deck):  # the deck's texts are made once
                deck = tuple(str(c) for c in self.deck)
            if self._shown_table is not self._table:  # a play makes a new table
                self._shown_table = self._table
                table = tuple(tuple(str(c) for c in m.cards) for m in self._table)
            if not balances or self.end is not None:  # they change only when it ends
                balances = tuple(number(b) for b in self.balances)
            self._shown_key = key
            self._shown_cache = (deck, table, balances)
        return self._shown_cache

    def log_entries(self, viewer: int | None, start: int = 0) -> list[VatikanenLogEntry]:
        """The log from index ``start`` on as ``viewer`` (a seat, or None) sees it: a new list
        of read-only entries (:func:`rummykit.game.frozen`), written once and shared."""
        if viewer is not None:
            self._check_seat(viewer)
        entries = [
            own if e.seat == viewer else public
            for e, (public, own) in zip(self.log[start:], self._log_json[start:], strict=True)
        ]
        return cast(list[VatikanenLogEntry], entries)

    @property
    def log_size(self) -> int:
        """How many entries the game's log holds."""
        return len(self.log)

    # ------------------------------------------------------------ records

    def deal_record(self) -> DealRecord:
        """This game as one RECORD.md deal; every play carries the table it made."""
        from rummykit.record import DealRecord

        if self._position:
            raise ValueError("a game set up from a position has no deal to record")
        return DealRecord(self.dealer, self.deck, tuple(e.record_json() for e in self.log))

    def to_record(self) -> GameRecord:
        """The game as a one-deal RECORD.md record."""
        return session_record(self.players, [self.deal_record()], self.balances, self.options())


def _table_cards(melds: Iterable[Meld]) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(m.cards) for m in melds)


def player_names(players: int | Sequence[str]) -> tuple[str, ...]:
    """Seat names: the names given, or ``Player 1`` ... for a count."""
    if isinstance(players, int):
        return tuple(f"Player {i + 1}" for i in range(players))
    return tuple(players)


VERBS: Verbs[VatikanenGame, Event] = Verbs(
    NOT_AN_ACTION,
    Verb(Play, VatikanenGame.verify_play, VatikanenGame.play),
    Verb(Draw, VatikanenGame.verify_draw, VatikanenGame.draw),
    Verb(Pass, VatikanenGame.verify_pass_turn, VatikanenGame.pass_turn),
)
"""Vatikanen's actions (V4, V14) and their trios: what ``verify``, ``can`` and ``apply`` use."""
