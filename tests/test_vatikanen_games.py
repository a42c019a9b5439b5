"""Whole Vatikanen games with bots; views; the bot interface; and the slow soak."""

import json
import os
import random
from collections import Counter

import pytest

from rummykit import solver
from rummykit.bots import levels, make_bot, play_out
from rummykit.cards import parse_cards
from rummykit.errors import RuleError
from rummykit.games.vatikanen import Draw, Pass, Play, VatikanenGame
from rummykit.melds import VATIKANEN
from rummykit.record import replay


def check_secrecy(game: VatikanenGame) -> None:
    for seat in [None, *range(game.n_players)]:
        view = game.spectator_view() if seat is None else game.view(seat)
        json.dumps(view)
        if seat is None:
            assert view["hand"] is None
        else:
            assert Counter(view["hand"]) == Counter(str(c) for c in game.hand(seat))
        for entry in view["log"]:
            if entry["type"] == "draw":
                assert ("card" in entry) == (entry["seat"] == seat)


def play_checked(game: VatikanenGame, levels_: list[str], seed: int) -> VatikanenGame:
    bots = [make_bot("vatikanen", lvl, seed=seed * 10 + s) for s, lvl in enumerate(levels_)]
    while (seat := game.to_act) is not None:
        game.apply(bots[seat].choose(game.view(seat)))
        game.check_invariants()
        check_secrecy(game)
    result = replay(game.to_record())
    assert result.ok, result
    assert list(result.scores) == game.to_record().result["scores"]  # type: ignore[index]
    return game


@pytest.mark.parametrize("seed", range(6))
def test_random_bot_games_keep_every_invariant(seed: int) -> None:
    rng = random.Random(seed)
    n = 2 + seed % 4
    game = VatikanenGame(
        n, seed=seed, free_jokers=rng.random() < 0.5, blocked_game=rng.random() < 0.7
    )
    play_checked(game, ["random"] * n, seed)
    assert game.over and sum(game.balances) == 0


@pytest.mark.parametrize("seed", [0])
def test_greedy_bot_games_keep_every_invariant(seed: int) -> None:
    game = play_checked(VatikanenGame(2, seed=seed), ["greedy", "random"], seed)
    assert game.end is not None


def test_view_shape_and_json() -> None:
    game = VatikanenGame(["Ann", "Bo", "Cy"], seed=4)
    game.draw(Draw(0))
    view = game.view(1)
    assert set(view) == {
        "game", "game_number", "players", "seat", "dealer", "forhand", "options", "hand",
        "table", "hand_sizes", "stock_size", "turn", "opened", "passes_in_row", "balances",
        "over", "end", "log",
    }  # fmt: skip
    assert view["players"] == ["Ann", "Bo", "Cy"] and view["seat"] == 1
    assert view["hand_sizes"] == [14, 13, 13] and view["stock_size"] == 66
    assert view["log"] == [{"seat": 0, "type": "draw"}]
    assert game.view(0)["log"][0]["card"] == str(game.hand(0)[-1])
    assert game.spectator_view()["hand"] is None
    assert json.loads(json.dumps(view)) == view


def test_rejected_actions_change_nothing() -> None:
    game = VatikanenGame(3, seed=8)
    before = json.dumps([game.view(s) for s in range(3)]), game.stock_ids()
    for action in (Pass(0), Draw(2), Play(0, tuple(parse_cards("Qh Kh Ah")))):
        with pytest.raises(RuleError):
            game.apply(action)
    assert (json.dumps([game.view(s) for s in range(3)]), game.stock_ids()) == before


def test_legal_move_help() -> None:
    game = VatikanenGame.from_position(["7h 8h 9h 5c 2d", "3c"], ["Tc Th Ts"], opened=[False, True])
    opening = game.best_opening(0)
    assert opening is not None and sorted(map(str, opening.add)) == ["7h", "8h", "9h"]
    assert game.can_play_at_all(0)
    game.play(opening)
    game.draw(Draw(1))
    best = game.best_play(0)
    assert best is None or game.can_play(best)
    assert game.can_play_at_all(0) is (best is not None)


def test_bot_registry() -> None:
    assert {"random", "greedy"} <= set(levels("vatikanen"))
    with pytest.raises(ValueError, match="levels are"):
        make_bot("vatikanen", "grandmaster")


def test_bots_are_deterministic_given_their_seed() -> None:
    def actions(seed: int) -> list[str]:
        game = VatikanenGame(3, seed=seed)
        play_out(game, [make_bot("vatikanen", "random", seed=seed + s) for s in range(3)])
        return [json.dumps(e.replay_json()) for e in game.log]

    assert actions(3) == actions(3)


def test_greedy_plays_the_most_cards() -> None:
    table = ["Tc Th Th Ts", "7s 8s 9s"]
    game = VatikanenGame.from_position(["Js Qs 2d 5c", "3c"], table)
    action = make_bot("vatikanen", "greedy").choose(game.view(0))
    assert isinstance(action, Play) and sorted(map(str, action.add)) == ["Js", "Qs"]
    found = solver.best_play(game.table, game.hand(0), rules=VATIKANEN)
    assert found is not None and found.count == len(action.add)
    game.play(action)


def test_greedy_draws_or_passes_when_nothing_fits() -> None:
    game = VatikanenGame.from_position(["2d 5c", "3c"], ["Tc Th Ts"])
    assert make_bot("vatikanen", "greedy").choose(game.view(0)) == Draw(0)
    empty = VatikanenGame.from_position(["2d 5c", "3c"], ["Tc Th Ts"], stock="")
    assert make_bot("vatikanen", "greedy").choose(empty.view(0)) == Pass(0)


SOAK_GAMES = int(os.environ.get("VATIKANEN_SOAK", "3000"))
"""Games in the soak; about 0.4 s each on one core with every check (1 s allowed)."""


@pytest.mark.slow
@pytest.mark.timeout(max(1200, SOAK_GAMES))  # a guard against hangs
def test_soak_random_and_greedy_games() -> None:
    """VATIKANEN_SOAK games (default 3,000) through the game interface: any player count,
    random options and bots (benchmarks/soak.py; 10,000 in docs/benchmarks.md)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from soak import main

    assert main(["--game", "vatikanen", "--games", str(SOAK_GAMES), "--jobs", "2"]) == 0
