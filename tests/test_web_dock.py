"""The dock on a phone and a desktop (issue 45): what a turn needs stays in it.

A Kontrakt turn with an invalid staged meld shows the server's verdict in the
dock, and "Lay down" is greyed with the reason until the melds are valid.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from server_helpers import start
from web_helpers import (
    Position,
    bots_move,
    bots_move_for,
    browser,
    centre,
    new_page,
    seeded_positions,
    shot,
    sit,
    state,
    touch_drag,
    wait_state,
)

__all__ = ["browser"]

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}


def to_first_play(table: Any) -> dict[str, Any] | None:
    """Decline the upcard and draw from the stock, up to seat 0's first play."""
    game = table.game
    view = dict(game.view(game.to_act))
    if view["phase"] == "play":
        return None
    if view["phase"] == "upcard_offer":
        forhand = game.to_act == view["forhand"]
        return {"type": "decline_upcard" if forhand else "pass_upcard"}
    return {"type": "draw", "from": "stock"}


def test_an_invalid_staged_meld_is_judged_in_the_dock_and_lay_down_greyed(
    browser: Any, tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    tables = seeded_positions(
        db,
        [Position("dockK", "kontrakt", ["human", "human"], 3, {0: "Anna", 1: "Bo"}, to_first_play)],
    )
    game = tables["dockK"].game
    assert game is not None and game.to_act is not None
    seat = game.to_act
    server = start(db)
    try:
        page = new_page(browser, **PHONE)
        sit(page, server.base, "dockK", seat, ["Anna", "Bo"][seat])
        s = wait_state(page, "s.status === 'playing' && s.view.phase === 'play'")
        # nothing selected: Meld, Lay down and Discard are greyed, and the dock says why in
        # words (a phone shows no tooltip)
        for label in ("Meld", "Lay down", "Discard"):
            assert page.locator(f".actions button:text-is('{label}')").is_disabled(), label
        why = page.locator(".dock .why").inner_text()
        assert "Select cards in your hand" in why and "Discard" in why, why
        hand = s["view"]["hand"]
        # two cards of different ranks and suits: no meld
        first = hand[0]
        other = next(c for c in hand if c[:-1] != first[:-1] and c[-1] != first[-1])
        for card in (first, other):
            page.tap(f".hand .card[data-card='{card}']:not(.selected)")
        page.tap(".actions button:has-text('Meld')")
        page.wait_for_selector(".dock .verdict.bad")
        lay = page.locator(".actions button:has-text('Lay down')")
        assert lay.is_disabled()
        why = lay.get_attribute("title") or ""
        assert "not valid" in why, why
        shot(page, "phone-kontrakt-invalid-meld", full=False)
        assert not page.errors, page.errors
    finally:
        server.stop()


def test_a_finished_game_on_a_phone_wraps_the_cards_left_keeps_review_and_no_stand_in(
    browser: Any, tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    seeded_positions(
        db,
        [
            Position(
                "overV",
                "vatikanen",
                ["human", "human"],
                6,  # Bo is left with four cards
                {0: "Anna", 1: "Bo"},
                bots_move,
                grace=1,
            )
        ],
    )
    server = start(db)
    try:
        bo = new_page(browser)
        sit(bo, server.base, "overV", 1, "Bo")
        wait_state(bo, "s.status === 'over'")
        bo.context.close()  # Bo leaves: away, past the grace
        page = new_page(browser, **PHONE)
        time.sleep(1.5)  # past the grace: Bo's seat would be stood in for, were a game on
        sit(page, server.base, "overV", 0, "Anna")
        wait_state(page, "s.status === 'over'")
        page.wait_for_selector(".modal .mini-cards .card")
        # the cards left wrap: several cards on the first row, not one a row
        tops = page.eval_on_selector_all(
            ".modal .mini-cards .card", "els => els.map(e => e.getBoundingClientRect().top)"
        )
        assert len(tops) >= 3 and tops[0] == tops[1] == tops[2], tops
        shot(page, "phone-vatikanen-game-over", full=False)
        page.keyboard.press("Escape")
        page.wait_for_selector(".over-bar")
        assert page.locator(".over-bar a:has-text('Review this game')").count() == 1
        # the game's end above the board, and its status line and stock above the dock
        for sel in (".over-bar", ".status-line", ".status-line .stock"):
            assert page.evaluate(UNDER_DOCK, sel) == [], sel
        page.wait_for_function("() => !!document.querySelector('.player .badge.away')")
        assert page.locator(".player .badge.stand-in").count() == 0
        assert not page.errors, page.errors
    finally:
        server.stop()


def test_a_joker_laid_through_the_page_says_what_it_stands_for_in_the_log(
    browser: Any, tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    tables = seeded_positions(
        db,
        [
            Position(
                "jokerK", "kontrakt", ["human", "human"], 21, {0: "Anna", 1: "Bo"}, to_first_play
            )
        ],
    )
    game = tables["jokerK"].game
    assert game is not None and game.to_act == 1  # Bo holds Kd Kh and a joker
    server = start(db)
    try:
        page = new_page(browser)
        sit(page, server.base, "jokerK", 1, "Bo")
        s = wait_state(page, "s.status === 'playing' && s.view.phase === 'play'")
        for card in ("Kd", "Kh", "*"):
            page.click(f".hand .card[data-card='{card}']:not(.selected)")
        page.click(".actions button:has-text('Meld')")
        page.wait_for_selector(".dock .verdict.ok")
        page.click(".actions button:has-text('Lay down')")
        wait_state(page, f"s.version > {s['version']}")
        page.wait_for_selector(".log li:has-text('Bo laid down')")
        line = page.locator(".log li:has-text('Bo laid down')").last.inner_text()
        assert "★=K" in line, line
        assert not page.errors, page.errors
    finally:
        server.stop()


def test_an_engine_error_in_the_dock_starts_with_a_capital(browser: Any, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    seeded_positions(db, [Position("capsV", "vatikanen", ["human", "bot:greedy"], 5, {0: "Anna"})])
    server = start(db)
    try:
        page = new_page(browser)
        sit(page, server.base, "capsV", 0, "Anna")
        wait_state(page, "s.status === 'playing' && s.view.turn === 0")
        page.fill("#command", "play 2c 3c")  # too short to open with (V7)
        page.press("#command", "Enter")
        text = page.locator(".dock .error-line .error-text").inner_text()
        assert text[:1].isupper(), text
        assert not page.errors, page.errors
    finally:
        server.stop()


def draw_or_pass(table: Any) -> dict[str, Any]:
    """Nobody plays: draw while the stock lasts, then pass, until the game is blocked (V15)."""
    game = table.game
    return {"type": "draw" if dict(game.view(game.to_act))["stock_size"] > 0 else "pass"}


def test_a_blocked_vatikanen_game_says_it_was_blocked_and_why(browser: Any, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    seeded_positions(
        db,
        [
            Position(
                "blockV", "vatikanen", ["human", "human"], 3, {0: "Anna", 1: "Bo"}, draw_or_pass
            )
        ],
    )
    server = start(db)
    try:
        page = new_page(browser, **PHONE)
        sit(page, server.base, "blockV", 0, "Anna")
        s = wait_state(page, "s.status === 'over'")
        assert s["view"]["end"]["reason"] == "blocked"
        headline = page.locator(".modal .headline").inner_text()
        assert "blocked" in headline and "Anna" in headline and "V15" in headline, headline
        shot(page, "phone-vatikanen-blocked", full=False)
        page.keyboard.press("Escape")
        assert "blocked" in page.locator(".over-bar .headline").inner_text()
        assert not page.errors, page.errors
    finally:
        server.stop()


def test_arrange_with_the_whole_hand_selected_fits_what_it_can(
    browser: Any, tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    seeded_positions(db, [Position("arrV", "vatikanen", ["human", "bot:greedy"], 5, {0: "Anna"})])
    server = start(db)
    try:
        page = new_page(browser)
        sit(page, server.base, "arrV", 0, "Anna")
        wait_state(page, "s.status === 'playing' && s.view.turn === 0")
        for card in page.locator(".hand .card").all():
            card.click()
        page.click(".actions button:has-text('Arrange')")
        page.wait_for_selector(".dock .verdict.ok")  # the opening run fitted, the rest kept
        assert page.locator(".dock .error-line").count() == 0
        assert "2♣" in page.locator(".dock .notice-line").inner_text()
        shot(page, "vatikanen-arrange-some", full=False)
        assert not page.errors, page.errors
    finally:
        server.stop()


UNDER_DOCK = """sel => {
  const dock = document.querySelector('.dock').getBoundingClientRect();
  return [...document.querySelectorAll(sel)].filter(el => el.offsetParent !== null)
    .map(el => el.getBoundingClientRect())
    .filter(r => r.bottom > dock.top + 0.5 || r.top < 0)
    .map(r => `${r.top}-${r.bottom} (dock from ${dock.top})`);
}"""
"""The elements of a selector that the dock covers (or that are above the view)."""


def test_on_a_phone_a_staged_kontrakt_meld_and_its_verdict_stand_above_the_dock(
    browser: Any, tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    tables = seeded_positions(
        db,
        [
            Position(
                "builtK", "kontrakt", ["human", "human"], 3, {0: "Anna", 1: "Bo"}, to_first_play
            )
        ],
    )
    game = tables["builtK"].game
    assert game is not None and game.to_act is not None
    seat = game.to_act
    server = start(db)
    try:
        page = new_page(browser, **PHONE)
        sit(page, server.base, "builtK", seat, ["Anna", "Bo"][seat])
        s = wait_state(page, "s.status === 'playing' && s.view.phase === 'play'")
        hand = s["view"]["hand"]
        first = hand[0]
        other = next(c for c in hand if c[:-1] != first[:-1] and c[-1] != first[-1])
        for card in (first, other):
            page.tap(f".hand .card[data-card='{card}']:not(.selected)")
        page.tap(".actions button:has-text('Meld')")
        page.wait_for_selector(".staged .meld-box.invalid .meld-verdict .rule")
        page.wait_for_timeout(300)  # the page scrolls at the next frame
        assert page.evaluate(UNDER_DOCK, ".staged .meld-box.invalid") == []
        assert not page.errors, page.errors
    finally:
        server.stop()


def to_the_second_deal(table: Any) -> dict[str, Any] | None:
    """The bots' moves until the first deal is over and Anna (seat 0) is to act."""
    game = table.game
    view = dict(game.view(game.to_act))
    if game.to_act == 0 and any(e["type"] == "deal_end" for e in view["log"]):
        return None
    return bots_move(table)


def test_with_the_deal_end_panel_open_the_status_and_the_piles_stand_above_the_dock(
    browser: Any, tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    seats = ["human", "human", "bot:basic", "bot:basic"]
    tables = seeded_positions(
        db, [Position("endK", "kontrakt", seats, 3, {0: "Anna", 1: "Bo"}, to_the_second_deal)]
    )
    game = tables["endK"].game
    assert game is not None and game.to_act == 0
    server = start(db)
    try:
        for name, options, lang in (
            ("desktop", {}, ""),
            ("phone", PHONE, ""),
            ("phone-sv", PHONE, "sv"),
        ):
            page = new_page(browser, **options)
            sit(page, server.base, "endK", 0, "Anna", lang)
            wait_state(page, "s.status === 'playing' && s.view.deal === 1")
            page.wait_for_selector(".deal-end-panel")
            page.wait_for_timeout(200)
            # the piles' counts ("Stock: 65", "The upcard") too, not only their cards
            for sel in (".status-line", ".stock-card", ".pile-count", ".discard-pile .card"):
                assert page.evaluate(UNDER_DOCK, sel) == [], (name, sel)
            # the deal's scores do not widen the page, which a phone then shows smaller
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= page.evaluate("document.documentElement.clientWidth"), (name, wide)
            shot(page, f"{name}-kontrakt-deal-end-open", full=False)
            assert not page.errors, page.errors
            page.context.close()
    finally:
        server.stop()


JUST_ABOVE_DOCK = """sel => {
  const el = document.querySelector(sel);
  const dock = document.querySelector('.dock').getBoundingClientRect();
  window.scrollBy(0, el.getBoundingClientRect().bottom - (dock.top - 4));
  return window.scrollY;
}"""
"""Scroll the page until the element's foot is just above the dock, as a thumb leaves it."""


def test_on_a_phone_a_vatikanen_meld_just_built_and_its_verdict_stand_above_the_dock(
    browser: Any, tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    seats = ["human", "bot:greedy", "bot:greedy"]
    # 30 moves on: seven melds on the table, the new meld's place below them, Anna's turn
    seeded_positions(
        db, [Position("builtV", "vatikanen", seats, 1, {0: "Anna"}, bots_move_for(30))]
    )
    server = start(db)
    try:
        page = new_page(browser, **PHONE)
        sit(page, server.base, "builtV", 0, "Anna")
        s = wait_state(page, "s.view.turn === 0")
        assert len(s["view"]["table"]) == 7
        new = ".drafting [data-drop='new']"
        page.wait_for_selector(new)
        assert page.evaluate(UNDER_DOCK, new) != []  # at the top, the dock hides it
        # the thumb scrolls the new meld's place just above the dock and drops a card there:
        # the meld grows a verdict, the dock the server's sentence, and the meld was under it
        assert page.evaluate(JUST_ABOVE_DOCK, new) > 0
        assert page.evaluate(UNDER_DOCK, new) == []
        first = page.locator(".hand .card").first.get_attribute("data-id")
        touch_drag(page, f".hand [data-id='{first}']", centre(page, new))
        built = ".drafting .meld-box[data-box^='n']"
        page.wait_for_selector(f"{built} .meld-verdict:not(:empty)")
        page.wait_for_selector(".dock .verdict.bad")
        page.wait_for_timeout(300)  # the page scrolls at the next frame
        assert page.evaluate(UNDER_DOCK, built) == []
        shot(page, "phone-vatikanen-meld-built", full=False)
        assert not page.errors, page.errors
    finally:
        server.stop()


SV = json.loads((Path(__file__).resolve().parents[1] / "src/rummykit/web/i18n/sv.json").read_text())
"""The browser's Swedish words, by their English id."""

IN_VIEW = """sel => {
  const el = document.querySelector(sel);
  if (!el) return 'missing';
  const r = el.getBoundingClientRect();
  if (r.height === 0 || r.top < 0 || r.bottom > innerHeight) {
    return `out of view: ${r.top}-${r.bottom}`;
  }
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return el.contains(hit) ? '' : `covered by ${hit ? hit.className : 'nothing'}`;
}"""
"""Why the element of a selector is not seen whole in the view (clipped by the dock's own
scroll, covered, off the screen), or '' when it is."""


def tap_greyed(page: Any, label: str, reason: str) -> None:
    """Tap the greyed action button ``label``: its reason is said in view, in the dock's
    message line (a phone shows no tooltip), and nothing is played."""
    button = page.locator(f".dock .actions button:text-is('{label}')")
    assert button.is_disabled(), label
    before = state(page)
    assert before is not None
    button.tap(force=True)  # a greyed button is no target Playwright taps of itself
    line = page.locator(".dock .notice-line[role=status]")
    line.filter(has_text=reason).wait_for(timeout=3000)
    assert page.evaluate(IN_VIEW, ".dock .notice-line") == "", label
    page.wait_for_timeout(400)
    after = state(page)
    assert after is not None and after["version"] == before["version"], label
    assert after["view"] == before["view"], label


def test_on_a_phone_a_tap_on_a_greyed_vatikanen_button_says_why_and_plays_nothing(
    browser: Any, tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    names = {0: "Anna", 1: "Bo"}
    seeded_positions(db, [Position("greyV", "vatikanen", ["human", "human"], 5, names)])
    server = start(db)
    try:
        page = new_page(browser, **PHONE)
        sit(page, server.base, "greyV", 0, "Anna", "sv")
        wait_state(page, "s.status === 'playing' && s.view.turn === 0")
        # a turn's start: nothing in the draft, so Lägg ut, Ångra and Börja om are greyed
        tap_greyed(page, SV["Play"], SV["Put cards from your hand on the table first, or draw."])
        tap_greyed(page, SV["Undo"], SV["There is no change to take back."])
        tap_greyed(page, SV["Reset"], SV["You have not changed the table."])
        # a keyboard reaches the greyed button too, and Enter says why
        page.locator(f".dock .actions button:text-is('{SV['Play']}')").focus()
        page.keyboard.press("Enter")
        line = page.locator(".dock .notice-line")
        line.filter(has_text=SV["Put cards from your hand on the table first, or draw."]).wait_for()
        assert page.locator(".drafting .meld-box[data-box^='n']").count() == 0
        shot(page, "phone-vatikanen-greyed-play-tapped", full=False)
        assert not page.errors, page.errors
    finally:
        server.stop()


def test_on_a_phone_a_tap_on_a_greyed_kontrakt_button_says_why_and_plays_nothing(
    browser: Any, tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    tables = seeded_positions(
        db,
        [Position("greyK", "kontrakt", ["human", "human"], 3, {0: "Anna", 1: "Bo"}, to_first_play)],
    )
    game = tables["greyK"].game
    assert game is not None and game.to_act is not None
    seat = game.to_act
    server = start(db)
    try:
        page = new_page(browser, **PHONE)
        sit(page, server.base, "greyK", seat, ["Anna", "Bo"][seat], "sv")
        s = wait_state(page, "s.status === 'playing' && s.view.phase === 'play'")
        tap_greyed(page, SV["Meld"], SV["Select the cards of a meld in your hand first."])
        # two cards selected: Lägg ner and Saka are greyed, and no line of the dock says why
        hand = s["view"]["hand"]
        first = hand[0]
        other = next(c for c in hand if c[:-1] != first[:-1] and c[-1] != first[-1])
        for card in (first, other):
            page.tap(f".hand .card[data-card='{card}']:not(.selected)")
        page.wait_for_selector(".hand .card.selected >> nth=1")
        tap_greyed(
            page, SV["Lay down"], SV["Stage your melds first: select cards, then press Meld."]
        )
        tap_greyed(page, SV["Discard"], SV["Select the one card to discard."])
        assert page.locator(".hand .card.selected").count() == 2  # the selection is kept
        shot(page, "phone-kontrakt-greyed-discard-tapped", full=False)
        assert not page.errors, page.errors
    finally:
        server.stop()


def test_on_a_phone_a_tap_on_the_greyed_kontrakt_stock_says_why_and_draws_nothing(
    browser: Any, tmp_path: Path
) -> None:
    """The stock (the face-down pile) is a button of the action kind: greyed, it is
    aria-disabled with its reason, and a tap says the reason in the dock's message line."""
    db = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    tables = seeded_positions(
        db,
        [
            Position(
                "stockK", "kontrakt", ["human", "human"], 3, {0: "Anna", 1: "Bo"}, to_first_play
            )
        ],
    )
    game = tables["stockK"].game
    assert game is not None and game.to_act is not None
    seat = game.to_act
    server = start(db)
    try:
        for who, reason in ((seat, "You have already drawn."), (1 - seat, "It is not your turn.")):
            page = new_page(browser, **PHONE)
            sit(page, server.base, "stockK", who, ["Anna", "Bo"][who], "sv")
            wait_state(page, "s.status === 'playing' && s.view.phase === 'play'")
            stock = page.locator(".stock-card")
            assert stock.get_attribute("aria-disabled") == "true", reason
            assert stock.get_attribute("title") == SV[reason]
            before = state(page)
            assert before is not None
            stock.tap(force=True)
            line = page.locator(".dock .notice-line[role=status]")
            line.filter(has_text=SV[reason]).wait_for(timeout=3000)
            page.wait_for_timeout(400)
            after = state(page)
            assert after is not None and after["view"] == before["view"], reason
            assert not page.errors, page.errors
            page.close()
    finally:
        server.stop()
