"""A Kontraktsrummy deal against two bots, to its end, through the page alone.

The player buys the first upcard (with its penalty card), draws, lays down the
contract (staged meld by meld, then laid down), lays cards off (one dragged
onto a meld, the others tapped), swaps a joker, and discards (one dragged onto
the pile, the others with the button); at the deal's end everyone's remaining
hand and penalty is shown, and the score sheet. The seed is known and the
server's bots are seeded as the server seeds them, so the test knows each
move in advance (``web_helpers.kontrakt_deal``) and checks that the page is
where the plan says before making it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from server_helpers import start
from web_helpers import (
    browser,
    kontrakt_deal,
    mouse_drag,
    new_page,
    seeded_tables,
    shot,
    wait_state,
    wait_version,
)

__all__ = ["browser"]

SEATS = ["bot:basic", "bot:basic", "human"]
HUMAN = 2
SEED = 22  # web_helpers.find_kontrakt_seed(SEATS, HUMAN): buy, contract, lay-offs, a swap
TABLE = "kontraktTest"


def select(page: Any, cards: list[str]) -> None:
    for card in cards:
        plain = "*" if card.startswith("*") else card
        page.click(f".hand .card[data-card='{plain}']:not(.selected)")


def test_a_kontrakt_deal_against_bots_to_its_end(browser: Any, tmp_path: Path) -> None:
    deal = kontrakt_deal(SEATS, SEED, HUMAN)
    kinds = deal.kinds
    assert deal.ended and kinds["buy_upcard"] and kinds["layoff"] >= 2 and kinds["swap_joker"]
    db = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    seeded_tables(db, [(TABLE, "kontrakt", SEATS, SEED)])
    server = start(db)
    try:
        page = new_page(browser)
        page.goto(f"{server.base}/#/t/{TABLE}")
        page.fill("input[name=name]", "Anna")
        page.click("button[type=submit]")
        done: dict[str, int] = {}
        for version, move in deal.moves:
            s = wait_state(page, f"s.version === {version}")
            view = s["view"]
            kind = move["type"]
            n = done.get(kind, 0)
            if kind == "buy_upcard":
                assert view["phase"] == "upcard_offer" and view["offer_to"] == HUMAN
                page.wait_for_selector("text=You are offered the upcard")
                shot(page, "kontrakt-upcard-offer")
                page.click(".actions button:has-text('Buy')")
            elif kind == "draw":
                page.click(".actions button:has-text('Draw from the stock')")
            elif kind == "meld":
                for meld in move["melds"]:
                    select(page, meld)
                    page.click(".actions button:has-text('Meld')")
                page.wait_for_selector(".dock .verdict.ok")
                if not done.get("meld"):
                    shot(page, "kontrakt-staged-melds")
                page.click(".actions button:has-text('Lay down')")
            elif kind == "layoff":
                target = f".meld[data-meld='{move['meld']}']"
                if n == 0:  # dragged onto the meld
                    mouse_drag(
                        page, f".hand .card[data-card='{move['card']}']", centre_of(page, target)
                    )
                else:  # tapped: the card (the dock says where it fits), then the meld's button
                    select(page, [move["card"]])
                    page.wait_for_selector(f".dock .why:has-text('fits #{move['meld']}')")
                    if n == 1:
                        shot(page, "kontrakt-layoff-fits", full=False)
                    page.click(f"[data-layoff='{move['meld']}']")
            elif kind == "swap_joker":
                select(page, [move["card"]])
                page.click(f"[data-swap='{move['meld']}']")
            elif kind == "discard":
                if n == 0:  # dragged onto the discard pile
                    mouse_drag(
                        page,
                        f".hand .card[data-card='{move['card']}']",
                        centre_of(page, ".discard-pile"),
                    )
                else:
                    select(page, [move["card"]])
                    page.click(".actions button.discard")
            else:
                raise AssertionError(f"the plan has {move}")
            done[kind] = n + 1
            after = wait_version(page, version)
            entry = next(e for e in reversed(after["view"]["log"]) if e.get("seat") == HUMAN)
            assert entry["type"] == kind, (entry, move)
        # the deal's end: every hand left and its penalty, the totals; then the score sheet
        page.wait_for_selector("text=Deal 1 is over")
        panel = page.locator(".deal-end-panel")
        assert panel.locator(".scores tbody tr").count() == 3
        assert panel.locator(".mini-cards .card").count() > 0
        shot(page, "kontrakt-deal-end")
        page.click(".deal-end-panel button:has-text('On to deal 2')")
        page.click("button:has-text('Score sheet')")
        page.wait_for_selector(".modal .sheet")
        assert page.locator(".modal .sheet tbody tr").count() == 8
        shot(page, "kontrakt-score-sheet")
        page.keyboard.press("Escape")
        s = wait_state(page, "s.view.deal === 1")
        assert s["view"]["scores"][0][HUMAN] == s["view"]["totals"][HUMAN]
        page.wait_for_selector(".contract-banner:has-text('Deal 2 of 7')")
        shot(page, "kontrakt-table")
        assert done["buy_upcard"] and done["layoff"] >= 2 and done["swap_joker"] and done["discard"]
        assert not page.errors, page.errors
    finally:
        server.stop()


def centre_of(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
