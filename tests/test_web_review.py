"""The review in the browser (docs/review.md): a marker on each turn where more was
possible, what was possible said in words, and the best play drawn on the table as it
was; reached from a replayed record file (a desktop, Vatikanen, with table cards moved)
and from "Review this game" next to the scores of a finished table (a phone, Kontrakt).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from rummykit import games
from rummykit.record import GameRecord
from rummykit.review import review
from server_helpers import Server
from test_web_phone import PHONE, too_small, wider_than_screen
from web_helpers import browser, new_page, shot

__all__ = ["browser"]

SEED = 0
"""A Vatikanen game of a random bot (Anna) against a greedy one: Anna misses plays that
move table cards."""


def vatikanen_record() -> GameRecord:
    spec = games.get("vatikanen")
    game = spec.new(["Anna", "Bo"], seed=SEED)
    bots = [spec.make_bot(level, SEED * 10 + s) for s, level in enumerate(["random", "greedy"])]
    while (seat := game.to_act) is not None:
        game.apply(bots[seat].choose(game.view(seat)))
    return game.to_record()


def test_a_replayed_record_shows_its_review_and_the_best_play(
    browser: Any, shared_server: Server, tmp_path: Path
) -> None:
    record = vatikanen_record()
    expected = review(record)
    chances = [t for t in expected.turns if t.best > t.played]
    moving = next(t for t in chances if t.best_play is not None and t.best_play["moved"])
    path = tmp_path / "game.json"
    path.write_text(record.dumps())
    page = new_page(browser)
    page.goto(shared_server.base + "/")
    page.set_input_files("input[type=file]", str(path))
    page.wait_for_selector("[data-testid=position]")
    page.click("button:has-text('Review this game')")
    page.wait_for_selector(f"[data-testid=chances]:has-text('{len(chances)} turns')")
    assert page.locator(".review-mark").count() == len(chances)
    assert "Anna: at the best in" in page.inner_text(".review-players")
    # from the start, chance by chance, to the first play that moves table cards
    for turn in chances:
        if turn.action > 0:
            page.click("button.review-next")
        page.wait_for_selector(f"text=Move {turn.action} of")
        if turn is moving:
            break
    panel = page.inner_text(".review-turn")
    assert f"could have laid {turn.best} cards" in panel, panel
    assert "already on the table" in panel
    page.click("button:has-text('Show the best play')")
    page.wait_for_selector(".best-play")
    assert moving.best_play is not None
    hand = page.locator(".best-play .card.rv-hand").count()
    moved = page.locator(".best-play .card.rv-moved").count()
    assert (hand, moved) == (moving.best, moving.best_play["moved"])
    shown = [
        [c.get_attribute("data-card") for c in meld.locator(".card").all()]
        for meld in page.locator(".best-play .meld").all()
    ]
    assert shown == moving.best_play["table"]
    shot(page, "review-best-play")
    page.click("button:has-text('Hide the best play')")
    page.wait_for_selector(".best-play", state="detached")
    page.keyboard.press("ArrowRight")  # past the turn: no panel
    page.wait_for_selector(f"text=Move {moving.action + 1} of")
    assert page.locator(".review-turn").count() == (
        1 if any(t.action == moving.action + 1 for t in chances) else 0
    )
    assert not page.errors, page.errors


def finished_kontrakt_table(server: Server) -> str:
    """A Kontrakt table played to its end: its player joins and stays away, so that a bot
    stands in at once (grace 0) against a random bot."""
    table = {"game": "kontrakt", "seats": ["human", "bot:random"], "grace": 0}
    made = server.post("/api/tables", table)
    assert isinstance(made, dict)
    server.post(f"/api/tables/{made['id']}/join", {"name": "Astrid"})
    deadline = time.monotonic() + 120
    while server.get(f"/api/tables/{made['id']}")["status"] != "over":  # type: ignore[index]
        assert time.monotonic() < deadline, "the game did not end"
        time.sleep(0.3)
    return str(made["id"])


def test_review_this_game_from_the_scores_on_a_phone(browser: Any, shared_server: Server) -> None:
    table_id = finished_kontrakt_table(shared_server)
    doc = shared_server.get(f"/api/tables/{table_id}/review")
    assert isinstance(doc, dict)
    chances = [t for t in doc["turns"] if t["best"] > t["played"]]
    assert chances, "the random bot missed nothing"
    page = new_page(browser, **PHONE)
    page.goto(f"{shared_server.base}/#/t/{table_id}/watch")
    page.wait_for_selector("text=The game is over")
    page.tap("a:has-text('Review this game')")
    page.wait_for_selector("[data-testid=chances]")
    assert page.locator(".review-mark").count() == len(chances)
    page.tap("button.review-next")
    page.wait_for_selector(".review-turn")
    first = chances[0]
    assert "could have laid" in page.inner_text(".review-turn")
    page.tap("button:has-text('Show the best play')")
    page.wait_for_selector(".best-play")
    # the cards laid, and the natural cards put in the place of a table joker (K11)
    swaps = sum(1 for a in first["best_play"]["actions"] if a["type"] == "swap_joker")
    assert page.locator(".best-play .card.rv-hand").count() == first["best"] + swaps
    assert not wider_than_screen(page)
    assert too_small(page, ".review-bar button, .review-turn button") == []
    shot(page, "phone-review")
    assert not page.errors, page.errors


def test_the_review_speaks_swedish(browser: Any, shared_server: Server, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(vatikanen_record().to_json()))
    page = new_page(browser, locale="sv-SE")
    page.goto(shared_server.base + "/")
    page.set_input_files("input[type=file]", str(path))
    page.click("button:has-text('Gå igenom partiet')")
    page.wait_for_selector("[data-testid=chances]:has-text('turer där mer hade gått')")
    page.click("button.review-next")
    page.wait_for_selector(".review-turn:has-text('Annas tur: mer hade gått')")
    page.click("button:has-text('Visa det bästa draget')")
    page.wait_for_selector(".best-play:has-text('Det bästa draget, på bordet som det låg')")
    assert not page.errors, page.errors
