"""A phone: 390 x 844, touch, and 360 px wide.

The opening run is dragged with a finger (touch events, as a phone makes them)
card by card into a new meld, the meld marked invalid until it is one, and
played with a tap; every card and button a finger uses is at least 44 px; the
page is never wider than the screen, at 390 and at 360 px; cards have their
names for screen readers; the four-colour switch colours the clubs green.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from server_helpers import start
from web_helpers import (
    Position,
    bots_move_for,
    browser,
    new_page,
    seeded_positions,
    seeded_tables,
    shot,
    sit,
    touch_drag,
    wait_state,
    wait_version,
)

__all__ = ["browser"]

SEED = 5  # seat 0 opens with 2c 3c 4c at once
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}


def too_small(page: Any, selector: str) -> list[str]:
    """The elements of ``selector`` a finger gets less than 44 x 44 px of."""
    found: list[str] = page.evaluate(
        """sel => [...document.querySelectorAll(sel)].filter(el => el.offsetParent !== null)
           .map(el => [el, el.getBoundingClientRect()])
           .filter(([el, r]) => r.width < 43.5 || r.height < 43.5)
           .map(([el, r]) => `${el.className} ${r.width}x${r.height}`)
        """,
        selector,
    )
    return found


def wider_than_screen(page: Any) -> bool:
    """Whether the page is wider than the screen: a mobile viewport widens its layout (and
    innerWidth with it) to fit a page too wide, so the width is compared with the layout's
    own width at the screen's scale (clientWidth), not innerWidth."""
    return bool(
        page.evaluate("document.documentElement.scrollWidth > document.documentElement.clientWidth")
    )


