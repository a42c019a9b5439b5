"""The lobby, the invite link, a reload and a dropped connection, Swedish, a record file.

- Anna makes a table in the lobby's form (a friend's seat, a house rule, a turn
  clock), sends the invite link; Bo opens it in his browser, picks a name and
  the free seat, and the game starts for both.
- Bo reloads the page mid-game: the browser kept his seat's token, he is back
  in his seat. The server is killed and started again: both pages say the
  connection is lost, reconnect by themselves (no reload) and go on at the
  same version as the server, with nothing missed.
- A browser whose language is Swedish gets the Swedish UI (talong, hög,
  kontrakt, tretal…), each bot level beside its rating; the switch turns it to English.
- A record file (docs/record.md), the terminal's too, opened in the lobby is
  replayed move by move.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rummykit import games
from rummykit.ratings import bot_rating, ladder
from server_helpers import Server, start
from web_helpers import browser, mouse_drag, new_page, shot, state, wait_state, wait_version

__all__ = ["browser"]

RECORDS = Path(__file__).parent / "records"


def test_make_a_table_invite_a_friend_reload_and_reconnect(browser: Any, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    server = start(db)
    anna = new_page(browser)
    bo = new_page(browser)
    try:
        anna.goto(server.base + "/")
        anna.wait_for_selector("text=New table")
        anna.fill("input[name=name]", "Anna")
        anna.select_option("select[name=players]", "2")
        anna.select_option("select[name=seat1]", "human")
        anna.check("input[name=free_jokers]")
        anna.select_option("select[name=clock]", "120")
        shot(anna, "lobby")
        anna.click("button:has-text('Create the table')")
        anna.wait_for_selector("text=Waiting for players")
        link = anna.input_value(".invite-link")
        summary = server.get("/api/tables/" + link.rsplit("/", 1)[-1])
        assert isinstance(summary, dict)
        assert summary["options"]["free_jokers"] is True and summary["clock"] == 120
        # Bo opens the link, picks his name and the free seat
        bo.goto(link)
        bo.wait_for_selector("text=Join a table of Vatikanen")
        bo.fill("input[name=name]", "Bo")
        bo.click("button:has-text('Take the seat')")
        for page in (anna, bo):
            wait_state(page, "s.status === 'playing'")
        anna.wait_for_selector(".player .clock")  # the turn clock runs for the seat to act
        play_draws(anna, bo, 2)
        # Bo puts his last card first: his own order, kept across turns and reloads
        last = bo.locator(".hand .card").last.get_attribute("data-card")
        first = bo.locator(".hand .card").first.bounding_box()
        assert first is not None
        mouse_drag(bo, ".hand .card >> nth=-1", (first["x"] + 5, first["y"] + first["height"] / 2))
        bo.wait_for_selector(".sort .chip.on:has-text('My order')")
        assert bo.locator(".hand .card").first.get_attribute("data-card") == last
        # a reload: the seat's token is in the browser, Bo is back in his seat
        bo.reload()
        again = wait_state(bo, "s.seat === 1")
        hand = again["view"]["hand"]
        assert hand and bo.locator(".hand .card").count() == len(hand)
        assert bo.locator("input[name=name]").count() == 0
        assert bo.locator(".hand .card").first.get_attribute("data-card") == last
        # the connection drops (the server dies) and comes back: no reload, no desync
        version = again["version"]
        server.kill()
        for page in (anna, bo):
            page.wait_for_selector(".conn[data-status='reconnecting']", timeout=15_000)
        shot(bo, "reconnecting", full=False)
        server = start(db, port=server.port)
        for page in (anna, bo):
            page.wait_for_selector(".conn[data-status='open']", timeout=20_000)
            s = state(page)
            assert s is not None and s["version"] == version
        play_draws(anna, bo, 2)
        assert bo.locator(".hand .card").first.get_attribute("data-card") == last
        summary = server.get("/api/tables/" + link.rsplit("/", 1)[-1])
        assert isinstance(summary, dict)
        for page in (anna, bo):
            s = state(page)
            assert s is not None and s["version"] == summary["version"]
            assert len(s["view"]["log"]) == summary["version"] - 2  # every action, none missed
            assert not page.errors, page.errors
        # the lobby lists the table, and Anna's way back to her seat
        anna.goto(server.base + "/")
        anna.wait_for_selector("a:has-text('Back to my seat')")
    finally:
        server.stop()


def play_draws(anna: Any, bo: Any, count: int) -> None:
    """The seat to act draws, ``count`` times; each page sees each version."""
    for _ in range(count):
        s = state(anna)
        assert s is not None
        page = anna if s["view"]["turn"] == 0 else bo
        page.click(".actions .draw")
        for p in (anna, bo):
            wait_version(p, s["version"])


def test_the_ui_speaks_swedish_to_a_swedish_browser(browser: Any, shared_server: Server) -> None:
    server = shared_server
    page = new_page(browser, locale="sv-SE")
    page.goto(server.base + "/")
    page.wait_for_selector("text=Nytt bord")
    assert page.evaluate("document.documentElement.lang") == "sv"
    page.check(".new-table input[value=kontrakt]")
    # each bot level beside its rating on the ladder, in Swedish (docs/ratings.md)
    level = games.get("kontrakt").default_bot
    rated = bot_rating("kontrakt", level)
    assert rated is not None
    page.wait_for_selector(f".seat-what:has-text('Ratingtal {rated.shown}:')")
    options = page.inner_text("select[name=seat1]")
    for rung in ladder("kontrakt"):
        assert f"ratingtal {rung.rating.shown}" in options, (rung, options)
    page.fill("input[name=name]", "Astrid")
    page.click("button:has-text('Skapa bordet')")
    page.wait_for_selector(".contract-banner:has-text('Giv 1 av 7')")
    page.wait_for_selector("text=Kontrakt: 2 tretal")
    # Astrid's turn comes: she is asked about the upcard, or draws
    page.wait_for_selector(".status-text:has-text('Du erbjuds'), .status-text:has-text('Din tur')")
    text = page.inner_text("main")
    for word in ("Talong", "Hög", "Din hand", "Protokoll", "Tips"):
        assert word in text, (word, text)
    shot(page, "swedish-kontrakt")
    # the switch: English at once, and kept
    page.select_option(".lang select", "en")
    page.wait_for_selector(".contract-banner:has-text('Deal 1 of 7')")
    page.reload()
    page.wait_for_selector(".contract-banner:has-text('Deal 1 of 7')")
    assert not page.errors, page.errors


def test_a_record_file_is_replayed_move_by_move(
    browser: Any, shared_server: Server, tmp_path: Path
) -> None:
    record = json.loads((RECORDS / "kontrakt" / "legal_K11_swap_then_out.json").read_text())
    record["terminal"] = {"person": 0, "bots": [None, "basic"], "seed": 7}  # as the terminal saves
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    page = new_page(browser)
    page.goto(shared_server.base + "/")
    page.set_input_files("input[type=file]", str(path))
    # one numbering (docs/review.md): the actions of the deal, from 1, the last one done
    actions = len(record["deals"][0]["actions"])
    page.wait_for_selector(
        f"[data-testid=position]:text-is('As dealt, before action 1 of {actions}')"
    )
    page.click(".step-forward")
    page.wait_for_selector(f"[data-testid=position]:text-is('After action 1 of {actions}')")
    page.keyboard.press("PageDown")
    page.keyboard.press("End")
    page.wait_for_selector(f"[data-testid=position]:text-is('After action {actions} of {actions}')")
    page.wait_for_selector(".log-list li.current")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f"text=After action {actions - 1} of {actions}")
    assert not page.errors, page.errors


def test_the_lobby_says_a_table_with_nobody_there_waits(
    browser: Any, shared_server: Server
) -> None:
    """Issue 40: a table whose players have all gone waits, and the lobby says so, in
    English and in Swedish."""
    server = shared_server
    made = server.post("/api/tables", {"game": "vatikanen", "seats": ["human", "human"]})
    assert isinstance(made, dict)
    for seat, name in enumerate(("Ada", "Bea")):  # both join; neither opens the table
        server.post(f"/api/tables/{made['id']}/join", {"name": name, "seat": seat})
    row = f"li.table-row:has(a[href='#/t/{made['id']}/watch'])"
    for locale, text in (("en-GB", "paused until a player is back"), ("sv-SE", "vilar tills")):
        page = new_page(browser, locale=locale)
        page.goto(server.base + "/")
        page.wait_for_selector(f"{row}:has-text('{text}')")
        assert not page.errors, page.errors
        page.context.close()
