"""What the browser tests share: Debian's chromium through Playwright, tables with a known
seed, the games' plans, and the gestures that play a move through the page.

The browser is ``/usr/bin/chromium`` (``.ci/run`` installs it); nothing is ever
downloaded. Without it the browser tests are skipped locally and fail in CI
(``RUMMYKIT_CI`` set).

A table whose seed the test knows is written into the server's SQLite file
before the server starts, with the store the server itself uses; the server
then loads it as it loads every table. With the seed known, the engine (and,
for Kontrakt, the server's own bots, seeded as the server seeds them) tells the
test what will happen, so that every game is the same on every run.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from rummykit import games
from rummykit.server.hosted import HostedTable, SeatSpec, TableSettings, hash_token
from rummykit.server.store import TableMeta, TableRow, open_store
from rummykit.server.workers import bot_seed, think

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ROOT = Path(__file__).resolve().parents[1]
SHOTS = Path(os.environ.get("RUMMYKIT_SCREENSHOTS") or ROOT / "build" / "screenshots")
"""Where the tests keep a screenshot of each page; docs/screenshots/ holds a copy of the
latest (docs/web.md, "Tests")."""

Page = Any  # playwright.sync_api.Page: the module is imported only when chromium is there


def need_chromium() -> None:
    """Skip (locally) or fail (in CI) when the browser or Playwright is missing."""
    problem = None
    if not Path(CHROMIUM).exists():
        problem = f"{CHROMIUM} is missing: apt-get install chromium (never playwright install)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            problem = "the playwright package is missing: pip install playwright"
    if problem is None:
        return
    if os.environ.get("RUMMYKIT_CI"):
        pytest.fail(problem)
    pytest.skip(problem)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One chromium for a test file."""
    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def new_page(browser: Any, **options: Any) -> Page:
    """A page in a new browser context (its own storage: another person's browser)."""
    options.setdefault("viewport", {"width": 1280, "height": 900})
    options.setdefault("locale", "en-GB")
    context = browser.new_context(**options)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # checked by the tests: no script error, ever
    page.set_default_timeout(20_000)
    return page


