"""``KontraktGame.from_position``: a deal set up mid-play (for determinized search).

The engine must judge a position's game exactly as the game it was taken
from: the same hands, table and pile, the same legal actions, and the same
events when the same actions follow.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from play_helpers import advance
from rummykit.bots import make_bot
from rummykit.bots.kontrakt_search import outcomes, position, rollout
from rummykit.bots.sampling import Deal, sample_kontrakt
from rummykit.cards import Card, full_deck, parse_cards
from rummykit.errors import RuleError
from rummykit.games.kontrakt import (
    DealEnded,
    Discard,
    Draw,
    KontraktGame,
    KontraktPosition,
    LayOff,
    Phase,
    candidate_actions_for,
)


def _midgame(seed: int, actions: int, players: int = 4) -> KontraktGame:
    """A game of basic bots stopped after ``actions`` actions, in the draw or play phase."""
    game = KontraktGame(players, seed=seed)
    bots = advance(game, "kontrakt", "basic", players, actions)
    while game.phase not in (Phase.DRAW, Phase.PLAY):
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat)))
    return game


def _copy(game: KontraktGame) -> KontraktGame:
    """The position of ``game`` with every card where it is (the true deal, no guessing)."""
    seat = game.to_act
    assert seat is not None
    view = game.view(seat)
    deal = Deal([game.hand(s) for s in range(game.n_players)], game.stock)
    return position(view, deal, seed=1)


@pytest.mark.parametrize(("seed", "actions"), [(1, 30), (2, 70), (5, 120), (11, 200)])
def test_position_copies_the_deal_exactly(seed: int, actions: int) -> None:
    game = _midgame(seed, actions)
    copy = _copy(game)
    for seat in range(game.n_players):
        a, b = game.view(seat, log=False), copy.view(seat, log=False)
        for key in ("hand", "hand_sizes", "stock_size", "discard_pile", "table", "laid", "phase"):
            assert a[key] == b[key], key
        assert a["totals"] == [0] * game.n_players or len(copy.scores) == game.deal
    assert copy.stock == game.stock
    assert sorted(map(str, copy.suggested_actions()), key=str) == sorted(
        map(str, game.suggested_actions()), key=str
    )


@pytest.mark.parametrize("seed", [3, 4])
def test_position_plays_on_like_the_game(seed: int) -> None:
    """The same actions give the same events up to the deal's end (the engine judges both)."""
    game = _midgame(seed, 50)
    copy = _copy(game)
    bots = [make_bot("kontrakt", "basic", s) for s in range(game.n_players)]
    deal = game.deal
    while game.deal == deal and game.to_act is not None:
        seat = game.to_act
        action = bots[seat].choose(game.view(seat))
        one, two = game.apply(action), copy.apply(action)
        if isinstance(one, DealEnded):
            assert isinstance(two, DealEnded)
            assert (one.out, one.penalties) == (two.out, two.penalties)
            break
        assert replace(one, index=0) == replace(two, index=0)  # the log starts anew
    else:  # pragma: no cover - a basic deal always ends
        pytest.fail("the deal did not end")


def test_K2_position_must_hold_the_whole_deck() -> None:
    deck = full_deck(2, 2)
    hands = [deck[i * 10 : i * 10 + 10] for i in range(4)]
    rest = deck[40:]
    game = KontraktGame.from_position(
        KontraktPosition(hands, deal=2, dealer=0, stock=rest[1:], discard_pile=rest[:1], turn=1)
    )
    assert game.deal == 2 and game.to_act == 1 and game.totals == [0, 0, 0, 0]
    with pytest.raises(ValueError, match="K2"):
        KontraktGame.from_position(
            KontraktPosition(hands, deal=2, dealer=0, stock=rest[2:], discard_pile=rest[:1], turn=1)
        )


def test_K8_position_keeps_the_picked_up_card() -> None:
    """A card taken from the pile this turn may not be discarded again (K8)."""
    deck = full_deck(2, 2)
    picked = deck[40]
    hands = [[*deck[0:10], picked], *[deck[i * 10 : i * 10 + 10] for i in range(1, 4)]]
    game = KontraktGame.from_position(
        KontraktPosition(
            hands,
            deal=0,
            dealer=3,
            stock=deck[41:],
            discard_pile=[],
            turn=0,
            phase=Phase.PLAY,
            picked_up=picked,
        )
    )
    with pytest.raises(RuleError) as info:
        game.apply(Discard(0, picked))
    assert info.value.rule == "K8"
    assert game.can(Discard(0, deck[0]))


def test_K10_position_table_takes_lay_offs() -> None:
    """Melds on a position's table are real melds: a completed seat may lay off onto them."""
    pool = Counter(full_deck(2, 2))
    meld = parse_cards("7h 8h 9h")
    group = parse_cards("Kc Kd Ks")
    hand0 = parse_cards("Th 2c 3c")
    used = [*meld, *group, *hand0]
    pool.subtract(used)
    rest = sorted(pool.elements(), key=str)
    random.Random(4).shuffle(rest)
    hands = [hand0, rest[:10], rest[10:20], rest[20:30]]
    game = KontraktGame.from_position(
        KontraktPosition(
            hands,
            deal=1,
            dealer=3,
            stock=rest[31:],
            discard_pile=rest[30:31],
            table=[(0, group, True), (0, meld, True)],
            laid=[(1, 1, True), (0, 0, False), (0, 0, False), (0, 0, False)],
            turn=0,
        )
    )
    game.apply(Draw(0, "stock"))
    game.apply(LayOff(0, Card.parse("Th"), 1))
    assert [str(c) for c in game.table[1].meld.cards] == ["7h", "8h", "9h", "Th"]
    with pytest.raises(ValueError, match="record"):
        game.to_record()


def test_rollout_ends_the_deal_and_outcomes_are_reproducible() -> None:
    game = _midgame(7, 60)
    seat = game.to_act
    assert seat is not None
    view = game.view(seat)
    rng = random.Random(3)
    deal = sample_kontrakt(view, rng)
    penalty = rollout(position(view, deal, seed=2), seat)
    assert 0 <= penalty <= 300
    if game.phase is Phase.DRAW:
        cands = [a for a in candidate_actions_for(view) if isinstance(a, Draw)]
    else:
        cands = [a for a in candidate_actions_for(view) if isinstance(a, Discard)][:3]
    first = outcomes(view, cands, random.Random(9), 4)
    assert first == outcomes(view, cands, random.Random(9), 4)
    assert [len(v) for v in first] == [4] * len(cands)
    assert outcomes(view, [Discard(seat, Card.parse("*"))], random.Random(9), 2) == [
        [float("inf")] * 2
    ] or any(c.is_joker for c in parse_cards(" ".join(view["hand"])))


def test_outcomes_past_the_deadline_stop_at_two_guesses() -> None:
    """A deadline already passed leaves the two guesses ``overrule`` needs, for every
    candidate alike; the guesses made are the first ones of the full run."""
    game = _midgame(7, 60)
    seat = game.to_act
    assert seat is not None
    view = game.view(seat)
    cands = [a for a in candidate_actions_for(view) if isinstance(a, (Draw, Discard))][:2]
    full = outcomes(view, cands, random.Random(9), 6)
    cut = outcomes(view, cands, random.Random(9), 6, deadline=0.0)
    assert [len(v) for v in cut] == [2] * len(cands)
    assert cut == [v[:2] for v in full]
    late = outcomes(view, cands, random.Random(9), 6, deadline=float("inf"))
    assert late == full
