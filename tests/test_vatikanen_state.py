"""Hypothesis stateful tests of the Vatikanen engine (RULES.md invariants).

Random legal actions keep card conservation and the views' secrecy; random
(mostly illegal) actions are either legal or leave the state exactly as it
was; every finished game's record replays to the same balances (V16).
"""

import copy
import json
import random
from typing import Any

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from rummykit.bots.vatikanen_basic import hand_melds, lay_offs
from rummykit.cards import Card, full_deck
from rummykit.errors import RuleError
from rummykit.games.vatikanen import Action, Draw, Pass, Play, Session, VatikanenGame
from rummykit.record import replay

SMALL_TABLE = 30
"""Plays without an explicit table ask the solver; keep those to small tables."""


def snapshot(game: VatikanenGame) -> Any:
    """Everything the game holds, joker meanings included."""
    return (
        game.deck,
        [list(h) for h in game._hands],
        list(game._stock),
        [str(m) for m in game._table],
        list(game._table_ids),
        list(game._opened),
        game._turn,
        game._passes,
        game.end,
        [json.dumps(e.replay_json()) for e in game.log],
        json.dumps([game.spectator_view(), *(game.view(s) for s in range(game.n_players))]),
    )


def suggested_actions(game: VatikanenGame) -> list[Action]:
    """Some legal actions of the seat to play, found without the solver."""
    seat = game.to_act
    assert seat is not None
    hand = game.hand(seat)
    out: list[Action] = [Draw(seat) if game.stock_size else Pass(seat)]
    if not game.opened(seat):
        out += [Play(seat, tuple(run)) for run in hand_melds(hand, runs_only=True)]
        return out
    base = tuple(tuple(m.cards) for m in game.table)
    out += [Play(seat, tuple(m), (*base, tuple(m))) for m in hand_melds(hand)]
    out += [Play(seat, (card,), new) for card, new in lay_offs(hand, game.table)]
    return out


def random_action(game: VatikanenGame, rng: random.Random) -> Action:
    """A random action, usually illegal: any seat, any cards, any table."""
    seat = rng.randrange(game.n_players + 1) - (rng.random() < 0.1)
    kind = rng.choice(["play", "play", "draw", "pass"])
    if kind == "draw":
        return Draw(seat)
    if kind == "pass":
        return Pass(seat)
    pool = game.hand(seat) if 0 <= seat < game.n_players and rng.random() < 0.8 else []
    pool = pool + rng.sample(full_deck(2, 2), 3)
    add = tuple(rng.sample(pool, rng.randint(0, min(4, len(pool)))))
    table_cards = [c for m in game.table for c in m.cards]
    small = len(table_cards) <= SMALL_TABLE
    if rng.random() < 0.3 and small:
        return Play(seat, add)
    cards = table_cards + list(add)
    rng.shuffle(cards)
    melds: list[tuple[Card, ...]] = []
    while cards:
        k = rng.randint(1, 5)
        melds.append(tuple(cards[:k]))
        cards = cards[k:]
    if rng.random() < 0.5:
        melds = [*(tuple(m.cards) for m in game.table), tuple(add)]
    return Play(seat, add, tuple(melds))


def hidden_shuffled(game: VatikanenGame, seat: int, rng: random.Random) -> VatikanenGame:
    """A copy of the game with other seats' hands and the stock dealt differently."""
    other = copy.deepcopy(game)
    hidden = [i for s, h in enumerate(game._hands) if s != seat for i in h] + game._stock
    cards = [game.deck[i] for i in hidden]
    rng.shuffle(cards)
    deck = list(game.deck)
    for i, card in zip(hidden, cards, strict=True):
        deck[i] = card
    other.deck = tuple(deck)
    return other


class VatikanenMachine(RuleBasedStateMachine):
    """A session played by random legal actions, with random illegal ones mixed in."""

    session: Session

    @initialize(
        players=st.integers(2, 5),
        seed=st.integers(0, 2**32),
        free_jokers=st.booleans(),
        blocked_game=st.booleans(),
    )
    def start(self, players: int, seed: int, free_jokers: bool, blocked_game: bool) -> None:
        self.session = Session(
            players, seed=seed, free_jokers=free_jokers, blocked_game=blocked_game
        )
        self.rng = random.Random(seed)
        self.games_checked = 0

    @property
    def game(self) -> VatikanenGame:
        return self.session.game

    @precondition(lambda self: not self.game.over)
    @rule(data=st.data())
    def legal_action(self, data: st.DataObject) -> None:
        actions = suggested_actions(self.game)
        # A play whenever there is one, so that games reach their end; draw_or_pass draws.
        self.game.apply(data.draw(st.sampled_from(actions[1:] or actions)))

    @precondition(lambda self: not self.game.over)
    @rule()
    def draw_or_pass(self) -> None:
        seat = self.game.to_act
        assert seat is not None
        self.game.apply(Draw(seat) if self.game.stock_size else Pass(seat))

    @rule(seed=st.integers(0, 2**32))
    def random_action(self, seed: int) -> None:
        action = random_action(self.game, random.Random(seed))
        before = snapshot(self.game)
        try:
            self.game.apply(action)
        except RuleError as exc:
            assert exc.rule in {f"V{k}" for k in range(1, 17)}
            assert exc.message
            assert snapshot(self.game) == before, "a rejected action changed the state"

    @precondition(lambda self: self.game.over)
    @rule()
    def next_part(self) -> None:
        record = self.session.to_record()
        result = replay(record)
        assert result.ok, result
        assert list(result.scores) == [float(b) for b in self.session.balances]
        self.games_checked += 1
        self.session.next_part()

    def teardown(self) -> None:
        event(f"games finished: {min(self.games_checked, 3)}+")
        event(f"plays: {'some' if any(g.table for g in self.session.games) else 'none'}")

    @invariant()
    def conservation(self) -> None:
        self.game.check_invariants()
        assert sum(self.session.balances) == 0

    @invariant()
    def secrecy(self) -> None:
        game = self.game
        for seat in range(game.n_players):
            view = game.view(seat)
            json.dumps(view)
            assert view["hand"] == [str(c) for c in game.hand(seat)]
            other = hidden_shuffled(game, seat, self.rng)
            assert other.view(seat) == view, "a view depends on hidden cards"
        spectator = game.spectator_view()
        assert spectator["hand"] is None
        assert hidden_shuffled(game, -1, self.rng).spectator_view() == spectator


VatikanenMachine.TestCase.settings = settings(
    max_examples=6,
    stateful_step_count=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestVatikanenState = VatikanenMachine.TestCase
