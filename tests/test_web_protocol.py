"""What the browser UI adds to the protocol: ``check``, ``ref`` and ``POST /api/replay``.

Against a real ``rummykit serve`` on loopback, with the protocol client of
``protocol_client.py``; the engine only checks the answers.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from protocol_client import HttpError, Live
from rummykit.cards import parse_cards
from rummykit.games.vatikanen.table import read_as_written
from rummykit.melds import MeldError
from server_helpers import Server

RECORDS = Path(__file__).parent / "records"


def seated(server: Server, game: str, seats: list[str]) -> tuple[str, list[Live]]:
    made = server.post("/api/tables", {"game": game, "seats": seats})
    assert isinstance(made, dict)
    lives = []
    for seat, kind in enumerate(seats):
        if kind == "human":
            joined = server.post(
                f"/api/tables/{made['id']}/join", {"name": f"P{seat}", "seat": seat}
            )
            assert isinstance(joined, dict)
            lives.append(Live.open(server.ws, made["id"], joined["token"]))
    for live in lives:
        live.until(lambda s: s["status"] == "playing")
    return str(made["id"]), lives


def answer(live: Live, kind: str) -> dict[str, Any]:
    while (message := live.read())["type"] not in (kind, "error"):
        pass
    return message


def test_check_gives_the_engines_verdict_per_meld_and_changes_nothing(
    shared_server: Server,
) -> None:
    server = shared_server
    table_id, (anna, bo) = seated(server, "vatikanen", ["human", "human"])
    assert anna.state is not None
    version = anna.state["version"]
    hand = anna.state["view"]["hand"]
    bo.send({"type": "check", "action": {"type": "draw"}})
    assert bo.next_error()["code"] == "not_your_turn"
    anna.send({"type": "check", "ref": 7, "action": {"type": "draw"}})
    checked = answer(anna, "checked")
    assert checked == {
        "type": "checked",
        "version": version,
        "ok": True,
        "rule": None,
        "message": None,
        "ref": 7,
    }
    # three cards of the hand as a new meld: the opening rule (V7) decides, per meld too
    play = {"type": "play", "add": hand[:3], "table": [hand[:3]]}
    anna.send({"type": "check", "ref": "a", "action": play})
    checked = answer(anna, "checked")
    assert checked["ref"] == "a" and len(checked["melds"]) == 1
    meld = checked["melds"][0]
    assert set(meld) in ({"ok", "kind"}, {"ok", "rule", "message"})
    try:  # the engine's own reading of the meld as written
        read_as_written(parse_cards(hand[:3]))
        assert meld["ok"] is True
    except MeldError:
        assert meld["ok"] is False
    if not checked["ok"]:
        assert checked["rule"] == "V7" and checked["message"]
    # a meld of two cards is no meld: the verdict says why, by rule
    anna.send({"type": "check", "action": {"type": "play", "add": hand[:2], "table": [hand[:2]]}})
    checked = answer(anna, "checked")
    assert checked["ok"] is False and checked["rule"] == "V7"
    assert checked["melds"][0]["ok"] is False and "too short" in checked["melds"][0]["message"]
    # no such action: a bad message, with the ref
    anna.send({"type": "check", "ref": 9, "action": {"type": "discard", "card": "7h"}})
    error = anna.next_error()
    assert error["code"] == "bad_message" and error["ref"] == 9
    anna.send({"type": "check", "ref": True, "action": {"type": "draw"}})
    assert anna.next_error()["code"] == "bad_message"
    summary = server.get(f"/api/tables/{table_id}")
    assert isinstance(summary, dict) and summary["version"] == version
    anna.close()
    bo.close()


def test_check_reads_kontrakt_melds_in_any_order(shared_server: Server) -> None:
    server = shared_server
    table_id, (anna,) = seated(server, "kontrakt", ["human", "bot:basic"])
    state = anna.until(lambda s: anna.my_turn())
    view = state["view"]
    melds = [["7h", "7d", "7s"], ["9c", "8c", "Tc"], ["2h", "5d", "Ks"]]
    anna.send({"type": "check", "action": {"type": "meld", "melds": melds}})
    checked = answer(anna, "checked")
    assert checked["ok"] is False and checked["rule"]  # not now, or cards not held
    kinds = [m.get("kind") for m in checked["melds"]]
    assert kinds == ["group", "run", None]
    assert checked["melds"][2]["rule"] == "K5"
    assert view["phase"] in ("upcard_offer", "draw")
    anna.close()
    assert table_id


def test_an_action_error_carries_the_ref(shared_server: Server) -> None:
    _, (anna, bo) = seated(shared_server, "vatikanen", ["human", "human"])
    assert anna.state is not None
    anna.send(
        {
            "type": "action",
            "ref": "x1",
            "version": anna.state["version"],
            "action": {"type": "pass"},
        }
    )
    error = anna.next_error()
    assert error["code"] == "illegal" and error["rule"] == "V14" and error["ref"] == "x1"
    anna.close()
    bo.close()


def record(name: str) -> dict[str, Any]:
    data = json.loads((RECORDS / name).read_text())
    assert isinstance(data, dict)
    return data


def test_replay_sends_every_position_with_every_hand_of_a_finished_game(
    shared_server: Server,
) -> None:
    doc = record("vatikanen/legal_going_out.json")
    out = shared_server.post("/api/replay", {"record": doc, "count": 200})
    assert isinstance(out, dict)
    actions = sum(len(d["actions"]) for d in doc["deals"])
    assert out["positions"] == actions + len(doc["deals"]) and out["finished"] is True
    assert out["seat"] is None and out["illegal"] is None
    first, last = out["frames"][0], out["frames"][-1]
    assert first["action"] == 0 and first["log_size"] == 0 and len(first["hands"]) == 2
    assert all(len(h) == 13 for h in first["hands"])
    assert last["view"]["over"] is True and "log" not in last["view"]
    assert len(out["logs"]) == 1 and len(out["logs"][0]) == last["log_size"] == actions
    window = shared_server.post("/api/replay", {"record": doc, "start": 2, "count": 1})
    assert isinstance(window, dict) and len(window["frames"]) == 1
    assert window["frames"][0] == out["frames"][2]


def test_replay_shows_an_unfinished_or_illegal_record_from_one_seat(
    shared_server: Server,
) -> None:
    doc = record("vatikanen/illegal_opening_group.json")
    out = shared_server.post("/api/replay", {"record": doc})
    assert isinstance(out, dict)
    assert out["finished"] is False and out["seat"] == 0
    assert out["illegal"]["rule"] == "V7"
    assert "hands" not in out["frames"][0] and out["frames"][0]["view"]["hand"]
    kontrakt = record("kontrakt/legal_K7_buy_then_K9_part.json")
    out = shared_server.post("/api/replay", {"record": kontrakt, "seat": 1, "count": 5})
    assert isinstance(out, dict) and out["seat"] == 1 and len(out["frames"]) <= 5


def test_replay_refuses_what_is_no_record(shared_server: Server) -> None:
    with pytest.raises(HttpError) as info:
        shared_server.post("/api/replay", {"record": record("vatikanen/broken_unknown_card.json")})
    assert info.value.status == 400 and info.value.body["error"] == "bad_record"
    assert "not a card" in info.value.body["message"]
    with pytest.raises(HttpError) as info:
        shared_server.post("/api/replay", {"record": {"game": "chess"}})
    assert info.value.status == 400
