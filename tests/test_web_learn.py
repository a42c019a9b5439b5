"""The tutorial in a real chromium (issue 43 item 5, docs/tutorial.md): a phone in Swedish
opens the lessons from the lobby, does Vatikanen's first lesson with the table's own board
(a move the rules forbid told with its rule, then the run laid), and goes on to the next;
the last lesson of Kontrakt leads to a game against the computer."""

from __future__ import annotations

from typing import Any

from server_helpers import Server
from test_web_accounts import PHONE, wider_than_phone
from web_helpers import browser, new_page, shot

__all__ = ["browser"]


def tap_cards(page: Any, *cards: str, touch: bool = True) -> None:
    for card in cards:
        where = f".hand .card[data-card='{card}']:not(.selected)"
        page.tap(where) if touch else page.click(where)


def test_a_phone_in_swedish_learns_the_opening_run_and_is_told_a_rule_it_breaks(
    browser: Any, shared_server: Server
) -> None:
    phone = new_page(browser, **PHONE)
    phone.goto(shared_server.base + "/")
    phone.get_by_role("link", name="Lär dig spela").click()
    phone.get_by_role("heading", name="Lär dig spela").wait_for()
    phone.locator(".lesson-list a").first.click()
    phone.wait_for_selector(".learn-lesson .hand .card[data-card='5h']")
    assert "V7" in phone.locator(".lesson-head h1").inner_text()
    tap_cards(phone, "5h", "6h")  # too short: the engine refuses it, with its rule
    phone.tap(".actions button:has-text('Ordna')")
    phone.wait_for_selector(".error-line .rule:has-text('V7'), .verdict.bad")
    phone.tap("button:has-text('Börja om lektionen')")
    phone.wait_for_selector(".learn-lesson .hand .card[data-card='5h']:not(.selected)")
    tap_cards(phone, "5h", "6h", "7h")
    phone.tap(".actions button:has-text('Ordna')")
    phone.wait_for_selector(".verdict.ok")
    phone.tap(".actions button.primary")
    phone.wait_for_selector(".notice-line:has-text('Bra')")
    assert not wider_than_phone(phone)
    shot(phone, "lesson-phone-sv")
    phone.tap(".lesson-next a.primary")
    phone.wait_for_selector(".learn-lesson .hand .card[data-card='8c']")
    assert "V6" in phone.locator(".lesson-head h1").inner_text()
    assert not phone.errors, phone.errors


def test_the_last_kontrakt_lesson_leads_to_a_game_against_the_computer(
    browser: Any, shared_server: Server
) -> None:
    page = new_page(browser)
    page.goto(shared_server.base + "/#/learn/k-seventh")
    page.wait_for_selector(".learn-lesson .hand .card[data-card='3h']")
    for group in (("3h", "4h", "5h"), ("8c", "9c", "Tc"), ("Js", "Qs", "Ks")):
        tap_cards(page, *group, touch=False)
        page.click(".actions button:has-text('Meld')")
    page.click(".actions button:has-text('Lay down')")
    page.wait_for_selector(".notice-line:has-text('whole game')")
    page.click(".lesson-next button.primary")
    page.wait_for_url("**/#/t/*")
    page.wait_for_function("() => window.rummykit.state() && window.rummykit.state().seat === 0")
    assert not page.errors, page.errors


SIX_IN_HAND = "() => document.querySelectorAll('.learn-lesson .hand .card').length === 6"


def test_starting_a_lesson_again_lays_out_its_position_afresh(
    browser: Any, shared_server: Server
) -> None:
    """The board keeps a half-built turn in the browser, by table and version: a lesson
    begins again at its first position, so "Start the lesson again" and "Again" must not
    bring back the cards laid before (the lesson done, or not)."""
    phone = new_page(browser, **PHONE)
    phone.goto(shared_server.base + "/#/learn/v-group")
    phone.wait_for_selector(".learn-lesson .hand .card[data-card='8s']")
    tap_cards(phone, "8s", "8c", "8d")
    phone.tap("[data-place='new']")
    phone.wait_for_selector(".verdict.ok")
    phone.tap("button:has-text('Börja om lektionen')")
    phone.wait_for_function(SIX_IN_HAND)
    assert phone.locator(".drafting .card[data-card='8s']").count() == 0
    tap_cards(phone, "8s", "8c", "8d")
    phone.tap("[data-place='new']")
    phone.wait_for_selector(".verdict.ok")
    phone.tap(".actions button.primary")
    phone.wait_for_selector(".lesson-next")
    phone.tap(".lesson-next button:has-text('Igen')")
    phone.wait_for_function(SIX_IN_HAND)
    assert phone.locator(".drafting .card[data-card='8s']").count() == 0
    assert not phone.errors, phone.errors


