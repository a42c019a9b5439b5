"""After a Kontrakt deal ends, the next is dealt at once, but the bots wait for the players
connected to see the deal's end (``seen``, docs/protocol.md) or for a while (K13, K14: the
scores of the deal are what a player looks at then)."""

from __future__ import annotations

import time
from typing import Any

from protocol_client import Live, simple_move
from server_helpers import Server
from test_server_live import seated


def _to_the_next_deal(live: Live) -> dict[str, Any]:
    """Play simple moves until the first deal ends; the state with the second deal."""
    while True:
        state = live.state
        assert state is not None
        view = state["view"]
        if view is not None and view["deal"] >= 1:
            return state
        if live.my_turn() and live.acted != state["version"]:
            live.act(simple_move(view))
        live.read(timeout=60)


def _bot_moves_within(live: Live, version: int, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        try:
            state = live.read(timeout=left)
        except TimeoutError:
            return False
        if state.get("type") == "state" and state["version"] > version:
            return True
    return False


def test_K13_the_bots_wait_for_a_player_to_see_the_deals_end(shared_server: Server) -> None:
    seats = ["human", "bot:basic", "bot:basic"]  # deal 2: seat 2 is förhand, a bot
    _, (anna,) = seated(shared_server, "kontrakt", seats)
    anna.says_seen = False  # she looks at the deal's end, and says so only when told below
    state = _to_the_next_deal(anna)
    anna.drain(0.3)
    version = anna.state["version"]  # type: ignore[index]
    assert not anna.my_turn()  # deal 2: seat 2 is förhand, a bot, and is offered the upcard
    assert not _bot_moves_within(anna, version, 2.0), "a bot went on before Anna saw the end"
    anna.send({"type": "seen", "version": state["version"]})
    assert _bot_moves_within(anna, version, 5.0), "the bots still wait after Anna saw it"
    anna.close()
