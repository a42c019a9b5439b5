"""The review on the server: ``POST /api/review`` and ``GET /api/tables/{id}/review``
(PROTOCOL.md, "Review of a finished game"), against a real ``rummykit serve``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from protocol_client import HttpError, Live, play_until_over
from review_helpers import BO, RUN5, played
from rummykit.record import parse_record
from rummykit.review import review
from rummykit.server.review import MAX_ACTIONS, review_request
from server_helpers import Server

RECORDS = Path(__file__).parent / "records"


def record(name: str) -> dict[str, Any]:
    data = json.loads((RECORDS / name).read_text())
    assert isinstance(data, dict)
    return data


def test_post_review_answers_the_document_of_rummykit_review_json(
    shared_server: Server,
) -> None:
    doc = played([RUN5, BO], [{"seat": 0, "type": "draw"}, {"seat": 1, "type": "draw"}]).to_json()
    out = shared_server.post("/api/review", {"record": doc})
    assert out == review(parse_record(doc)).to_json()
    assert isinstance(out, dict) and out["turns"][0]["best"] == 5
    mine = shared_server.post("/api/review", {"record": doc, "seat": 1})
    assert isinstance(mine, dict) and [t["seat"] for t in mine["turns"]] == [1]


def test_post_review_refuses_what_cannot_be_reviewed(shared_server: Server) -> None:
    with pytest.raises(HttpError) as info:
        shared_server.post("/api/review", {"record": record("vatikanen/broken_unknown_card.json")})
    assert info.value.status == 400 and info.value.body["error"] == "bad_record"
    with pytest.raises(HttpError) as info:
        shared_server.post("/api/review", {"record": record("vatikanen/illegal_joker_moved.json")})
    assert info.value.status == 400 and "breaks V11" in info.value.body["message"]
    with pytest.raises(HttpError) as info:
        shared_server.post("/api/review", {"record": {"game": "chess"}})
    assert info.value.status == 400


def test_get_review_of_a_table_is_given_once_the_game_is_over(shared_server: Server) -> None:
    server = shared_server
    waiting = server.post("/api/tables", {"game": "kontrakt", "seats": ["human", "bot:basic"]})
    assert isinstance(waiting, dict)
    with pytest.raises(HttpError) as info:
        server.get(f"/api/tables/{waiting['id']}/review")
    assert info.value.status == 409 and info.value.body["error"] == "not_over"
    with pytest.raises(HttpError) as info:
        server.get("/api/tables/nosuchtable/review")
    assert info.value.status == 404
    # the player joins and plays the simplest moves against a bot to the game's end
    table = {"game": "vatikanen", "seats": ["human", "bot:greedy"]}
    bots = server.post("/api/tables", table)
    assert isinstance(bots, dict)
    joined = server.post(f"/api/tables/{bots['id']}/join", {"name": "Astrid"})
    assert isinstance(joined, dict)
    astrid = Live.open(server.ws, bots["id"], joined["token"])
    play_until_over([astrid], timeout=60)
    astrid.close()
    summary = server.get(f"/api/tables/{bots['id']}")
    assert isinstance(summary, dict)
    out = server.get(f"/api/tables/{bots['id']}/review")
    doc = server.get(f"/api/tables/{bots['id']}/record")
    assert out == review(parse_record(doc)).to_json()
    assert isinstance(out, dict) and out["game"] == "vatikanen" and out["turns"]
    one = server.get(f"/api/tables/{bots['id']}/review?seat=1")
    assert isinstance(one, dict) and {t["seat"] for t in one["turns"]} == {1}
    assert summary["status"] == "over"


def test_review_request_is_bounded_like_replay() -> None:
    doc = played([RUN5, BO], []).to_json()
    doc["deals"][0]["actions"] = [{"seat": s % 2, "type": "draw"} for s in range(MAX_ACTIONS + 1)]
    answer = review_request(doc)
    assert "error" in answer and str(MAX_ACTIONS) in str(answer["error"])
    assert review_request({"game": "vatikanen"})["error"]
    assert "no seat 5" in str(review_request(played([RUN5, BO], []).to_json(), 5)["error"])