def shot(page: Page, name: str, *, full: bool = True) -> None:
    """Keep a screenshot of the page in SHOTS/NAME.jpg (this run's)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(
        path=str(SHOTS / f"{name}.jpg"),
        full_page=full,
        animations="disabled",
        type="jpeg",
        quality=70,
        scale="css",
    )


# ---------------------------------------------------------------- tables with a known seed


def seeded_tables(db: str, tables: Sequence[tuple[str, str, list[str], int]]) -> None:
    """Store tables (id, game, seats, seed) in the database at ``db`` before a server starts."""

    async def write() -> None:
        store = open_store(db)
        await store.open()
        try:
            for table_id, game, seats, seed in tables:
                settings = settings_of(game, seats, seed)
                table = HostedTable(table_id, settings, time.time())
                n = len(seats)
                summary = json.dumps(table.summary([False] * n, [False] * n))
                meta = TableMeta("waiting", 0, summary)
                row = TableRow(table_id, game, json.dumps(settings.to_json()), table.created, meta)
                await store.create_table(row, None)
        finally:
            await store.close()

    # Playwright's sync API runs an event loop in this thread: write from another one
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(lambda: asyncio.run(write())).result()


@dataclass
class Position:
    """A table to store already played up to some point: its seats taken by ``names``
    (seat -> name; each seat's token is :func:`token_of`), then the moves ``move`` gives
    (the next action, without its seat, or None to stop there)."""

    id: str
    game: str
    seats: list[str]
    seed: int
    names: dict[int, str]
    move: Callable[[HostedTable], dict[str, Any] | None] = lambda table: None
    limit: int = 2000
    grace: int = 60  # seconds away before a bot stands in


def token_of(table_id: str, seat: int) -> str:
    """The seat's secret at a table stored by :func:`seeded_positions`."""
    return f"token-{table_id}-{seat}"


def seeded_positions(db: str, positions: Sequence[Position]) -> dict[str, HostedTable]:
    """Store tables with their events (the joins, then the moves) in the database at ``db``
    before a server starts: it loads each as it was. Answers the tables as they stand."""
    out: dict[str, HostedTable] = {}
    events: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for pos in positions:
        table = HostedTable(pos.id, settings_of(pos.game, pos.seats, pos.seed, pos.grace), 0.0)
        made: list[tuple[str, dict[str, Any]]] = []
        for seat, name in sorted(pos.names.items()):
            join = table.join(seat, name, hash_token(token_of(pos.id, seat)))
            made.append(("join", join))
        for _ in range(pos.limit):
            game = table.game
            if game is None or game.to_act is None:
                break
            chosen = pos.move(table)
            if chosen is None:
                break
            action = table.spec.action_from_json({**chosen, "seat": game.to_act})
            event = table.take(action)
            made.append(("action", {"action": dict(event.record_json()), "by": "player"}))
        out[pos.id] = table
        events[pos.id] = made

    async def write() -> None:
        store = open_store(db)
        await store.open()
        try:
            for pos in positions:
                table = out[pos.id]
                settings = settings_of(pos.game, pos.seats, pos.seed, pos.grace)
                n = len(pos.seats)
                summary = json.dumps(table.summary([False] * n, [False] * n))
                meta = TableMeta(table.status, table.version, summary)
                row = TableRow(pos.id, pos.game, json.dumps(settings.to_json()), time.time(), meta)
                await store.create_table(row, None)
                for version, (kind, data) in enumerate(events[pos.id], start=1):
                    await store.append(pos.id, version, kind, json.dumps(data), meta)
        finally:
            await store.close()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(lambda: asyncio.run(write())).result()
    return out


def sit(
    page: Page,
    base: str,
    table_id: str,
    seat: int,
    name: str,
    lang: str = "",
    keep: dict[str, Any] | None = None,
) -> None:
    """Open a stored table's page as the player of ``seat`` (the browser keeps its token),
    in ``lang`` if given, with more of what the browser keeps (``keep``: key -> JSON)."""
    page.goto(base + "/#/none")
    kept = {f"rummykit.{k}": json.dumps(v) for k, v in (keep or {}).items()}
    kept[f"rummykit.seat.{table_id}"] = json.dumps(
        {"seat": seat, "token": token_of(table_id, seat), "name": name}
    )
    if lang:
        kept["rummykit.lang"] = lang
    page.evaluate("kept => { for (const k in kept) localStorage.setItem(k, kept[k]); }", kept)
    page.goto(f"{base}/#/t/{table_id}")
    page.reload()


def bots_move(table: HostedTable) -> dict[str, Any]:
    """The move the table's seat to act makes as a bot of the table's default level, seeded
    as the server seeds its bots."""
    game = table.game
    assert game is not None and game.to_act is not None
    seat = game.to_act
    level = table.settings.seats[seat].level or table.spec.default_bot
    move = think(
        table.spec.name, level, bot_seed(table.settings.seed, table.version, seat), game.view(seat)
    )
    return {k: v for k, v in move.items() if k != "seat"}


def bots_move_for(count: int) -> Callable[[HostedTable], dict[str, Any] | None]:
    """:func:`bots_move` for ``count`` moves, then a stop."""
    made = [0]

    def move(table: HostedTable) -> dict[str, Any] | None:
        if made[0] >= count:
            return None
        made[0] += 1
        return bots_move(table)

    return move


def settings_of(game: str, seats: list[str], seed: int, grace: int = 60) -> TableSettings:
    spec = games.get(game)
    return TableSettings(
        game=game,
        seats=tuple(SeatSpec.parse(s, spec) for s in seats),
        options=spec.check_options({}),
        seed=seed,
        grace=grace,
    )


def mirror(game: str, seats: list[str], seed: int, names: dict[int, str]) -> HostedTable:
    """The table as the server will hold it, once the humans in ``names`` have joined."""
    table = HostedTable("mirror", settings_of(game, seats, seed), 0.0)
    for seat, name in sorted(names.items()):
        table.join(seat, name, "x" * 64)
    return table


def take(table: HostedTable, action: dict[str, Any]) -> None:
    """The engine takes ``action`` at the mirrored table, as the server would."""
    table.take(table.spec.action_from_json(action))


# ---------------------------------------------------------------- Vatikanen: plays


def is_rearrangement(old: Sequence[Sequence[str]], new: Sequence[Sequence[str]]) -> bool:
    """True when some old meld does not stay whole in one new meld (V9: the table moved)."""
    news = [Counter(_plain(c) for c in m) for m in new]
    return any(
        not any(all(n[c] >= k for c, k in Counter(_plain(x) for x in m).items()) for n in news)
        for m in old
    )


def _plain(card: str) -> str:
    return "*" if card.startswith("*") else card


def vatikanen_move(table: HostedTable) -> dict[str, Any]:
    """What the test plays for the seat to act: the solver's best play, else draw or pass."""
    session = table.game
    assert session is not None
    game = session.game  # type: ignore[attr-defined]
    seat = game.to_act
    best = game.best_play(seat)
    if best is None:
        return {"type": "draw"} if game.stock_size else {"type": "pass"}
    return {k: v for k, v in best.to_json().items() if k != "seat"}


def vatikanen_game(seed: int, limit: int = 200) -> tuple[list[dict[str, Any]], bool]:
    """The whole game the test will play from ``seed`` (2 players): the moves in order (each
    with the table before it) and whether it ends."""
    table = mirror("vatikanen", ["human", "human"], seed, {0: "Anna", 1: "Bo"})
    moves = []
    assert table.game is not None
    for _ in range(limit):
        if table.game.over:
            return moves, True
        view = table.game.view(table.game.to_act)  # type: ignore[arg-type]
        move = vatikanen_move(table)
        moves.append({**move, "seat": view["seat"], "before": view["table"]})
        take(table, {**move, "seat": view["seat"]})
    return moves, False


def find_vatikanen_seed(start: int = 0, tries: int = 400) -> int:
    """A seed whose game ends within 60 moves and holds two rearrangements without jokers
    after both openings (for tools: the tests keep the seed found)."""
    for seed in range(start, start + tries):
        moves, ends = vatikanen_game(seed, 60)
        if not ends:
            continue
        rearranging = [
            m
            for m in moves
            if m["type"] == "play"
            and "table" in m
            and is_rearrangement(m["before"], m["table"])
            and not any(c.startswith("*") for meld in m["table"] for c in meld)
        ]
        if len(rearranging) >= 2:
            return seed
    raise LookupError("no such seed")


# ---------------------------------------------------------------- Kontrakt: a deal against bots


@dataclass
class KontraktDeal:
    """The first deal as it will go: the human's moves with the versions they are made at."""

    moves: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)
    swap_arose: bool = False
    ended: bool = False


