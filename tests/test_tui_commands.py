"""The pure parts of terminal play: the command parser, completion, and the renderers."""

from __future__ import annotations

from collections import Counter

import pytest

from rummykit.cards import Card, parse_cards
from rummykit.games import kontrakt as k
from rummykit.games import vatikanen as v
from rummykit.tui.commands import (
    KONTRAKT_WORDS,
    CommandError,
    UiCommand,
    format_kontrakt,
    format_vatikanen,
    parse_kontrakt,
    parse_vatikanen,
    suggest,
)
from rummykit.tui.render import card_label, card_text, hand_text, meld_text, sort_hand
from rummykit.tui.setup import bot_levels, make_controller

# ------------------------------------------------------------------ Vatikanen parser


def test_vatikanen_play_lets_the_engine_arrange() -> None:
    action = parse_vatikanen("play 7h 8H 9♥", 2)
    assert action == v.Play(2, tuple(parse_cards("7h 8h 9h")), None)


def test_V9_vatikanen_play_with_the_whole_new_table() -> None:
    action = parse_vatikanen("play Js | Tc Th Th | 7s 8s 9s Ts Js", 0)
    assert isinstance(action, v.Play)
    assert action.add == tuple(parse_cards("Js"))
    assert action.table == (tuple(parse_cards("Tc Th Th")), tuple(parse_cards("7s 8s 9s Ts Js")))


def test_vatikanen_joker_meaning_in_a_table() -> None:
    action = parse_vatikanen("p * | 7h *:8h 9h", 0)
    assert isinstance(action, v.Play) and action.table is not None
    assert str(action.table[0][1]) == "*:8h"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("draw", v.Draw(1)),
        ("D", v.Draw(1)),
        ("pass", v.Pass(1)),
        ("", UiCommand("ok")),
        ("  OK ", UiCommand("ok")),
        ("undo", UiCommand("undo")),
        ("hint", UiCommand("hint")),
        ("?", UiCommand("help")),
        ("sort", UiCommand("sort")),
        ("new", UiCommand("next")),
        ("exit", UiCommand("quit")),
    ],
)
def test_vatikanen_simple_commands(text: str, expected: object) -> None:
    assert parse_vatikanen(text, 1) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("fold", "unknown command 'fold'"),
        ("play", "name the cards"),
        ("play 7h |", "write the whole new table"),
        ("play 7h | 7h 8h || 9h", "is empty"),
        ("draw 7h", "'draw' takes nothing"),
        ("undo 3", "'undo' takes nothing"),
    ],
)
def test_vatikanen_bad_commands_say_what_to_type(text: str, message: str) -> None:
    with pytest.raises(CommandError, match=message):
        parse_vatikanen(text, 0)


def test_bad_card_text_gets_the_cards_module_message() -> None:
    with pytest.raises(ValueError) as info:
        parse_vatikanen("play 7h 8x", 0)
    with pytest.raises(ValueError) as direct:
        Card.parse("8x")
    assert str(info.value) == str(direct.value)


@pytest.mark.parametrize(
    "text", ["play 7h 8h 9h", "play 7h | 7h 8h 9h | Tc Th *:Ts", "draw", "pass", "play *"]
)
def test_vatikanen_format_is_the_inverse_of_parse(text: str) -> None:
    action = parse_vatikanen(text, 0)
    assert not isinstance(action, UiCommand)
    assert format_vatikanen(action) == text
    assert parse_vatikanen(format_vatikanen(action), 0) == action


# ------------------------------------------------------------------ Kontrakt parser


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("take", k.TakeUpcard(0)),
        ("decline", k.DeclineUpcard(0)),
        ("buy", k.BuyUpcard(0)),
        ("pass", k.PassUpcard(0)),
        ("draw", k.Draw(0, "stock")),
        ("draw stock", k.Draw(0, "stock")),
        ("draw discard", k.Draw(0, "discard")),
        ("draw pile", k.Draw(0, "discard")),
        ("discard Qs", k.Discard(0, Card.parse("Qs"))),
        ("layoff Th on 3", k.LayOff(0, Card.parse("Th"), 3)),
        ("layoff 10h 3", k.LayOff(0, Card.parse("Th"), 3)),
        ("layoff * on #2 as 9h", k.LayOff(0, Card.parse("*"), 2, Card.parse("9h"))),
        ("swap 7h on 2", k.SwapJoker(0, Card.parse("7h"), 2)),
        ("swap * on 2 with 7h", k.SwapJoker(0, Card.parse("7h"), 2)),
        ("scores", UiCommand("scores")),
    ],
)
def test_kontrakt_commands(text: str, expected: object) -> None:
    assert parse_kontrakt(text, 0) == expected


