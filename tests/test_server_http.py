"""The server's HTTP part (PROTOCOL.md), against a real uvicorn on loopback."""

from __future__ import annotations

import json
import urllib.request

import pytest

from protocol_client import HttpError, request
from server_helpers import Server


def error_of(server: Server, method: str, path: str, body: object = None) -> HttpError:
    with pytest.raises(HttpError) as info:
        request(server.base, method, path, body)
    assert set(info.value.body) >= {"error", "message"}
    return info.value


def test_create_list_get_and_join_a_table(shared_server: Server) -> None:
    server = shared_server
    made = server.post(
        "/api/tables", {"game": "kontrakt", "seats": ["human", "bot:basic", "human"]}
    )
    assert isinstance(made, dict)
    assert made["status"] == "waiting" and made["version"] == 0 and made["game"] == "kontrakt"
    assert [s["taken"] for s in made["seats"]] == [False, True, False]
    assert made["seats"][1]["kind"] == "bot" and made["seats"][1]["level"] == "basic"
    assert made["options"] == {"reshuffle_stock": True, "rediscard_pickup": False}
    tables = server.get("/api/tables")
    assert isinstance(tables, dict) and made["id"] in [t["id"] for t in tables["tables"]]
    joined = server.post(f"/api/tables/{made['id']}/join", {"name": "Astrid"})
    assert isinstance(joined, dict) and joined["seat"] == 0 and len(joined["token"]) >= 22
    again = server.post(f"/api/tables/{made['id']}/join", {"name": "Bo", "seat": 2})
    assert isinstance(again, dict) and again["seat"] == 2
    summary = server.get(f"/api/tables/{made['id']}")
    assert isinstance(summary, dict)
    assert summary["status"] == "playing" and summary["version"] == 2
    assert [s["name"] for s in summary["seats"]][::2] == ["Astrid", "Bo"]
    assert joined["token"] not in json.dumps(summary) and again["token"] not in json.dumps(summary)


def test_bad_requests_change_nothing_and_say_why(shared_server: Server) -> None:
    server = shared_server
    cases = [
        {"game": "poker", "seats": ["human", "human"]},
        {"game": "vatikanen", "seats": ["human"]},
        {"game": "vatikanen", "seats": ["human"] * 6},
        {"game": "vatikanen", "seats": ["human", "bot:genius"]},
        {"game": "vatikanen", "seats": ["bot:greedy", "bot:greedy"]},
        {"game": "vatikanen", "seats": ["human", "human"], "options": {"jokers": True}},
        {"game": "vatikanen", "seats": ["human", "human"], "options": {"free_jokers": 3}},
        {"game": "vatikanen", "seats": ["human", "human"], "clock": -1},
        {"seats": ["human", "human"]},
        ["not", "an", "object"],
    ]
    before = server.get("/api/tables")
    for body in cases:
        error = error_of(server, "POST", "/api/tables", body)
        assert error.status in (400, 422), body
        assert error.body["error"] == "bad_request", body
    assert server.get("/api/tables") == before


def test_a_body_over_64_kib_is_refused(shared_server: Server) -> None:
    server = shared_server
    body = {"game": "vatikanen", "seats": ["human", "human"], "pad": "x" * 70_000}
    error = error_of(server, "POST", "/api/tables", body)
    assert error.status == 400 and "64 KiB" in error.body["message"]


def test_names_at_a_table_are_unique_bots_give_theirs_up(shared_server: Server) -> None:
    server = shared_server
    made = server.post(
        "/api/tables", {"game": "vatikanen", "seats": ["human", "bot:greedy", "human"]}
    )
    assert isinstance(made, dict) and made["seats"][1]["name"] == "Bo"
    path = f"/api/tables/{made['id']}"
    server.post(path + "/join", {"name": "Bo", "seat": 0})  # the bot takes another name
    summary = server.get(path)
    assert isinstance(summary, dict)
    names = [s["name"] for s in summary["seats"]]
    assert names[0] == "Bo" and names[1] not in (None, "Bo") and names[2] is None
    for taken in ("Bo", " bO "):
        error = error_of(server, "POST", path + "/join", {"name": taken, "seat": 2})
        assert error.status == 409 and error.body["error"] == "name_taken", taken
    server.post(path + "/join", {"name": names[1], "seat": 2})  # the bot's new name: it moves on
    summary = server.get(path)
    assert isinstance(summary, dict) and summary["status"] == "playing"
    names = [s["name"] for s in summary["seats"]]
    assert len({n.casefold() for n in names}) == 3, names


def test_unknown_table_is_404_and_a_taken_seat_409(shared_server: Server) -> None:
    server = shared_server
    assert error_of(server, "GET", "/api/tables/nope").status == 404
    assert error_of(server, "POST", "/api/tables/nope/join", {"name": "A"}).status == 404
    made = server.post("/api/tables", {"game": "vatikanen", "seats": ["human", "bot:greedy"]})
    assert isinstance(made, dict)
    assert (
        error_of(server, "POST", f"/api/tables/{made['id']}/join", {"name": "A", "seat": 1}).status
        == 409
    )
    server.post(f"/api/tables/{made['id']}/join", {"name": "A"})
    error = error_of(server, "POST", f"/api/tables/{made['id']}/join", {"name": "B"})
    assert error.status == 409 and error.body["error"] == "no_free_seat"
    for name in ("", "x" * 41, "\u0000bad"):
        assert error_of(
            server, "POST", f"/api/tables/{made['id']}/join", {"name": name}
        ).status in (400, 422)


def test_the_record_is_given_only_once_the_game_is_over(shared_server: Server) -> None:
    server = shared_server
    made = server.post("/api/tables", {"game": "vatikanen", "seats": ["human", "bot:greedy"]})
    assert isinstance(made, dict)
    error = error_of(server, "GET", f"/api/tables/{made['id']}/record")
    assert error.status == 409 and error.body["error"] == "not_over"


def test_the_games_and_the_openapi_document(shared_server: Server) -> None:
    server = shared_server
    listed = server.get("/api/games")
    assert isinstance(listed, dict)
    assert [g["name"] for g in listed["games"]] == ["vatikanen", "kontrakt"]
    rules = {r["name"]: r for g in listed["games"] for r in g["house_rules"]}
    assert rules["free_jokers"]["rule"] == "V11" and rules["free_jokers"]["summary"]
    with urllib.request.urlopen(server.base + "/openapi.json") as answer:
        doc = json.loads(answer.read())
    assert {"/api/tables", "/api/tables/{table_id}", "/api/tables/{table_id}/join"} <= set(
        doc["paths"]
    )
