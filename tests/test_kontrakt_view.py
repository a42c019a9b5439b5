"""Kontrakt views, hints, legal actions and bots (what interfaces and bots see)."""

from __future__ import annotations

import json
import os
from collections import Counter

import pytest

from kontrakt_helpers import game_with, play_bots, two_seats
from rummykit.bots import levels, make_bot
from rummykit.cards import parse_cards
from rummykit.games.kontrakt import (
    DealEnded,
    DeclineUpcard,
    Draw,
    KontraktGame,
    LayDown,
    PassUpcard,
    TakeUpcard,
    candidate_actions_for,
    hint_for,
)
from rummykit.games.kontrakt.contracts import CONTRACTS, candidate_melds, find_melds, largest_part
from rummykit.melds import MeldKind

VIEW_KEYS = {
    "turns_left",
    "game",
    "seat",
    "players",
    "deal",
    "deals",
    "dealer",
    "forhand",
    "contract",
    "phase",
    "turn",
    "over",
    "offer_to",
    "stock_only",
    "hand",
    "hand_sizes",
    "stock_size",
    "discard_pile",
    "picked_up",
    "table",
    "laid",
    "scores",
    "totals",
    "winners",
    "options",
    "log",
}


def test_view_is_plain_json_with_the_documented_keys() -> None:
    game = KontraktGame(["Anna", "Bo", "Cilla"], seed=3)
    play_bots(game, "b", 3, until_deal=1)
    for seat in (None, 0, 1, 2):
        view = game.spectator_view() if seat is None else game.view(seat)
        assert set(view) == VIEW_KEYS
        assert json.loads(json.dumps(view)) == view
    view = game.view(0)
    assert view["contract"]["text"] == "1 group + 1 run"
    assert len(view["hand"]) == 10 and view["hand_sizes"] == [10, 10, 10]
    assert view["scores"] and len(view["scores"][0]) == 3
    deal_end = [e for e in view["log"] if e["type"] == "deal_end"]
    assert len(deal_end) == 1 and 0 in deal_end[0]["penalties"]


def test_view_table_melds_have_number_owner_and_ends() -> None:
    game = game_with(2, {0: "8h 8d 8s 2h 2s 2d 4c 5c 6c Kd"}, upcard="*", dealer=1)
    game.take_upcard(TakeUpcard(0))
    game.lay_down(LayDown(0, (tuple(parse_cards("8h 8d 8s")), tuple(parse_cards("2h 2s 2d *")))))
    game.lay_down(LayDown(0, (tuple(parse_cards("4c 5c 6c")),)))
    table = game.view(1)["table"]
    assert table[0] == {
        "number": 0,
        "owner": 0,
        "kind": "group",
        "cards": ["8d", "8h", "8s"],
        "contract": True,
        "rank": 8,
    }
    assert table[1]["cards"] == ["2d", "2h", "2s", "*:2"]
    assert table[2] | {} == {
        "number": 2,
        "owner": 0,
        "kind": "run",
        "cards": ["4c", "5c", "6c"],
        "contract": False,
        "suit": "c",
        "low": 4,
        "high": 6,
    }


def test_log_hides_other_players_stock_draws() -> None:
    game = game_with(2, {}, upcard="9s", stock="Kh", dealer=1)
    game.decline_upcard(DeclineUpcard(0))
    game.pass_upcard(PassUpcard(1))
    game.apply(Draw(0))
    mine = game.view(0)["log"][-1]
    theirs = game.view(1)["log"][-1]
    spectator = game.spectator_view()["log"][-1]
    assert mine["drawn"] == ["Kh"]
    assert "drawn" not in theirs and "drawn" not in spectator


def test_hint_lists_contract_melds() -> None:
    game = game_with(2, {0: "8h 8d 8s 2h 2s 4c 5c 6c Kd Qd"}, upcard="2d", dealer=1)
    hint = hint_for(game.view(0))
    assert hint["need"] == [{"groups": 2, "runs": 0}]
    assert hint["parts"] == [["8d", "8h", "8s"]] and hint["whole"] is None
    game.take_upcard(TakeUpcard(0))
    hint = game.hint(0)
    assert hint["whole"] == [["8d", "8h", "8s"], ["2d", "2h", "2s"]]


def test_find_melds_prefers_naturals_and_extends() -> None:
    hand = parse_cards("4h 5h 6h 7h * 9d 9c Ks")
    assert find_melds(hand, 0, 1) == [parse_cards("4h 5h 6h 7h")]
    groups = find_melds(hand, 1, 1)
    assert groups is not None and len(groups) == 2
    assert find_melds(hand, 3, 0) is None
    assert largest_part(hand, 2, 0) is not None
    assert all(len(m) == 3 for m in candidate_melds(hand, MeldKind.RUN))
    assert str(CONTRACTS[6]) == "3 groups or 3 runs, all at once"


@pytest.mark.parametrize(
    ("hand", "groups"),
    [
        ("7h 7d 7s 7c 7h 7s 2c 9d Kh Qs", 2),  # two decks: two groups of sevens
        ("7h 7d 7s 7c 7h 2c 9d Kh Qs *", 2),  # the second with a joker
        ("7h 7d 7s 7c 7h 7s 8c 8d 8h Qs", 3),  # deal 4: three groups, two of one rank
    ],
)
def test_K5_two_groups_of_one_rank_are_found_for_a_contract(hand: str, groups: int) -> None:
    """K5 [reading]: two melds of one contract may share a rank, so the hint, the bots and
    the review find two groups of sevens from the two decks' sevens."""
    cards = parse_cards(hand)
    melds = find_melds(cards, groups, 0)
    assert melds is not None and len(melds) == groups
    laid = Counter(c.plain() for meld in melds for c in meld)
    assert not laid - Counter(c.plain() for c in cards)  # each card laid once, from the hand
    assert all(len({c.rank for c in meld if not c.is_joker}) == 1 for meld in melds)
    assert largest_part(cards, groups, 0) is not None


