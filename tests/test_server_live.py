"""Live play over the WebSocket (PROTOCOL.md), against a real uvicorn on loopback.

The players are :mod:`protocol_client` clients, written from docs/protocol.md
alone; the engine is used only to check what the server sent.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from protocol_client import Live, play_until_over, simple_move
from rummykit import games
from rummykit.record import parse_record, replay
from server_helpers import Server


def table(server: Server, game: str, seats: list[str], **extra: Any) -> dict[str, Any]:
    made = server.post("/api/tables", {"game": game, "seats": seats, **extra})
    assert isinstance(made, dict)
    return made


def join(server: Server, table_id: str, name: str, seat: int | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"name": name}
    if seat is not None:
        body["seat"] = seat
    joined = server.post(f"/api/tables/{table_id}/join", body)
    assert isinstance(joined, dict)
    return joined


def seated(server: Server, game: str, seats: list[str], **extra: Any) -> tuple[str, list[Live]]:
    """A table with every human seat taken and connected."""
    made = table(server, game, seats, **extra)
    lives = []
    for seat, kind in enumerate(seats):
        if kind == "human":
            token = join(server, made["id"], f"P{seat}", seat)["token"]
            lives.append(Live.open(server.ws, made["id"], token))
    for live in lives:
        live.until(lambda s: s["status"] == "playing")
    return made["id"], lives


def closed_with(live: Live) -> int | None:
    with pytest.raises(ConnectionClosed) as info:
        live.read(timeout=10)
    return info.value.rcvd.code if info.value.rcvd else None


# ---------------------------------------------------------------- hello


def test_hello_with_a_wrong_token_or_table_is_refused_and_closed(shared_server: Server) -> None:
    server = shared_server
    made = table(server, "vatikanen", ["human", "bot:greedy"])
    live = Live.open(server.ws, made["id"], "x" * 32)
    assert live.errors[-1]["code"] == "unauthorized" and "rule" in live.errors[-1]
    assert closed_with(live) == 4401
    live = Live.open(server.ws, "no-such-table", None)
    assert live.errors[-1]["code"] == "not_found"
    assert closed_with(live) == 4404


def test_a_spectator_sees_no_hand_and_cannot_act(shared_server: Server) -> None:
    server = shared_server
    table_id, players = seated(server, "kontrakt", ["human", "human", "bot:basic"])
    watcher = Live.open(server.ws, table_id, None)
    state = watcher.state
    assert state is not None and state["seat"] is None and state["status"] == "playing"
    assert state["view"]["hand"] is None and state["view"]["seat"] is None
    watcher.send({"type": "action", "version": state["version"], "action": {"type": "draw"}})
    assert watcher.next_error()["code"] == "not_your_turn"
    for live in (*players, watcher):
        live.close()


# ---------------------------------------------------------------- whole games


@pytest.mark.parametrize("game", ["vatikanen", "kontrakt"])
def test_two_people_play_a_whole_game_through_the_protocol_alone(
    shared_server: Server, game: str
) -> None:
    server = shared_server
    seats = ["human", "human", "bot:greedy" if game == "vatikanen" else "bot:basic"]
    table_id, lives = seated(server, game, seats)
    play_until_over(lives)
    final = lives[0].state
    assert final is not None and final["status"] == "over"
    record = server.get(f"/api/tables/{table_id}/record")
    checked = replay(parse_record(record))
    assert checked.ok and checked.finished
    # every seat's log, kept by appending, is the engine's log of that seat
    spec = games.get(game)
    rebuilt = spec.from_record(parse_record(record))
    for live in lives:
        assert live.log == rebuilt.view(live.seat)["log"]
        assert not [e for e in live.errors if e["code"] not in ("stale", "rate_limited")]
    summary = server.get(f"/api/tables/{table_id}")
    assert isinstance(summary, dict) and summary["result"]["scores"] == checked.scores
    for live in lives:
        live.close()


def test_the_next_game_keeps_a_vatikanen_session_and_starts_a_new_kontrakt_game(
    shared_server: Server,
) -> None:
    server = shared_server
    for game, bot in (("vatikanen", "bot:greedy"), ("kontrakt", "bot:basic")):
        _table_id, (live,) = seated(server, game, ["human", bot])
        play_until_over([live])
        time.sleep(1)  # let the rate limit fill again
        live.drain()
        over = live.state
        assert over is not None
        live.send({"type": "next", "version": over["version"] - 1})
        assert live.next_error()["code"] == "stale"
        live.send({"type": "next", "version": over["version"]})
        state = live.until(lambda s: s["status"] == "playing")
        assert state["version"] == over["version"] + 1 and state["games_played"] == 2
        assert state["log_start"] == 0  # a new game's log starts afresh
        if game == "vatikanen":
            assert state["view"]["game_number"] == 2
            assert state["view"]["balances"] == over["view"]["balances"]  # V16
        else:
            assert state["view"]["deal"] == 0 and state["view"]["totals"] == [0, 0]
        live.close()


# ---------------------------------------------------------------- errors


def test_every_error_code_is_answered_and_changes_nothing(shared_server: Server) -> None:
    server = shared_server
    table_id, (first, second) = seated(server, "vatikanen", ["human", "human"])
    assert first.state is not None and first.state["view"]["turn"] == 0
    version = first.state["version"]

    def answer(live: Live, message: object) -> dict[str, Any]:
        live.ws.send(message if isinstance(message, str) else json.dumps(message))
        return live.next_error()  # presence states may come between

    cases: list[tuple[Live, object, str]] = [
        (first, {"type": "action", "version": version - 1, "action": {"type": "draw"}}, "stale"),
        (
            second,
            {"type": "action", "version": version, "action": {"type": "draw"}},
            "not_your_turn",
        ),
        (first, {"type": "action", "version": version, "action": {"type": "pass"}}, "illegal"),
        (first, "not json", "bad_message"),
        (first, "[1, 2]", "bad_message"),
        (first, {"type": "shout"}, "bad_message"),
        (
            first,
            {"type": "action", "version": version, "action": {"type": "discard"}},
            "bad_message",
        ),
        (first, {"type": "action", "version": version, "action": {"type": "play"}}, "illegal"),
        (
            first,
            {"type": "action", "version": version, "action": {"type": "play", "add": 7}},
            "bad_message",
        ),
        (
            first,
            {"type": "action", "version": version, "action": {"type": "draw", "seat": 1}},
            "bad_message",
        ),
        (first, {"type": "action", "version": "7", "action": {"type": "draw"}}, "bad_message"),
        (first, {"type": "action", "version": version, "pad": "x" * 70_000}, "bad_message"),
    ]
    for live, message, code in cases:
        error = answer(live, message)
        assert error["type"] == "error" and error["code"] == code, (message, error)
        assert "rule" in error and isinstance(error["message"], str)
    illegal = [e for e in first.errors if e["code"] == "illegal"]
    assert illegal[0]["rule"] == "V14"  # pass only with an empty stock
    summary = server.get(f"/api/tables/{table_id}")
    assert isinstance(summary, dict) and summary["version"] == version
    first.act({"type": "draw"})  # the connection is still open and plays on
    state = first.until(lambda s: s["version"] == version + 1)
    assert state["view"]["turn"] == 1
    first.close()
    second.close()


def test_too_many_messages_are_rate_limited_but_twenty_a_second_pass(shared_server: Server) -> None:
    server = shared_server
    _, (live,) = seated(server, "vatikanen", ["human", "bot:greedy"])
    for _ in range(20):
        live.send({"type": "shout"})
    codes = [live.next_error()["code"] for _ in range(20)]
    assert codes == ["bad_message"] * 20
    for _ in range(150):
        live.send({"type": "shout"})
    codes = [live.next_error()["code"] for _ in range(150)]
    assert "rate_limited" in codes
    time.sleep(1.2)
    live.send({"type": "shout"})
    assert live.next_error()["code"] == "bad_message"
    live.close()


# ---------------------------------------------------------------- states and reconnecting


def test_states_carry_only_new_log_entries_and_a_reconnect_gets_the_whole_state(
    shared_server: Server,
) -> None:
    server = shared_server
    made = table(server, "kontrakt", ["human", "bot:basic"])
    token = join(server, made["id"], "Anna")["token"]
    live = Live.open(server.ws, made["id"], token)
    first = live.state
    assert first is not None and first["log_start"] == 0
    for _ in range(12):
        live.until(lambda s: live.my_turn())
        seen = live.state
        assert seen is not None
        live.act(simple_move(seen["view"]))
        live.until(lambda s, v=seen["version"]: s["version"] > v)
    assert [json.loads(t)["log_start"] for t in live.received[1:] if '"state"' in t][-1] > 0
    last = live.state
    assert last is not None
    live.close()
    again = Live.open(server.ws, made["id"], token, version=last["version"])
    state = again.state
    assert state is not None and state["log_start"] == 0
    assert state["version"] >= last["version"]
    assert again.log[: len(live.log)] == live.log
    again.send({"type": "hello", "token": token, "version": state["version"]})  # a resync
    whole = again.until(lambda s: s["log_start"] == 0 and s is not state)
    assert whole["version"] >= state["version"]
    again.close()


def test_connected_and_stand_in_follow_the_player(shared_server: Server) -> None:
    server = shared_server
    made = table(server, "vatikanen", ["human", "human"], grace=1)
    token = join(server, made["id"], "Anna", 0)["token"]
    join(server, made["id"], "Bo", 1)  # Bo never connects: after the grace a bot plays for him
    live = Live.open(server.ws, made["id"], token)
    state = live.state
    assert state is not None and [s["connected"] for s in state["seats"]] == [True, False]
    live.act({"type": "draw"})
    state = live.until(lambda s: s["view"]["turn"] == 0 and s["version"] > 3, timeout=20)
    assert state["seats"][1]["stand_in"] is True
    assert state["view"]["log"][-1]["seat"] == 1  # the stand-in moved for Bo
    live.close()
    time.sleep(0.3)
    summary = server.get(f"/api/tables/{made['id']}")
    assert isinstance(summary, dict) and summary["seats"][0]["connected"] is False


def test_a_turn_clock_at_zero_lets_the_seats_bot_play_that_turn(shared_server: Server) -> None:
    server = shared_server
    _table_id, (live,) = seated(server, "kontrakt", ["human", "bot:basic"], clock=1)
    state = live.until(lambda s: live.my_turn())
    assert state["clock"]["seat"] == live.seat and state["clock"]["seconds"] == 1
    version = state["version"]
    moved = live.until(lambda s: s["version"] > version, timeout=15)  # nobody acts: the clock does
    assert moved["view"]["log"][-1]["seat"] == live.seat or moved["view"]["turn"] != live.seat
    live.close()


def test_hint_and_arrange_answer_the_seat_to_act_and_change_nothing(
    shared_server: Server,
) -> None:
    server = shared_server
    table_id, (anna, bo) = seated(server, "vatikanen", ["human", "human"])
    assert anna.state is not None
    version = anna.state["version"]
    bo.send({"type": "hint"})
    assert bo.next_error()["code"] == "not_your_turn"
    anna.send({"type": "hint"})
    while (hint := anna.read())["type"] != "hint":
        pass
    assert hint["version"] == version and hint["actions"][0] == {"seat": 0, "type": "draw"}
    plays = [a for a in hint["actions"] if a["type"] == "play"]
    hand = anna.state["view"]["hand"]
    if plays:  # the opening the solver found, arranged again from its cards alone
        anna.send({"type": "arrange", "cards": plays[0]["add"]})
        while (arranged := anna.read())["type"] != "arranged":
            pass
        action = arranged["action"]
        assert action["type"] == "play" and sorted(action["add"]) == sorted(plays[0]["add"])
    anna.send({"type": "arrange", "cards": hand[:1]})
    error = anna.next_error()
    assert error["code"] == "illegal" and error["rule"] == "V7"  # one card is no opening run
    anna.send({"type": "arrange", "cards": ["Zz"]})
    assert anna.next_error()["code"] == "bad_message"
    summary = server.get(f"/api/tables/{table_id}")
    assert isinstance(summary, dict) and summary["version"] == version
    if plays:
        anna.act({k: v for k, v in action.items() if k != "seat"})
        state = anna.until(lambda s: s["version"] == version + 1)
        assert state["view"]["opened"][0] is True
    anna.close()
    bo.close()


def test_V14_a_rule_error_is_sent_in_the_language_the_hello_asks_for(
    shared_server: Server,
) -> None:
    """``"lang"`` in a hello (added to the protocol): the engine's rule errors, and the
    verdicts of a check, come in that language; without it, in English."""
    from rummykit.errors import RuleError
    from rummykit.games.vatikanen import Pass

    engine = games.get("vatikanen").new(2, seed=1)
    with pytest.raises(RuleError) as caught:
        engine.verify(Pass(engine.to_act or 0))  # V14: pass only with an empty stock
    swedish, english = caught.value.translated("sv"), caught.value.translated("en")
    assert swedish != english

    made = table(shared_server, "vatikanen", ["human", "human"])
    tokens = [join(shared_server, made["id"], f"P{seat}", seat)["token"] for seat in (0, 1)]
    watcher = Live.open(shared_server.ws, made["id"], None)
    watcher.until(lambda s: s["status"] == "playing")
    assert watcher.state is not None
    first = watcher.state["view"]["turn"]
    watcher.close()
    english_live = Live.open(shared_server.ws, made["id"], tokens[first])
    swedish_live = Live.open(shared_server.ws, made["id"], tokens[first], lang="sv-SE")
    for live, expected in ((english_live, english), (swedish_live, swedish)):
        live.until(lambda s: s["status"] == "playing")
        assert live.state is not None and live.my_turn()
        version = live.state["version"]
        live.send({"type": "action", "version": version, "action": {"type": "pass"}})
        error = live.next_error()
        assert (error["code"], error["rule"], error["message"]) == ("illegal", "V14", expected)
        live.send({"type": "check", "action": {"type": "pass"}})
        while (checked := live.read())["type"] != "checked":
            pass
        assert checked["ok"] is False and checked["message"] == expected
        live.close()