def test_K9_kontrakt_meld_several_melds() -> None:
    action = parse_kontrakt("meld 7h 7d 7s | 4c 5c 6c", 1)
    assert action == k.LayDown(1, (tuple(parse_cards("7h 7d 7s")), tuple(parse_cards("4c 5c 6c"))))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("draw deck", "draw takes from the stock"),
        ("layoff Th", "layoff Th on 3"),
        ("layoff Th on 3 for 9h", "as 9h"),
        ("swap 7h", "swap 7h on 2"),
        ("swap * on 2", "swap \\* on 2 with 7h"),
        ("discard Qs Kd", "exactly one card"),
        ("meld", "name the"),
        ("take it", "'take' takes nothing"),
    ],
)
def test_kontrakt_bad_commands_say_what_to_type(text: str, message: str) -> None:
    with pytest.raises(CommandError, match=message):
        parse_kontrakt(text, 0)


@pytest.mark.parametrize(
    "text",
    [
        "take",
        "decline",
        "buy",
        "pass",
        "draw",
        "draw discard",
        "meld 7h 7d 7s | 4c *:5c 6c",
        "layoff Th on 3",
        "layoff * on 0 as 9h",
        "swap 7h on 2",
        "discard Qs",
    ],
)
def test_kontrakt_format_is_the_inverse_of_parse(text: str) -> None:
    action = parse_kontrakt(text, 0)
    assert not isinstance(action, UiCommand)
    assert format_kontrakt(action) == text


# ------------------------------------------------------------------ completion


def test_suggest_completes_command_words() -> None:
    assert suggest("dr", []) == "draw "
    assert suggest("dis", [], KONTRAKT_WORDS) == "discard "
    assert suggest("xyz", []) is None
    assert suggest("", []) is None


def test_suggest_completes_cards_from_the_hand_only() -> None:
    hand = ["7h", "8h", "Ks", "*"]
    assert suggest("play 8", hand) == "play 8h"
    assert suggest("play K", hand) == "play Ks"
    assert suggest("play 9", hand) is None
    assert suggest("draw 8", hand) is None  # draw takes no cards


def test_suggest_does_not_offer_a_card_twice() -> None:
    assert suggest("play 7h 7", ["7h", "7s"]) == "play 7h 7s"
    assert suggest("play 7h 7", ["7h"]) is None
    assert suggest("play 7h | 7", ["7h", "7d"]) == "play 7h | 7d"


def test_suggest_keeps_what_was_typed_and_reads_10() -> None:
    assert suggest("play 10", ["Th"]) == "play 10h"
    assert suggest("meld q", ["Qs"], KONTRAKT_WORDS) == "meld qs"


# ------------------------------------------------------------------ renderers


def test_card_text_colours_red_suits_only() -> None:
    assert "red" in str(card_text("7h").style)
    assert "red" in str(card_text("7d").style)
    assert "red" not in str(card_text("7c").style)
    assert "red" not in str(card_text("7s").style)
    assert card_text("Th").plain == "10♥"
    assert card_text("*").plain == "★"


def test_card_label_of_table_jokers() -> None:
    assert card_label(Card.parse("*:8h")) == "★=8♥"
    assert card_label(Card.parse("*:8")) == "★=8"


def test_hand_sorted_by_suit_and_by_rank() -> None:
    hand = ["Kd", "2s", "*", "Ks", "3c", "2d"]
    assert [str(c) for c in sort_hand(hand, "suit")] == ["2s", "Ks", "3c", "2d", "Kd", "*"]
    assert [str(c) for c in sort_hand(hand, "rank")] == ["2s", "2d", "3c", "Ks", "Kd", "*"]
    assert hand_text(hand, "rank").plain == "2♠ 2♦  3♣  K♠ K♦  ★"


def test_meld_text_highlights_new_cards_once() -> None:
    new = Counter({"8h": 1})
    text = meld_text(["7h", "8h", "8h"], new)
    assert text.plain == "7♥ 8♥ 8♥"
    styled = [span for span in text.spans if "reverse" in str(span.style)]
    assert len(styled) == 1 and new["8h"] == 0


# ------------------------------------------------------------------ setup


def test_bot_levels_one_for_all_or_one_each() -> None:
    assert bot_levels("vatikanen", "random", 3) == ["random"] * 3
    with pytest.raises(ValueError, match="levels are"):
        bot_levels("vatikanen", "genius", 2)
    with pytest.raises(ValueError, match="one for each"):
        bot_levels("kontrakt", "random,basic", 3)


def test_make_controller_defaults_and_limits(tmp_path: object) -> None:
    c = make_controller("vatikanen", seed=3, records=str(tmp_path))
    assert c.adapter.names == ["You", "Astrid", "Bo"]
    assert [b.level if b else None for b in c.adapter.bots] == [None, "greedy", "greedy"]
    c = make_controller("kontrakt", seed=3, records=str(tmp_path))
    assert [b.level if b else None for b in c.adapter.bots] == [None, "basic", "basic", "basic"]
    with pytest.raises(ValueError, match="2 to 5"):
        make_controller("vatikanen", players=6)
    with pytest.raises(ValueError, match="2 to 8"):
        make_controller("kontrakt", players=9)


def test_play_command_rejects_a_bad_table_with_exit_code_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from rummykit.cli import main

    assert main(["play", "vatikanen", "--players", "7"]) == 2
    assert "2 to 5 players" in capsys.readouterr().err
    assert main(["play", "kontrakt", "--bots", "genius"]) == 2
    assert "levels are" in capsys.readouterr().err
