"""A client of ``rummykit-online/1`` written from docs/protocol.md alone.

It uses no code of rummykit: HTTP with the standard library, the WebSocket
with the ``websockets`` library, and plain JSON. Its players choose moves
from the view by the simplest rules a person could write from the docs
(Kontrakt: decline the upcard, draw from the stock, discard the highest
card; Vatikanen: draw, or pass with an empty stock), so that whole games are
played through the protocol alone. Tests use it, and so does the server
benchmark.
"""

from __future__ import annotations

import contextlib
import json
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from websockets.sync.client import ClientConnection, connect

RANKS = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}


class HttpError(Exception):
    """An HTTP answer other than 2xx: its status and JSON body."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(f"{status}: {body}")
        self.status = status
        self.body = body


def request(base: str, method: str, path: str, body: object = None) -> Any:
    """One JSON request; the decoded answer, or HttpError."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        base + path, data=data, method=method, headers={"content-type": "application/json"}
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as answer:
            return json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as exc:
        raise HttpError(exc.code, json.loads(exc.read() or b"{}")) from None


@dataclass
class Live:
    """One WebSocket connection: keeps the latest state and the whole log."""

    ws: ClientConnection
    seat: int | None = None
    state: dict[str, Any] | None = None
    log: list[Any] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    received: list[str] = field(default_factory=list)
    acted: int | None = None
    limited: bool = False
    deal: int | None = None
    """The deal of the last state (Kontrakt), to say a deal's end was seen."""
    says_seen: bool = True
    """Whether the client says it saw a deal's end (``seen``) once the next deal comes."""

    @classmethod
    def open(
        cls,
        ws_base: str,
        table: str,
        token: str | None,
        version: int | None = None,
        lang: str | None = None,
    ) -> Live:
        """Connect and say hello (in ``lang``, if given); the first message (a state, or an
        error) is read."""
        opener = connect(f"{ws_base}/api/tables/{table}/live", open_timeout=30, max_size=None)
        ws = opener.__enter__()
        live = cls(ws)
        hello: dict[str, object] = {"type": "hello", "token": token, "version": version}
        if lang is not None:
            hello["lang"] = lang
        ws.send(json.dumps(hello))
        live.read()
        return live

    def read(self, timeout: float = 30) -> dict[str, Any]:
        """The next message; a state updates the state and the log."""
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        self.received.append(text)
        message: dict[str, Any] = json.loads(text)
        if message["type"] == "state":
            view = message["view"]
            if view is not None:
                if message["log_start"] == 0:
                    self.log = []
                assert message["log_start"] == len(self.log), "the log has a gap"
                self.log += view["log"]
                view["log"] = list(self.log)
            self.state = message
            self.seat = message["seat"]
            self._say_seen(message)
        elif message["type"] == "error":
            self.errors.append(message)
            if message["code"] == "rate_limited":  # too fast: act again, later
                self.acted = None
                self.limited = True
        return message

    def _say_seen(self, state: dict[str, Any]) -> None:
        """A seat's player has seen a deal's end once a state of the next deal came: say so
        (docs/protocol.md, ``seen``), so that the bots need not wait for it."""
        deal = state["view"].get("deal") if state["view"] is not None else None
        if self.seat is not None and deal is not None and deal != self.deal:
            if self.deal is not None and self.says_seen:
                self.ws.send(json.dumps({"type": "seen", "version": state["version"]}))
            self.deal = deal

    def drain(self, quiet: float = 0.3) -> None:
        """Read what is on its way, until nothing comes for ``quiet`` seconds."""
        while True:
            try:
                self.read(timeout=quiet)
            except TimeoutError:
                return

    def next_error(self, timeout: float = 30) -> dict[str, Any]:
        """Read until an error comes (states in between are kept); that error."""
        while (message := self.read(timeout=timeout))["type"] != "error":
            pass
        return message

    def until(self, test: Any, timeout: float = 60) -> dict[str, Any]:
        """Read until a state passes ``test``; that state."""
        end = time.monotonic() + timeout
        while True:
            if self.state is not None and test(self.state):
                return self.state
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(
                    f"no such state; the last: {self.state and self.state['version']}"
                )
            self.read(timeout=left)

    def send(self, message: dict[str, Any]) -> None:
        """Send one message."""
        self.ws.send(json.dumps(message))

    def act(self, action: dict[str, Any]) -> None:
        """Send an action on the latest state's version."""
        assert self.state is not None
        self.acted = self.state["version"]
        self.send({"type": "action", "version": self.state["version"], "action": action})

    def my_turn(self) -> bool:
        """True when the latest state says this seat must act."""
        state = self.state
        return (
            state is not None
            and state["status"] == "playing"
            and state["view"] is not None
            and state["view"]["turn"] == self.seat
        )

    def close(self) -> None:
        """Close the connection."""
        self.ws.close()


def rank(card: str) -> int:
    """A card's rank for a discard: jokers kept (ranked lowest)."""
    if card.startswith("*"):
        return -1
    head = card[:-1]
    return RANKS.get(head, int(head) if head.isdigit() else 0)


def simple_move(view: dict[str, Any]) -> dict[str, Any]:
    """The simplest legal move, chosen from the view as docs/protocol.md describes it."""
    if view["game"] == "vatikanen":
        return {"type": "draw"} if view["stock_size"] > 0 else {"type": "pass"}
    phase = view["phase"]
    if phase == "upcard_offer":
        return {"type": "decline_upcard" if view["forhand"] == view["seat"] else "pass_upcard"}
    if phase == "draw":
        return {"type": "draw", "from": "stock"}
    hand = list(view["hand"])
    picked = view["picked_up"]
    if picked in hand and len(hand) > 1:
        hand.remove(picked)  # K8: not the card just taken from the pile
    return {"type": "discard", "card": max(hand, key=rank)}


def play_until_over(lives: list[Live], timeout: float = 300) -> None:
    """Every live seat plays simple moves until the game is over."""
    end = time.monotonic() + timeout
    while True:
        for live in lives:
            state = live.state
            if state is not None and state["status"] == "over":
                continue
            if live.limited:  # the server said slow down
                time.sleep(0.5)
                live.limited = False
            if live.my_turn() and live.acted != live.state["version"]:  # type: ignore[index]
                live.act(simple_move(live.state["view"]))  # type: ignore[index]
            with contextlib.suppress(TimeoutError):
                live.read(timeout=0.05)
        if all(live.state is not None and live.state["status"] == "over" for live in lives):
            return
        if time.monotonic() > end:
            raise TimeoutError("the game did not end")
