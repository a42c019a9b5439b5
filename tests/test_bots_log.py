"""A bot that says it never reads its view's log (``READS_LOG = False``) plays the same
without it: the server sends such bots their views without the log."""

from __future__ import annotations

import pytest

from rummykit import games
from rummykit.bots.levels import levels, needs_settings, reads_log


@pytest.mark.parametrize("game", ["vatikanen", "kontrakt"])
def test_a_bot_that_skips_the_log_chooses_the_same_without_it(game: str) -> None:
    spec = games.get(game)
    skipping = [
        level
        for level in levels(game)
        if not needs_settings(game, level) and not reads_log(game, level)
    ]
    assert skipping, "no bot skips the log"
    for level in skipping:
        for seed in range(2):
            unit = spec.new(4 if game == "kontrakt" else 3, seed=seed)
            for _ in range(120 if game == "kontrakt" else 60):
                seat = unit.to_act
                if seat is None:
                    break
                whole = spec.make_bot(level, seed).choose(unit.view(seat))
                bare = spec.make_bot(level, seed).choose(unit.view(seat, log=False))
                assert whole == bare, (level, seed)
                unit.apply(whole)


def test_the_strong_kontrakt_bot_says_it_reads_the_log() -> None:
    assert reads_log("kontrakt", "strong")
