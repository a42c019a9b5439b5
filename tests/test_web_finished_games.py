"""A table's earlier games in the browser (docs/web.md): after "Play again", the game just
finished stays one tap away, its replay and its review, for everyone at the table."""

from __future__ import annotations

import json
from typing import Any

from server_helpers import Server
from test_server_finished_games import self_playing_table, wait_over
from web_helpers import browser, new_page, wait_state

__all__ = ["browser"]


def test_the_previous_game_is_replayed_and_reviewed_after_play_again(
    browser: Any, shared_server: Server
) -> None:
    server = shared_server
    table_id, token = self_playing_table(server)  # it plays to its end at once
    wait_over(server, table_id, 1)
    first = server.get(f"/api/tables/{table_id}/record")
    assert isinstance(first, dict)
    moves = len(first["deals"][0]["actions"])
    page = new_page(browser)
    page.goto(server.base + "/#/none")
    held = json.dumps({"seat": 0, "token": token, "name": "Astrid"})
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"rummykit.seat.{table_id}", held])
    page.goto(f"{server.base}/#/t/{table_id}")
    page.reload()
    page.wait_for_selector("text=The game is over")
    page.click("button:has-text('Play again')")
    wait_state(page, "s.games_played === 2 && s.status === 'playing'")
    # the table lists its earlier game, with its replay and its review
    earlier = page.locator(".earlier-games li[data-game='0']")
    earlier.wait_for()
    assert "Game 1" in earlier.inner_text()
    review = earlier.locator("a:has-text('Review')").get_attribute("href")
    assert review == f"#/r/{table_id}/g/0/review"
    earlier.locator("a:has-text('Replay')").click()
    page.wait_for_selector(f"[data-testid=position]:has-text('of {moves}')")
    assert page.url.endswith(f"#/r/{table_id}/g/0")
    # (back at the table the stand-in has ended the next game meanwhile: its scores show)
    page.goto(f"{server.base}/{review}")
    page.wait_for_selector("[data-testid=chances]")
    assert page.url.endswith(f"#/r/{table_id}/g/0/review")
    assert page.locator(".error").count() == 0
    page.close()
