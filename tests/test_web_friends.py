"""At the table with friends, in the browser: the chat, "your turn" told on a hidden page, a
move a day across a restart in "my tables", a seat taken to another device, and the page
installed and started offline.

- The chat on a phone in Swedish: a badge counts what came while the panel was closed; the
  panel opens under the game (never over it); a friend's markup shows as the text it is;
  the quick phrases are Swedish; a spectator can be muted; a reload brings the history back.
- Anna's page is hidden (``document.visibilityState`` overridden, ``visibilitychange``
  sent): when her turn comes, and only then (not for another player's move), the title and
  the icon change, a notification is shown (the permission granted by Playwright, the bell
  turned on by a tap) and the sound plays; seen again, the title comes back.
- A table made in the lobby as "a move a day" (a day a turn, no stand-ins) outlives a
  killed server, and comes back first in the lobby's "my tables" after a reload, marked.
- The seat's link opened in another browser gives it the seat and leaves the address.
- The manifest and the service worker: an installable app; with the server gone, the page
  starts from the kept files and says "Ingen anslutning"/"No connection", never a stale game.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from protocol_client import Live
from server_helpers import Server, start
from web_helpers import ARGS, CHROMIUM, browser, new_page, shot, state, wait_state

__all__ = ["browser"]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

HIDDEN_PAGE = """
window.__told = [];
window.__tones = 0;
window.__hidden = false;
Object.defineProperty(Document.prototype, "visibilityState", {
  configurable: true, get() { return window.__hidden ? "hidden" : "visible"; } });
Object.defineProperty(Document.prototype, "hidden", {
  configurable: true, get() { return window.__hidden; } });
if (window.Notification) {
  const Real = window.Notification;
  const Spy = function (title, options) {
    window.__told.push({ title, body: options && options.body, by: "page" });
    return new Real(title, options);
  };
  Object.defineProperty(Spy, "permission", { get: () => Real.permission });
  Spy.requestPermission = (...args) => Real.requestPermission(...args);
  window.Notification = Spy;
}
const show = ServiceWorkerRegistration.prototype.showNotification;
ServiceWorkerRegistration.prototype.showNotification = function (title, options) {
  window.__told.push({ title, body: options && options.body, by: "worker" });
  return show.call(this, title, options);
};
window.__vibrated = null;
navigator.vibrate = (pattern) => { window.__vibrated = pattern; return true; };
const start = AudioScheduledSourceNode.prototype.start;
AudioScheduledSourceNode.prototype.start = function (...args) {
  window.__tones += 1;
  return start.apply(this, args);
};
"""


@pytest.fixture(scope="module")
def server(shared_server: Server) -> Server:
    """The test file's one server (conftest's ``shared_server``)."""
    return shared_server


def make_table(
    server: Server, seats: list[str], names: list[str], **extra: Any
) -> tuple[str, list[str]]:
    """A table (HTTP) with its human seats taken by ``names``; its id and the seats' tokens."""
    made = server.post("/api/tables", {"game": "vatikanen", "seats": seats, **extra})
    assert isinstance(made, dict)
    tokens = []
    for seat, name in enumerate(names):
        joined = server.post(f"/api/tables/{made['id']}/join", {"name": name, "seat": seat})
        assert isinstance(joined, dict)
        tokens.append(joined["token"])
    return made["id"], tokens


def seat_page(
    page: Any, base: str, table_id: str, seat: int, token: str, name: str, **keep: Any
) -> None:
    """Open the table as the player of ``seat`` (the browser keeps its token, and ``keep``)."""
    page.goto(base + "/#/none")
    kept = {f"rummykit.{k}": json.dumps(v) for k, v in keep.items()}
    kept[f"rummykit.seat.{table_id}"] = json.dumps({"seat": seat, "token": token, "name": name})
    page.evaluate("kept => { for (const k in kept) localStorage.setItem(k, kept[k]); }", kept)
    page.goto(f"{base}/#/t/{table_id}")
    page.reload()
    wait_state(page, f"s.seat === {seat}")


def next_chat(live: Live, text: str) -> dict[str, Any]:
    """Read until the chat message ``text`` comes."""
    while True:
        message = live.read(timeout=10)
        if message["type"] == "chat" and message["text"] == text:
            return message