def kontrakt_move(legal: list[dict[str, Any]], view: dict[str, Any]) -> dict[str, Any]:
    """The test's player: buy the upcard, draw from the stock, swap a joker, lay down, lay
    off, then discard the highest card."""
    by_type: dict[str, list[dict[str, Any]]] = {}
    for a in legal:
        by_type.setdefault(a["type"], []).append({k: v for k, v in a.items() if k != "seat"})
    for kind in ("buy_upcard", "take_upcard", "swap_joker", "meld", "layoff"):
        if kind in by_type:
            return by_type[kind][0]
    if "draw" in by_type:
        return {"type": "draw", "from": "stock"}
    discards = by_type["discard"]
    return max(discards, key=lambda a: (_value(a["card"]), a["card"]))


def _value(card: str) -> int:
    if card.startswith("*"):
        return -1  # a joker is kept
    rank = card[:-1]
    return {"A": 15, "T": 10, "J": 10, "Q": 10, "K": 10}.get(
        rank, int(rank) if rank.isdigit() else 0
    )


def kontrakt_deal(seats: list[str], seed: int, human: int, limit: int = 400) -> KontraktDeal:
    """The first deal from ``seed``, the bots moving as the server moves them."""
    table = mirror("kontrakt", seats, seed, {human: "Anna"})
    game = table.game
    assert game is not None
    out = KontraktDeal()
    for _ in range(limit):
        view = dict(game.view(human))
        if any(e["type"] == "deal_end" for e in view["log"]):
            out.ended = True
            return out
        seat = game.to_act
        assert seat is not None
        if seat == human:
            legal = [dict(a.to_json()) for a in game.suggested_actions()]
            if any(a["type"] == "swap_joker" for a in legal):
                out.swap_arose = True
            move = kontrakt_move(legal, view)
            out.moves.append((table.version, move))
            out.kinds[move["type"]] += 1
        else:
            level = table.settings.seats[seat].level
            assert level is not None
            move = think("kontrakt", level, bot_seed(seed, table.version, seat), game.view(seat))
        take(table, {**move, "seat": seat})
    return out


