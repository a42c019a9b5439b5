"""A player's profile and the leaderboard in a real chromium (issue 42 items 2 and 4,
docs/ratings.md): a phone in Swedish signs up, its account plays two rated games against a
bot, and its profile shows the rating from the server, provisional, with the chart of both
games and the finished tables with their replay; the lobby's form offers a rated table to
a player signed in; the leaderboard is reached from the profile."""

from __future__ import annotations

from typing import Any

import httpx

from protocol_client import Live, play_until_over
from server_helpers import Server
from test_web_accounts import PHONE, local, wider_than_phone
from web_helpers import browser, new_page, shot

__all__ = ["browser"]


def rated_game(server: Server, cookie: str) -> str:
    """A rated Vatikanen game of the signed-in account against a bot, played to its end."""
    with httpx.Client(base_url=local(server), cookies={"rummykit_session": cookie}) as me:
        made = me.post(
            "/api/tables",
            json={"game": "vatikanen", "seats": ["human", "bot:greedy"], "rated": True},
        ).json()
        token = me.post(f"/api/tables/{made['id']}/join", json={"name": "x"}).json()["token"]
    live = Live.open(server.ws, made["id"], token)
    play_until_over([live])
    live.close()
    return str(made["id"])


def test_a_phone_in_swedish_sees_its_rating_and_its_chart_after_two_rated_games(
    browser: Any, shared_server: Server
) -> None:
    phone = new_page(browser, **PHONE)
    phone.goto(local(shared_server) + "/#/account")
    phone.get_by_role("heading", name="Nytt konto").wait_for()
    phone.fill("input[name=signup-name]", "Rankad Rut")
    phone.fill("input[name=signup-password]", "hemligt lösenord")
    phone.get_by_role("button", name="Skapa mitt konto").click()
    phone.wait_for_url("**/#/")
    phone.locator("input[name=rated]").wait_for()  # signed in: a rated table is offered
    cookie = next(c["value"] for c in phone.context.cookies() if c["name"] == "rummykit_session")
    tables = [rated_game(shared_server, cookie) for _ in range(2)]
    phone.goto(local(shared_server) + "/#/account")
    phone.get_by_role("link", name="Din profil och dina ratingtal").click()
    phone.get_by_role("heading", name="Rankad Rut").wait_for()
    profile = httpx.get(local(shared_server) + "/api/players/Rankad%20Rut").json()
    [rating] = profile["ratings"]
    assert rating["games"] == 2
    figure = phone.locator(".rating-block .rating-figure strong").inner_text()
    assert figure == str(rating["rating"])
    assert phone.locator(".rating-block .provisional").count() == 1
    assert phone.locator(".rating-block").inner_text().count("2 rankade partier") == 1
    points = phone.locator(".rating-chart polyline").get_attribute("points") or ""
    assert len(points.split()) == 2
    for table in tables:
        assert phone.locator(f"a[href='#/r/{table}']").count() == 1
    assert not wider_than_phone(phone)
    shot(phone, "profile-phone-sv")
    phone.get_by_role("link", name="Topplista").first.click()
    phone.get_by_role("heading", name="Topplista").wait_for()
    phone.get_by_text("Ingen har spelat 20 rankade partier").wait_for()
    assert not phone.errors, phone.errors