def boxes_overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def test_the_chat_panel_on_a_phone_in_swedish(browser: Any, server: Server) -> None:
    table_id, (anna_token, bo_token) = make_table(server, ["human", "human"], ["Anna", "Bo"])
    anna = new_page(browser, locale="sv-SE", **PHONE)
    bo = new_page(browser)
    watcher = Live.open(server.ws, table_id, None)
    seat_page(anna, server.base, table_id, 0, anna_token, "Anna")
    seat_page(bo, server.base, table_id, 1, bo_token, "Bo")
    assert anna.locator(".chat").count() == 0  # closed on a phone: the game first
    markup = '<b>hej</b> & <img src="x" onerror="window.__hacked=1">'
    bo.wait_for_selector(".side .chat")  # open beside the game on a desktop
    bo.fill("input[name=chat]", markup)
    bo.click(".chat-form button[type=submit]")
    anna.wait_for_selector(".chat-button .unread:text-is('1')")
    assert anna.get_attribute(".chat-button", "aria-label") == "Chatt: 1 olästa"
    anna.tap(".chat-button")
    anna.wait_for_selector(".chat-text")
    assert anna.locator(".chat-button .unread").count() == 0  # read
    assert anna.locator(".chat-text").first.text_content() == markup  # the text it is
    assert anna.locator(".chat-list b, .chat-list img").count() == 0
    assert anna.evaluate("window.__hacked") is None
    # the panel sits in the page under the game, not over it, and nothing is wider than 390
    layout = anna.evaluate(
        """() => {
          const chat = document.querySelector('.chat');
          const game = document.querySelector('.dock');
          const top = (el) => el.getBoundingClientRect().top + scrollY;
          return {position: getComputedStyle(chat).position, chat: top(chat),
                  gameEnd: top(game) + game.offsetHeight,
                  width: document.documentElement.scrollWidth};
        }"""
    )
    assert layout["position"] == "static" and layout["chat"] >= layout["gameEnd"]
    assert layout["width"] <= 390
    chat_box = anna.locator(".chat").bounding_box()
    dock_box = anna.locator(".dock").bounding_box()
    assert chat_box and dock_box and not boxes_overlap(chat_box, dock_box)
    # a quick phrase, in Swedish, to everyone at the table
    phrases = anna.eval_on_selector_all(".phrase", "els => els.map(e => e.textContent)")
    assert {"Bra spelat!", "Din tur", "Lycka till!", "Tack för spelet!"} <= set(phrases)
    anna.tap(".phrase:text-is('Bra spelat!')")
    bo.wait_for_selector(
        ".chat-message:has(.chat-who:text-is('Anna')) .chat-text:text-is('Bra spelat!')"
    )
    assert (said := next_chat(watcher, "Bra spelat!"))["seat"] == 0 and said["name"] == "Anna"
    # a spectator speaks; Anna mutes the spectators
    watcher.send({"type": "chat", "text": "Heja Bo!"})
    anna.wait_for_selector(".chat-message.spectator .chat-who:text-is('Åskådare')")
    shot(anna, "phone-chat", full=False)
    anna.check("input[name=mute-spectators]")
    anna.wait_for_selector(".chat-muted:text-is('1 meddelande från en åskådare är dolt.')")
    assert anna.locator(".chat-message.spectator").count() == 0
    assert bo.locator(".chat-message.spectator").count() == 1  # muted only for Anna
    # a reload: the history comes back, the mute too, and nothing is unread
    anna.reload()
    anna.wait_for_selector(".chat-text:text-is('Bra spelat!')")
    texts = anna.eval_on_selector_all(".chat-text", "els => els.map(e => e.textContent)")
    assert texts == [markup, "Bra spelat!"]
    assert anna.locator(".chat-button .unread").count() == 0
    watcher.close()
    for page in (anna, bo):
        assert not page.errors, page.errors
        page.context.close()


