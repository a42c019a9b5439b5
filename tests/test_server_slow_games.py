"""PROTOCOL.md's "Slow games": turn clocks and grace up to seven days, a table that waits
for an away friend when it has no stand-ins, and a clock that outlives a restart."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from protocol_client import HttpError, Live
from server_helpers import Server, start
from test_server_live import join, table

DAY = 86_400
WEEK = 7 * DAY


def test_clock_and_grace_may_be_up_to_seven_days(shared_server: Server) -> None:
    made = table(shared_server, "vatikanen", ["human", "human"], clock=WEEK, grace=WEEK)
    assert (made["clock"], made["grace"], made["stand_in"]) == (WEEK, WEEK, True)
    for extra in ({"clock": WEEK + 1}, {"grace": WEEK + 1}, {"clock": -1}):
        with pytest.raises(HttpError) as info:
            table(shared_server, "vatikanen", ["human", "human"], **extra)
        assert info.value.status in (400, 422) and info.value.body["error"] == "bad_request"


def test_a_table_without_stand_ins_waits_for_its_away_player(shared_server: Server) -> None:
    waits = table(shared_server, "vatikanen", ["human", "human"], grace=0, stand_in=False)
    stands = table(shared_server, "vatikanen", ["human", "human"], grace=0, stand_in=True)
    for made in (waits, stands):  # nobody connects: both players are away at once
        for seat in (0, 1):
            join(shared_server, made["id"], f"P{seat}", seat)
    time.sleep(1.0)  # the server's bots move at once (--bot-delay 0)
    waited = shared_server.get(f"/api/tables/{waits['id']}")
    stood = shared_server.get(f"/api/tables/{stands['id']}")
    assert isinstance(waited, dict) and isinstance(stood, dict)
    assert waited["version"] == 2 and not any(s["stand_in"] for s in waited["seats"])
    # with nobody connected, stand-ins wait too (issue 40: no table plays itself to the end)
    assert stood["version"] == 2 and stood["waiting_for_players"] is True


def test_a_one_day_clock_keeps_its_deadline_across_a_restart(tmp_path: Path) -> None:
    server = start(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    try:
        made = table(server, "vatikanen", ["human", "human"], clock=DAY, grace=DAY, stand_in=False)
        token = join(server, made["id"], "Anna", 0)["token"]
        join(server, made["id"], "Bo", 1)
        anna = Live.open(server.ws, made["id"], token)
        assert anna.state is not None
        clock = anna.state["clock"]
        assert clock["seconds"] == DAY and clock["seat"] == anna.state["view"]["turn"]
        assert DAY - 60 < clock["remaining"] <= DAY
        anna.close()
        server.kill()
        server = start(server.db, port=server.port)
        again = Live.open(server.ws, made["id"], token)
        assert again.state is not None and again.state["version"] == anna.state["version"]
        kept = again.state["clock"]
        assert kept is not None, "the turn clock was lost with the restart"
        assert (kept["seat"], kept["deadline"]) == (clock["seat"], clock["deadline"])
        again.close()
    finally:
        server.stop()
