"""The Vatikanen ``expert`` bot: views only, determinism, legal play; its play-out simulator.

Its strength is the arena's job (``rummykit simulate``, ``docs/bots.md``); here
a few small games keep the suite fast, and a slow-marked soak plays thousands.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from play_helpers import advance
from rummykit.bots import levels, make_bot
from rummykit.bots.levels import check_settings, describe_level, level_label
from rummykit.bots.vatikanen_expert import ExpertBot, candidates
from rummykit.bots.vatikanen_rollout import Sim, policy_play
from rummykit.bots.vatikanen_strong import StrongBot
from rummykit.cards import parse_cards
from rummykit.errors import MessageError
from rummykit.games.vatikanen import Play, VatikanenGame


def _roundtrip(view: Any) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(view))
    return out


def test_expert_is_registered_with_a_label_and_about_in_both_languages() -> None:
    assert "expert" in levels("vatikanen")
    assert level_label("vatikanen", "expert").translated("sv") == "mästare"
    about = describe_level("vatikanen", "expert")
    assert about is not None
    assert about.translated("sv") != about.translated("en")


def test_expert_settings_are_bounded() -> None:
    assert check_settings("vatikanen", "expert", {"samples": 4, "ms": 50}) == {
        "samples": 4,
        "ms": 50.0,
    }
    for bad in ({"samples": 0}, {"samples": 100_000}, {"ms": 0}, {"horizon": "x"}):
        with pytest.raises(MessageError):
            check_settings("vatikanen", "expert", bad)


# A position where the expert weighs several moves: seat 0 has opened, holds a joker
# and can lay cards in more than one way; seat 1 holds three cards.
_HANDS = ["7h 8h 9h * Kc Kd 2s 5c", "4d 6c 5d"]
_TABLE = ["Jc Qc Kc", "6d 7d 8d", "Ah 2h 3h", "7s 8s 9s Ts", "9c 9d 9s"]


def test_expert_weighs_several_candidates_here() -> None:
    game = VatikanenGame.from_position(_HANDS, _TABLE)
    table = tuple(tuple(m.cards) for m in game.table)
    steps = candidates(game.hand(0), table, True, game.stock_size, False)
    assert len(steps) >= 3
    assert any(not s.cards for s in steps)  # drawing is one of them


def test_expert_never_sees_a_hidden_card() -> None:
    """Swap hidden cards between the other hand and the stock: the seat's view is the same,
    and so is the expert's action."""
    game = VatikanenGame.from_position(_HANDS, _TABLE)
    stock = [game.deck[i] for i in game.stock_ids()]
    other = game.hand(1)
    swapped_hand = [*stock[:3]]
    swapped_stock = [*other, *stock[3:]]
    twin = VatikanenGame.from_position([_HANDS[0], swapped_hand], _TABLE, stock=swapped_stock)
    assert twin.hand(1) != game.hand(1)
    assert game.view(0, log=False) == twin.view(0, log=False)
    for seed in range(3):
        first = ExpertBot(seed, samples=6).choose(game.view(0))
        again = ExpertBot(seed, samples=6).choose(twin.view(0))
        assert first == again


def test_expert_is_deterministic_for_a_seed() -> None:
    game = VatikanenGame(3, seed=4)
    advance(game, "vatikanen", "greedy", 3, 15)
    seat = game.to_act
    assert seat is not None
    view = game.view(seat)
    first = make_bot("vatikanen", "expert", 9, samples=6).choose(view)
    again = make_bot("vatikanen", "expert", 9, samples=6).choose(_roundtrip(view))
    assert first == again
    assert game.can(first)


def test_V13_expert_goes_out_when_it_can() -> None:
    game = VatikanenGame.from_position(["Jh *", "2c 3c 4c 9s"], ["8h 9h Th"])
    action = ExpertBot(1).choose(game.view(0))
    assert isinstance(action, Play) and len(action.add) == 2


def test_V13_expert_weighing_the_payment_lays_21_of_22_cards_rather_than_hold_them() -> None:
    # strong's last turn in its 156-point game (test_bots_strong.py): 21 of 22 cards can
    # go down, both others hold 3. Weighing the payment (V13), the expert plays; on wins
    # alone (its default at three players) holding for a sweep wins more of its play-outs.
    game = VatikanenGame.from_position(
        [
            "8c Qd 4c 5s 2s Jh Kh 9h 8d 7h Kc 3d 4h 6c 5s 3c Tc Qh Td 3d 4s Ts",
            "4d 6c 5d",
            "6d 5h 6h",
        ],
        [
            "Jc Qc *:Kc Ac",
            "6d 7d 8d",
            "Td Jd Qd Kd Ad",
            "Ah 2h 3h",
            "7h 8h 9h",
            "7s 8s 9s Ts",
            "Qs *:Ks As",
            "2c 2c 2d",
            "3c 3h 3s",
            "9c 9c 9d",
            "Jc Jd Jh",
        ],
    )
    for seed in range(2):
        action = ExpertBot(seed, samples=8, score_weight=2).choose(game.view(0))
        assert isinstance(action, Play) and len(action.add) >= 18


