"""Ratings (issue 42 item 2, issue 44 item 4): OpenSkill's numbers, each game's placing
of a finished game played to its end, and the bots' ladder file.

- An update is OpenSkill's own: the ``openskill`` package's Plackett-Luce model, asked
  directly here, gives the same mu and sigma for a two-player game and for a
  four-player game with a tie; the shown figure is its ordinal (z 3, alpha 50,
  target 400); a bot's seat keeps its reference rating.
- Placings come from the game: bots play a Vatikanen session and a Kontrakt game to
  the end, and the places read from the result their record ends with put first
  exactly the seats the engine says won, in the game's direction (Vatikanen's
  balances higher, Kontrakt's penalties lower).
- The committed ladder covers every level a table can seat, each with finite
  figures, the games it rests on, and the command and date it was measured with.
"""

from __future__ import annotations

import json
import math
from importlib import resources

import pytest
from openskill.models import PlackettLuce

from rummykit import games
from rummykit.arena import ArenaConfig, play_game
from rummykit.bots.levels import levels, needs_settings
from rummykit.ratings import PROVISIONAL_GAMES, Rating, bot_rating, ladder, rate, rate_finished


def openskill_says(
    ratings: list[tuple[float, float]], ranks: list[int]
) -> list[tuple[float, float]]:
    """The ``openskill`` package's own update: its Plackett-Luce model, its defaults."""
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    return [(t[0].mu, t[0].sigma) for t in model.rate(teams, ranks=ranks)]


def test_a_two_player_game_moves_both_ratings_as_openskill_does() -> None:
    before = [Rating(), Rating(31.5, 4.2, 40)]
    after = rate_finished("vatikanen", {"scores": [-38, 38]}, before)  # seat 1 won
    expected = openskill_says([(25.0, 25 / 3), (31.5, 4.2)], [2, 1])
    for got, (mu, sigma) in zip(after, expected, strict=True):
        assert got.mu == pytest.approx(mu, abs=1e-9) and got.sigma == pytest.approx(sigma)
    assert [r.games for r in after] == [1, 41]
    assert after[0].mu < 25 and after[1].mu > 31.5


def test_a_four_player_game_with_a_tie_moves_every_rating_as_openskill_does() -> None:
    start = [(25.0, 25 / 3), (28.0, 3.0), (20.0, 5.5), (33.0, 1.2)]
    before = [Rating(mu, sigma, 30) for mu, sigma in start]
    # Kontrakt: lower totals are better; seats 1 and 2 tie for second
    after = rate_finished("kontrakt", {"scores": [40, 95, 95, 210]}, before)
    expected = openskill_says(start, [1, 2, 2, 4])
    for got, (mu, sigma) in zip(after, expected, strict=True):
        assert got.mu == pytest.approx(mu, abs=1e-9) and got.sigma == pytest.approx(sigma)
    # the tied seats of unequal ratings move apart in the tie's direction: the weaker up
    assert after[2].mu > 20.0 and after[1].mu < 28.0


def test_a_bot_seat_keeps_its_reference_rating_and_weighs_in_the_others_update() -> None:
    bot = Rating(35.0, 1.0, 300)
    player, kept = rate([Rating(), bot], [1, 2], fixed=[False, True])
    assert kept is bot
    (mu, sigma), _ = openskill_says([(25.0, 25 / 3), (35.0, 1.0)], [1, 2])
    assert player.mu == pytest.approx(mu) and player.sigma == pytest.approx(sigma)
    # beating a strong bot moves a newcomer more than beating a newcomer does
    beat_newcomer, _ = rate([Rating(), Rating()], [1, 2])
    assert player.mu > beat_newcomer.mu


def test_the_shown_figure_is_openskills_conservative_ordinal_and_provisional_at_first() -> None:
    model = PlackettLuce()
    for mu, sigma in [(25.0, 25 / 3), (31.2, 2.5), (12.0, 0.9)]:
        ours = Rating(mu, sigma, 0)
        assert ours.shown == round(model.rating(mu=mu, sigma=sigma).ordinal(3.0, 50.0, 400.0))
    assert Rating().shown == 400 and Rating(25.0, 1.0).shown == 1500
    assert Rating(games=PROVISIONAL_GAMES - 1).provisional
    assert not Rating(games=PROVISIONAL_GAMES).provisional
    assert Rating().to_json()["provisional"] is True


def test_a_result_that_does_not_fit_the_table_is_refused() -> None:
    spec = games.get("kontrakt")
    for bad in ({}, {"scores": [1, 2]}, {"scores": [1, "2", 3]}, {"scores": [1, True, 3]}):
        with pytest.raises(ValueError):
            spec.places(bad, 3)
    with pytest.raises(ValueError):
        spec.places({"scores": [1.0, math.inf, 3]}, 3)
    with pytest.raises(ValueError, match="2 to 8 players"):
        rate([Rating()], [1])
    with pytest.raises(ValueError, match="places"):
        rate([Rating(), Rating()], [1, 3])


@pytest.mark.parametrize(
    ("game", "players", "bots"),
    [("vatikanen", 3, ("strong", "greedy", "greedy")), ("kontrakt", 4, ("basic",) * 4)],
)
def test_a_finished_game_played_by_bots_places_its_winners_first(
    game: str, players: int, bots: tuple[str, ...]
) -> None:
    spec = games.get(game)
    config = ArenaConfig(game, players, bots, games=players, seed=42, records=True)
    for index in range(players):
        played = play_game(config, index)
        assert played.error is None and played.record is not None
        result = json.loads(played.record)["result"]  # what table_games.result keeps
        places = spec.places(result, players)
        assert {s for s, p in enumerate(places) if p == 1} == set(played.winners)
        for a in range(players):
            for b in range(players):
                better = (played.scores[a] > played.scores[b]) == spec.higher_is_better
                if played.scores[a] != played.scores[b] and better:
                    assert places[a] < places[b]
                if played.scores[a] == played.scores[b]:
                    assert places[a] == places[b]
        rated = rate_finished(game, result, [Rating()] * players)
        assert max(rated, key=lambda r: r.mu) == rated[played.winners[0]]


def test_the_ladder_covers_every_level_a_table_can_seat() -> None:
    text = resources.files("rummykit.ratings").joinpath("ladder.json").read_text("utf-8")
    data = json.loads(text)
    assert data["format"] == 1
    for game in games.names():
        seatable = {lv for lv in levels(game) if not needs_settings(game, lv)}
        entry = data["games"][game]
        assert set(entry["levels"]) == seatable, game
        assert entry["command"].startswith("python benchmarks/ladder.py") and entry["date"]
        pairs = {frozenset(m["levels"]) for m in entry["matches"]}
        assert len(pairs) == len(seatable) * (len(seatable) - 1) // 2  # a full round robin
        assert all(m["games"] > 0 and m["failed"] == 0 for m in entry["matches"])
        for level in seatable:
            rating = bot_rating(game, level)
            assert rating is not None and math.isfinite(rating.mu)
            assert 0 < rating.sigma < 25 / 3 and rating.games > 0
        rungs = ladder(game)
        assert [r.level for r in rungs][-1] == "random"  # the random bot is the bottom rung
        assert [r.rating.ordinal for r in rungs] == sorted(
            (r.rating.ordinal for r in rungs), reverse=True
        )
    assert bot_rating("vatikanen", "policy") is None
