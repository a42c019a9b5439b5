"""One home for each piece of game knowledge: the browser is told it by the server, from the
same Python the terminal uses, and these tests fail when two sides would say it apart.

- the log in words (``rummykit.narration``): the terminal's lines and the server's are the
  same sentences, for every kind of entry of both games, in both languages;
- the typed commands: what the server reads a line as (``POST /api/games/NAME/command``)
  is what the terminal's parser reads it as;
- the contracts (K4), the house rules and the bots a table can seat: the server's
  ``GET /api/games/NAME`` says them from the engine's own lists;
- the bots' names: one list;
- and the page's scripts hold none of it themselves.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol_client import HttpError, request
from rummykit import games
from rummykit.bots.names import BOT_NAMES
from rummykit.games.kontrakt.contracts import CONTRACTS
from rummykit.narration import narrate, narrate_log, plain
from rummykit.notation import command_of, command_word
from rummykit.ratings import bot_rating
from rummykit.server import hosted
from rummykit.server.commands import read_command
from rummykit.server.gameinfo import game_info, seatable_levels
from rummykit.tui import controller
from rummykit.tui.commands import (
    format_kontrakt,
    format_vatikanen,
    parse_kontrakt,
    parse_vatikanen,
)
from rummykit.tui.setup import make_controller
from server_helpers import Server
from web_helpers import bots_move, mirror, take

WEB = Path(__file__).resolve().parents[1] / "src" / "rummykit" / "web" / "js"
SEATS = {
    "vatikanen": ["human", "bot:greedy", "bot:greedy"],
    "kontrakt": ["human", "bot:basic", "bot:basic"],
}


def played(game: str, seed: int, moves: int) -> Any:
    """A game between the bots, ``moves`` moves on (or over)."""
    table = mirror(game, SEATS[game], seed, {0: "Anna"})
    for _ in range(moves):
        g = table.game
        assert g is not None
        if g.over:
            break
        take(table, {**bots_move(table), "seat": g.to_act})
    return table.game


@pytest.mark.parametrize("lang", ["en", "sv"])
@pytest.mark.parametrize(("game", "seed", "moves"), [("vatikanen", 1, 200), ("kontrakt", 3, 700)])
def test_the_terminal_and_the_server_tell_the_log_in_the_same_words(
    game: str, seed: int, moves: int, lang: str
) -> None:
    g = played(game, seed, moves)
    view = g.view(0)
    adapter = make_controller(game, players=3, seed=1, lang=lang, name="Anna").adapter
    names = [adapter.you() if i == 0 else n for i, n in enumerate(view["players"])]
    kinds = set()
    for i, entry in enumerate(view["log"]):
        said = narrate(game, entry, lang)
        assert said, entry  # every kind of entry is told
        line = adapter.describe(entry, i, view)
        assert line is not None and line.plain == "\n".join(plain(s, names) for s in said)
        assert ("text", " " + entry["type"]) not in said[0]  # told, not named by its kind
        kinds.add(entry["type"])
    served = narrate_log(game, view["log"], view["players"], lang)
    assert len(served) == len(view["log"])
    assert kinds >= ({"draw", "play"} if game == "vatikanen" else {"draw", "meld", "discard"})


def test_an_opening_is_told_with_its_joker_in_its_place() -> None:
    entry = {
        "seat": 1,
        "type": "play",
        "opening": True,
        "add": ["9s", "Ts", "Qs", "*"],
        "table": [["2d", "*:3d", "4d"], ["9s", "Ts", "*:Js", "Qs"]],
    }
    assert narrate_log("vatikanen", [entry], ["Anna", "Bo"], "en") == [
        "Bo opened with 4: 9♠ 10♠ ★=J♠ Q♠"
    ]


SWEDISH = {
    "vatikanen": st.sampled_from(["spela 7h 8h 9h", "spela 10h Knh Dh", "dra", "passa"]),
    "kontrakt": st.sampled_from(
        ["ta", "avböj", "köp", "dra högen", "lägg Es Eh Ek", "bygg Knr på 3", "saka Dk"]
    ),
}
ACTIONS = {
    "vatikanen": st.sampled_from(
        [
            "play 7h 8h 9h",
            "play 7h | 7h 8h 9h | Tc Th Ts",
            "play * 5c | 3c 4c *:5c",
            "draw",
            "pass",
        ]
    ),
    "kontrakt": st.sampled_from(
        [
            "take",
            "decline",
            "buy",
            "pass",
            "draw",
            "draw discard",
            "meld 7h 7d 7s | 4c 5c 6c",
            "meld 7h 7d * | Ac 2c 3c",
            "layoff Th on 3",
            "layoff * on 0 as 9h",
            "swap 7h on 2",
            "discard Qs",
        ]
    ),
}


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_the_server_reads_a_typed_line_as_the_terminal_does(
    shared_server: Server, data: st.DataObject
) -> None:
    game = data.draw(st.sampled_from(["vatikanen", "kontrakt"]))
    lang = data.draw(st.sampled_from(["en", "sv"]))
    line = data.draw(ACTIONS[game] if lang == "en" else st.one_of(ACTIONS[game], SWEDISH[game]))
    parse = parse_vatikanen if game == "vatikanen" else parse_kontrakt
    terminal = parse(line, 0, lang)
    body = {"text": line, "lang": lang}
    answer = request(shared_server.base, "POST", f"/api/games/{game}/command", body)
    action = {k: v for k, v in terminal.to_json().items() if k != "seat"}  # type: ignore[union-attr]
    assert answer == {"action": action}
    # the terminal's own writing of the action (a hint's) reads back the same on the server
    write = format_vatikanen if game == "vatikanen" else format_kontrakt
    again = {"text": write(terminal, lang), "lang": lang}  # type: ignore[arg-type]
    assert request(shared_server.base, "POST", f"/api/games/{game}/command", again) == answer


def test_a_typed_line_that_is_no_command_is_answered_in_the_players_language(
    shared_server: Server,
) -> None:
    for text, word in (("fold", "okänt kommando"), ("play 7x", "7x")):
        with pytest.raises(HttpError) as info:
            request(
                shared_server.base,
                "POST",
                "/api/games/vatikanen/command",
                {"text": text, "lang": "sv"},
            )
        assert info.value.status == 400 and info.value.body["error"] == "bad_command"
        assert word in info.value.body["message"]
    ui = request(shared_server.base, "POST", "/api/games/kontrakt/command", {"text": "scores"})
    assert ui == {"ui": "scores"}


@pytest.mark.parametrize(
    ("game", "english"),
    [
        ("vatikanen", "Type a command: play 7h 8h 9h, draw, hint, help"),
        ("kontrakt", "Type a command: draw, meld 7h 7d 7s, discard Qs, help"),
    ],
)
def test_the_command_lines_swedish_examples_are_swedish_commands_it_reads(
    game: str, english: str
) -> None:
    """The command line's placeholder in Swedish shows the words a Swedish player types
    (``spela``, ``dra``, ``saka``: the first of each command's Swedish words), and each
    example reads as a command."""
    swedish = json.loads((WEB.parent / "i18n" / "sv.json").read_text(encoding="utf-8"))[english]
    examples = swedish.split(": ", 1)[1].split(", ")
    assert len(examples) == len(english.split(": ", 1)[1].split(", "))
    for example in examples:
        word = example.split(" ", 1)[0]
        command = command_of(word, game, "sv")
        assert command is not None and command_word(command, game, "sv") == word, example
        assert "error" not in read_command(game, example, "sv"), example


def test_the_server_says_the_contracts_house_rules_and_bots_from_the_engine(
    shared_server: Server,
) -> None:
    info = request(shared_server.base, "GET", "/api/games/kontrakt?lang=sv")
    assert [c["choices"] for c in info["contracts"]] == [
        [{"groups": g, "runs": r} for g, r in c.choices] for c in CONTRACTS
    ]
    assert [c["text"] for c in info["contracts"]] == [
        c.describe().translated("sv") for c in CONTRACTS
    ]
    assert info == game_info("kontrakt", "sv")
    spec = games.get("kontrakt")
    assert [r["name"] for r in info["house_rules"]] == [r.name for r in spec.house_rules]
    assert [b["level"] for b in info["bots"]] == list(seatable_levels("kontrakt"))
    assert "policy" not in [b["level"] for b in info["bots"]]  # it needs a file: never seated
    assert all(b["summary"] and b["title"] for b in info["bots"])
    # each level beside its reference rating on the ladder's scale (docs/ratings.md)
    for game in games.names():
        bots = request(shared_server.base, "GET", f"/api/games/{game}?lang=en")["bots"]
        for b in bots:
            rating = bot_rating(game, b["level"])
            assert rating is not None and b["rating"] == rating.shown, (game, b)
    with pytest.raises(HttpError) as missing:
        request(shared_server.base, "GET", "/api/games/chess")
    assert missing.value.status == 404
    with pytest.raises(HttpError) as policy:
        request(
            shared_server.base,
            "POST",
            "/api/tables",
            {"game": "kontrakt", "seats": ["human", "bot:policy"]},
        )
    assert policy.value.status == 400


def test_the_bots_names_are_one_list() -> None:
    assert hosted.BOT_NAMES is BOT_NAMES and controller.BOT_NAMES is BOT_NAMES


def test_the_command_reader_needs_no_terminal_library() -> None:
    code = (
        "import sys; sys.modules['rich'] = None; sys.modules['textual'] = None;"
        "from rummykit.server.commands import read_command;"
        "print(read_command('kontrakt', 'discard Qs', 'en'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "'discard'" in out.stdout


def test_the_pages_scripts_hold_no_game_knowledge_of_their_own() -> None:
    text = "\n".join(p.read_text(encoding="utf-8") for p in WEB.glob("*.js"))
    assert not re.search(r"groups:\s*\d", text)  # the contracts (K4)
    assert not re.search(r'"(lo|sw)"', text)  # the command grammar's abbreviations
    assert not any(f'"{name}"' in text for name in BOT_NAMES)  # the bots' names
    for sentence in ("laid off", "took the upcard", "drew from the stock", "plays any legal move"):
        assert sentence not in text, sentence  # the log's and the bots' words
