"""Two strangers press "Play now" in two real browsers (issue 42 items 3 and 7): a phone in
Swedish and a desktop in English, each signed up on the site, land at one table within
seconds; the game is played out (by their seats' tokens, as their pages hold them); each
then finds the rated game on their profile, their rating moved."""

from __future__ import annotations

import json
from typing import Any

from protocol_client import Live, play_until_over
from server_helpers import Server
from test_web_accounts import PHONE, local, wider_than_phone
from web_helpers import browser, new_page, shot

__all__ = ["browser"]


def sign_up(page: Any, base: str, name: str, heading: str, button: str) -> None:
    page.goto(base + "/#/account")
    page.get_by_role("heading", name=heading).wait_for()
    page.fill("input[name=signup-name]", name)
    page.fill("input[name=signup-password]", "a long password")
    page.get_by_role("button", name=button).click()
    page.wait_for_url("**/#/")


def test_two_strangers_press_play_now_land_at_one_table_and_see_their_ratings_move(
    browser: Any, shared_server: Server
) -> None:
    base = local(shared_server)
    phone = new_page(browser, **PHONE)
    desk = new_page(browser)
    sign_up(phone, base, "Sara Nu", "Nytt konto", "Skapa mitt konto")
    sign_up(desk, base, "Dan Now", "New account", "Make my account")
    phone.locator(".play-now select[name=seek-bots]").select_option("null")
    phone.locator(".play-now-go").click()
    phone.wait_for_selector(".play-now .seeking:has-text('Letar efter spelare')")
    assert not wider_than_phone(phone)
    shot(phone, "play-now-phone-sv")
    desk.locator(".play-now select[name=seek-bots]").select_option("null")
    desk.get_by_role("button", name="Play now").click()
    for page in (phone, desk):
        page.wait_for_url("**/#/t/*", timeout=20_000)
    table = phone.url.rsplit("/", 1)[1]
    assert desk.url.rsplit("/", 1)[1] == table
    lives = []
    for page in (phone, desk):
        held = json.loads(page.evaluate(f"localStorage.getItem('rummykit.seat.{table}')"))
        lives.append(Live.open(shared_server.ws, table, held["token"]))
    assert {live.seat for live in lives} == {0, 1}
    play_until_over(lives)
    for live in lives:
        live.close()
    for page, name, games in (
        (phone, "Sara Nu", "1 rankade partier"),
        (desk, "Dan Now", "1 rated games"),
    ):
        page.goto(f"{base}/#/u/{name}")
        page.get_by_role("heading", name=name).wait_for()
        page.locator(".rating-block").get_by_text(games).wait_for()
        assert page.locator(f"a[href='#/r/{table}']").count() == 1
    assert not phone.errors and not desk.errors, (phone.errors, desk.errors)
