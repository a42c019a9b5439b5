"""Swedish and English everywhere: the engines' rule errors with their parameters, the
command line (``--lang``, ``RUMMYKIT_LANG``, the locale) and the terminal UI."""

from __future__ import annotations

import argparse
import asyncio
import io
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Footer, Input, RichLog, Static

from kontrakt_helpers import game_with
from rummykit.cards import parse_cards
from rummykit.cli import main
from rummykit.cli.words import argparse_speaking, requested_language
from rummykit.errors import RuleError, describe_error
from rummykit.games import kontrakt as k
from rummykit.games.vatikanen import Draw, Play, VatikanenGame
from rummykit.i18n import LOCALES, default_language, locale_language
from rummykit.tui.app import CommandInput, HelpScreen, PlayApp
from rummykit.tui.controller import Controller
from rummykit.tui.setup import make_controller

LOCALE_VARIABLES = ("RUMMYKIT_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")


@pytest.fixture
def no_language(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """An environment that names no language at all (English, the default)."""
    for name in LOCALE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def rule_error(action: Callable[[], object]) -> RuleError:
    with pytest.raises(RuleError) as info:
        action()
    return info.value


# ------------------------------------------------------------ engine errors


def test_V4_out_of_turn_error_reads_in_swedish_and_english_with_the_name() -> None:
    game = VatikanenGame(3, seed=2)
    name = game.players[game.to_act or 0]
    error = rule_error(lambda: game.verify(Draw(1)))
    assert error.rule == "V4" and error.params == {"name": name}
    assert str(error) == f"it is not your turn: the player to act is {name} (V4)"
    assert error.translated("en") == f"it is not your turn: the player to act is {name}"
    assert error.translated("sv") == f"det är inte din tur: det är {name} som ska spela"
    assert describe_error(error, "sv") == f"det är inte din tur: det är {name} som ska spela (V4)"


def test_V7_group_opening_error_names_the_cards_in_both_languages() -> None:
    game = VatikanenGame.from_position(["8h 8c 8d 5s 6s 7s", "3c"], opened=[False, False])
    error = rule_error(lambda: game.play(Play(0, tuple(parse_cards("8h 8c 8d")))))
    assert error.rule == "V7" and error.params == {"cards": "8♥ 8♣ 8♦"}
    assert error.translated("en").endswith("from your hand, not a group: 8♥ 8♣ 8♦")
    assert error.translated("sv") == (
        "första gången du lägger ned kort måste det vara en enda färgföljd på minst 3 kort"
        " från handen, inte ett tretal: 8♥ 8♣ 8♦"
    )


def test_K10_contract_error_reads_its_nested_contract_in_the_readers_language() -> None:
    game = game_with(2, {0: "4c 5c 6c 8h 8d 8s 2h 9s Jd Kd"}, "3d", "", dealer=1)
    game.take_upcard(k.TakeUpcard(0))
    error = rule_error(lambda: game.lay_down(k.LayDown(0, (tuple(parse_cards("4c 5c 6c")),))))
    assert error.rule == "K10"
    assert str(error) == (
        "your contract (2 groups) needs no run, not 1: further melds only after the whole"
        " contract is down (K10)"
    )
    assert error.translated("sv", cite=True) == (
        "ditt kontrakt (2 tretal) behöver ingen färgföljd, inte 1: fler kombinationer först"
        " när hela kontraktet ligger ute (K10)"
    )


def test_K8_discard_of_a_card_not_held_says_saka_words_in_swedish() -> None:
    game = game_with(2, {0: "4c 5c 6c 8h 8d 8s 2h 9s Jd Kd"}, "3d", "", dealer=1)
    game.take_upcard(k.TakeUpcard(0))
    error = rule_error(lambda: game.discard(k.Discard(0, parse_cards("Qh")[0])))
    assert (error.rule, error.params) == ("K8", {"card": "Q♥"})
    assert error.translated("sv") == "du har inte Q♥ på handen"
    assert error.translated("en") == "you do not hold Q♥"


# ------------------------------------------------------------ the catalog

FIELD = re.compile(r"(?<!\{)\{([A-Za-z_]\w*)(?:[:!][^{}]*)?\}")
PERCENT = re.compile(r"%\((\w+)\)[sdr]|%[sdr]")


def placeholders(text: str) -> tuple[set[str], list[str]]:
    """The ``{name}`` fields and the ``%`` placeholders of a message."""
    return set(FIELD.findall(text)), sorted(PERCENT.findall(text))


def test_every_swedish_translation_keeps_the_placeholders_of_its_english_message() -> None:
    with (LOCALES / "sv" / "LC_MESSAGES" / "rummykit.po").open("rb") as f:
        swedish = read_po(f, locale="sv")
    checked = 0
    for entry in swedish:
        if not entry.id:
            continue
        if isinstance(entry.id, str):
            assert isinstance(entry.string, str) and entry.string, entry.id
            assert placeholders(entry.string) == placeholders(entry.id), entry.id
        else:
            singular, plural = entry.id
            one, many = entry.string
            assert one and many, entry.id
            assert placeholders(many) == placeholders(plural), plural
            assert FIELD.findall(one) <= FIELD.findall(plural) + FIELD.findall(singular)
        checked += 1
    assert checked > 400


def test_the_swedish_catalog_uses_the_words_swedish_players_use() -> None:
    from rummykit.i18n import translate

    words = {
        "Discard pile: ": "Högen: ",
        "{name} discarded {cards}": "{name} sakade {cards}",
        "{name} went out! ": "{name} gick ut! ",
        "{name} drew from the stock": "{name} drog från talongen",
        "{name} laid off {cards} on #{meld}": "{name} byggde på #{meld} med {cards}",
        "contract": "kontrakt",
    }
    for english, swedish in words.items():
        assert translate(english, "sv", name="{name}", cards="{cards}", meld="{meld}") == swedish


# ------------------------------------------------------------ choosing the language


def test_locale_chooses_swedish_only_where_it_is_swedish(no_language: pytest.MonkeyPatch) -> None:
    assert default_language() == "en"
    no_language.setenv("LANG", "sv_SE.UTF-8")
    assert locale_language() == default_language() == "sv"
    no_language.setenv("LC_ALL", "en_GB.UTF-8")  # LC_ALL wins over LANG
    assert default_language() == "en"
    no_language.delenv("LC_ALL")
    no_language.setenv("LC_MESSAGES", "C")
    assert default_language() == "en"


def test_rummykit_lang_wins_over_the_locale(no_language: pytest.MonkeyPatch) -> None:
    no_language.setenv("LANG", "en_US.UTF-8")
    no_language.setenv("RUMMYKIT_LANG", "sv")
    assert default_language() == "sv"
    no_language.setenv("LANG", "sv_SE.UTF-8")
    no_language.setenv("RUMMYKIT_LANG", "en")
    assert default_language() == "en"


def test_requested_language_finds_lang_before_and_after_the_sub_command() -> None:
    assert requested_language(["--lang", "sv", "solve"]) == "sv"
    assert requested_language(["solve", "--hand", "7h", "--lang=sv"]) == "sv"
    assert requested_language(["solve", "--lang", "de"]) is None
    assert requested_language(["solve", "--lang", "sv", "--lang", "en"]) == "en"


def solve(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["solve", "--hand", "7h 8h 9h", *argv]) == 0
    return capsys.readouterr().out


def test_solve_lang_sv_answers_in_swedish(capsys: pytest.CaptureFixture[str]) -> None:
    out = solve(["--lang", "sv"], capsys)
    assert out.startswith("lägg: 7h 8h 9h  (3 kort, 24 poäng, ")
    assert "bordet ([ ] = från handen):" in out
    assert main(["--lang", "sv", "solve", "--hand", "7h 8h 9h"]) == 0
    assert capsys.readouterr().out.startswith("lägg: ")
    assert solve(["--lang", "en"], capsys).startswith("play: 7h 8h 9h  (3 cards, 24 points, ")


def test_the_command_line_follows_rummykit_lang_then_the_locale(
    no_language: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert solve([], capsys).startswith("play: ")
    no_language.setenv("LANG", "sv_SE.UTF-8")
    assert solve([], capsys).startswith("lägg: ")
    no_language.setenv("RUMMYKIT_LANG", "en")
    assert solve([], capsys).startswith("play: ")
    no_language.setenv("RUMMYKIT_LANG", "sv")
    assert solve(["--lang", "en"], capsys).startswith("play: ")  # --lang wins


def test_play_refuses_too_many_players_in_swedish_citing_V1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ["play", "vatikanen", "--players", "9", "--records", str(tmp_path), "--lang", "sv"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.strip() == "rummykit play: Vatikanen spelas av 2 till 5 spelare, inte 9 (V1)"


def test_help_is_swedish_with_lang_sv_after_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["play", "--help", "--lang", "sv"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("användning: rummykit play")
    assert "visa den här hjälpen och avsluta" in out
    assert "spelare vid bordet, du själv inräknad" in out
    assert "flaggor:" in out and "options:" not in out


def test_usage_errors_are_swedish_and_argparse_is_english_again_after(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--lang", "sv", "solve", "--rules", "whist"])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert "rummykit solve: fel: argumentet --rules: ogiltigt val: 'whist'" in err
    with argparse_speaking("sv"):
        pass
    assert argparse.ArgumentParser(prog="x").format_usage().startswith("usage: x")


def test_english_help_is_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["solve", "--help", "--lang", "en"])
    out = capsys.readouterr().out
    assert out.startswith("usage: rummykit solve")
    assert "batch questions (--batch FILE, or --batch - for standard input):" in out


# ------------------------------------------------------------ the terminal UI

SIZE = (120, 40)


def run_app(
    controller: Controller, body: Callable[[PlayApp, Pilot[None]], Awaitable[None]]
) -> None:
    async def go() -> None:
        app = PlayApp(controller, bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await body(app, pilot)

    asyncio.run(go())


def text_of(app: PlayApp, widget: str) -> str:
    console = Console(width=SIZE[0], record=True, file=io.StringIO())
    console.print(app.query_one(widget, Static).content)
    return console.export_text()


def test_V7_terminal_in_swedish_shows_swedish_labels_and_rule_errors(tmp_path: Path) -> None:
    c = make_controller("vatikanen", players=3, seed=5, records=tmp_path, lang="sv")

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        assert c.adapter.current.players[0] == "Du"
        assert app.query_one("#players", Static).border_title == "Spelare"
        assert app.query_one("#log", RichLog).border_title == "Logg"
        assert str(app.query_one("#hand", Static).border_title).startswith("Din hand: 13 kort")
        assert "Välkommen till Vatikanen!" in text_of(app, "#message")
        assert "talong" in text_of(app, "#status")
        keys = app.query_one(Footer).query("FooterKey")  # Textual's footer, key by key
        footer = [getattr(key, "description", None) for key in keys]
        assert footer == ["avsluta", "hjälp", "sortera handen", "tips", "protokoll", "kommandon"]
        palette = {command.title for command in app.get_system_commands(app.screen)}
        assert {"Tema", "Avsluta", "Skärmbild"} <= palette
        hand = c.real_view()["hand"]
        by_suit: dict[str, str] = {}
        for card in hand:
            by_suit.setdefault(card[-1], card)
        box = app.query_one(CommandInput)
        box.value = "play " + " ".join(list(by_suit.values())[:3])  # three suits: no run
        await app.on_input_submitted(Input.Submitted(box, box.value))
        await pilot.pause()
        said = text_of(app, "#message").strip()
        assert said.startswith("V7: Första gången du lägger ned kort måste det vara")
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert "# Vatikanen: så spelar du" in app.screen.text

    run_app(c, body)


def test_kontrakt_terminal_in_swedish_names_the_contract_and_the_discard_pile(
    tmp_path: Path,
) -> None:
    c = make_controller("kontrakt", players=3, seed=3, records=tmp_path, lang="sv")

    async def body(app: PlayApp, pilot: Pilot[None]) -> None:
        status = text_of(app, "#status")
        assert "Kontraktsrummy · giv 1 av 7" in status
        table = text_of(app, "#table")
        assert "kontrakt: 2 tretal" in table or "kontrakt: 2 tretal" in status
        assert "Högen: " in table

    run_app(c, body)