def test_a_long_chat_message_shows_its_count_and_the_limit(browser: Any, server: Server) -> None:
    table_id, (anna_token, _) = make_table(server, ["human", "human"], ["Anna", "Bo"])
    anna = new_page(browser)
    seat_page(anna, server.base, table_id, 0, anna_token, "Anna")
    anna.wait_for_selector(".side .chat")
    anna.fill("input[name=chat]", "hej")
    assert anna.locator(".chat-count").count() == 0  # a short line: no counter
    anna.fill("input[name=chat]", "a" * 260)
    anna.wait_for_selector(".chat-count:has-text('260 / 300')")
    anna.type("input[name=chat]", "b" * 60)  # the input stops at 300
    anna.wait_for_selector(".chat-count.full:has-text('300 / 300')")
    assert "at most 300" in anna.locator(".chat-count").inner_text()
    shot(anna, "chat-limit", full=False)
    assert not anna.errors, anna.errors


def test_a_player_reports_a_chat_message_from_its_menu(browser: Any, server: Server) -> None:
    table_id, (anna_token, bo_token) = make_table(server, ["human", "human"], ["Anna", "Bo"])
    bo = Live.open(server.ws, table_id, bo_token)
    bo.send({"type": "chat", "text": "something rude"})
    anna = new_page(browser)
    seat_page(anna, server.base, table_id, 0, anna_token, "Anna")
    anna.wait_for_selector(".side .chat .chat-message:has-text('something rude')")
    anna.click(".chat-message:has-text('something rude') .chat-more")
    anna.fill("input[name=report-why]", "rude")
    anna.click(".chat-menu .report-send")
    anna.wait_for_selector(".chat .error:has-text('Reported')")
    assert anna.locator(".chat-menu .block").count() == 0  # a guest cannot block
    bo.close()
    assert not anna.errors, anna.errors


def test_my_tables_keeps_the_games_name_in_its_column(browser: Any, server: Server) -> None:
    table_id, (token,) = make_table(
        server, ["human", "bot:basic", "bot:basic"], ["Anna"], game="kontrakt"
    )
    for options in ({}, PHONE):
        page = new_page(browser, **options)
        seat_page(page, server.base, table_id, 0, token, "Anna")
        page.goto(server.base + "/#/")
        row = page.locator(f".my-tables .table-row[data-table='{table_id}']")
        row.wait_for()
        over = row.locator(".table-game").evaluate(
            """el => {
                const r = document.createRange(); r.selectNodeContents(el);
                const text = r.getBoundingClientRect(), box = el.getBoundingClientRect();
                return text.right - box.right;
            }"""
        )
        assert over <= 0.5, over
        shot(page, "my-tables-" + ("phone" if options else "desktop"), full=False)
        page.context.close()


def test_the_tab_title_names_the_table(browser: Any, server: Server) -> None:
    first, (token1, _) = make_table(server, ["human", "human"], ["Anna", "Bo"])
    second, (token2, _) = make_table(server, ["human", "human"], ["Anna", "Cilla"])
    page = new_page(browser)
    seat_page(page, server.base, first, 0, token1, "Anna")
    page.wait_for_function("() => document.title.includes('Bo')")
    assert "Vatikanen" in page.title() and "Cilla" not in page.title()
    other = new_page(browser)
    seat_page(other, server.base, second, 0, token2, "Anna")
    other.wait_for_function("() => document.title.includes('Cilla')")
    assert page.title() != other.title()
    page.goto(server.base + "/#/")  # the lobby has its own title again
    page.wait_for_function("() => !document.title.includes('Bo')")
    page.context.close()
    other.context.close()


