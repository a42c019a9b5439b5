"""Bot settings: every setting of every built-in bot is checked up front, by name.

``make_bot`` (and so ``simulate``, the terminal and the server) refuses a
setting of the wrong type or out of range, and a level built without a
setting it needs, with a message that names the setting, before any game
is played: never a traceback, never a bot that fails at every move.
"""

from __future__ import annotations

import pytest

from rummykit import games
from rummykit.bots.levels import (
    check_settings,
    declared,
    describe_level,
    levels,
    make_bot,
    needs_settings,
    settings_of,
)
from rummykit.cli import main
from rummykit.errors import MessageError
from rummykit.tui.setup import make_controller

LEVELS = [(game, level) for game in games.names() for level in levels(game)]
SETTINGS = [
    (game, level, name)
    for game, level in LEVELS
    for name in declared(game, level)
    if name != "path"  # a file: its own tests below
]


@pytest.mark.parametrize(("game", "level"), LEVELS)
def test_every_setting_a_bot_takes_is_declared_with_its_type(game: str, level: str) -> None:
    assert sorted(declared(game, level)) == sorted(settings_of(game, level))


@pytest.mark.parametrize(("game", "level", "name"), SETTINGS)
def test_a_setting_of_the_wrong_type_is_refused_naming_it(game: str, level: str, name: str) -> None:
    rule = declared(game, level)[name]
    wrong = "x" if rule.kind is not str else 3
    with pytest.raises(MessageError, match=f"setting {name} must be"):
        make_bot(game, level, 0, **{name: wrong})
    if rule.kind is int:
        with pytest.raises(MessageError, match=f"setting {name} must be a whole number"):
            make_bot(game, level, 0, **{name: 2.5})
    if rule.kind is not bool:
        with pytest.raises(MessageError, match=f"setting {name} must be"):
            make_bot(game, level, 0, **{name: True})


@pytest.mark.parametrize(
    ("game", "level", "name"),
    [(g, lv, n) for g, lv, n in SETTINGS if declared(g, lv)[n].low is not None],
)
def test_a_setting_out_of_range_is_refused_naming_it(game: str, level: str, name: str) -> None:
    rule = declared(game, level)[name]
    assert rule.low is not None
    with pytest.raises(MessageError, match=f"setting {name} must be at least"):
        make_bot(game, level, 0, **{name: rule.kind(rule.low - 5)})
    make_bot(game, level, 0, **{name: rule.kind(rule.low)})  # the bound itself is taken


def test_a_setting_may_be_null_only_where_the_bot_has_a_default() -> None:
    assert check_settings("vatikanen", "strong", {"samples": None}) == {"samples": None}
    with pytest.raises(MessageError, match="setting samples must be a whole number, not null"):
        make_bot("kontrakt", "strong", 0, samples=None)


@pytest.mark.parametrize("game", games.names())
def test_the_policy_bot_needs_its_file_and_says_so(game: str) -> None:
    assert needs_settings(game, "policy") == ["path"]
    with pytest.raises(MessageError, match=r"needs the setting path .*policy\(path=...\)"):
        make_bot(game, "policy", 0)
    with pytest.raises(MessageError, match=r"path names nowhere\.npz, which cannot be read"):
        make_bot(game, "policy", 0, path="nowhere.npz")


@pytest.mark.parametrize(
    ("bots", "said"),
    [
        ("policy", "needs the setting path"),
        (
            "strong(samples=x)",
            'setting samples must be a whole number, or null for the default, not "x"',
        ),
        ("strong(samples=-5)", "setting samples must be at least 0, not -5"),
        ("strong(dump_at=2)", "setting dump_at must be at most 1, not 2.0"),
        ("policy(path=nowhere.npz)", "cannot be read"),
    ],
)
def test_simulate_refuses_a_bad_bot_setting_before_playing(
    bots: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["simulate", "--game", "vatikanen", "--games", "2", "--bots", bots, "--quiet"])
    out, err = capsys.readouterr()
    assert code == 2 and said in err and "Traceback" not in err and out == ""


def test_the_terminal_offers_only_bots_it_can_seat() -> None:
    with pytest.raises(MessageError, match="the policy bot needs its settings"):
        make_controller("vatikanen", bots="policy")


@pytest.mark.parametrize(("game", "level"), LEVELS)
def test_every_bot_level_is_described_in_both_languages(game: str, level: str) -> None:
    about = describe_level(game, level)
    assert about is not None
    assert about.translated("sv") != about.translated("en")
    for name, rule in declared(game, level).items():
        assert rule.about, name


@pytest.mark.parametrize(("game", "level"), LEVELS)
def test_every_bot_level_has_a_name_in_both_languages(game: str, level: str) -> None:
    from rummykit.bots.levels import level_label

    label = level_label(game, level)
    assert label.translated("en") and label.translated("sv") != label.translated("en")


def test_the_players_panel_names_a_bots_level_in_swedish(tmp_path: object) -> None:
    from rummykit.tui.controller import player_label

    c = make_controller("vatikanen", players=3, bots="strong,greedy", lang="sv")
    bots = c.adapter.bots
    assert "stark" in player_label("Astrid", 1, 0, bots[1], "sv", "vatikanen")
    assert "girig" in player_label("Bo", 2, 0, bots[2], "sv", "vatikanen")
    assert "greedy" in player_label("Bo", 2, 0, bots[2], "en", "vatikanen")