def find_kontrakt_seed(seats: list[str], human: int, start: int = 0, tries: int = 300) -> int:
    """A seed whose first deal has the human buy the upcard, lay down, lay off, discard
    and swap a joker, and ends within the limit (for tools: the tests keep the seed)."""
    for seed in range(start, start + tries):
        deal = kontrakt_deal(seats, seed, human, 300)
        k = deal.kinds
        if deal.ended and k["buy_upcard"] and k["meld"] and k["layoff"] >= 2 and k["swap_joker"]:
            return seed
    raise LookupError("no such seed")


# ---------------------------------------------------------------- the page

STATE_JS = "() => window.rummykit && window.rummykit.state ? window.rummykit.state() : null"


def state(page: Page) -> dict[str, Any] | None:
    """The table's latest state as the page holds it (log included)."""
    result: dict[str, Any] | None = page.evaluate(STATE_JS)
    return result


def wait_state(page: Page, test: str, timeout: float = 20_000) -> dict[str, Any]:
    """Wait until the page's state passes the JS expression ``test`` (over ``s``)."""
    page.wait_for_function(
        f"() => {{ const s = window.rummykit && window.rummykit.state && window.rummykit.state();"
        f" return !!s && ({test}); }}",
        timeout=timeout,
    )
    found = state(page)
    assert found is not None
    return found


def wait_version(page: Page, above: int, timeout: float = 20_000) -> dict[str, Any]:
    return wait_state(page, f"s.version > {above}", timeout)


def centre(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def mouse_drag(page: Page, source: str, to: tuple[float, float]) -> None:
    """Drag with the mouse (real pointer events), in steps."""
    x, y = centre(page, source)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 8, y + 8, steps=2)
    page.mouse.move(to[0], to[1], steps=8)
    page.mouse.up()


def touch_drag(page: Page, source: str, to: tuple[float, float]) -> None:
    """Drag with a finger: touch events through the DevTools protocol (the browser makes the
    pointer events of a touch from them, as on a phone)."""
    cdp = getattr(page, "touch_session", None)
    if cdp is None:
        cdp = page.touch_session = page.context.new_cdp_session(page)
    x, y = centre(page, source)

    def touch(kind: str, px: float, py: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": px, "y": py, "id": 1}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", x, y)
    steps = 10
    for k in range(1, steps + 1):
        touch("touchMove", x + (to[0] - x) * k / steps, y + (to[1] - y) * k / steps)
    # a finger holds still on the target before it lifts, as people drop a card: a release
    # while moving would be a fling, and the browser keeps the next tap to stop a fling
    time.sleep(0.12)
    touch("touchMove", to[0], to[1])
    touch("touchEnd", to[0], to[1])


DRAFT_JS = """() => {
  const cards = (el) => [...el.querySelectorAll('.card')]
    .map(c => ({id: c.dataset.id, card: c.dataset.card}));
  return {
    melds: [...document.querySelectorAll('.drafting .meld[data-meld]')]
      .map(m => ({key: m.dataset.meld, cards: cards(m)})),
    hand: cards(document.querySelector('.hand')),
  };
}"""

CARD_AT_JS = """([key, k, cid]) => {
  const m = document.querySelector(`.drafting .meld[data-meld="${key}"]`);
  if (!m) return false;
  const c = m.querySelectorAll('.card')[k];
  return !!c && c.dataset.id === cid;
}"""


SETTLED_JS = """() => {
  const v = document.querySelector('.verdict');
  return !v || v.classList.contains('ok') || v.classList.contains('bad');
}"""


def wait_checked(page: Page) -> None:
    """Wait until the server has answered the draft's check: its verdict changes the height
    of the page, and the hand below it moves."""
    page.wait_for_function(SETTLED_JS)


def draft(page: Page) -> dict[str, Any]:
    """The Vatikanen draft on the page: each meld's key and cards (id, card), and the hand."""
    result: dict[str, Any] = page.evaluate(DRAFT_JS)
    return result