def test_your_turn_is_told_on_a_hidden_page_and_never_for_another_players_move(
    browser: Any, server: Server
) -> None:
    names = ["Anna", "Bo", "Cilla"]
    table_id, tokens = make_table(server, ["human"] * 3, names)
    page = new_page(browser, permissions=["notifications"])
    page.context.add_init_script(HIDDEN_PAGE)
    seat_page(page, server.base, table_id, 0, tokens[0], "Anna")
    others = {
        1: Live.open(server.ws, table_id, tokens[1]),
        2: Live.open(server.ws, table_id, tokens[2]),
    }
    for switch in ("bell", "sound"):  # both off until the player turns them on
        assert page.get_attribute(f".alert-switches .{switch}", "aria-pressed") == "false"
    page.click(".alert-switches .bell")  # asks (granted) and turns the bell on: a tap
    page.wait_for_selector(".alert-switches .bell[aria-pressed=true]")
    page.click(".alert-switches .sound")  # the sound is off until then; the tap plays it once
    page.wait_for_selector(".alert-switches .sound[aria-pressed=true]")
    title = page.title()

    def move(seat: int) -> None:
        live = others[seat]
        live.until(lambda st: st["view"]["turn"] == seat)
        live.act({"type": "draw"})
        live.until(lambda st: st["view"]["turn"] != seat)

    # from Bo's turn on (Anna, and Cilla, draw to come to it while the page is in view)
    s = state(page)
    assert s is not None
    if s["view"]["turn"] == 2:
        move(2)
        s = wait_state(page, "s.view.turn === 0")
    if s["view"]["turn"] == 0:
        page.click(".actions .draw")
        s = wait_state(page, "s.view.turn === 1")
    tones = page.evaluate("window.__tones")
    page.evaluate(
        "() => { window.__hidden = true; document.dispatchEvent(new Event('visibilitychange')); }"
    )
    move(1)  # Bo's move makes it Cilla's turn: nothing for Anna
    wait_state(page, "s.view.turn === 2")
    page.wait_for_timeout(300)
    assert page.evaluate("window.__told") == [] and page.title() == title
    assert page.evaluate("window.__vibrated") is None
    move(2)  # Cilla's move: Anna's turn, while her page is hidden
    page.wait_for_function("() => document.title.startsWith('●')")
    assert page.title() == "● Your turn: Vatikanen"
    assert page.get_attribute("link[rel=icon]", "href") == "icon-turn.svg"
    page.wait_for_function("() => window.__told.length === 1")
    told = page.evaluate("window.__told")[0]
    assert (
        told["title"] == "Your turn: Vatikanen" and "Bo" in told["body"] and "Cilla" in told["body"]
    )
    assert page.evaluate("window.__tones") > tones  # the sound: made here, no file
    assert page.evaluate("window.__vibrated")  # a phone would vibrate
    # seen again: the title and the icon come back
    page.evaluate(
        "() => { window.__hidden = false; document.dispatchEvent(new Event('visibilitychange')); }"
    )
    assert page.title() == title and page.get_attribute("link[rel=icon]", "href") == "icon.svg"
    assert len(page.evaluate("window.__told")) == 1
    for live in others.values():
        live.close()
    assert not page.errors, page.errors
    page.context.close()


def test_a_seat_moves_to_another_device_by_its_link(browser: Any, server: Server) -> None:
    table_id, (token, _) = make_table(server, ["human", "human"], ["Anna", "Bo"])
    desk = new_page(browser)
    seat_page(desk, server.base, table_id, 0, token, "Anna")
    desk.click(".seat-link-button")
    desk.wait_for_selector(".warning:has-text('Whoever opens it plays in your place')")
    link = desk.input_value(".seat-link input")
    assert link.endswith(f"#/t/{table_id}/seat/0/{token}")
    assert desk.locator("svg.qr path").count() == 1
    shot(desk, "seat-link", full=False)
    phone = new_page(browser, **PHONE)
    phone.goto(link)
    s = wait_state(phone, "s.seat === 0")
    assert s["view"]["hand"] is not None
    assert phone.url.endswith(f"#/t/{table_id}") and token not in phone.url
    kept = phone.evaluate(f"JSON.parse(localStorage.getItem('rummykit.seat.{table_id}'))")
    assert kept["token"] == token and kept["seat"] == 0
    phone.wait_for_selector(".banner.moved")
    phone.wait_for_function(
        f"() => JSON.parse(localStorage.getItem('rummykit.seat.{table_id}')).name === 'Anna'"
    )
    # a spectator is shown no seat's link
    watcher = new_page(browser)
    watcher.goto(f"{server.base}/#/t/{table_id}/watch")
    wait_state(watcher, "s.seat === null")
    assert watcher.locator(".seat-link-button").count() == 0
    for page in (desk, phone, watcher):
        assert not page.errors, page.errors
        page.context.close()


