"""Puzzle answers and lesson moves are judged in a pool of their own (the learning
workers), in turn by address and bounded, so that nobody flooding them holds up a
player's hint or draft check at a table (a public server: nothing one client does slows
another table)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from protocol_client import Live
from rummykit.puzzles import shipped
from rummykit.server.puzzleplay import by_id
from rummykit.server.workers import LEARN_PER_ADDRESS
from server_helpers import Server, start

HEAVY = "691779ea71"
"""The shipped Vatikanen puzzle whose whole hand, laid as an answer with no table, takes
the solver longest to judge (about 0.9 s on the reference machine)."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A server of its own for each test: no worker has judged the heavy answer yet (the
    solver keeps what it learnt in a few caches, after which the same answer is judged in a
    moment)."""
    srv = start(f"sqlite:///{tmp_path / 's.db'}", workers=1)
    try:
        yield srv
    finally:
        srv.stop()


def _heavy_body() -> dict[str, object]:
    puzzle = by_id(HEAVY)
    assert puzzle is not None and puzzle.game == "vatikanen"
    return {"add": [str(c) for c in puzzle.hand], "lang": "en"}


def _answer(client: httpx.Client) -> httpx.Response:
    return client.post(f"/api/puzzles/{HEAVY}/answer", json=_heavy_body())


def _seated_two(server: Server) -> Live:
    """A Vatikanen table of two humans; the connection of the seat to act."""
    made = server.post("/api/tables", {"game": "vatikanen", "seats": ["human", "human"]})
    assert isinstance(made, dict)
    lives = []
    for seat in (0, 1):
        joined = server.post(f"/api/tables/{made['id']}/join", {"name": f"P{seat}", "seat": seat})
        assert isinstance(joined, dict)
        lives.append(Live.open(server.ws, made["id"], joined["token"]))
    for live in lives:
        live.until(lambda s: s["status"] == "playing")
    return next(live for live in lives if live.my_turn())


def _hint_seconds(live: Live) -> float:
    begun = time.monotonic()
    live.send({"type": "hint"})
    while live.read()["type"] != "hint":
        pass
    return time.monotonic() - begun


def test_the_heaviest_answer_is_judged_and_told(server: Server) -> None:
    with httpx.Client(base_url=server.base, timeout=60) as client:
        got = _answer(client)
    assert got.status_code == 200, got.text
    assert got.json()["right"] is False  # the whole hand does not go down on that table


def test_a_flood_of_puzzle_answers_never_holds_up_a_hint_at_a_table(server: Server) -> None:
    live = _seated_two(server)
    _hint_seconds(live)  # the play workers warm
    server.get(f"/api/puzzles/{HEAVY}")  # the server has read the shipped puzzles (a thread)
    stop = threading.Event()
    answered: list[int] = []

    def flood(address: str) -> None:
        headers = {"x-forwarded-for": address}
        with httpx.Client(base_url=server.base, headers=headers, timeout=120) as client:
            while not stop.is_set():
                answered.append(_answer(client).status_code)

    flooders = [threading.Thread(target=flood, args=(f"127.0.6.{k}",)) for k in range(1, 5)]
    for t in flooders:
        t.start()
    try:
        waits = []  # a hint every 0.15 s while the first answers are judged
        for _ in range(15):
            time.sleep(0.15)
            waits.append(_hint_seconds(live))
    finally:
        stop.set()
        for t in flooders:
            t.join(timeout=120)
        live.close()
    assert answered and set(answered) <= {200, 429, 503}
    assert max(waits) < 0.6, waits  # in the play workers they waited 1.2 to 7.7 s


def test_an_address_past_its_answers_at_once_is_told_rate_limited(server: Server) -> None:
    statuses: list[int] = []
    codes: list[str] = []

    def answer() -> None:
        headers = {"x-forwarded-for": "127.0.6.9"}
        with httpx.Client(base_url=server.base, headers=headers, timeout=120) as client:
            got = _answer(client)
            statuses.append(got.status_code)
            if got.status_code != 200:
                codes.append(got.json()["error"])

    askers = [threading.Thread(target=answer) for _ in range(LEARN_PER_ADDRESS + 3)]
    for t in askers:
        t.start()
    for t in askers:
        t.join(timeout=120)
    assert statuses.count(200) >= 1
    assert 429 in statuses and set(codes) == {"rate_limited"}


def test_a_board_s_burst_of_checks_from_one_address_is_judged(server: Server) -> None:
    """A Kontrakt puzzle's board asks for its turn as each meld is staged: a fast player's
    five at once, from an address already waiting for an answer, are all judged."""
    kontrakt = next(iter(shipped("kontrakt")))
    headers = {"x-forwarded-for": "127.0.6.20"}
    statuses: list[int] = []

    def heavy() -> None:
        with httpx.Client(base_url=server.base, headers=headers, timeout=120) as client:
            statuses.append(_answer(client).status_code)

    def board() -> None:
        with httpx.Client(base_url=server.base, headers=headers, timeout=120) as client:
            got = client.post(f"/api/puzzles/{kontrakt.id}/try", json={"moves": [], "lang": "sv"})
            statuses.append(got.status_code)

    first = threading.Thread(target=heavy)
    first.start()
    time.sleep(0.2)  # the heavy answer under way: the board's asks wait behind it
    boards = [threading.Thread(target=board) for _ in range(5)]
    for t in boards:
        t.start()
    for t in [first, *boards]:
        t.join(timeout=120)
    assert statuses == [200] * 6, statuses
