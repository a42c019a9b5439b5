"""What the terminal and the command line say: the words of each game, in both languages.

Vatikanen is a session of games, one deal each (V16): its records, replays
and the watch say game, never deal. The Swedish catalog uses one word for
each thing (the upcard is *det uppslagna kortet*), and the person is "dig"
where the sentence needs it. In Swedish the commands and the card letters
are Swedish too (``spela Es 2s 3s``, ``bygg 10h på 3``), the English kept as
aliases. Errors and replies name cards as the screen shows them (10♥, ★).
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from textual.pilot import Pilot

from rummykit.cards import Card
from rummykit.cli import main
from rummykit.games import kontrakt as k
from rummykit.games import vatikanen as v
from rummykit.i18n import translate
from rummykit.notation import check_tables, parse_card, to_json
from rummykit.record import load_record
from rummykit.tui.commands import (
    format_kontrakt,
    format_vatikanen,
    parse_kontrakt,
    parse_vatikanen,
    suggest,
)
from rummykit.tui.setup import make_controller
from rummykit.tui.watch import Watch, WatchApp
from test_tui_app import screen_text
from test_tui_play_resume_watch import played_record


def test_a_vatikanen_replay_says_game_not_deal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = played_record(tmp_path, "vatikanen", 9)
    for lang, game, deal in (("en", "game", "deal"), ("sv", "parti", "giv")):
        assert main(["replay", str(path), "--lang", lang]) == 0
        out = capsys.readouterr().out
        assert game in out and not re.search(rf"\b{deal}\b", out), out
    illegal = Path(__file__).parent / "records" / "vatikanen" / "illegal_table_no_meld.json"
    assert main(["replay", str(illegal)]) == 1
    out = capsys.readouterr().out
    assert "illegal: game 1, action 3" in out and not re.search(r"\bdeal\b", out)


def test_the_watch_of_a_vatikanen_record_says_game_not_deal(tmp_path: Path) -> None:
    record = load_record(played_record(tmp_path, "vatikanen", 9))
    for lang, game, deal in (("en", "game", "deal"), ("sv", "parti", "giv")):
        w = Watch(record, lang=lang)
        assert w.where().startswith(f"{game} 1 av 1" if lang == "sv" else "game 1 of 1")

        async def body(app: WatchApp, pilot: Pilot[None], deal: str = deal) -> None:
            await pilot.pause()
            shown = screen_text(app, "#note") + screen_text(app, "#status")
            footer = " ".join(
                b.binding.description for b in app.active_bindings.values() if b.binding.show
            )
            said = (shown + " " + footer).lower()
            assert not re.search(rf"\b{deal}\b", said), said

        async def run(w: Watch = w) -> None:
            app = WatchApp(w)
            async with app.run_test(size=(80, 24)) as pilot:
                await body(app, pilot)

        asyncio.run(run())
    kontrakt = Watch(load_record(played_record(tmp_path, "kontrakt", 9)))
    assert kontrakt.where().startswith("deal 1 of 1")


def test_the_upcard_offered_to_you_says_dig_in_swedish(tmp_path: Path) -> None:
    c = make_controller("kontrakt", players=3, seed=1, records=tmp_path, lang="sv")
    while c.bot_to_act():
        c.bot_step()
    assert c.real_view()["offer_to"] == 0
    table = c.adapter.table_panel(c.view(), c.adapter.added_cards([]))
    import io

    from rich.console import Console

    console = Console(width=120, record=True, file=io.StringIO())
    console.print(table)
    text = console.export_text()
    assert "Det uppslagna kortet erbjuds dig" in text and "Du" not in text


def test_swedish_says_one_word_for_the_upcard_and_passing_on_it_is_not_taking_it() -> None:
    said = translate("{name} passed on the upcard", "sv", name="Bo")
    assert "avstod" in said and "passade på" not in said
    line = translate("Deal {deal} of 7 — contract: {contract}; upcard ", "sv", deal=1, contract="x")
    assert "det uppslagna kortet" in line and "uppslaget kort" not in line
    assert "erbjuds dig" in translate("   The upcard is offered to you", "sv")


def test_swedish_says_ordna_om_for_rearranging_the_table() -> None:
    from rummykit.tui.vatikanen_play import VatikanenAdapter

    adapter = VatikanenAdapter(["Du", "Bo"], [None, None], seed=1)
    adapter.lang = "sv"
    text = adapter.help_text()
    assert "ordna om" in text and "arrangera" not in text
    said = translate(
        "a play that rearranges the table must add at least one card from your hand;"
        " to play no card, draw (or pass when the stock is empty)",
        "sv",
    )
    assert "ordnar om" in said and "arrangerar" not in said


# ------------------------------------------------------------------ Swedish commands


@pytest.mark.parametrize(
    ("swedish", "english"),
    [
        ("spela Es 2s 3s", "play As 2s 3s"),
        ("lägg Dh Kh Eh", "play Qh Kh Ah"),
        ("SPELA knr dr kr", "play Jd Qd Kd"),
        ("spela 7h | 7h 8h 9h | 10k 10h 10s", "play 7h | 7h 8h 9h | Tc Th Ts"),
        ("spela * | *:Knk Dk Kk", "play * | *:Jc Qc Kc"),
        ("dra", "draw"),
        ("passa", "pass"),
        ("ångra", "undo"),
        ("angra", "undo"),
        ("ja", "ok"),
        ("tips", "hint"),
        ("hjälp", "help"),
        ("sortera", "sort"),
        ("nästa", "next"),
        ("avsluta", "quit"),
        ("play 7h 8h 9h", "play 7h 8h 9h"),  # English kept as aliases
    ],
)
def test_vatikanen_commands_and_card_letters_work_in_swedish(swedish: str, english: str) -> None:
    assert parse_vatikanen(swedish, 0, "sv") == parse_vatikanen(english, 0)


@pytest.mark.parametrize(
    ("swedish", "english"),
    [
        ("ta", "take"),
        ("avböj", "decline"),
        ("köp", "buy"),
        ("kop", "buy"),
        ("passa", "pass"),
        ("dra", "draw"),
        ("dra högen", "draw discard"),
        ("dra talongen", "draw"),
        ("lägg 7h 7r 7s | 4k 5k 6k", "meld 7h 7d 7s | 4c 5c 6c"),
        ("bygg 10h på 3", "layoff Th on 3"),
        ("bygg * på #3 som Dh", "layoff * on 3 as Qh"),
        ("byt 7h på 2", "swap 7h on 2"),
        ("byt * på 2 mot Kns", "swap * on 2 with Js"),
        ("saka Ds", "discard Qs"),
        ("protokoll", "scores"),
        ("layoff Th on 3", "layoff Th on 3"),
    ],
)
def test_kontrakt_commands_and_card_letters_work_in_swedish(swedish: str, english: str) -> None:
    assert parse_kontrakt(swedish, 0, "sv") == parse_kontrakt(english, 0)


def test_swedish_words_are_not_english_commands() -> None:
    from rummykit.tui.commands import CommandError

    for text in ("spela 7h 8h 9h", "dra"):
        with pytest.raises(CommandError, match="unknown command"):
            parse_vatikanen(text, 0)
    with pytest.raises(ValueError, match="is not a card"):
        parse_vatikanen("play Es 2s 3s", 0)


def test_no_typed_card_reads_as_two_cards_and_no_word_as_two_commands() -> None:
    check_tables()
    letters = ["A", "E", "T", "10", "J", "Kn", "Q", "D", "K", *map(str, range(2, 10))]
    for rank in letters:
        for suit in "cdhskr♣♦♥♠":
            text = rank + suit
            try:
                english = Card.parse(text)
            except ValueError:
                continue
            assert parse_card(text, "sv") == english, text  # English text reads the same
    assert parse_card("Kk", "sv") == Card.parse("Kc") and parse_card("Dd", "sv") == Card.parse("Qd")


def test_a_bad_card_in_swedish_says_how_swedish_cards_are_written() -> None:
    with pytest.raises(ValueError, match="ranks E 2-10 Kn D K"):
        parse_vatikanen("spela 7x", 0, "sv")


def test_commands_are_written_back_in_swedish_and_read_again() -> None:
    play = parse_vatikanen("spela 7h 8h 9h", 0, "sv")
    assert format_vatikanen(play, "sv") == "spela 7h 8h 9h"
    for text in ("bygg * på 3 som 9h", "byt 7h på 2", "dra högen", "saka Qs", "ta", "avböj"):
        action = parse_kontrakt(text, 0, "sv")
        assert parse_kontrakt(format_kontrakt(action, "sv"), 0, "sv") == action
    assert isinstance(parse_kontrakt("dra högen", 0, "sv"), k.Draw)
    assert isinstance(play, v.Play)


def test_completion_offers_swedish_words_and_card_letters() -> None:
    from rummykit.notation import completion_words

    vat, kon = completion_words("vatikanen", "sv"), completion_words("kontrakt", "sv")
    assert suggest("sp", [], vat, "sv") == "spela " and suggest("pl", [], vat, "sv") == "play "
    assert suggest("by", [], kon, "sv") == "bygg " and suggest("sa", [], kon, "sv") == "saka "
    assert suggest("spela e", ["As", "2s"], vat, "sv") == "spela es"
    assert suggest("saka d", ["Qh"], kon, "sv") == "saka dh"
    assert suggest("spela 7", ["7c"], vat, "sv") == "spela 7c"
    assert suggest("bygg 10h på 3", ["3c"], kon, "sv") is None


def test_the_command_tables_are_plain_data_for_other_hosts() -> None:
    import json

    data = json.loads(json.dumps(to_json()))
    assert data["games"]["kontrakt"]["layoff"]["sv"] == ["bygg"]
    assert data["ranks"]["sv"]["KN"] == 11 and data["suits"]["sv"]["R"] == "d"


def test_a_swedish_game_is_played_with_swedish_commands_and_hints(tmp_path: Path) -> None:
    c = make_controller("vatikanen", players=2, seed=11, bots="greedy", records=tmp_path, lang="sv")
    while c.bot_to_act():
        c.bot_step()
    hint = c.submit("tips")
    assert hint.prefill is not None and hint.prefill.split()[0] in ("spela", "dra")
    assert c.submit(hint.prefill).kind != "error"
    assert c.submit("ångra").kind in ("info", "error")
    assert "skriv hjälp" in c.submit("fiska").text
    k_ctl = make_controller("kontrakt", players=3, seed=1, records=tmp_path, lang="sv")
    while k_ctl.bot_to_act():
        k_ctl.bot_step()
    hint = k_ctl.submit("tips")
    assert hint.prefill in ("ta", "avböj") and k_ctl.submit(hint.prefill).kind == "done"


def test_the_swedish_help_lists_the_swedish_commands(tmp_path: Path) -> None:
    for game, words in (
        ("vatikanen", ("`spela 7h 8h 9h`", "`dra`", "`ångra`", "`tips`")),
        ("kontrakt", ("`bygg 10h på 3`", "`byt 7h på 2`", "`saka Ds`", "`dra högen`")),
    ):
        c = make_controller(game, seed=1, records=tmp_path, lang="sv")
        text = c.adapter.help_text()
        for word in words:
            assert word in text, (game, word)


def test_rule_errors_name_cards_as_the_screen_shows_them(tmp_path: Path) -> None:
    from test_tui_play_resume_watch import kontrakt_position, vatikanen_position

    c = vatikanen_position(tmp_path, ["Th 2c 5d", "3c 4c"], ["4h 5h 6h 7h 8h 9h"])
    reply = c.submit("play Th | 5h 6h 7h 8h 9h Th")
    assert "V9" in reply.text and "leaves out 4♥" in reply.text and "4h" not in reply.text
    k_ctl = kontrakt_position(tmp_path, "3c 3d 4h 5h 2h 9c Kd Qs 8d 7c Td")
    reply = k_ctl.submit("discard Qh")
    assert "Q♥" in reply.text and "Qh" not in reply.text
    reply = k_ctl.submit("meld 2h 5h 9c")
    assert "2♥ 5♥ 9♣" in reply.text


def test_a_staged_play_is_echoed_with_card_symbols(tmp_path: Path) -> None:
    from test_tui_play_resume_watch import vatikanen_position

    c = vatikanen_position(tmp_path, ["7d 9d Td * 2c", "3c 4c"], opened=[False, False])
    reply = c.submit("play 7d * 9d Td")
    assert "7♦ ★ 9♦ 10♦" in reply.text and "Td" not in reply.text
    assert "10♦" in c.submit("undo").text


@pytest.mark.parametrize(("lang", "command"), [("en", "play 2c 3c"), ("sv", "spela 2k 3k")])
def test_an_engine_error_in_the_terminal_starts_its_sentence_with_a_capital(
    tmp_path: Path, lang: str, command: str
) -> None:
    c = make_controller("vatikanen", players=2, seed=5, bots="greedy", records=tmp_path, lang=lang)
    while c.bot_to_act():
        c.bot_step()
    refused = c.submit(command)  # too short to open with (V7)
    assert refused.kind == "error"
    rule, sentence = refused.text.split(": ", 1)
    assert rule == "V7" and sentence[:1].isupper(), refused.text
    not_an_action = c.submit("play 2c 3c 4c | 5c")  # no meld of one card: still the engine's
    assert not_an_action.kind == "error"
    assert not_an_action.text[:1].isupper(), not_an_action.text
