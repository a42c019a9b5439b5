"""The puzzle page (#/puzzles) in Chromium on a 390 x 844 phone: a puzzle solved by taps in
Swedish, the solution drawn, the streak and the rating kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from rummykit.puzzles import shipped
from server_helpers import start
from web_helpers import browser, new_page

__all__ = ["browser"]

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
    "locale": "sv-SE",
}


def _tap_cards(page: Any, cards: list[str]) -> None:
    used: dict[str, int] = {}
    for card in cards:
        n = used.get(card, 0)
        used[card] = n + 1
        page.locator(f".hand .card[data-card='{card}']").nth(n).tap()


def test_a_puzzle_is_solved_on_a_phone_in_swedish(browser: Any, tmp_path: Path) -> None:
    server = start(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    by_id = {p.id: p for p in shipped()}
    try:
        page = new_page(browser, **PHONE)
        page.goto(f"{server.base}/#/")
        page.evaluate("localStorage.setItem('rummykit.lang', 'sv')")
        page.reload()
        page.tap("a[href='#/puzzles']")
        page.wait_for_selector("main.puzzles[data-puzzle] .hand .card")
        puzzle = by_id[page.get_attribute("main.puzzles", "data-puzzle") or ""]
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.get_by_role("button", name="Tips").tap()
        page.wait_for_selector(".puzzle-hint")
        _tap_cards(page, list(puzzle.solution_add))
        page.get_by_role("button", name="Kontrollera").tap()
        page.wait_for_selector(".puzzle-verdict.right", timeout=60000)
        assert "Rätt" in page.inner_text(".puzzle-verdict")
        assert page.locator(".puzzle-verdict .card").count() == sum(
            len(m) for m in puzzle.solution_table
        )
        assert "Svit: 1" in page.inner_text(".puzzle-streak")
        kept = page.evaluate("JSON.parse(localStorage.getItem('rummykit.puzzleRating'))")
        assert kept["rating"] > 1500 and kept["rd"] < 350

        page.get_by_role("button", name="Nästa problem").tap()
        page.wait_for_selector("main.puzzles[data-puzzle] .hand .card")
    finally:
        server.stop()


def test_a_wrong_answer_is_told_why_on_a_phone_in_swedish_then_answered_rightly(
    browser: Any, tmp_path: Path
) -> None:
    server = start(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    by_id = {p.id: p for p in shipped()}
    try:
        page = new_page(browser, **PHONE)
        page.goto(f"{server.base}/#/")
        page.evaluate("localStorage.setItem('rummykit.lang', 'sv')")
        page.reload()
        page.tap("a[href='#/puzzles']")
        page.wait_for_selector("main.puzzles[data-puzzle] .hand .card")
        puzzle = by_id[page.get_attribute("main.puzzles", "data-puzzle") or ""]
        wrong = (
            list(puzzle.hand) if puzzle.best < len(puzzle.hand) else list(puzzle.solution_add)[:1]
        )
        said = httpx.post(
            f"{server.base}/api/puzzles/{puzzle.id}/answer",
            json={"add": wrong, "lang": "sv"},
            timeout=120,
        ).json()
        assert said["right"] is False
        _tap_cards(page, wrong)
        page.get_by_role("button", name="Kontrollera").tap()
        page.wait_for_selector(".puzzle-verdict.wrong", timeout=60000)
        told = page.inner_text(".puzzle-verdict")
        if said["rule"]:
            assert f"{said['rule']}: {said['message']}" in told  # the rule broken, in Swedish
        else:
            assert f"{said['more']} till" in told  # how many more could be laid
        assert page.locator(".puzzle-verdict .card").count() == 0  # not the solution yet
        assert "Svit: 0" in page.inner_text(".puzzle-streak")
        after_wrong = page.evaluate("JSON.parse(localStorage.getItem('rummykit.puzzleRating'))")
        assert after_wrong["rating"] < 1500

        page.get_by_role("button", name="Försök igen").tap()
        _tap_cards(page, list(puzzle.solution_add))
        page.get_by_role("button", name="Kontrollera").tap()
        page.wait_for_selector(".puzzle-verdict.right", timeout=60000)
        assert "Rätt" in page.inner_text(".puzzle-verdict")
        assert "Svit: 1" in page.inner_text(".puzzle-streak")
        kept = page.evaluate("JSON.parse(localStorage.getItem('rummykit.puzzleRating'))")
        assert kept == after_wrong  # a second try is no first try: the rating stays
    finally:
        server.stop()


def test_a_signed_in_player_s_puzzle_rating_is_the_server_s(browser: Any, tmp_path: Path) -> None:
    server = start(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    by_id = {p.id: p for p in shipped()}
    try:
        page = new_page(browser, **PHONE)
        page.goto(f"{server.base}/#/")
        made = page.request.post(
            f"{server.base}/api/account/signup",
            data={"name": "Eva Puzzles", "password": "correct horse"},
        )
        assert made.status == 201, made.text()
        page.evaluate("localStorage.setItem('rummykit.lang', 'sv')")
        page.evaluate(
            "localStorage.setItem('rummykit.puzzleRating',"
            " JSON.stringify({rating: 2222, rd: 50, volatility: 0.06}))"
        )
        page.goto(f"{server.base}/#/puzzles")
        page.wait_for_selector("main.puzzles[data-puzzle] .hand .card")
        assert "1500" in page.inner_text(".puzzle-rating")  # the account's, not the browser's
        puzzle = by_id[page.get_attribute("main.puzzles", "data-puzzle") or ""]
        _tap_cards(page, list(puzzle.solution_add))
        page.get_by_role("button", name="Kontrollera").tap()
        page.wait_for_selector(".puzzle-verdict.right", timeout=60000)
        rating = page.request.get(f"{server.base}/api/puzzles/next").json()["player"]["rating"]
        assert rating > 1500
        assert str(round(rating)) in page.inner_text(".puzzle-rating")
        kept = page.evaluate("JSON.parse(localStorage.getItem('rummykit.puzzleRating'))")
        assert kept["rating"] == 2222  # the guest's rating in this browser is untouched
    finally:
        server.stop()


def test_a_reviewed_game_links_to_its_own_puzzles(browser: Any, tmp_path: Path) -> None:
    from rummykit.puzzles import from_record
    from rummykit.record import parse_record
    from test_server_game_puzzles import finished_table

    server = start(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    try:
        for _ in range(4):  # a game with no puzzle in it: another
            table = finished_table(server)
            record = httpx.get(f"{server.base}/api/tables/{table}/games/0/record", timeout=30)
            found = list(from_record(parse_record(record.json())))[:8]
            if found:
                break
        assert found
        page = new_page(browser, **PHONE)
        page.goto(f"{server.base}/#/r/{table}/g/0/review")
        page.wait_for_selector("a.review-puzzles", timeout=60000)
        assert page.inner_text("a.review-puzzles") == "Problem från det här partiet"
        page.tap("a.review-puzzles")
        page.wait_for_selector("main.puzzles[data-puzzle] .hand .card")
        shown = page.get_attribute("main.puzzles", "data-puzzle")
        assert shown in {p.id for p in found}
    finally:
        server.stop()
