"""A table with nobody there does not play itself to the end (issue 40, item 10): a
stand-in, or a turn clock's bot, plays for an away player only while another player at
the table is connected; with no player connected the table waits, and its summary says
so (``waiting_for_players``). Against a real server (``--bot-delay 0``)."""

from __future__ import annotations

import time

from protocol_client import Live
from server_helpers import Server
from test_server_live import join, table


def _summary(server: Server, table_id: str) -> dict[str, object]:
    summary = server.get(f"/api/tables/{table_id}")
    assert isinstance(summary, dict)
    return summary


def test_stand_ins_wait_while_no_player_is_connected(shared_server: Server) -> None:
    server = shared_server
    made = table(server, "vatikanen", ["human", "human"], grace=1)
    tokens = [join(server, made["id"], name, seat)["token"] for seat, name in enumerate("AB")]
    time.sleep(3.5)  # several graces: both players away, nobody there
    held = _summary(server, made["id"])
    assert held["status"] == "playing" and held["version"] == 2, "the table played itself"
    assert held["waiting_for_players"] is True
    assert not any(s["stand_in"] for s in held["seats"])  # type: ignore[attr-defined]
    to_act = held["to_act"]
    assert isinstance(to_act, int)
    back = Live.open(server.ws, made["id"], tokens[1 - to_act])  # the other player comes back
    state = back.until(lambda s: s["version"] > 2, timeout=15)  # the away one's stand-in plays
    assert state["view"]["log"][-1]["seat"] == to_act
    assert state["seats"][to_act]["stand_in"] is True
    assert _summary(server, made["id"])["waiting_for_players"] is False
    back.close()


def test_a_turn_clock_does_not_play_for_a_table_nobody_is_at(shared_server: Server) -> None:
    server = shared_server
    made = table(server, "vatikanen", ["human", "human"], clock=1, stand_in=False)
    for seat, name in enumerate("AB"):
        join(server, made["id"], name, seat)
    time.sleep(3.5)  # the clock ran out three times over
    held = _summary(server, made["id"])
    assert held["version"] == 2 and held["waiting_for_players"] is True


def test_no_bot_stands_in_for_an_away_player_once_the_game_is_over(
    shared_server: Server,
) -> None:
    """Issue 45, item 7: "away: a bot plays for now" after the game's end, where nothing is
    left to play. A stand-in plays the away player's turns while the game runs; once it is
    over, the seat is away, and nobody plays for it."""
    from test_server_finished_games import self_playing_table, wait_over

    table_id, _ = self_playing_table(shared_server)
    wait_over(shared_server, table_id, 1)
    away = _summary(shared_server, table_id)["seats"][0]  # type: ignore[index]
    assert away["connected"] is False and away["stand_in"] is False
