"""The command line and the terminal's words, third round (issue 45).

What a person met: a plot path refused only after the whole match, a bot
setting with no upper bound, ``solve`` with no hand answering 0, a review that
counts "moves" where everything else counts actions, two simulate seats
called alike, Swedish hints written with English card letters, and a V11
message naming a card by its record code. Each test failed before its mend.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from rummykit import games
from rummykit.bots.levels import declared, levels, make_bot
from rummykit.cards import Card
from rummykit.cli import main
from rummykit.errors import MessageError, RuleError
from rummykit.games.vatikanen import Play, VatikanenGame
from rummykit.notation import parse_card
from rummykit.tui.commands import format_kontrakt, format_vatikanen
from rummykit.tui.setup import make_controller

RECORDS = Path(__file__).parent / "records" / "vatikanen"

# ------------------------------------------------------------------ 13: --plot


@pytest.mark.parametrize("where", ["missing/rates.png", "folder.png"])
def test_simulate_refuses_a_plot_path_it_cannot_write_before_the_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    pytest.importorskip("matplotlib")
    (tmp_path / "folder.png").mkdir()
    plot = tmp_path / where
    argv = ["simulate", "--game", "vatikanen", "--bots", "random", "--games", "2"]
    started = time.perf_counter()
    code = main([*argv, "--workers", "1", "--quiet", "--plot", str(plot)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""  # no match was played
    assert "--plot" in err and str(plot) in err
    assert time.perf_counter() - started < 5


# ------------------------------------------------------------------ 17: bounds


NUMBERS = [
    (game, level, name)
    for game in games.names()
    for level in levels(game)
    for name, rule in declared(game, level).items()
    if rule.kind in (int, float, str)
]


@pytest.mark.parametrize(("game", "level", "name"), NUMBERS)
def test_every_bot_setting_has_a_maximum_named_when_it_is_passed(
    game: str, level: str, name: str
) -> None:
    rule = declared(game, level)[name]
    assert rule.high is not None, f"{game} {level}: {name} has no upper bound"
    if rule.kind is str:
        too_long = "x" * (int(rule.high) + 1)
        with pytest.raises(MessageError, match=f"setting {name} must be at most {int(rule.high)}"):
            make_bot(game, level, 0, **{name: too_long})
        return
    high = int(rule.high) if float(rule.high).is_integer() else rule.high
    with pytest.raises(MessageError, match=f"setting {name} must be at most {high}") as info:
        make_bot(game, level, 0, **{name: rule.kind(rule.high) * 10 + 1})
    assert f"högst {high}" in info.value.translated("sv")
    make_bot(game, level, 0, **{name: rule.kind(rule.high)})  # the bound itself is taken


def test_simulate_refuses_a_hundred_million_samples_at_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["simulate", "--game", "vatikanen", "--bots", "strong(samples=100000000),greedy"]
    started = time.perf_counter()
    assert main([*argv, "--games", "2", "--workers", "1", "--quiet"]) == 2
    assert "samples must be at most" in capsys.readouterr().err
    assert time.perf_counter() - started < 5


# ------------------------------------------------------------------ friction


def test_solve_with_no_hand_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve"]) == 2
    assert "--hand" in capsys.readouterr().err
    assert main(["solve", "--table", "7h 8h 9h"]) == 2
    assert main(["solve", "--hand", "Th"]) == 0  # a hand alone is a question


def test_the_vatikanen_review_counts_actions_as_replay_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["review", str(RECORDS / "legal_going_out.json")]) == 0
    out = capsys.readouterr().out
    assert "game 1, action 1:" in out and "move" not in out
    assert main(["--lang", "sv", "review", str(RECORDS / "legal_going_out.json")]) == 0
    out = capsys.readouterr().out
    assert "parti 1, drag 1:" in out  # "drag" is the Swedish for an action throughout


def test_the_review_of_an_illegal_vatikanen_record_says_game_as_replay_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = str(RECORDS / "illegal_table_no_meld.json")
    assert main(["replay", path]) == 1
    replay_says = capsys.readouterr()
    assert main(["review", path]) == 1
    err = capsys.readouterr().err
    assert "game 1, action 3" in err and "game 1, action 3" in replay_says.out + replay_says.err


def test_simulate_records_name_every_seat_apart(tmp_path: Path) -> None:
    argv = ["simulate", "--game", "vatikanen", "--bots", "greedy", "--players", "3"]
    assert (
        main([*argv, "--games", "3", "--workers", "1", "--quiet", "--records", str(tmp_path)]) == 0
    )
    for path in tmp_path.glob("*.json"):
        players = json.loads(path.read_text())["players"]
        assert len(set(players)) == len(players), players
        assert all(p.startswith("bot:greedy") for p in players)


def test_swedish_hints_write_swedish_card_letters(tmp_path: Path) -> None:
    play = Play(0, tuple(Card.parse(t) for t in ("Ts", "Js", "Qs", "Ks", "As")))
    assert format_vatikanen(play, "sv") == "spela 10s Kns Ds Ks Es"
    assert format_vatikanen(play) == "play Ts Js Qs Ks As"
    from rummykit.games import kontrakt as k

    discard = k.Discard(0, Card.parse("Qc"))
    assert format_kontrakt(discard, "sv") == "saka Dk"
    for game in ("vatikanen", "kontrakt"):
        for seed in range(1, 4):
            c = make_controller(game, players=2, seed=seed, records=tmp_path, lang="sv")
            for _ in range(8):
                while c.bot_to_act():
                    c.bot_step()
                if c.adapter.paused():
                    break
                hint = c.submit("tips")
                if not hint.prefill:
                    break
                for word in hint.prefill.replace("|", " ").split()[1:]:
                    if word in ("på", "som", "mot", "högen") or word.isdigit():
                        continue
                    card = parse_card(word, "sv")
                    english = str(card.plain())
                    if not card.is_joker and (english[0] in "TJQA" or english[-1] in "cd"):
                        assert word != english, (game, hint.prefill)
                assert c.submit(hint.prefill).kind != "error", hint.prefill
                c.confirm()


# ------------------------------------------------------------------ 15: V11 message


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_V11_message_names_the_jokers_card_as_the_screen_shows_it(lang: str) -> None:
    game = VatikanenGame.from_position(["5c 5d 2h", "3c"], ["6d 7d 8d 9d *"])
    moved = tuple(tuple(Card.parse(t) for t in meld.split()) for meld in ("6d 7d 8d 9d", "5c 5d *"))
    with pytest.raises(RuleError) as info:
        game.play(Play(0, (Card.parse("5c"), Card.parse("5d")), moved))
    text = info.value.translated(lang)
    assert info.value.rule == "V11"
    assert "Td" not in text and text.count("10♦") == 2, text


# ------------------------------------------------------------------ words (Swedish)


def test_the_swedish_review_sentences_say_who_does_what() -> None:
    from rummykit.i18n import translate

    took = translate(
        "  It takes the discard pile's top, {card}, instead of the stock's card.", "sv", card="3♣"
    )
    assert took == "  Ta högens översta kort, 3♣, i stället för att dra från talongen."
    assert translate("  That would have gone out.", "sv") == "  Då hade spelaren gått ut."
    rest = translate("  That lays the rest of the contract.", "sv")
    assert rest == "  Då hade resten av kontraktet kunnat läggas ut."
    before = translate("  A card could still have been laid off before the discard.", "sv")
    assert before == "  Innan spelaren sakade hade ett kort kunnat byggas på."


def test_simulate_refuses_a_records_folder_that_cannot_hold_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a_file = tmp_path / "records.json"
    a_file.write_text("{}")
    argv = ["simulate", "--game", "vatikanen", "--bots", "random", "--games", "2"]
    assert main([*argv, "--workers", "1", "--quiet", "--records", str(a_file)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "--records" in err and "not a folder" in err