def test_a_move_a_day_table_survives_a_restart_and_comes_back_in_my_tables(
    browser: Any, tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    server = start(db)
    page = new_page(browser)
    try:
        other, _ = make_table(server, ["human", "human"], ["Anna", "Bo"])  # not Anna's
        page.goto(server.base + "/")
        page.fill("input[name=name]", "Anna")
        page.select_option("select[name=seat1]", "human")
        page.check("input[name=pace][value=day]")
        assert page.input_value("select[name=clock]") == "86400"
        assert not page.is_checked("input[name=stand_in]")
        page.click("button:has-text('Create the table')")
        page.wait_for_selector("text=Waiting for players")
        table_id = page.input_value(".invite-link").rsplit("/", 1)[-1]
        summary = server.get(f"/api/tables/{table_id}")
        assert isinstance(summary, dict)
        assert (summary["clock"], summary["grace"], summary["stand_in"]) == (86400, 86400, False)
        server.post(f"/api/tables/{table_id}/join", {"name": "Bo"})
        s = wait_state(page, "s.status === 'playing'")
        clock = page.locator(".player .clock").text_content() or ""
        assert re.fullmatch(r"1 d 0 h|23 h 5\d min", clock), clock  # a long clock in days
        assert page.locator(".pace-line").text_content() == "1 day a turn"
        server.kill()
        server = start(db, port=server.port)
        page.goto(server.base + "/")
        page.reload()
        row = page.locator(".my-tables .table-row").first
        row.wait_for()
        assert row.get_attribute("data-table") == table_id  # first, the only one that is hers
        mine = s["view"]["turn"] == 0
        row.locator(".table-status:has-text('A move a day')").wait_for()
        assert row.locator(".badge.turn").count() == (1 if mine else 0)
        assert ("your-turn" in (row.get_attribute("class") or "")) == mine
        assert page.locator(f".tables [data-table='{other}']").count() == 0 or other not in [
            r.get_attribute("data-table") for r in page.locator(".my-tables .table-row").all()
        ]
        shot(page, "lobby-my-tables", full=False)
        row.locator("a:has-text('Back to my seat')").click()
        again = wait_state(page, "s.seat === 0")
        assert (
            again["version"] == s["version"]
            and again["clock"]["deadline"] == s["clock"]["deadline"]
        )
        assert not page.errors, page.errors
    finally:
        page.context.close()
        server.stop()


def test_the_manifest_and_the_service_worker_start_the_lobby_offline(
    browser: Any, tmp_path: Path
) -> None:
    server = start(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    # a profile of its own (not incognito, as a phone's browser is), in Swedish, on a phone
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=ARGS, locale="sv-SE", **PHONE
    )
    page = context.pages[0] if context.pages else context.new_page()
    page.errors = errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        for path, kind in (
            ("/manifest.webmanifest", "application/manifest+json"),
            ("/sw.js", "text/javascript"),
        ):
            with urllib.request.urlopen(server.base + path) as answer:
                assert answer.headers["content-type"].startswith(kind), path
                assert answer.headers["cache-control"] == "no-cache"
        page.goto(server.base + "/")
        page.wait_for_selector("text=Nytt bord")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        cdp = page.context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == [] and manifest["url"].endswith("/manifest.webmanifest")
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        kept = page.evaluate(
            "async () => (await Promise.all((await caches.keys()).map(async k =>"
            " (await (await caches.open(k)).keys()).map(r => r.url)))).flat()"
        )
        assert any(url.endswith("/js/app.js") for url in kept)
        assert not [url for url in kept if "/api/" in url]  # a game is never kept
        server.kill()
        page.reload()
        page.wait_for_selector(".no-connection h2:text-is('Ingen anslutning')")
        assert page.locator("header.top .home").is_visible()  # the shell, from the kept files
        assert page.locator(".new-table, .tables").count() == 0  # no stale list
        shot(page, "phone-offline", full=False)
        server = start(server.db, port=server.port)
        page.wait_for_selector("text=Nytt bord", timeout=15_000)  # back by itself
        assert not errors, errors
    finally:
        context.close()
        server.stop()
