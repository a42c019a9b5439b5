"""A server killed with SIGKILL mid-game and started again loses no accepted action.

PROTOCOL.md: every accepted change is committed before its state is sent, so
after a restart on the same database every table is as it was after its last
sent state, versions go on from there, and bots move without waiting for
any client.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from protocol_client import Live, play_until_over, simple_move
from rummykit import games
from rummykit.record import parse_record, replay
from server_helpers import start


@pytest.mark.parametrize("game", ["vatikanen", "kontrakt"])
def test_sigkill_at_any_moment_loses_nothing_and_play_goes_on(tmp_path: Path, game: str) -> None:
    db = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    rng = random.Random(game)
    server = start(db, bot_delay=0.05)
    bot = "bot:greedy" if game == "vatikanen" else "bot:basic"
    made = server.post("/api/tables", {"game": game, "seats": ["human", bot, bot]})
    assert isinstance(made, dict)
    table_id = made["id"]
    joined = server.post(f"/api/tables/{table_id}/join", {"name": "Anna"})
    assert isinstance(joined, dict)
    token = joined["token"]
    seen_version, seen_log = 0, []
    for kill in range(3):
        live = Live.open(server.ws, table_id, token, version=seen_version or None)
        state = live.state
        assert state is not None
        # nothing announced before the kill is lost; versions only grow
        assert state["version"] >= seen_version and state["log_start"] == 0
        assert live.log[: len(seen_log)] == seen_log
        if kill > 0:  # the bots went on by themselves after the restart
            live.until(lambda s, live=live: live.my_turn() or s["status"] == "over", timeout=60)
        for _ in range(rng.randint(3, 12)):
            if live.state is None or live.state["status"] != "playing":
                break
            live.until(lambda s, live=live: live.my_turn() or s["status"] == "over", timeout=60)
            if live.state["status"] != "playing":
                break
            live.act(simple_move(live.state["view"]))
            live.until(lambda s, v=live.state["version"]: s["version"] > v, timeout=60)
        if live.my_turn():  # an action on its way when the process dies
            live.act(simple_move(live.state["view"]))  # type: ignore[index]
        time.sleep(rng.random() * 0.05)  # and, as likely as not, a bot thinking
        assert live.state is not None
        seen_version, seen_log = live.state["version"], list(live.log)
        server.kill()
        server = start(db, bot_delay=0.05, port=server.port)
    live = Live.open(server.ws, table_id, token, version=seen_version)
    assert live.state is not None and live.state["version"] >= seen_version
    assert live.log[: len(seen_log)] == seen_log
    play_until_over([live], timeout=600)
    record = server.get(f"/api/tables/{table_id}/record")
    checked = replay(parse_record(record))
    assert checked.ok and checked.finished
    rebuilt = games.get(game).from_record(parse_record(record))
    assert live.log == rebuilt.view(0)["log"]
    live.close()
    server.stop()