def test_a_deal_s_end_fits_a_phone_in_swedish(browser: Any, shared_server: Server) -> None:
    """Going out in Kontrakt's lesson shows the deal's end, its scores a table of four
    columns with the cards left: in Swedish ("Straffpoäng") it fits the phone's width."""
    phone = new_page(browser, **PHONE)
    phone.goto(shared_server.base + "/#/learn/k-out")
    phone.wait_for_selector(".learn-lesson .hand .card[data-card='7s']")
    tap_cards(phone, "7s")
    phone.tap("[data-layoff='0']")
    phone.wait_for_function(
        "() => document.querySelectorAll('.learn-lesson .hand .card').length === 1"
    )
    tap_cards(phone, "Kc")
    phone.tap(".actions button.discard")
    phone.wait_for_selector(".deal-end-panel .scores")
    assert "Straffpoäng" in phone.inner_text(".deal-end-panel .scores").replace("\u00ad", "")
    assert not wider_than_phone(phone)
    assert not phone.errors, phone.errors


def test_a_signed_in_learner_plays_the_game_after_the_last_lesson_under_their_name(
    browser: Any, shared_server: Server
) -> None:
    """The game against the computer from the last lesson seats a signed-in player under
    the account's name, as "Play now" does, not as "You"."""
    page = new_page(browser)
    page.goto(shared_server.base + "/")
    page.wait_for_function("() => window.rummykit && window.rummykit.ready")
    status = page.evaluate(
        """async () => (await fetch('api/account/signup', {method: 'POST',
             headers: {'content-type': 'application/json'},
             body: JSON.stringify({name: 'Lärling', password: 'hemligt-ord-42'})})).status"""
    )
    assert status == 201
    page.evaluate("localStorage.setItem('rummykit.account', 'true')")  # as the page signs up
    page.goto(shared_server.base + "/#/learn/v-draw")
    page.reload()
    page.wait_for_selector(".learn-lesson .hand .card")
    page.click(".actions button:has-text('Draw')")
    page.click(".lesson-next button.primary")
    page.wait_for_url("**/#/t/*")
    found = page.wait_for_function(
        "() => { const s = window.rummykit.state(); return s && s.seats[0].name; }"
    )
    assert found.json_value() == "Lärling"
    assert not page.errors, page.errors


def test_the_lessons_follow_a_change_of_language(browser: Any, shared_server: Server) -> None:
    """The lessons' words come from the server in the page's language: switched in the
    header, a lesson under way and the list of lessons say them in the new one, and the
    lesson keeps its moves."""
    phone = new_page(browser, **PHONE)
    phone.goto(shared_server.base + "/#/learn/k-out")
    phone.wait_for_selector(".learn-lesson .hand .card[data-card='7s']")
    assert "Att gå ut" in phone.inner_text(".lesson-head h1")
    tap_cards(phone, "7s")
    phone.tap("[data-layoff='0']")
    phone.wait_for_function(
        "() => document.querySelectorAll('.learn-lesson .hand .card').length === 1"
    )
    phone.select_option("header select", "en")
    phone.wait_for_function(
        "() => document.querySelector('.lesson-head h1').textContent.includes('Going out')"
    )
    assert "Lay off 7♠" in phone.inner_text(".lesson-head .task")
    assert phone.locator(".learn-lesson .hand .card").count() == 1  # the lay-off stands
    phone.tap("text=All lessons")
    phone.wait_for_selector(".lesson-list a")
    phone.select_option("header select", "sv")
    phone.wait_for_function(
        "() => document.querySelector('.lesson-list a').textContent.includes('Ditt första utspel')"
    )
    phone.select_option("header select", "en")
    phone.wait_for_function(
        "() => document.querySelector('.lesson-list a').textContent.includes('Your first play')"
    )
    assert not phone.errors, phone.errors


def test_a_guest_with_no_name_plays_the_game_after_the_last_lesson_as_gast_not_du_du(
    browser: Any, shared_server: Server
) -> None:
    """A guest who set no name is seated under a plain default name, in the page's language:
    "Gäst", not "Du", which the table showed as "Du (du)"."""
    page = new_page(browser)
    page.goto(shared_server.base + "/")
    page.evaluate("localStorage.setItem('rummykit.lang', 'sv')")
    page.goto(shared_server.base + "/#/learn/v-draw")
    page.reload()
    page.wait_for_selector(".learn-lesson .hand .card")
    page.click(".actions button:text-is('Dra')")
    page.click(".lesson-next button.primary")
    page.wait_for_url("**/#/t/*")
    found = page.wait_for_function(
        "() => { const s = window.rummykit.state(); return s && s.seats[0].name; }"
    )
    assert found.json_value() == "Gäst"
    me = page.locator(".player.me .name")
    me.wait_for()
    assert " ".join(me.inner_text().split()) == "Gäst (du)"
    assert not page.errors, page.errors
