"""The review in the browser (docs/review.md): a marker on each turn where more was
possible, what was possible said in words, and the best play drawn on the table as it
was; reached from a replayed record file (a desktop, Vatikanen, with table cards moved)
and from "Review this game" next to the scores of a finished table (a phone, Kontrakt).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rummykit import games
from rummykit.record import GameRecord
from rummykit.review import review
from server_helpers import Server, start
from test_web_phone import PHONE, too_small, wider_than_screen
from web_helpers import Position, bots_move, browser, new_page, seeded_positions, shot

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


def position_words(done: int) -> str:
    """The replay's words for the position after ``done`` actions of a deal (one numbering,
    docs/review.md): the chance at the record's action index ``done`` is decided there."""
    return f"after action {done} of" if done else "as dealt, before action 1"


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
        page.wait_for_selector(f"[data-testid=position]:has-text('{position_words(turn.action)}')")
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
    page.wait_for_selector(
        f"[data-testid=position]:has-text('after action {moving.action + 1} of')"
    )
    assert page.locator(".review-turn").count() == (
        1 if any(t.action == moving.action + 1 for t in chances) else 0
    )
    assert not page.errors, page.errors


def test_neighbouring_review_marks_do_not_overlap_and_each_jumps_to_its_turn(
    browser: Any, shared_server: Server, tmp_path: Path
) -> None:
    record = vatikanen_record()
    chances = [t for t in review(record).turns if t.best > t.played and t.best_play is not None]
    chances = [t for t in chances if not t.went_out]
    # the two closest chances: their marks stood on top of each other along the positions
    k = min(range(len(chances) - 1), key=lambda i: chances[i + 1].action - chances[i].action)
    path = tmp_path / "game.json"
    path.write_text(record.dumps())
    page = new_page(browser)
    page.goto(shared_server.base + "/")
    page.set_input_files("input[type=file]", str(path))
    page.click("button:has-text('Review this game')")
    page.wait_for_selector(".review-mark")
    marks = page.locator(".review-mark")
    assert marks.count() == len(chances)
    first, second = marks.nth(k).bounding_box(), marks.nth(k + 1).bounding_box()
    assert first is not None and second is not None
    for box in (first, second):
        assert box["width"] >= 24 and box["height"] >= 24, box
    apart = (
        first["x"] + first["width"] <= second["x"] or first["y"] + first["height"] <= second["y"]
    )
    assert apart, (first, second)
    for j in (k + 1, k):  # each jumps to its turn, and is marked as the place
        marks.nth(j).click()
        where = position_words(chances[j].action)
        page.wait_for_selector(f"[data-testid=position]:has-text('{where}')")
        page.wait_for_selector(".review-turn")
        assert marks.nth(j).get_attribute("aria-current") == "step"
    assert not page.errors, page.errors


def test_a_best_play_notes_a_joker_that_now_stands_for_another_card(
    browser: Any, shared_server: Server, tmp_path: Path
) -> None:
    record = vatikanen_record()
    chances = [t for t in review(record).turns if t.best > t.played and t.best_play is not None]
    chances = [t for t in chances if not t.went_out]
    k, turn = next((k, t) for k, t in enumerate(chances) if t.best_play and "was" in t.best_play)
    assert turn.best_play is not None and "marks" in turn.best_play
    meld, place, was = turn.best_play["was"][0]
    assert (was, turn.best_play["table"][meld][place]) == ("*:4s", "*:8")  # 4♠ in its place
    path = tmp_path / "game.json"
    path.write_text(record.dumps())
    page = new_page(browser)
    page.goto(shared_server.base + "/")
    page.set_input_files("input[type=file]", str(path))
    page.click("button:has-text('Review this game')")
    page.locator(".review-mark").nth(k).click()
    page.click("button:has-text('Show the best play')")
    note = page.locator(".best-play .meld").nth(meld).locator(".joker-was")
    assert note.inner_text().replace("\ufe0e", "") == "★ 4♠→8"
    # the 4♠ from the hand, the joker moved on (coloured so), what stayed not coloured
    cards = page.locator(".best-play .meld").nth(meld).locator(".card")
    assert "rv-moved" in (cards.nth(place).get_attribute("class") or "")
    shot(page, "review-joker-was")
    assert not page.errors, page.errors


KSEED = 86
"""A Kontrakt table played to its end (seed 86): Astrid, away, stood in for by a basic bot,
against a random bot. The random bot is förhand and could have laid 6 cards at the very
first turn, at position 0, where the review opens; its next chance (move 10 of the same
deal) frees a table joker with a natural card (K11)."""


def finished_kontrakt_table(db: str) -> str:
    """Store the table of :data:`KSEED`, every move made as the server's bots make them."""
    seats = ["human", "bot:random"]
    stored = seeded_positions(
        db, [Position("overK", "kontrakt", seats, KSEED, {0: "Astrid"}, bots_move)]
    )
    game = stored["overK"].game
    assert game is not None and game.over, "the game did not end"
    return "overK"


def test_review_this_game_from_the_scores_on_a_phone(browser: Any, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    table_id = finished_kontrakt_table(db)
    server = start(db)
    try:
        doc = server.get(f"/api/tables/{table_id}/review")
        assert isinstance(doc, dict)
        chances = [t for t in doc["turns"] if t["best"] > t["played"]]
        # a chance at position 0, where the review opens (the next chance is not the first),
        # then one in the same deal that swaps a joker: its position is its action's index
        first, second = chances[:2]
        assert (first["deal"], first["action"], second["deal"]) == (0, 0, 0)
        assert any(a["type"] == "swap_joker" for a in second["best_play"]["actions"])
        page = new_page(browser, **PHONE)
        page.goto(f"{server.base}/#/t/{table_id}/watch")
        page.wait_for_selector("text=The game is over")
        page.tap("a:has-text('Review this game')")
        page.wait_for_selector("[data-testid=chances]")
        assert page.locator(".review-mark").count() == len(chances)
        for k, chance in enumerate((first, second)):
            if k > 0:  # the first chance is at position 0: its panel is there at once
                page.tap("button.review-next")
            where = position_words(chance["action"])
            page.wait_for_selector(f"[data-testid=position]:has-text('{where}')")
            assert f"could have laid {chance['best']} cards" in page.inner_text(".review-turn")
            page.tap("button:has-text('Show the best play')")
            page.wait_for_selector(".best-play")
            # the cards laid, and the natural cards put in the place of a table joker (K11)
            play = chance["best_play"]
            swaps = sum(1 for a in play["actions"] if a["type"] == "swap_joker")
            assert page.locator(".best-play .card.rv-hand").count() == chance["best"] + swaps
            shown = [
                [c.get_attribute("data-card") for c in meld.locator(".card").all()]
                for meld in page.locator(".best-play .meld").all()
            ]
            assert shown == [m["cards"] for m in play["table"]]
            assert not wider_than_screen(page)
            assert too_small(page, ".review-bar button, .review-turn button") == []
            if k == 0:
                shot(page, "phone-review")
            page.tap("button:has-text('Hide the best play')")
            page.wait_for_selector(".best-play", state="detached")
        assert not page.errors, page.errors
    finally:
        server.stop()


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
