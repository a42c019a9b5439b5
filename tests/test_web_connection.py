"""The connection, told honestly: a network that dies without a word, a move made into it.

The server is frozen (SIGSTOP: its sockets stay open, nothing answers, as when a
network is cut) and thawed again (SIGCONT). The page's heartbeat is shortened
for the test (``rummykit.heartbeat`` in the browser's storage: a ping after
0.5 s of silence, lost after 2 s; PROTOCOL.md's 5 s and 12 s otherwise).

- Silent: the page says the connection is lost (and who is at the table is
  not known meanwhile); a move then is refused with a clear word, nothing is
  sent or queued; once back, the table is as it was, and the move can be made.
- A move sent just as the network dies: the page says it does not know yet
  whether it arrived; once back, the page sends it again with the version it was
  made on, so whichever copy reaches the server first is played and the other is
  stale; the page says it did arrive: one draw, never a "try again".
- A move lost with its connection (the socket closed under it, the message never
  delivered): sent again on the next connection and played once.
"""

from __future__ import annotations

import re
import signal
from collections.abc import Iterator
from typing import Any

import pytest

from server_helpers import Server, start
from web_helpers import Position, browser, new_page, seeded_positions, sit, wait_state

__all__ = ["browser"]

BEAT = {"heartbeat": {"ping": 500, "silence": 2000}}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("connection")
    db = f"sqlite:///{folder / 'server.sqlite3'}"
    seats = ["human", "human"]
    seeded_positions(
        db,
        [
            Position("silentV", "vatikanen", seats, 0, {0: "Anna", 1: "Bo"}),
            Position("doubtV", "vatikanen", seats, 0, {0: "Anna", 1: "Bo"}),
            Position("lostV", "vatikanen", seats, 0, {0: "Anna", 1: "Bo"}),
        ],
    )
    running = start(db)
    yield running
    running.proc.send_signal(signal.SIGCONT)
    running.stop()


def draws(state: dict[str, Any]) -> int:
    return sum(1 for e in state["view"]["log"] if e["type"] == "draw" and e["seat"] == 0)


def test_a_silent_connection_is_shown_lost_and_a_move_then_is_refused_not_queued(
    browser: Any, server: Server
) -> None:
    page = new_page(browser)
    sit(page, server.base, "silentV", 0, "Anna", keep=BEAT)
    before = wait_state(page, "s.view.turn === 0")
    page.wait_for_timeout(1500)  # pings answered: a quiet connection stays open
    assert page.get_attribute(".conn", "data-status") == "open"
    server.proc.send_signal(signal.SIGSTOP)
    try:
        page.wait_for_selector(".conn[data-status='reconnecting']", timeout=8000)
        assert "stale" in (page.get_attribute(".players", "class") or "")
        page.click(".actions .draw")
        page.wait_for_selector(".error-line:has-text('Not connected: nothing was sent')")
    finally:
        server.proc.send_signal(signal.SIGCONT)
    page.wait_for_selector(".conn[data-status='open']", timeout=15_000)
    page.wait_for_timeout(1000)
    now = wait_state(page, "true")
    assert now["version"] == before["version"] and draws(now) == 0  # nothing was queued
    page.click(".actions .draw")
    after = wait_state(page, f"s.version === {before['version'] + 1}")
    assert draws(after) == 1
    assert not page.errors, page.errors


def test_a_move_sent_as_the_network_dies_is_applied_once_and_said_so(
    browser: Any, server: Server
) -> None:
    page = new_page(browser)
    sit(page, server.base, "doubtV", 0, "Anna", keep=BEAT)
    before = wait_state(page, "s.view.turn === 0")
    server.proc.send_signal(signal.SIGSTOP)
    try:
        page.click(".actions .draw")  # the page does not know yet: it sends
        page.wait_for_selector(".conn[data-status='reconnecting']", timeout=8000)
        page.wait_for_selector(".notice-line:has-text('waiting to learn whether it arrived')")
    finally:
        server.proc.send_signal(signal.SIGCONT)
    page.wait_for_selector(".notice-line:has-text('it did arrive')", timeout=15_000)
    after = wait_state(page, f"s.version === {before['version'] + 1}")
    assert draws(after) == 1
    page.wait_for_timeout(3000)  # nothing more comes: no second draw, no error
    last = wait_state(page, "true")
    assert last["version"] == after["version"] and draws(last) == 1
    assert page.locator(".error-line").count() == 0
    assert not page.errors, page.errors


def test_a_move_lost_with_its_connection_is_sent_again_and_played_once(
    browser: Any, server: Server
) -> None:
    page = new_page(browser)
    lost: list[str] = []

    def live(route: Any) -> None:
        upstream = route.connect_to_server()

        def from_page(message: str | bytes) -> None:
            if not lost and isinstance(message, str) and '"type":"action"' in message:
                lost.append(message)  # the network ate it: the server never hears of it
                route.close()
                upstream.close()
                return
            upstream.send(message)

        route.on_message(from_page)

    page.route_web_socket(re.compile(r".*/live$"), live)
    sit(page, server.base, "lostV", 0, "Anna", keep=BEAT)
    before = wait_state(page, "s.view.turn === 0")
    page.click(".actions .draw")
    page.wait_for_selector(".notice-line:has-text('it did arrive')", timeout=15_000)
    assert lost, "the first copy was not taken away"
    after = wait_state(page, f"s.version === {before['version'] + 1}")
    assert draws(after) == 1
    page.wait_for_timeout(2000)
    last = wait_state(page, "true")
    assert last["version"] == after["version"] and draws(last) == 1
    assert page.locator(".error-line").count() == 0
    assert not page.errors, page.errors
