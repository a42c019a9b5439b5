"""What a player meets at a table, each from a table stored at the point it happens.

One server for the file, its tables stored with their events before it starts
(``web_helpers.seeded_positions``): a finished Vatikanen game, an opening hand
with a joker, a Kontrakt game a hundred log entries in, and so on; each test
opens its table as a seated player (the browser keeps the seat's token) and
looks at one thing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from rummykit.bots.levels import describe_level
from rummykit.games.kontrakt.contracts import CONTRACTS
from rummykit.narration import narrate_log
from server_helpers import Server, start
from web_helpers import (
    Position,
    bots_move,
    bots_move_for,
    browser,
    new_page,
    seeded_positions,
    sit,
    wait_state,
)

__all__ = ["browser"]

KSEATS = ["human", "bot:basic", "bot:basic"]
POSITIONS = [
    # a whole Vatikanen game, Anna against a bot: Anna goes out (+2, -2)
    Position("overV", "vatikanen", ["human", "bot:greedy"], 23, {0: "Anna"}, bots_move),
    # Anna waits for a friend; the bot of seat 1 is "Bo"
    Position("waitV", "vatikanen", ["human", "bot:greedy", "human"], 5, {0: "Anna"}),
    Position("waitV2", "vatikanen", ["human", "bot:greedy", "human"], 5, {0: "Anna"}),
    # a whole game between two people, over
    Position("overHH", "vatikanen", ["human", "human"], 23, {0: "Anna", 1: "Bo"}, bots_move),
    # Anna's first turn: 2s 3s 5s 6s and a joker in her hand
    Position("gapV", "vatikanen", ["human", "bot:greedy"], 0, {0: "Anna"}),
    # four moves on: the table holds *:9d Td Jd and Qc Qd Qh, and Anna is to play
    Position("jokerV", "vatikanen", ["human", "bot:greedy"], 0, {0: "Anna"}, bots_move_for(4)),
    # Kontrakt, 102 moves on: 107 log entries, Anna (seat 0) to draw
    Position(
        "longK", "kontrakt", ["human", "bot:basic", "bot:basic"], 3, {0: "Anna"}, bots_move_for(102)
    ),
    # the same as gapV and longK, for drafts kept across a reload
    Position("draftV", "vatikanen", ["human", "bot:greedy"], 0, {0: "Anna"}),
    Position(
        "stageK",
        "kontrakt",
        ["human", "bot:basic", "bot:basic"],
        3,
        {0: "Anna"},
        bots_move_for(102),
    ),
    # Anna's first turn, and no run to open with
    Position("noplayV", "vatikanen", ["human", "bot:greedy"], 1, {0: "Anna"}),
    # the same, for commands typed in Swedish
    Position("typeV", "vatikanen", ["human", "bot:greedy"], 1, {0: "Anna"}),
    # Anna's first turn again (seed 0), to build a draft that is no meld yet
    Position("feedV", "vatikanen", ["human", "bot:greedy"], 0, {0: "Anna"}),
    # Kontrakt, seed 3: 6 moves on Anna holds the whole contract; 14 on she has laid it, Kd
    # fits meld #0 and 2c no meld; 43 on deal 1 is over and Anna is offered deal 2's upcard
    Position("wholeK", "kontrakt", KSEATS, 3, {0: "Anna"}, bots_move_for(6)),
    Position("layK", "kontrakt", KSEATS, 3, {0: "Anna"}, bots_move_for(14)),
    Position("nextK", "kontrakt", KSEATS, 3, {0: "Anna"}, bots_move_for(43)),
    # seed 1: Anna (förhand) declines the upcard, the bots pass it: the pile is closed (K7)
    Position("declineK", "kontrakt", ["bot:basic", "human", "bot:basic"], 1, {1: "Anna"}),
    # Kontrakt's first upcard offered to Anna (förhand): one card on the pile
    Position("startK", "kontrakt", ["bot:basic", "human", "bot:basic"], 3, {1: "Anna"}),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("tables")
    db = f"sqlite:///{folder / 'server.sqlite3'}"
    seeded_positions(db, POSITIONS)
    running = start(db)
    yield running
    running.stop()


def cells(page: Any, selector: str) -> list[list[str]]:
    rows: list[list[str]] = page.eval_on_selector_all(
        selector, "rows => rows.map(r => [...r.children].map(c => c.innerText.trim()))"
    )
    return rows


def test_the_game_over_balance_counts_the_game_once(browser: Any, server: Server) -> None:
    page = new_page(browser)
    sit(page, server.base, "overV", 0, "Anna")
    s = wait_state(page, "s.status === 'over'")
    page.wait_for_selector(".modal:has-text('The game is over')")
    rows = cells(page, ".modal .scores tbody tr")
    payments = s["view"]["end"]["payments"]
    assert [r[2] for r in rows] == [f"{p:+d}" for p in payments]
    assert [r[3] for r in rows] == [f"{b:+d}" for b in s["view"]["balances"]]
    page.wait_for_selector(".modal .left-in-hand .card")  # the cards left, and their points
    left = [r[1] for r in cells(page, ".modal .scores tbody tr")]
    assert left[0].endswith("0 points") and left[1].endswith("2 points"), left
    rows = cells(page, ".modal .scores tbody tr")
    page.reload()  # the same after a reload
    page.wait_for_selector(".modal .left-in-hand .card")
    assert cells(page, ".modal .scores tbody tr") == rows
    assert not page.errors, page.errors


def test_a_name_already_at_the_table_is_refused_and_a_bot_gives_its_up(
    browser: Any, server: Server
) -> None:
    page = new_page(browser)
    page.goto(f"{server.base}/#/t/waitV")
    page.fill("input[name=name]", " anna")
    page.click("button[type=submit]")
    page.wait_for_selector(".join .error:has-text('already called anna')")
    page.fill("input[name=name]", "Bo")
    page.click("button[type=submit]")
    s = wait_state(page, "s.status === 'playing'")
    names = [seat["name"] for seat in s["seats"]]
    assert names[0] == "Anna" and names[2] == "Bo" and names[1] not in ("Anna", "Bo"), names
    assert not page.errors, page.errors


def meld_cards(page: Any, key: str) -> list[str]:
    found: list[str] = page.eval_on_selector_all(
        f".drafting .meld[data-meld='{key}'] .card", "els => els.map(e => e.dataset.card)"
    )
    return found


def tap_cards(page: Any, cards: list[str]) -> None:
    for card in cards:
        page.click(f".hand .card[data-card='{card}']:not(.selected)")


def test_a_joker_tapped_into_a_run_takes_its_gap(browser: Any, server: Server) -> None:
    page = new_page(browser)
    sit(page, server.base, "gapV", 0, "Anna")
    wait_state(page, "s.view.turn === 0")
    tap_cards(page, ["6s", "*", "2s", "5s", "3s"])
    page.click("[data-place='new']")
    assert meld_cards(page, "n1") == ["2s", "3s", "*", "5s", "6s"]
    page.wait_for_selector(".verdict.ok")
    # the joker tapped onto the run after its other cards goes into the gap too
    page.click(".actions button:has-text('Reset')")
    tap_cards(page, ["2s", "3s", "5s", "6s"])
    page.click("[data-place='new']")
    page.wait_for_selector(".meld-box.invalid")
    tap_cards(page, ["*"])
    page.click(".drafting [data-place='n1']")  # Reset began the draft afresh
    assert meld_cards(page, "n1") == ["2s", "3s", "*", "5s", "6s"]
    page.wait_for_selector(".verdict.ok")
    # Arrange fits the same cards with the joker in the gap (V7)
    page.click(".actions button:has-text('Reset')")
    tap_cards(page, ["2s", "3s", "5s", "6s", "*"])
    page.click(".actions button:has-text('Arrange')")
    page.wait_for_selector(".verdict.ok")
    cards = page.eval_on_selector_all(
        ".drafting .meld .card", "els => els.map(e => e.dataset.card)"
    )
    assert cards == ["2s", "3s", "*:4s", "5s", "6s"]
    assert not page.errors, page.errors


def test_a_table_joker_moved_in_the_draft_drops_its_old_label(browser: Any, server: Server) -> None:
    page = new_page(browser)
    sit(page, server.base, "jokerV", 0, "Anna")
    s = wait_state(page, "s.view.turn === 0")
    assert ["Qc", "Qd", "Qh"] in s["view"]["table"] and ["*:9d", "Td", "Jd"] in s["view"]["table"]
    page.click(".drafting .card[data-card='*:9d']")
    group = s["view"]["table"].index(["Qc", "Qd", "Qh"])
    page.click(f".drafting [data-place='m{group}']")
    assert meld_cards(page, f"m{group}") == ["Qc", "Qd", "Qh", "*"]
    assert page.locator(".drafting .card[data-card='*:9d']").count() == 0
    assert not page.errors, page.errors


def test_log_numbers_from_100_are_shown_whole(browser: Any, server: Server) -> None:
    page = new_page(browser)
    sit(page, server.base, "longK", 0, "Anna")
    s = wait_state(page, "s.view.log.length >= 107")
    page.wait_for_selector(".log-list .log-no:text-is('107')")
    cut = page.eval_on_selector_all(
        ".log-list .log-no",
        """els => els.filter(el => {
             const r = el.getBoundingClientRect();
             const box = el.closest('.log-list').getBoundingClientRect();
             return r.left < box.left || el.scrollWidth > el.clientWidth + 0.5;
           }).map(el => el.textContent)""",
    )
    assert cut == []
    numbers = page.eval_on_selector_all(".log-list .log-no", "els => els.map(e => e.textContent)")
    assert numbers[-1] == str(len(s["view"]["log"])) and "100" in numbers
    assert not page.errors, page.errors


def test_one_is_said_in_the_singular(browser: Any, server: Server) -> None:
    page = new_page(browser)
    sit(page, server.base, "startK", 1, "Anna")
    wait_state(page, "s.view.phase === 'upcard_offer' && s.view.offer_to === 1")
    assert page.get_attribute(".discard-pile", "aria-label") == "Discard pile: J♣︎ on top, 1 card"
    page.goto(server.base + "/#/")
    page.wait_for_selector("select[name=clock]")
    clocks = page.eval_on_selector_all("select[name=clock] option", "os => os.map(o => o.text)")
    assert "1 minute a turn" in clocks and "2 minutes a turn" in clocks
    page.select_option(".lang select", "sv")
    page.wait_for_selector("select[name=clock] option:text-is('1 minut per tur')", state="attached")
    assert not page.errors, page.errors


def test_the_draft_and_the_staged_melds_are_kept_across_a_reload(
    browser: Any, server: Server
) -> None:
    page = new_page(browser)
    sit(page, server.base, "draftV", 0, "Anna")
    wait_state(page, "s.view.turn === 0")
    tap_cards(page, ["2s", "3s"])
    page.click("[data-place='new']")
    tap_cards(page, ["5s"])
    page.click(".drafting [data-place='n1']")
    assert meld_cards(page, "n1") == ["2s", "3s", "5s"]
    page.reload()
    page.wait_for_selector(".drafting [data-meld='n1']")
    assert meld_cards(page, "n1") == ["2s", "3s", "5s"]
    assert page.locator(".hand .card[data-card='2s']").count() == 0
    page.wait_for_selector(".meld-box.invalid")  # checked again by the server
    page.click(".actions button:has-text('Undo')")  # the steps are kept too
    assert meld_cards(page, "n1") == ["2s", "3s"]
    # Kontrakt: melds staged, then a reload
    sit(page, server.base, "stageK", 0, "Anna")
    wait_state(page, "s.view.turn === 0 && s.view.phase === 'draw'")
    page.click(".actions button:has-text('Draw from the stock')")
    s = wait_state(page, "s.view.phase === 'play'")
    cards = sorted(s["view"]["hand"])[:2]
    tap_cards(page, cards)
    page.click(".actions button:has-text('Meld')")
    page.wait_for_selector(".staged .meld .card")
    page.reload()
    page.wait_for_selector(".staged .meld .card")
    staged = page.eval_on_selector_all(".staged .meld .card", "els => els.map(e => e.dataset.card)")
    assert sorted(staged) == cards
    assert not page.errors, page.errors


def test_the_vatikanen_buttons_say_what_they_do_and_why_not(browser: Any, server: Server) -> None:
    page = new_page(browser)
    sit(page, server.base, "noplayV", 0, "Anna")
    wait_state(page, "s.view.turn === 0")
    titles = page.eval_on_selector_all(".actions button", "bs => bs.map(b => b.title)")
    assert len(titles) == 6 and all(titles), titles
    page.click(".actions button:has-text('Hint')")
    page.wait_for_selector(".hints .no-play:text-is('No play: draw.')")
    page.click(".actions button:has-text('Arrange')")  # nothing selected: what to select
    page.wait_for_selector(".dock .notice-line:has-text('Select cards from your hand first')")
    # a draft that is no meld: Play is disabled with the reason; the error is said once
    sit(page, server.base, "feedV", 0, "Anna")
    wait_state(page, "s.view.turn === 0")
    tap_cards(page, ["2s", "3s"])
    page.click("[data-place='new']")
    page.wait_for_selector(".verdict.bad")
    play = page.locator(".actions .primary")
    assert play.is_disabled() and "not valid" in (play.get_attribute("title") or "")
    assert page.locator("text=too short").count() == 1
    verdict = page.inner_text("[data-testid=verdict]")
    assert "2♠︎" in verdict and "2s" not in verdict  # the cards as people write them
    assert page.locator(".dock .rule, .drafting .rule").count() == 1
    assert page.inner_text(".hand-area h2") == "Your hand (11, 2 in your draft)"
    assert "rules engine on the server decides" not in page.inner_text("main")
    assert not page.errors, page.errors


def test_kontrakt_says_where_a_card_fits_why_the_pile_is_closed_and_what_is_staged(
    browser: Any, server: Server
) -> None:
    page = new_page(browser)
    # the whole contract is the first hint; staged, the hand says so
    sit(page, server.base, "wholeK", 0, "Anna")
    s = wait_state(page, "s.view.turn === 0 && s.view.phase === 'play'")
    page.click(".actions button:has-text('Hint')")
    first = page.locator(".hints .chip").first
    assert "·" in first.inner_text(), first.inner_text()  # two melds: the whole contract
    first.click()
    page.wait_for_selector(".dock .verdict.ok")
    staged = page.locator(".staged .meld .card").count()
    n = len(s["view"]["hand"]) - staged
    assert page.inner_text(".hand-area h2") == f"Your hand ({n}, {staged} staged)"
    assert all(page.eval_on_selector_all(".actions button", "bs => bs.map(b => b.title)"))
    # "Lay off here" only on the meld the card fits; a word when it fits none
    sit(page, server.base, "layK", 0, "Anna")
    s = wait_state(page, "s.view.turn === 0 && s.view.phase === 'play'")
    assert s["view"]["laid"][0]["complete"] and len(s["view"]["table"]) >= 2
    tap_cards(page, ["Kd"])
    page.wait_for_selector("[data-layoff='0']")
    assert page.locator("[data-layoff]").count() == 1
    tap_cards(page, ["2c"])  # two selected: no lay-off offered
    assert page.locator("[data-layoff]").count() == 0
    page.click(".hand .card[data-card='Kd']")  # 2c alone
    page.wait_for_selector(".why:text-is('2♣︎ fits no meld on the table.')")
    assert page.locator("[data-layoff]").count() == 0
    # the pile after the upcard went round: greyed, and why (K7)
    sit(page, server.base, "declineK", 1, "Anna")
    wait_state(page, "s.view.phase === 'upcard_offer' && s.view.offer_to === 1")
    page.click(".actions button:has-text('Decline')")
    wait_state(page, "s.view.phase === 'draw' && s.view.turn === 1")
    take = page.locator(".actions button:has-text('from the pile')")
    assert take.is_disabled() and "K7" in (take.get_attribute("title") or "")
    page.wait_for_selector(".why:has-text('K7')")
    assert not page.errors, page.errors


def test_a_deal_end_leaves_the_next_upcard_free_and_the_game_end_its_buttons(
    browser: Any, server: Server
) -> None:
    page = new_page(browser)
    sit(page, server.base, "nextK", 0, "Anna")
    wait_state(
        page, "s.view.deal === 1 && s.view.phase === 'upcard_offer' && s.view.offer_to === 0"
    )
    page.wait_for_selector(".deal-end-panel:has-text('Deal 1 is over')")
    covered = page.eval_on_selector_all(
        ".actions button",
        """bs => bs.filter(b => { const r = b.getBoundingClientRect();
             const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
             return !b.contains(at); }).map(b => b.textContent)""",
    )
    assert covered == []
    page.click(".actions button:has-text('Pass')")  # with the deal's end still shown
    wait_state(page, "!(s.view.phase === 'upcard_offer' && s.view.offer_to === 0)")
    assert page.locator(".deal-end-panel").count() == 1
    # after the game-over dialog is closed, Play again and Replay stay on the page
    sit(page, server.base, "overV", 0, "Anna")
    page.wait_for_selector(".modal:has-text('The game is over')")
    page.click(".modal .close")
    page.wait_for_selector(".over-bar button:has-text('Play again')")
    page.wait_for_selector(".over-bar a:has-text('Replay this game')")
    # the dialog's buttons stay in the bar once it is closed (issue 45, item 6)
    page.wait_for_selector(".over-bar a:has-text('Review this game')")
    assert not page.errors, page.errors


def test_the_log_and_the_contracts_are_the_servers_words(browser: Any, server: Server) -> None:
    page = new_page(browser)
    sit(page, server.base, "longK", 0, "Anna", lang="sv")
    s = wait_state(page, "s.view.log.length >= 107")
    page.wait_for_selector(".log-list .log-text")
    names = [seat["name"] for seat in s["seats"]]
    told = narrate_log("kontrakt", s["view"]["log"], names, "sv")
    shown = page.eval_on_selector_all(".log-list .log-text", "els => els.map(e => e.textContent)")
    assert shown == [re.sub("([♣♦♥♠])", "\\1\ufe0e", line) for line in told][-len(shown) :]
    page.click("button:has-text('Protokoll')")
    rows = page.eval_on_selector_all(
        ".modal .sheet tbody th .muted", "els => els.map(e => e.textContent.trim())"
    )
    assert rows == [c.describe().translated("sv") for c in CONTRACTS]
    assert not page.errors, page.errors


def test_play_again_by_one_player_leaves_the_other_on_the_last_games_end(
    browser: Any, server: Server
) -> None:
    anna, bo = new_page(browser), new_page(browser)
    sit(anna, server.base, "overHH", 0, "Anna")
    sit(bo, server.base, "overHH", 1, "Bo")
    for page in (anna, bo):
        page.wait_for_selector(".modal:has-text('The game is over')")
    anna.click(".modal button:has-text('Play again')")
    wait_state(anna, "s.games_played === 2 && s.status === 'playing'")
    anna.wait_for_selector(".modal", state="detached")  # Anna asked for it: she is in it
    wait_state(bo, "s.games_played === 2")
    bo.wait_for_selector(".modal:has-text('The next game has begun')")  # Bo still reads
    assert bo.locator(".modal .scores tbody tr").count() == 2
    bo.click(".modal button:has-text('To the next game')")
    bo.wait_for_selector(".modal", state="detached")
    assert not anna.errors and not bo.errors


def test_the_lobby_remembers_the_game_and_speaks_to_players(browser: Any, server: Server) -> None:
    page = new_page(browser)
    page.goto(server.base + "/")
    page.check(".new-table input[value=kontrakt]")
    page.wait_for_selector("select[name=seat1] option[value='bot:basic']", state="attached")
    options = page.eval_on_selector_all("select[name=seat1] option", "os => os.map(o => o.text)")
    assert any(o.startswith("bot: basic, rated ") for o in options), options  # the ladder's
    about = describe_level("kontrakt", "basic")
    assert about is not None
    # how it plays, beside its rating on the ladder (docs/ratings.md)
    page.wait_for_selector(f".seat-what:has-text('{about.translated('en')}')")
    assert not any("policy" in o for o in options), options  # a policy bot needs its file
    page.reload()
    page.wait_for_selector(".new-table input[value=kontrakt]:checked")
    text = page.inner_text("main")
    assert "docs/record.md" not in text and "--records" not in text
    # a free seat is said once
    sit(page, server.base, "waitV2", 0, "Anna")
    page.wait_for_selector(".players .badge.free")
    assert page.inner_text(".players").count("free seat") == 1
    # the join page in Swedish: a bot's seat without brackets in brackets
    page = new_page(browser, locale="sv-SE")  # a friend's browser, in Swedish
    page.goto(f"{server.base}/#/t/waitV2")
    page.wait_for_selector(".seat-list li")
    # the level's Swedish name comes with the game's description, fetched beside the table
    page.wait_for_selector(".seat-list li:has-text('girig')", timeout=10_000)
    seats = page.eval_on_selector_all(".seat-list li", "ls => ls.map(l => l.textContent)")
    assert "Plats 2: Bo (dator, girig)" in seats, seats
    assert not any(re.search(r"\([^)]*\(", s) for s in seats), seats
    assert not page.errors, page.errors


def test_the_replay_of_one_game_goes_by_moves_and_ends_with_the_scores_and_every_draw(
    browser: Any, server: Server
) -> None:
    page = new_page(browser)
    page.goto(f"{server.base}/#/r/overV")
    page.wait_for_selector("[data-testid=position]")
    assert page.locator(".replay-controls button[aria-label*='deal']").count() == 0
    assert page.locator(".replay-controls button[aria-label*='game']").count() == 0
    assert "PgUp" not in page.inner_text("main")
    page.keyboard.press("End")
    page.wait_for_selector(".replay-result .scores")
    rows = cells(page, ".replay-result .scores tbody tr")
    assert rows == [["Anna", "+2"], ["Bo", "-2"]], rows
    log = page.eval_on_selector_all(".log-list .log-text", "els => els.map(e => e.textContent)")
    draws = [line for line in log if " drew " in line]
    assert draws and not any("drew a card" in line for line in draws), log  # every draw said
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(".replay-result", state="detached")
    assert not page.errors, page.errors


def test_commands_are_typed_in_swedish_and_helped_in_swedish(browser: Any, server: Server) -> None:
    page = new_page(browser)
    sit(page, server.base, "typeV", 0, "Anna", lang="sv")
    s = wait_state(page, "s.view.turn === 0")
    page.fill("#command", "hjälp")
    page.press("#command", "Enter")
    page.wait_for_selector(".modal .help-table code:text-is('spela 7h 8h 9h')")
    page.keyboard.press("Escape")
    page.fill("#command", "spela 7x")
    page.press("#command", "Enter")
    page.wait_for_selector(".command .error")
    page.fill("#command", "dra")  # the terminal's Swedish word, read by the server
    page.press("#command", "Enter")
    after = wait_state(page, f"s.version > {s['version']}")
    assert any(e["type"] == "draw" and e["seat"] == 0 for e in after["view"]["log"])
    assert not page.errors, page.errors