def test_a_phone_plays_by_touch(browser: Any, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    seeded_tables(
        db,
        [
            ("phoneV", "vatikanen", ["human", "bot:greedy"], SEED),
            ("phoneK", "kontrakt", ["human", "bot:basic", "bot:basic"], 3),
        ],
    )
    server = start(db)
    try:
        page = new_page(browser, **PHONE)
        page.goto(f"{server.base}/#/t/phoneV")
        page.fill("input[name=name]", "Anna")
        page.tap("button[type=submit]")
        s = wait_state(page, "s.status === 'playing' && s.view.turn === 0")
        assert not wider_than_screen(page)
        two = ".hand .card[data-card='2c']"
        assert page.get_attribute(two, "aria-label") == "two of clubs"
        assert page.get_attribute(two, "aria-pressed") == "false"
        paths = f"{two} svg path"
        fill = "sel => document.querySelectorAll(sel)[1].getAttribute('fill')"
        assert page.evaluate(fill, paths) == "#1b1b1b"
        page.tap("header .four input")  # four colours: clubs green
        page.wait_for_function(f"sel => ({fill})(sel) === '#14753a'", arg=paths)
        # the run, dragged by finger: one card is no meld (marked), three are
        touch_drag(page, ".hand .card[data-card='2c']", centre(page, "[data-drop='new']"))
        page.wait_for_selector(".meld-box.invalid")
        touch_drag(
            page, ".hand .card[data-card='3c']", right_of(page, ".drafting [data-meld='n1'] .card")
        )
        touch_drag(
            page,
            ".hand .card[data-card='4c']",
            right_of(page, ".drafting [data-meld='n1'] .card >> nth=1"),
        )
        page.wait_for_selector(".meld-box.valid")
        page.wait_for_selector(".verdict.ok")
        cards = page.eval_on_selector_all(
            ".drafting [data-meld='n1'] .card", "els => els.map(e => e.dataset.card)"
        )
        assert cards == ["2c", "3c", "4c"]
        assert (
            too_small(
                page,
                ".card, .actions button, .chip, .place-new, header button, header select,"
                " header label.four",
            )
            == []
        )
        shot(page, "phone-vatikanen")
        page.tap(".actions .primary")
        after = wait_version(page, s["version"])
        assert after["view"]["opened"][0] is True
        # the bot plays, then a tap draws
        s = wait_state(page, "s.view.turn === 0")
        page.tap(".actions .draw")
        wait_version(page, s["version"])
        # a Kontrakt table on the phone, and both at 360 px
        page.goto(f"{server.base}/#/t/phoneK")
        page.fill("input[name=name]", "Anna")
        page.tap("button[type=submit]")
        wait_state(page, "s.status === 'playing'")
        page.wait_for_selector(".contract-banner")
        assert not wider_than_screen(page)
        assert too_small(page, ".hand .card, .actions button, .chip") == []
        # the players stand two a row, not one a row (issue 45)
        tops = {
            round(b["y"]) for b in (c.bounding_box() for c in page.locator(".player").all()) if b
        }
        assert len(tops) <= (page.locator(".player").count() + 1) // 2
        shot(page, "phone-kontrakt")
        page.set_viewport_size({"width": 360, "height": 740})
        assert not wider_than_screen(page)
        page.goto(f"{server.base}/#/t/phoneV")
        page.wait_for_selector(".hand .card")
        assert not wider_than_screen(page)
        page.goto(f"{server.base}/")
        page.wait_for_selector("text=New table")
        assert not wider_than_screen(page)
        assert not page.errors, page.errors
    finally:
        server.stop()


def centre(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def right_of(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] * 0.85, box["y"] + box["height"] / 2


IN_VIEW = """sel => [...document.querySelectorAll(sel)].filter(el => {
  const r = el.getBoundingClientRect();
  return r.top < 0 || r.bottom > window.innerHeight + 0.5;
}).map(el => el.textContent || el.dataset.card)"""


def test_on_a_phone_the_hand_and_the_actions_stay_in_view_and_errors_show_there(
    browser: Any, tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    seats = ["human", "bot:greedy", "bot:greedy"]
    # 30 moves on: seven melds on the table, thirteen cards in Anna's hand, her turn
    seeded_positions(db, [Position("midV", "vatikanen", seats, 1, {0: "Anna"}, bots_move_for(30))])
    server = start(db)
    try:
        page = new_page(browser, **PHONE)
        sit(page, server.base, "midV", 0, "Anna")
        s = wait_state(page, "s.view.turn === 0")
        assert len(s["view"]["hand"]) == 13 and len(s["view"]["table"]) == 7
        page.wait_for_selector(".hand .card")
        assert page.evaluate("document.documentElement.scrollHeight > window.innerHeight")
        for top in (0, 250):  # at the top, and with the table scrolled
            page.evaluate(f"window.scrollTo(0, {top})")
            assert page.evaluate(IN_VIEW, ".hand .card") == []
            assert page.evaluate(IN_VIEW, ".actions button") == []
        page.evaluate("window.scrollTo(0, 0)")
        page.tap(".actions button:has-text('Arrange')")  # nothing selected: it says what to do
        notice = page.wait_for_selector(".dock .notice-line")
        assert page.evaluate(IN_VIEW, ".dock .notice-line") == [], notice.inner_text()
        four = page.eval_on_selector(
            "header label.four",
            "el => [el.getBoundingClientRect().height, el.querySelector('input').offsetWidth]",
        )
        assert four[0] >= 43.5 and four[1] >= 24, four
        shot(page, "phone-vatikanen-mid-game", full=False)
        assert not page.errors, page.errors
    finally:
        server.stop()


def test_the_lobby_s_play_now_choices_are_finger_sized_on_a_phone_in_swedish(
    browser: Any, tmp_path: Path
) -> None:
    server = start(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    try:
        page = new_page(browser, **PHONE)
        page.goto(server.base + "/#/none")
        page.evaluate("localStorage.setItem('rummykit.lang', 'sv')")
        page.goto(server.base + "/#/")
        page.reload()
        page.wait_for_selector(".play-now .game-choice")
        # a game's row is the radio button's target: 44 px high, as every other control
        assert too_small(page, ".play-now .game-choice, .play-now button, .play-now select") == []
        assert not wider_than_screen(page)
        assert not page.errors, page.errors
    finally:
        server.stop()


MELD_PLACES = """() => [...document.querySelectorAll('.drafting .meld-box')].map(el => {
  const r = el.getBoundingClientRect();
  return [el.dataset.box, Math.round(r.left), Math.round(r.top + window.scrollY)];
})"""
"""Where each meld of the draft stands on the page: its key, its left, its top."""


def test_on_a_phone_selecting_a_card_does_not_move_the_melds(browser: Any, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    seats = ["human", "bot:greedy", "bot:greedy"]
    # seven melds on the table, two a row on a phone (issue 45)
    seeded_positions(db, [Position("plusV", "vatikanen", seats, 1, {0: "Anna"}, bots_move_for(30))])
    server = start(db)
    try:
        page = new_page(browser, **PHONE)
        sit(page, server.base, "plusV", 0, "Anna", "sv")
        wait_state(page, "s.view.turn === 0")
        page.wait_for_selector(".drafting .meld-box .card")
        before = page.evaluate(MELD_PLACES)
        assert len({top for _, _, top in before}) < len(before), before  # some share a row
        card = page.locator(".hand .card").first
        cid = card.get_attribute("data-id")
        card.tap()
        page.wait_for_selector(".drafting .meld .place")
        # every meld has its "+", and none moved: the "+" widens no meld
        assert page.locator(".drafting .meld .place").count() == len(before) - 1  # not the new
        assert page.evaluate(MELD_PLACES) == before
        assert too_small(page, ".drafting .meld .place") == []
        assert not wider_than_screen(page)
        shot(page, "phone-vatikanen-card-selected", full=False)
        # the "+" is a finger's target, over the meld: a tap puts the card in that meld
        first = before[0][0]
        page.tap(f".drafting [data-place='{first}']")
        page.wait_for_selector(f".drafting [data-meld='{first}'] .card[data-id='{cid}']")
        assert not page.errors, page.errors
    finally:
        server.stop()
