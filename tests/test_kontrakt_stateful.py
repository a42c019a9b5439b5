"""Hypothesis state machines for the Kontrakt engine (RULES.md's invariants).

Across all seven deals: cards are conserved after every action; a seat's view
shows nothing it may not know (it does not change when hidden cards are
swapped or the stock is reordered); every rejected action leaves the state
exactly as it was; the game's record replays to the same totals.
"""

from __future__ import annotations

import copy
import random

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from kontrakt_helpers import conserved, engine_state
from rummykit.bots.kontrakt_basic import BasicBot, RandomBot
from rummykit.cards import JOKER, full_deck
from rummykit.errors import RuleError
from rummykit.games.kontrakt import (
    Action,
    BuyUpcard,
    DeclineUpcard,
    Discard,
    Draw,
    KontraktGame,
    LayDown,
    LayOff,
    PassUpcard,
    SwapJoker,
    TakeUpcard,
)
from rummykit.record import parse_record, replay

CARDS = sorted(set(full_deck(1, 1)), key=str)


def any_action(draw: st.DrawFn, players: int, melds: int) -> Action:
    """Any action at all, most of them illegal at any moment."""
    seat = draw(st.integers(-1, players))
    card = draw(st.sampled_from(CARDS))
    kind = draw(st.integers(0, 8))
    if kind == 0:
        return TakeUpcard(seat)
    if kind == 1:
        return DeclineUpcard(seat)
    if kind == 2:
        return BuyUpcard(seat)
    if kind == 3:
        return PassUpcard(seat)
    if kind == 4:
        return Draw(seat, draw(st.sampled_from(["stock", "discard"])))
    if kind == 5:
        cards = draw(st.lists(st.sampled_from(CARDS), min_size=0, max_size=5))
        return LayDown(seat, (tuple(cards),))
    meld = draw(st.integers(-1, melds + 1))
    if kind == 6:
        return LayOff(seat, card, meld, draw(st.none() | st.sampled_from(CARDS)))
    if kind == 7:
        return SwapJoker(seat, card, meld)
    return Discard(seat, card)


class KontraktMachine(RuleBasedStateMachine):
    """Bots, random legal actions and random illegal actions, with invariants checked."""

    game: KontraktGame

    @initialize(players=st.integers(2, 8), seed=st.integers(0, 2**31), mix=st.integers(0, 2))
    def start(self, players: int, seed: int, mix: int) -> None:
        self.game = KontraktGame(players, seed=seed)
        kinds = ("b", "r", "rb")[mix]
        self.bots = [
            (RandomBot if kinds[i % len(kinds)] == "r" else BasicBot)(seed + i)
            for i in range(players)
        ]
        self.rng = random.Random(seed)

    def live(self) -> bool:
        return self.game.to_act is not None

    @precondition(live)
    @rule(steps=st.integers(1, 150))
    def bots_play(self, steps: int) -> None:
        game = self.game
        for _ in range(steps):
            seat = game.to_act
            if seat is None:
                return
            game.apply(self.bots[seat].choose(game.view(seat, log=False)))
            assert conserved(game)

    @precondition(live)
    @rule(data=st.data())
    def legal_action(self, data: st.DataObject) -> None:
        actions = self.game.suggested_actions()
        assert actions, "the seat to act always has a legal action"
        self.game.apply(data.draw(st.sampled_from(actions)))

    @rule(data=st.data())
    def rejected_action_changes_nothing(self, data: st.DataObject) -> None:
        game = self.game
        action = any_action(data.draw, game.n_players, len(game.table))
        if game.can(action):
            game.apply(action)
            return
        before = engine_state(game)
        try:
            game.apply(action)
        except RuleError as exc:
            assert exc.rule.startswith("K") and exc.message
        else:  # pragma: no cover - can() said no
            raise AssertionError(f"{action} was applied though can() said no")
        assert engine_state(game) == before

    @rule()
    def view_shows_nothing_hidden(self) -> None:
        """Swap hidden cards and reorder the stock in a copy: no seat's view may change."""
        game = self.game
        seat = self.rng.randrange(game.n_players)
        other = (seat + 1 + self.rng.randrange(game.n_players - 1)) % game.n_players
        before = game.view(seat)
        twin = copy.deepcopy(game)
        s = twin._s
        self.rng.shuffle(s.stock)
        if s.stock and s.hands[other]:
            # an opponent's card that nobody saw taken (not the picked-up one) swaps with the stock
            seen = {s.picked}
            for h, card in enumerate(s.hands[other]):
                if card not in seen and s.deck[card] != s.deck[s.stock[0]]:
                    s.hands[other][h], s.stock[0] = s.stock[0], card
                    break
        assert twin.view(seat) == before

    @invariant()
    def cards_conserved(self) -> None:
        if hasattr(self, "game"):
            assert conserved(self.game)

    @invariant()
    def views_are_censored(self) -> None:
        if not hasattr(self, "game"):
            return
        game = self.game
        for seat in (None, *range(game.n_players)):
            view = game.spectator_view() if seat is None else game.view(seat)
            assert "stock" not in view
            if seat is None:
                assert view["hand"] is None
            else:
                assert view["hand"] == [str(c) for c in game.hand(seat)]
            for entry in view["log"]:
                assert "restock" not in entry
                if "drawn" in entry:
                    assert entry["seat"] == seat

    def teardown(self) -> None:
        if not hasattr(self, "game"):
            return
        game = self.game
        event(f"reached deal {game.deal + 1}" + (" (game over)" if game.over else ""))
        record = parse_record(game.to_record().to_json())
        result = replay(record)
        assert result.ok, result
        assert list(result.scores) == game.totals


KontraktMachine.TestCase.settings = settings(
    max_examples=8,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TestKontraktMachine = KontraktMachine.TestCase


def test_conservation_and_joker_count_over_whole_games() -> None:
    """Whole games, every action: the same physical cards, jokers never made or lost."""
    for players, seed in ((2, 21), (5, 22), (8, 23)):
        game = KontraktGame(players, seed=seed)
        bots = [BasicBot(seed + i) for i in range(players)]
        deals = set()
        while (seat := game.to_act) is not None:
            game.apply(bots[seat].choose(game.view(seat, log=False)))
            assert conserved(game)
            deals.add(game.deal)
        assert deals == set(range(7))
        places = game.card_places().values()
        assert sum(1 for p in places for i in p if game._s.deck[i] == JOKER) == game.jokers
