"""The account page in a real chromium (docs/accounts.md): a phone in Swedish signs up and
its table follows the account to a second browser that signs in; a passkey is added and
signs in, with chromium's virtual authenticator (CDP ``WebAuthn``).

WebAuthn wants a secure context and a domain for its relying party id, so the pages are
opened at ``http://localhost:PORT`` (the server takes the id from the page's host)."""

from __future__ import annotations

import json
from typing import Any

from server_helpers import Server
from web_helpers import browser, new_page, shot

__all__ = ["browser"]

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
    "locale": "sv-SE",
}


def local(server: Server) -> str:
    return f"http://localhost:{server.port}"


def wider_than_phone(page: Any) -> bool:
    """Whether the page is wider than the phone's 390 px (a mobile viewport widens its
    layout to fit the page, so the width is compared with the screen's, not innerWidth)."""
    return bool(page.evaluate("document.documentElement.scrollWidth > 390"))


def test_a_phone_signs_up_in_swedish_and_its_table_follows_to_another_browser(
    browser: Any, shared_server: Server
) -> None:
    table = shared_server.post("/api/tables", {"game": "vatikanen", "seats": ["human", "human"]})
    joined = shared_server.post(f"/api/tables/{table['id']}/join", {"name": "Signe"})
    seat = {"seat": joined["seat"], "token": joined["token"], "name": "Signe"}
    phone = new_page(browser, **PHONE)
    phone.goto(local(shared_server) + "/")
    phone.wait_for_function("() => window.rummykit && window.rummykit.ready")
    phone.evaluate(
        "([id, seat]) => localStorage.setItem('rummykit.seat.' + id, JSON.stringify(seat))",
        [table["id"], seat],
    )
    assert not wider_than_phone(phone)
    assert phone.locator("header a.account-link").is_hidden()  # no room: the lobby has it
    assert phone.locator(".lobby-account a.account-link").inner_text() == "Logga in"
    phone.locator(".lobby-account a.account-link").click()
    phone.get_by_role("heading", name="Nytt konto").wait_for()
    phone.fill("input[name=signup-name]", "Signe")
    phone.fill("input[name=signup-password]", "hemligt lösenord")
    shot(phone, "account-phone-sv")
    assert not wider_than_phone(phone)
    phone.get_by_role("button", name="Skapa mitt konto").click()
    phone.wait_for_url("**/#/")
    phone.locator(".lobby-account a.account-link", has_text="Signe").wait_for()
    phone.locator(f".my-tables li[data-table='{table['id']}']").wait_for()

    laptop = new_page(browser, locale="sv-SE")
    laptop.goto(local(shared_server) + "/#/account")
    laptop.get_by_role("heading", name="Logga in").wait_for()
    laptop.fill("input[name=login-name]", "Signe")
    laptop.fill("input[name=login-password]", "fel lösenord")
    laptop.locator("section.sign-in button[type=submit]").click()
    laptop.get_by_text("Fel namn eller lösenord.").wait_for()
    laptop.fill("input[name=login-password]", "hemligt lösenord")
    laptop.locator("section.sign-in button[type=submit]").click()
    laptop.wait_for_url("**/#/")
    laptop.locator(f".my-tables li[data-table='{table['id']}']").wait_for()
    kept = laptop.evaluate(f"localStorage.getItem('rummykit.seat.{table['id']}')")
    assert json.loads(kept)["token"] == joined["token"]  # the seat itself, on this device

    laptop.locator("header a.account-link").click()
    laptop.get_by_role("button", name="Logga ut", exact=True).click()
    laptop.locator("header a.account-link", has_text="Logga in").wait_for()
    assert phone.errors == [] and laptop.errors == []


def test_a_passkey_is_added_and_signs_in_with_a_virtual_authenticator(
    browser: Any, shared_server: Server
) -> None:
    page = new_page(browser)
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    page.goto(local(shared_server) + "/#/account")
    page.get_by_role("heading", name="New account").wait_for()
    page.fill("input[name=signup-name]", "Pia Passkey")
    page.fill("input[name=signup-password]", "a long password")
    page.get_by_role("button", name="Make my account").click()
    page.wait_for_url("**/#/")
    page.locator("header a.account-link").click()
    page.get_by_role("button", name="Add a passkey").click()
    page.get_by_text("Passkey added: next time you can sign in with it.").wait_for()
    page.get_by_text("One passkey.").wait_for()
    page.get_by_role("button", name="Sign out", exact=True).click()
    page.get_by_role("button", name="Sign in with a passkey").click()
    page.wait_for_url("**/#/")
    page.locator("header a.account-link", has_text="Pia Passkey").wait_for()
    me = page.evaluate("fetch('api/account/me').then(r => r.json())")
    assert me["name"] == "Pia Passkey" and me["passkeys"] == 1
    assert page.errors == []


def test_a_browser_that_never_signed_in_asks_nothing_of_the_accounts(
    browser: Any, shared_server: Server
) -> None:
    page = new_page(browser)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/account" in r.url else None)
    page.goto(local(shared_server) + "/")
    page.wait_for_function("() => window.rummykit && window.rummykit.ready")
    page.get_by_role("heading", name="New table").wait_for()
    page.wait_for_timeout(300)
    assert asked == []
    assert page.locator("header a.account-link").inner_text() == "Sign in"
    assert page.errors == []