def test_a_holding_seat_draws_until_its_whole_hand_can_go_down() -> None:
    table = (tuple(parse_cards("7h 8h 9h")), tuple(parse_cards("2c 3c 4c")))
    stock = parse_cards("Kd 5c Qs 6c 2d")
    sim = Sim([parse_cards("Th Jh 9s"), parse_cards("Ks Kh")], table, stock, [True, True], 0)
    sim.holder = 0
    sim.play_out(1)
    assert len(sim.hands[0]) == 4  # Th Jh could go down; the holder drew instead
    sim.play_out(1)  # seat 1 draws 5c (Ks Kh cannot go down)
    sim.play_out(1)  # seat 0: Th Jh 9s Kd still do not all fit; it draws Qs
    assert len(sim.hands[0]) == 5
    free = Sim([parse_cards("Th Jh 9s"), parse_cards("Ks Kh")], table, stock, [True, True], 0)
    free.play_out(1)
    assert len(free.hands[0]) == 1  # without the hold, the policy lays Th Jh


def test_expert_time_cap_stops_the_search() -> None:
    game = VatikanenGame.from_position(_HANDS, _TABLE)
    action = ExpertBot(1, samples=10_000, ms=1).choose(game.view(0))
    assert game.can(action)


def _play(game: VatikanenGame, bots: list[Any]) -> None:
    for _ in range(3_000):
        seat = game.to_act
        if seat is None:
            break
        action = bots[seat].choose(game.view(seat, log=False))
        assert game.can(action), action
        game.apply(action)
    game.check_invariants()
    assert game.over


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (2, 2), (3, 3), (4, 4)])
def test_expert_plays_whole_games_legally(players: int, seed: int) -> None:
    for game_seed in range(seed * 100, seed * 100 + 6):
        game = VatikanenGame(players, seed=game_seed)
        bots: list[Any] = [ExpertBot(game_seed, samples=2)]
        bots += [
            make_bot("vatikanen", "strong" if s % 2 else "greedy", s) for s in range(1, players)
        ]
        _play(game, bots)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_expert_soak_thousands_of_legal_games(players: int) -> None:
    for game_seed in range(800):
        game = VatikanenGame(players, seed=50_000 + game_seed, free_jokers=game_seed % 7 == 0)
        seats = [game_seed % players, (game_seed + 1) % players]
        bots: list[Any] = [
            ExpertBot(game_seed + s, samples=1 + game_seed % 3)
            if s in seats
            else make_bot("vatikanen", ("greedy", "strong", "random")[s % 3], s)
            for s in range(players)
        ]
        _play(game, bots)


# ---------------------------------------------------------------- the play-out simulator


@pytest.mark.parametrize(("players", "seed"), [(2, 5), (2, 6), (3, 7), (4, 8), (5, 9)])
def test_V13_V15_play_out_ends_as_the_engine_does(players: int, seed: int) -> None:
    """The simulator playing its policy for every seat ends a deal as the engine does with
    the strong bot's rules alone (``samples=0``): the same winners and payments."""
    game = VatikanenGame(players, seed=seed)
    sim = Sim(
        [game.hand(s) for s in range(players)],
        (),
        [game.deck[i] for i in game.stock_ids()],
        [False] * players,
        game.to_act or 0,
    )
    sim.play_out(5_000)
    bots = [StrongBot(s, samples=0) for s in range(players)]
    _play(game, bots)
    assert game.end is not None
    assert sim.winners == game.end.winners
    for s in range(players):
        result = sim.outcome(s)
        assert result.ended
        assert result.score == pytest.approx(float(game.end.payments[s]))
        assert result.win == (1 / len(sim.winners) if s in sim.winners else 0)


def test_V7_policy_opens_with_natural_cards_and_keeps_the_joker() -> None:
    step = policy_play(parse_cards("7h 8h 9h * Kc Kd"), (), False, 50, False)
    assert step.opening and not any(c.is_joker for c in step.cards)
    # only a joker run: draw while there is a stock, open with it when there is none (V14)
    hand = parse_cards("7h 9h * Kc")
    assert policy_play(hand, (), False, 50, False).cards == ()
    assert policy_play(hand, (), False, 0, False).opening


def test_V14_policy_draws_when_only_a_joker_would_go_down() -> None:
    table = (tuple(parse_cards("8h 9h Th")),)
    assert policy_play(parse_cards("* 2s"), table, True, 10, False).cards == ()
    assert len(policy_play(parse_cards("* 2s"), table, True, 0, False).cards) == 1


_GAME_SCRIPT = """
from rummykit.bots.vatikanen_expert import ExpertBot
from rummykit.bots import make_bot
from rummykit.games.vatikanen import VatikanenGame
for seed in (3, 8):
    game = VatikanenGame(2, seed=seed)
    bots = [ExpertBot(seed, samples=2), make_bot("vatikanen", "greedy", 1)]
    while (seat := game.to_act) is not None:
        action = bots[seat].choose(game.view(seat, log=False))
        print(action)
        game.apply(action)
"""


def test_expert_is_deterministic_across_processes() -> None:
    """Two processes play the same games alike (a joker's hash differs between them, so
    nothing may follow the order of a set of cards)."""
    import os
    import subprocess
    import sys

    env = dict(os.environ)
    runs = [
        subprocess.run(
            [sys.executable, "-c", _GAME_SCRIPT],
            capture_output=True,
            text=True,
            check=True,
            env=env,
            timeout=120,
        ).stdout
        for _ in range(2)
    ]
    assert runs[0] and runs[0] == runs[1]