def _assign(melds: list[dict[str, Any]], target: list[list[str]]) -> list[str | None]:
    """For each target meld, the draft meld (key) that keeps most of its cards."""
    keys: list[str | None] = []
    used: set[str] = set()
    for want in target:
        need = Counter(_plain(c) for c in want)
        best, score = None, 0
        for m in melds:
            if m["key"] in used:
                continue
            have = Counter(_plain(c["card"]) for c in m["cards"])
            common = sum((need & have).values())
            if common > score:
                best, score = m["key"], common
        if best is not None:
            used.add(best)
        keys.append(best)
    return keys


def play_by_hand(page: Page, target: list[list[str]], how: str, drag: Callable[..., None]) -> None:
    """Build the table ``target`` in the page's draft, card by card: ``how`` is "drag" (each
    card dragged to its exact place) or "tap" (the cards of a meld selected, then its +
    tapped). Table cards are taken before hand cards of the same kind."""
    keys = _assign(draft(page)["melds"], target)
    settled: set[str] = set()
    for t_index, want in enumerate(target):
        key = keys[t_index]
        if how == "tap":
            now = draft(page)
            inside = [c for m in now["melds"] if m["key"] == key for c in m["cards"]]
            missing = Counter(_plain(c) for c in want) - Counter(_plain(c["card"]) for c in inside)
            chosen = []
            for card, count in missing.items():
                for _ in range(count):
                    found = _source(now, card, key, settled | set(chosen))
                    chosen.append(found)
            if not chosen:
                continue  # nothing to bring: what leaves this meld goes with its own meld
            wait_checked(page)
            for cid in chosen:
                page.click(f'[data-id="{cid}"]')
            before = {m["key"] for m in draft(page)["melds"]}
            page.click(f'[data-place="{key or "new"}"]')
            page.wait_for_timeout(50)
            if key is None:
                key = next(m["key"] for m in draft(page)["melds"] if m["key"] not in before)
            for c in next(m for m in draft(page)["melds"] if m["key"] == key)["cards"]:
                if _plain(c["card"]) in {_plain(x) for x in want}:
                    settled.add(c["id"])
            continue
        for k, card in enumerate(want):
            wait_checked(page)
            now = draft(page)
            meld = next((m for m in now["melds"] if m["key"] == key), None)
            if meld is not None and k < len(meld["cards"]):
                here = meld["cards"][k]
                if _plain(here["card"]) == _plain(card) and here["id"] not in settled:
                    settled.add(here["id"])
                    continue
            cid = _source(now, _plain(card), key, settled, after=(key, k))
            if meld is None:
                before = {m["key"] for m in now["melds"]}
                drag(page, f'[data-id="{cid}"]', centre(page, '[data-drop="new"]'))
                page.wait_for_function(
                    "n => document.querySelectorAll('.drafting .meld[data-meld]').length > n",
                    arg=len(now["melds"]) - (1 if _leaves_empty(now, cid) else 0),
                )
                key = next(m["key"] for m in draft(page)["melds"] if m["key"] not in before)
            else:
                cards = [c for c in meld["cards"] if c["id"] != cid]
                if k < len(cards):
                    box = page.locator(f'[data-id="{cards[k]["id"]}"]').bounding_box()
                    spot = (box["x"] + box["width"] * 0.2, box["y"] + box["height"] / 2)
                else:
                    box = page.locator(f'[data-id="{cards[-1]["id"]}"]').bounding_box()
                    spot = (box["x"] + box["width"] * 0.85, box["y"] + box["height"] / 2)
                drag(page, f'[data-id="{cid}"]', spot)
                page.wait_for_function(CARD_AT_JS, arg=[key, k, cid])
            settled.add(cid)


def _leaves_empty(now: dict[str, Any], cid: str) -> bool:
    return any(len(m["cards"]) == 1 and m["cards"][0]["id"] == cid for m in now["melds"])


def _source(
    now: dict[str, Any],
    card: str,
    key: str | None,
    settled: set[str],
    after: tuple[str | None, int] | None = None,
) -> str:
    """Where to take ``card`` from: an unsettled copy on the table (another meld, or later in
    the target meld itself), else the hand."""
    for m in now["melds"]:
        for j, c in enumerate(m["cards"]):
            if c["id"] in settled or _plain(c["card"]) != card:
                continue
            if m["key"] == key and (after is None or j <= after[1]):
                continue
            return str(c["id"])
    for c in now["hand"]:
        if c["id"] not in settled and _plain(c["card"]) == card:
            return str(c["id"])
    raise AssertionError(f"no {card} to take in {now}")