def test_K13_largest_part_keeps_two_cards_while_the_contract_stays_open() -> None:
    # A group and two runs wanted: both parts with every card that fits would keep
    # only the king, so the part is laid bare; completing the contract may empty more.
    nines_and_clubs = "9s 9h 9d 9c 9s 2c 3c 4c 5c 6c Kh"
    hand = parse_cards(nines_and_clubs)
    part = largest_part(hand, 1, 2)
    assert part is not None and part[:2] == (1, 1)
    assert sorted(map(len, part[2])) == [3, 3]
    full = largest_part(hand, 1, 1)
    assert full is not None and sorted(map(len, full[2])) == [5, 5]
    # one run of the two from four cards would keep one card: a smaller part, or none
    assert largest_part(parse_cards("4c 5c 6c Kh"), 0, 2) is None
    part = largest_part(parse_cards("7d 7h 7s 4c 5c 6c Kh"), 1, 2)
    assert part is not None and sum(part[:2]) == 1 and len(part[2][0]) == 3
    # the players' hint offers the same part, one the engine allows, as basic lays it
    game = two_seats(nines_and_clubs, "Qd", deal=5, draw=False)
    parts = game.hint(0)["parts"]
    assert sorted(map(len, parts)) == [3, 3]
    assert game.can(LayDown(0, tuple(tuple(parse_cards(" ".join(m))) for m in parts)))
    basic = make_bot("kontrakt", "basic", 1).choose(game.view(0))
    assert isinstance(basic, LayDown) and game.can(basic)


def test_generated_actions_are_all_legal() -> None:
    """candidate_actions_for (from the view alone) proposes only actions the engine allows."""
    for players, seed, kinds in ((2, 1, "b"), (4, 2, "rb"), (6, 3, "r")):
        game = KontraktGame(players, seed=seed)
        bots = [
            make_bot("kontrakt", "random" if k == "r" else "basic", seed + i)
            for i, k in enumerate((kinds * players)[:players])
        ]
        steps = 0
        while (seat := game.to_act) is not None and steps < 400:
            proposed = candidate_actions_for(game.view(seat, log=False))
            assert proposed and all(game.can(a) for a in proposed), proposed
            game.apply(bots[seat].choose(game.view(seat)))
            steps += 1


def test_bots_registered_and_deterministic() -> None:
    assert {"basic", "random"} <= set(levels("kontrakt"))
    with pytest.raises(ValueError, match="levels"):
        make_bot("kontrakt", "grandmaster")
    totals = []
    for _ in range(2):
        game = KontraktGame(3, seed=8)
        play_bots(game, "rb", 8)
        totals.append((game.totals, len(game.log)))
    assert totals[0] == totals[1]


def test_basic_bot_beats_random_bot() -> None:
    wins = 0
    for seed in range(6):
        game = KontraktGame(2, seed=seed)
        play_bots(game, "br" if seed % 2 else "rb", seed)
        basic = 0 if seed % 2 else 1
        wins += game.totals[basic] < game.totals[1 - basic]
    assert wins >= 5


def test_basic_bot_lays_down_as_soon_as_it_can() -> None:
    game = game_with(2, {0: "8h 8d 8s 2h 2s 2d 4c 5c 6c Kd"}, upcard="Qd", dealer=1)
    bot = make_bot("kontrakt", "basic", 1)
    assert game.can(bot.choose(game.view(0)))
    game.apply(bot.choose(game.view(0)))  # takes or declines
    while game.to_act != 0 or str(game.phase) != "play":
        seat = game.to_act
        assert seat is not None
        game.apply(bot.choose(game.view(seat)))
    action = bot.choose(game.view(0))
    assert isinstance(action, LayDown) and len(action.melds) == 2


@pytest.mark.slow
@pytest.mark.timeout(7200)  # a guard against hangs: about an hour on 2 free cores
def test_soak_many_games_without_error() -> None:
    """10,000 whole games through the game interface, 2-8 players, random and basic bots,
    the strong bot seated in every 25th (benchmarks/soak.py, docs/benchmarks.md)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from soak import main

    games = os.environ.get("KONTRAKT_SOAK", "10000")
    assert (
        main(["--game", "kontrakt", "--games", games, "--jobs", "2", "--strong-every", "25"]) == 0
    )


def test_play_out_from_the_bot_interface() -> None:
    from rummykit.bots import play_out

    game = KontraktGame(5, seed=12)
    bots = [make_bot("kontrakt", "basic", i) for i in range(5)]
    taken = play_out(game, bots)
    assert game.over and taken == sum(1 for e in game.log if hasattr(e, "action"))


def test_K13_deal_end_shows_the_table_as_it_stood() -> None:
    """The next deal is dealt at once, so the deal's end carries its last table."""
    game = KontraktGame(3, seed=5)
    bots = [make_bot("kontrakt", "basic", seed=s) for s in range(3)]
    while True:
        seat = game.to_act
        assert seat is not None
        before = {m.number: m for m in game.table}
        event = game.apply(bots[seat].choose(game.view(seat)))
        if isinstance(event, DealEnded):
            break
    numbers = [m.number for m in event.table]
    assert set(before) <= set(numbers) and numbers == sorted(numbers)
    shown = event.to_json(None)["table"]
    assert [m["number"] for m in shown] == numbers
    assert all({"owner", "kind", "cards"} <= set(m) for m in shown)
    assert game.table == []  # the next deal, dealt at once, starts with an empty table
    entry = game.view(0)["log"]
    assert any(e["type"] == "deal_end" and e["table"] == shown for e in entry)
