"""The puzzle page (#/puzzles) in Chromium on a 390 x 844 phone: a puzzle solved by taps in
Swedish, the solution drawn, the streak and the rating kept."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

from rummykit.puzzles import shipped
from server_helpers import start
from test_web_phone import wider_than_screen
from web_helpers import browser, centre, mouse_drag, new_page

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
        assert not wider_than_screen(page)
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


def test_a_vatikanen_puzzle_is_answered_by_dragging_cards_onto_the_table(
    browser: Any, tmp_path: Path
) -> None:
    server = start(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    by_id = {p.id: p for p in shipped()}
    try:
        page = new_page(browser, viewport={"width": 1280, "height": 900})
        page.goto(f"{server.base}/#/puzzles")
        page.wait_for_selector("main.puzzles[data-puzzle] .hand .card")
        puzzle = by_id[page.get_attribute("main.puzzles", "data-puzzle") or ""]
        first, *rest = puzzle.solution_add
        mouse_drag(page, f".hand .card[data-card='{first}']", centre(page, ".puzzle-answer"))
        page.wait_for_selector(f".puzzle-answer .card[data-card='{first}']")
        # dragged back to the hand, it is not laid; dragged again, it is
        mouse_drag(page, f".puzzle-answer .card[data-card='{first}']", centre(page, ".hand"))
        page.wait_for_selector(".puzzle-answer .card", state="detached")
        mouse_drag(page, f".hand .card[data-card='{first}']", centre(page, ".puzzle-answer"))
        for card in rest:
            page.locator(f".hand .card[data-card='{card}']:not(.selected)").first.click()
        assert page.locator(".puzzle-answer .card").count() == len(puzzle.solution_add)
        page.get_by_role("button", name="Check").click()
        page.wait_for_selector(".puzzle-verdict.right", timeout=60000)
    finally:
        server.stop()


def _tap_in_hand(page: Any, cards: list[str]) -> None:
    for card in cards:
        free = page.locator(f".hand .card[data-card='{card}']:not(.selected)")
        free.first.tap()


def test_a_kontrakt_puzzle_is_played_on_the_board_on_a_phone_in_swedish(
    browser: Any, tmp_path: Path
) -> None:
    """A Kontrakt puzzle (issue 43 item 2) on the game's own board: the contract staged and
    laid down, a lay-off onto a meld; a discard that does not go out is refused with its
    rule; "Check" hands in the turn and the engine judges it best."""
    from rummykit.puzzles.kontrakt import KontraktPuzzle

    kontrakt = [p for p in shipped("kontrakt") if isinstance(p, KontraktPuzzle)]
    puzzle = next(
        p
        for p in kontrakt
        if [a["type"] for a in p.solution] == ["meld", "layoff"] and "*" not in str(p.solution)
    )
    meld, layoff = puzzle.solution
    server = start(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    try:
        page = new_page(browser, **PHONE)
        page.goto(f"{server.base}/#/")
        page.evaluate("localStorage.setItem('rummykit.lang', 'sv')")
        page.goto(f"{server.base}/#/puzzles/{puzzle.id}")
        page.reload()
        page.wait_for_selector("main.puzzles[data-game='kontrakt'] .hand .card")
        assert not wider_than_screen(page)
        assert page.get_by_role("button", name="Tips").count() == 1  # the idea's, not the board's
        for cards in meld["melds"]:  # type: ignore[union-attr]
            _tap_in_hand(page, list(cards))
            page.get_by_role("button", name="Kombination", exact=True).tap()
        with page.expect_response(lambda r: r.url.endswith("/try")):
            page.get_by_role("button", name="Lägg ner", exact=True).tap()
        page.wait_for_function(
            "() => document.querySelectorAll('.hand .card').length === "
            f"{len(puzzle.view['hand']) - sum(len(m) for m in meld['melds'])}"  # type: ignore[arg-type, union-attr]
        )
        # a discard that does not go out ends no puzzle: refused with its rule, nothing changes
        spare = next(
            c
            for c in puzzle.view["hand"]  # type: ignore[union-attr]
            if c != layoff["card"] and all(c not in m for m in meld["melds"])  # type: ignore[union-attr]
        )
        _tap_in_hand(page, [spare])
        page.locator(".actions button.discard").tap()
        page.wait_for_selector(".error-line .rule")
        assert page.inner_text(".error-line .rule") == "K8"
        page.locator(f".hand .card.selected[data-card='{spare}']").tap()  # unselected
        _tap_in_hand(page, [str(layoff["card"])])
        with page.expect_response(lambda r: r.url.endswith("/try")):
            page.locator(f"[data-layoff='{layoff['meld']}']").first.tap()
        page.wait_for_function(
            "() => document.querySelectorAll('.hand .card').length === "
            f"{len(puzzle.view['hand']) - puzzle.best}"  # type: ignore[arg-type]
        )
        page.get_by_role("button", name="Kontrollera").tap()
        page.wait_for_selector(".puzzle-verdict.right", timeout=60000)
        said = page.inner_text(".puzzle-verdict")
        assert "Rätt" in said and "byggde på" in said  # the solution told in Swedish
        kept = page.evaluate("JSON.parse(localStorage.getItem('rummykit.puzzleRating.kontrakt'))")
        assert kept["rating"] > 1500
    finally:
        server.stop()


def test_a_kontrakt_pile_puzzle_drawn_from_the_stock_is_told_why_then_taken_from_the_pile(
    browser: Any, tmp_path: Path
) -> None:
    """A puzzle asked before the draw (K8): the stock's card is unknown, so drawing from it
    hands the turn in, told by K8; tried again, the pile's top is taken on the board."""
    from rummykit.puzzles.kontrakt import PILE, KontraktPuzzle

    puzzle = next(
        p
        for p in shipped("kontrakt")
        if isinstance(p, KontraktPuzzle) and PILE in p.themes and len(p.solution) == 2
    )
    server = start(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    try:
        page = new_page(browser, viewport={"width": 1280, "height": 900})
        page.goto(f"{server.base}/#/puzzles/{puzzle.id}")
        page.wait_for_selector("main.puzzles[data-game='kontrakt'] .hand .card")
        page.locator(".actions button", has_text="Draw from the stock").click()
        page.wait_for_selector(".puzzle-verdict.wrong", timeout=60000)
        told = page.inner_text(".puzzle-verdict")
        assert "K8" in told and "pile's top" in told
        page.get_by_role("button", name="Try again").click()
        with page.expect_response(lambda r: r.url.endswith("/try")):
            page.locator(".actions button", has_text="from the pile").click()
        hand = len(puzzle.view["hand"])  # type: ignore[arg-type]
        page.wait_for_function(
            f"() => document.querySelectorAll('.hand .card').length === {hand + 1}"
        )
    finally:
        server.stop()


def test_a_kontrakt_puzzle_s_meld_laid_leaves_its_twin_in_the_hand_unstaged(
    browser: Any, tmp_path: Path
) -> None:
    """Two decks hold two of a card: once the staged melds are laid down, a twin of one of
    their cards left in the hand is a card of the hand again, not a meld staged alone."""
    from collections import Counter

    from rummykit.puzzles.kontrakt import KontraktPuzzle

    def twin_left(p: KontraktPuzzle) -> bool:
        first = p.solution[0]
        if first["type"] != "meld" or "*" in str(first):
            return False
        hand = Counter(p.view["hand"])  # type: ignore[arg-type]
        laid = Counter(c for m in first["melds"] for c in m)  # type: ignore[union-attr]
        return any(hand[c] > n for c, n in laid.items())

    puzzle = next(p for p in shipped("kontrakt") if isinstance(p, KontraktPuzzle) and twin_left(p))
    meld = puzzle.solution[0]
    server = start(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    try:
        page = new_page(browser, **PHONE)
        page.goto(f"{server.base}/#/")
        page.evaluate("localStorage.setItem('rummykit.lang', 'sv')")
        page.goto(f"{server.base}/#/puzzles/{puzzle.id}")
        page.reload()
        page.wait_for_selector("main.puzzles[data-game='kontrakt'] .hand .card")
        for cards in meld["melds"]:  # type: ignore[union-attr]
            _tap_in_hand(page, list(cards))
            page.get_by_role("button", name="Kombination", exact=True).tap()
        with page.expect_response(lambda r: r.url.endswith("/try")):
            page.get_by_role("button", name="Lägg ner", exact=True).tap()
        left = len(puzzle.view["hand"]) - sum(len(m) for m in meld["melds"])  # type: ignore[arg-type, union-attr]
        page.wait_for_selector(".staged .meld:not(:has(.card))")  # the staging area, emptied
        page.wait_for_timeout(300)
        assert page.locator(".staged .card").count() == 0
        assert page.locator(".hand .card").count() == left
        assert not page.errors, page.errors
    finally:
        server.stop()


CONTRAST_JS = """(el) => {
  // the text's colour against what lies under it: the element's and its parents' backgrounds
  // laid over the felt's lightest green (#176f4d, the top of the page's gradient)
  const rgba = (s) => (s.match(/[\\d.]+/g) || []).map(Number);
  const layers = [];
  for (let e = el; e && e !== document.documentElement; e = e.parentElement) {
    const [r, g, b, a = 1] = rgba(getComputedStyle(e).backgroundColor);
    if (a > 0) layers.push([r, g, b, a]);
    if (a >= 1) break;
  }
  let under = [0x17, 0x6f, 0x4d];
  for (const [r, g, b, a] of layers.reverse()) {
    under = [r, g, b].map((c, i) => c * a + under[i] * (1 - a));
  }
  const lum = ([r, g, b]) => {
    const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const text = rgba(getComputedStyle(el).color).slice(0, 3);
  const [hi, lo] = [lum(text), lum(under)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}"""


def test_a_puzzle_s_verdict_is_legible_on_the_felt(browser: Any, shared_server: Any) -> None:
    """The verdict, right or wrong, is read on the page's green: its words have a contrast of
    4.5 at the least (WCAG AA), as the rest of the page's text."""
    puzzle = shipped()[0]
    page = new_page(browser, **PHONE)
    page.goto(f"{shared_server.base}/#/")
    page.evaluate("localStorage.setItem('rummykit.lang', 'sv')")
    page.goto(f"{shared_server.base}/#/puzzles/{puzzle.id}")
    page.reload()
    page.wait_for_selector("main.puzzles[data-puzzle] .hand .card")
    wrong = (
        next(c for c in puzzle.hand if c not in puzzle.solution_add)
        if puzzle.best < len(puzzle.hand)
        else puzzle.hand[0]
    )
    _tap_cards(page, [wrong])
    page.get_by_role("button", name="Kontrollera").tap()
    page.wait_for_selector(".puzzle-verdict.wrong")
    told = page.locator(".puzzle-verdict p").first
    assert told.evaluate(CONTRAST_JS) >= 4.5
    page.get_by_role("button", name="Försök igen").tap()
    _tap_cards(page, list(puzzle.solution_add))
    page.get_by_role("button", name="Kontrollera").tap()
    page.wait_for_selector(".puzzle-verdict.right", timeout=60000)
    for k in range(page.locator(".puzzle-verdict > p").count()):
        assert page.locator(".puzzle-verdict > p").nth(k).evaluate(CONTRAST_JS) >= 4.5, k
    assert not page.errors, page.errors


def _go_out_by_a_discard(page: Any, base: str) -> str:
    """Open a Kontrakt puzzle whose best turn lays the contract, lays off and goes out by a
    discard, on a phone in Swedish, and play that turn: the card discarded."""
    from rummykit.puzzles.kontrakt import KontraktPuzzle

    puzzle = next(
        p
        for p in shipped("kontrakt")
        if isinstance(p, KontraktPuzzle)
        and [a["type"] for a in p.solution] == ["meld", "layoff", "discard"]
        and "*" not in str(p.solution)
    )
    meld, layoff, discard = puzzle.solution
    page.goto(f"{base}/#/")
    page.evaluate("localStorage.setItem('rummykit.lang', 'sv')")
    page.goto(f"{base}/#/puzzles/{puzzle.id}")
    page.reload()
    page.wait_for_selector("main.puzzles[data-game='kontrakt'] .hand .card")
    for k, cards in enumerate(meld["melds"]):  # type: ignore[union-attr]
        _tap_in_hand(page, list(cards))
        page.get_by_role("button", name="Kombination", exact=True).tap()
        # each staged meld is judged in turn: the server judges two at once from an address
        page.wait_for_function(
            f"() => document.querySelectorAll('.staged .meld-box.valid').length === {k + 1}"
        )
    with page.expect_response(lambda r: r.url.endswith("/try")):
        page.get_by_role("button", name="Lägg ner", exact=True).tap()
    page.wait_for_selector(".staged .meld:not(:has(.card))")
    _tap_in_hand(page, [str(layoff["card"])])
    with page.expect_response(lambda r: r.url.endswith("/try")):
        page.locator(f"[data-layoff='{layoff['meld']}']").first.tap()
    page.wait_for_function(
        f"() => !document.querySelector(\".hand .card[data-card='{layoff['card']}']\")"
        " || document.querySelectorAll('.hand .card').length === 1"
    )
    _tap_in_hand(page, [str(discard["card"])])
    page.locator(".actions button.discard").tap()
    page.wait_for_selector(".puzzle-verdict.right", timeout=60000)
    return str(discard["card"])


def test_a_kontrakt_puzzle_gone_out_by_a_discard_shows_its_verdict_in_view(
    browser: Any, shared_server: Any
) -> None:
    """The discard that goes out hands the turn in from the dock, at the foot of a phone's
    screen: the verdict, at the head of the page, is brought into view."""
    page = new_page(browser, **PHONE)
    _go_out_by_a_discard(page, shared_server.base)
    page.wait_for_timeout(300)
    box = page.locator(".puzzle-verdict").bounding_box()
    assert box is not None
    assert 0 <= box["y"] < 844 - 60, box
    assert not page.errors, page.errors


def test_a_kontrakt_puzzle_gone_out_by_a_discard_leaves_the_hand_empty_and_the_card_on_the_pile(
    browser: Any, shared_server: Any
) -> None:
    """The last discard goes out: the hand no longer shows it, the pile does."""
    page = new_page(browser, **PHONE)
    card = _go_out_by_a_discard(page, shared_server.base)
    assert page.locator(".hand .card").count() == 0
    assert page.get_attribute(".discard-pile .card", "data-card") == card
    assert not page.errors, page.errors


def _review_with_puzzles(page: Any, server: Any, table: str, answer: dict[str, Any]) -> None:
    """Open the review of the table's first game, the maker's answer being ``answer``
    (``status`` and ``body``): what the page says of it is the page's own."""
    import json

    def fulfil(route: Any) -> None:
        if route.request.method == "POST":
            route.fulfill(
                status=answer["status"],
                content_type="application/json",
                body=json.dumps(answer["body"]),
            )
        else:
            route.continue_()

    page.route("**/api/tables/*/games/0/puzzles", fulfil)
    page.goto(f"{server.base}/#/r/{table}/g/0/review")
    page.wait_for_selector(".review-players", timeout=60000)


def test_a_review_says_when_its_game_gave_no_puzzles_or_none_could_be_made(
    browser: Any, shared_server: Any
) -> None:
    """Puzzles from one's own games are promised after a review: when the maker found none
    in the game, or could not run now, the review says so rather than nothing."""
    from test_server_game_puzzles import finished_table

    table = finished_table(shared_server)
    page = new_page(browser, **PHONE)
    _review_with_puzzles(
        page, shared_server, table, {"status": 200, "body": {"made": True, "puzzles": []}}
    )
    page.wait_for_selector(".review-puzzles")
    said = page.inner_text(".review-puzzles")
    assert "Inga problem" in said and page.locator("a.review-puzzles").count() == 0
    busy = new_page(browser, **PHONE)
    body = {"error": {"code": "unavailable", "message": "busy"}}
    _review_with_puzzles(busy, shared_server, table, {"status": 503, "body": body})
    busy.wait_for_selector(".review-puzzles")
    assert "senare" in busy.inner_text(".review-puzzles")
    assert not page.errors and not busy.errors


def test_the_puzzles_of_a_reviewed_game_are_told_as_its_own_and_follow_in_turn(
    browser: Any, shared_server: Any
) -> None:
    """The review's link leads to the game's puzzles: each says it is from the player's
    game (1 of 2), and "Next puzzle" goes to the game's next one."""
    from test_server_game_puzzles import finished_table

    table = finished_table(shared_server)
    first, second = shipped()[:2]
    page = new_page(browser, **PHONE)
    body = {"made": True, "puzzles": [first.id, second.id]}
    _review_with_puzzles(page, shared_server, table, {"status": 200, "body": body})
    page.tap("a.review-puzzles")
    page.wait_for_selector(f"main.puzzles[data-puzzle='{first.id}'] .hand .card")
    assert "1 av 2" in page.inner_text(".puzzle-source")
    _tap_cards(page, list(first.solution_add))
    page.get_by_role("button", name="Kontrollera").tap()
    page.wait_for_selector(".puzzle-verdict.right", timeout=60000)
    page.get_by_role("button", name="Nästa problem").tap()
    page.wait_for_selector(f"main.puzzles[data-puzzle='{second.id}'] .hand .card")
    assert "2 av 2" in page.inner_text(".puzzle-source")
    assert not page.errors, page.errors


def test_a_vatikanen_solution_marks_its_cards_as_the_review_draws_a_best_play(
    browser: Any, shared_server: Any
) -> None:
    """The solution is drawn as the review draws a best play: the cards laid from the hand
    and the cards moved from another meld each marked in the review's colours, with the
    review's legend."""
    puzzle = next(p for p in shipped() if any("moved" in m for m in p.solution_marks))
    page = new_page(browser, **PHONE)
    page.goto(f"{shared_server.base}/#/")
    page.evaluate("localStorage.setItem('rummykit.lang', 'sv')")
    page.goto(f"{shared_server.base}/#/puzzles/{puzzle.id}")
    page.reload()
    page.wait_for_selector("main.puzzles[data-puzzle] .hand .card")
    _tap_cards(page, list(puzzle.solution_add))
    page.get_by_role("button", name="Kontrollera").tap()
    page.wait_for_selector(".puzzle-verdict.right", timeout=60000)
    drawn = page.locator(".puzzle-verdict .puzzle-table .meld")
    for i, marks in enumerate(puzzle.solution_marks):
        for j, mark in enumerate(marks):
            classes = drawn.nth(i).locator(".card").nth(j).get_attribute("class") or ""
            want = {"hand": "rv-hand", "moved": "rv-moved"}.get(mark)
            assert (want in classes) if want else ("rv-" not in classes), (i, j, mark, classes)
    legend = page.inner_text(".puzzle-verdict")
    assert "från handen" in legend and "flyttat från en annan kombination" in legend
    assert not page.errors, page.errors


def test_a_kontrakt_solution_numbers_its_melds_and_marks_the_cards_laid(
    browser: Any, shared_server: Any
) -> None:
    """The Kontrakt solution's words name melds by number ("laid off on #2"): its table is
    drawn with those numbers, the cards laid this turn marked as the review marks them."""
    from rummykit.puzzles.kontrakt import KontraktPuzzle

    puzzle = next(
        p
        for p in shipped("kontrakt")
        if isinstance(p, KontraktPuzzle)
        and [a["type"] for a in p.solution] == ["meld", "layoff"]
        and "*" not in str(p.solution)
    )
    meld, layoff = puzzle.solution
    page = new_page(browser, viewport={"width": 1280, "height": 800})
    page.goto(f"{shared_server.base}/#/puzzles/{puzzle.id}")
    page.wait_for_selector("main.puzzles[data-game='kontrakt'] .hand .card")
    for cards in meld["melds"]:  # type: ignore[union-attr]
        for card in cards:
            page.locator(f".hand .card[data-card='{card}']:not(.selected)").first.click()
        page.get_by_role("button", name="Meld", exact=True).click()
    with page.expect_response(lambda r: r.url.endswith("/try")):
        page.get_by_role("button", name="Lay down", exact=True).click()
    page.wait_for_selector(".staged .meld:not(:has(.card))")
    page.locator(f".hand .card[data-card='{layoff['card']}']").first.click()
    with page.expect_response(lambda r: r.url.endswith("/try")):
        page.locator(f"[data-layoff='{layoff['meld']}']").first.click()
    page.get_by_role("button", name="Check").click()
    page.wait_for_selector(".puzzle-verdict.right", timeout=60000)
    drawn = page.locator(".puzzle-verdict .puzzle-table .meld")
    table = puzzle.view["table"]  # type: ignore[index]
    assert drawn.count() == len(table) + len(meld["melds"])  # type: ignore[arg-type]
    assert drawn.nth(int(layoff["meld"])).locator(".meld-no").inner_text() == f"#{layoff['meld']}"  # type: ignore[call-overload]
    laid = page.locator(".puzzle-verdict .puzzle-table .card.rv-hand").count()
    assert laid == sum(len(m) for m in meld["melds"]) + 1  # type: ignore[union-attr]
    assert not page.errors, page.errors


SV = json.loads((Path(__file__).resolve().parents[1] / "src/rummykit/web/i18n/sv.json").read_text())
"""The browser's Swedish words, by their English id."""


def _tap_greyed(page: Any, name: str, line: str, reason: str) -> None:
    """Tap the greyed button ``name``: it is aria-disabled (a phone's tap arrives), and the
    tap says ``reason`` in the message line ``line`` instead of acting."""
    button = page.get_by_role("button", name=name, exact=True)
    assert button.get_attribute("aria-disabled") == "true", name
    assert button.get_attribute("disabled") is None, name
    button.tap(force=True)  # a greyed button is no target Playwright taps of itself
    page.locator(f"{line}[role=status]").filter(has_text=reason).wait_for(timeout=3000)
    assert page.locator(".puzzle-verdict").count() == 0, name


def test_on_a_phone_a_puzzle_s_greyed_check_and_start_again_say_why_when_tapped(
    browser: Any, shared_server: Any
) -> None:
    """A puzzle's own "Check" and "Start again" are greyed as a board's buttons are
    (ui.js actionButton): a tap says why, a Vatikanen puzzle's below the buttons, a
    Kontrakt puzzle's in the board's dock."""
    from rummykit.puzzles.kontrakt import KontraktPuzzle

    page = new_page(browser, **PHONE)
    page.goto(f"{shared_server.base}/#/")
    page.evaluate("localStorage.setItem('rummykit.lang', 'sv')")
    page.goto(f"{shared_server.base}/#/puzzles/{shipped()[0].id}")
    page.reload()
    page.wait_for_selector("main.puzzles[data-game='vatikanen'] .hand .card")
    _tap_greyed(
        page,
        SV["Check"],
        ".puzzle-tools + .notice-line",
        SV["Tap or drag the cards you lay first."],
    )

    kontrakt = next(p for p in shipped("kontrakt") if isinstance(p, KontraktPuzzle))
    page.goto(f"{shared_server.base}/#/puzzles/{kontrakt.id}")
    page.wait_for_selector("main.puzzles[data-game='kontrakt'] .hand .card")
    _tap_greyed(page, SV["Check"], ".dock .notice-line", SV["Play your turn on the board first."])
    _tap_greyed(page, SV["Start again"], ".dock .notice-line", SV["You have made no move yet."])
    assert not page.errors, page.errors
