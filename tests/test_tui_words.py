"""What the terminal and the command line say: the words of each game, in both languages.

Vatikanen is a session of games, one deal each (V16): its records, replays
and the watch say game, never deal. The Swedish catalog uses one word for
each thing (the upcard is *det uppslagna kortet*), and the person is "dig"
where the sentence needs it.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from textual.pilot import Pilot

from rummykit.cli import main
from rummykit.i18n import translate
from rummykit.record import load_record
from rummykit.tui.setup import make_controller
from rummykit.tui.watch import Watch, WatchApp
from test_issue27_terminal import played_record
from test_tui_app import screen_text


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
