"""Puzzle ratings by Glicko-2 through the ``glicko2`` package (docs/puzzles.md, "Ratings"):
our updates are the package's own numbers, and the package is Glickman's paper's example."""

from __future__ import annotations

import glicko2
import pytest

from rummykit.puzzles.rating import Rating, rate


def test_the_package_reproduces_glickmans_worked_example() -> None:
    """Glickman's "Example of the Glicko-2 system": 1500/200/0.06 against three opponents
    ends at 1464.06 / 151.52 / 0.05999 (tau 0.5)."""
    player = glicko2.Player()
    player.setRd(200)
    player.update_player([1400, 1550, 1700], [30, 100, 300], [1, 0, 0])
    assert player.getRating() == pytest.approx(1464.06, abs=0.01)
    assert player.getRd() == pytest.approx(151.52, abs=0.01)
    assert player.vol == pytest.approx(0.05999, abs=1e-5)


def test_a_first_try_moves_both_ratings_by_the_package_s_own_numbers() -> None:
    me, puzzle = Rating(1500, 350, 0.06), Rating(1700, 100, 0.06)
    new_me, new_puzzle = rate(me, puzzle, solved=True)
    expect_me = glicko2.Player(1500, 350, 0.06)
    expect_me.update_player([1700], [100], [1])
    expect_puzzle = glicko2.Player(1700, 100, 0.06)
    expect_puzzle.update_player([1500], [350], [0])
    assert (new_me.rating, new_me.rd, new_me.volatility) == (
        expect_me.rating,
        expect_me.rd,
        expect_me.vol,
    )
    assert (new_puzzle.rating, new_puzzle.rd, new_puzzle.volatility) == (
        expect_puzzle.rating,
        expect_puzzle.rd,
        expect_puzzle.vol,
    )
    assert new_me.rating > 1500 and new_puzzle.rating < 1700
    lost_me, won_puzzle = rate(me, puzzle, solved=False)
    assert lost_me.rating < 1500 and won_puzzle.rating > 1700
