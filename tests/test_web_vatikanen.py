"""A whole Vatikanen game between two people in two browsers, through the page alone.

Anna and Bo each open the invite link in their own browser (context), pick a
name and a seat, and play the game to its end: openings by tap-to-place (with
the invalid meld marked as it is built) and by the keyboard, a rearrangement
of the table by drag and drop (with an undo), another by tap-to-place, the
other plays through the Hint button, draws. Then the game-over summary, its
replay forwards and back, and "Play again".

The table's seed is known (``web_helpers.seeded_tables``), so the game is the
same on every run; the test keeps a mirror of the table (the server's own
``Table``, fed with what the server logs) to choose each move as the solver
would.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from server_helpers import start
from web_helpers import (
    browser,
    is_rearrangement,
    mirror,
    mouse_drag,
    new_page,
    play_by_hand,
    seeded_tables,
    shot,
    take,
    vatikanen_move,
    wait_state,
    wait_version,
)

__all__ = ["browser"]

SEED = 23  # the game ends in 39 moves, with small rearrangements at moves 3 and 9
TABLE = "vatikanenTest"


def placements(before: list[list[str]], after: list[list[str]]) -> int:
    """How many cards a person must move to make ``after`` from ``before`` (and the hand)."""
    left = [Counter(m) for m in before]
    moves = 0
    for meld in after:
        want = Counter(meld)
        best = max(range(len(left)), key=lambda i: sum((left[i] & want).values()), default=None)
        kept = Counter() if best is None else left.pop(best) & want
        moves += sum((want - kept).values())
    return moves


def join(page: Any, base: str, name: str, seat: int) -> None:
    page.goto(f"{base}/#/t/{TABLE}")
    page.fill("input[name=name]", name)
    page.check(f"input[name=seat][value='{seat}']")
    page.click("button[type=submit]")


def test_two_friends_play_a_whole_vatikanen_game(browser: Any, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    seeded_tables(db, [(TABLE, "vatikanen", ["human", "human"], SEED)])
    server = start(db)
    try:
        anna = new_page(browser)
        bo = new_page(browser)
        # Anna finds the table in the lobby; Bo has the invite link
        anna.goto(server.base + "/")
        anna.click(f"a[href='#/t/{TABLE}']")
        anna.fill("input[name=name]", "Anna")
        anna.check("input[name=seat][value='0']")
        anna.click("button[type=submit]")
        anna.wait_for_selector("text=Waiting for players")
        link = anna.input_value(".invite-link")
        assert link.endswith(f"#/t/{TABLE}")
        shot(anna, "waiting-room")
        bo.goto(link)
        bo.fill("input[name=name]", "Bo")
        bo.click("button[type=submit]")
        pages = {0: anna, 1: bo}
        for page in pages.values():
            wait_state(page, "s.status === 'playing'")
        watcher = new_page(browser)  # a third browser watches: the table, never a hand
        watcher.goto(f"{server.base}/#/t/{TABLE}/watch")
        wait_state(watcher, "s.seat === null && s.status === 'playing'")
        watcher.wait_for_selector("text=You are watching this table.")
        table = mirror("vatikanen", ["human", "human"], SEED, {0: "Anna", 1: "Bo"})
        done: Counter[str] = Counter()
        opened = 0
        while True:
            game = table.game
            assert game is not None
            if game.over:
                break
            seat = game.to_act
            assert seat is not None
            page = pages[seat]
            s = wait_state(page, f"s.version === {table.version} && s.view.turn === {seat}")
            assert s["view"]["hand"] == game.view(seat)["hand"], "the page and the mirror differ"
            move = vatikanen_move(table)
            version = table.version
            small = (
                move["type"] == "play"
                and opened >= 2
                and is_rearrangement(s["view"]["table"], move["table"])
                and placements(s["view"]["table"], move["table"]) <= 4
            )
            if move["type"] != "play":
                page.click(".actions .draw")
            elif opened == 0:
                open_by_tap_with_an_invalid_meld(page, move)
                done["tap opening"] += 1
            elif opened == 1:
                page.click(".actions button:has-text('Hint')")
                page.locator(".hint-play").first.click()
                page.wait_for_selector(".verdict.ok")
                page.click(".actions .primary")
                done["hint"] += 1
            elif small and not done["drag"]:
                rearrange_by_drag(page, move)
                done["drag"] += 1
            elif small and not done["tap"]:
                play_by_hand(page, move["table"], "tap", mouse_drag)
                page.wait_for_selector(".verdict.ok")
                shot(page, "vatikanen-tap-to-place")
                page.click(".actions .primary")
                done["tap"] += 1
            elif not done["arrange"]:  # the solver fits the selected cards in
                for card in move["add"]:
                    page.click(f".hand .card[data-card='{card}']:not(.selected)")
                page.click(".actions button:has-text('Arrange')")
                page.wait_for_selector(".verdict.ok")
                page.click(".actions .primary")
                done["arrange"] += 1
            else:  # typed, as in the terminal: the server arranges the table
                page.fill("#command", "play " + " ".join(move["add"]))
                page.press("#command", "Enter")
                done["keyboard"] += 1
            if move["type"] == "play":
                opened += 1
            after = wait_version(page, version)
            entry = after["view"]["log"][-1]
            assert entry["seat"] == seat and entry["type"] == move["type"]
            action = {k: v for k, v in entry.items() if k in ("type", "add", "table")}
            take(table, {**action, "seat": seat})
        assert done["drag"] and done["tap"] and done["hint"] and done["arrange"], done
        watched = wait_state(watcher, "s.status === 'over'")
        assert watched["view"]["hand"] is None and watcher.locator(".hand").count() == 0
        assert watched["view"]["table"] == table.game.view(0)["table"]
        # the end: both see the summary with the scores
        for page in pages.values():
            page.wait_for_selector("text=The game is over")
            assert not page.errors, page.errors
        assert anna.locator(".scores tbody tr").count() == 2
        shot(bo, "vatikanen-game-over")
        replay_the_game(bo, server.base)
        # "Play again": the session goes on at the same table, dealt afresh
        anna.click("button:has-text('Play again')")
        for page in pages.values():
            again = wait_state(page, "s.games_played === 2 && s.status === 'playing'")
            assert again["view"]["game_number"] == 2 and again["view"]["table"] == []
    finally:
        server.stop()


def open_by_tap_with_an_invalid_meld(page: Any, move: dict[str, Any]) -> None:
    """The opening run, tapped card by card: two cards are no meld (marked so, the reason
    by the buttons), the third makes it valid; then Play."""
    cards = move["table"][-1]
    for card in cards[:2]:
        page.click(f".hand .card[data-card='{card}']:not(.selected)")
    page.click("[data-place='new']")
    page.wait_for_selector(".meld-box.invalid")
    page.wait_for_selector(".verdict.bad")
    verdict = page.inner_text("[data-testid=verdict]")  # the reason, said once
    assert "V7" in verdict and "too short" in verdict, verdict
    shot(page, "vatikanen-invalid-meld")
    page.click(".actions button:has-text('Reset')")  # every change taken back
    page.wait_for_selector(".meld-box.invalid", state="detached")
    for card in cards[:2]:
        page.click(f".hand .card[data-card='{card}']:not(.selected)")
    page.click("[data-place='new']")
    page.wait_for_selector(".meld-box.invalid")
    page.click(f".hand .card[data-card='{cards[2]}']")
    page.click(".drafting [data-place='n1']")
    page.wait_for_selector(".meld-box.valid")
    page.wait_for_selector(".verdict.ok")
    page.click(".actions .primary")


def rearrange_by_drag(page: Any, move: dict[str, Any]) -> None:
    """The play built by dragging every card to its place; the last drag is undone (the
    verdict goes with it) and made again."""
    play_by_hand(page, move["table"], "drag", mouse_drag)
    page.wait_for_selector(".verdict.ok")
    shot(page, "vatikanen-drag-and-drop")
    page.click(".actions button:has-text('Undo')")
    page.wait_for_selector(".verdict.ok", state="detached")
    play_by_hand(page, move["table"], "drag", mouse_drag)
    page.wait_for_selector(".verdict.ok")
    page.click(".actions .primary")


def replay_the_game(page: Any, base: str) -> None:
    """The finished game's replay: step forwards and back through every position."""
    page.click("a:has-text('Replay this game')")
    page.wait_for_selector("[data-testid=position]")
    text = page.inner_text("[data-testid=position]")
    assert text.startswith("As dealt, before action 1 of ")  # one numbering: docs/review.md
    assert page.locator(".replay-hands .card").count() == 26  # every hand, as dealt
    page.click(".step-forward")
    page.wait_for_selector("text=After action 1 of")
    total = int(page.inner_text("[data-testid=position]").split()[-1])
    page.keyboard.press("End")
    page.wait_for_selector(f"text=After action {total} of {total}")
    page.wait_for_selector(".last-move:has-text('went out')")
    shot(page, "replay")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f"text=After action {total - 1} of {total}")
    page.keyboard.press("Home")
    page.wait_for_selector("text=As dealt, before action 1")
    assert not page.errors, page.errors
    page.go_back()
