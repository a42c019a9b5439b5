"""Fuzzed input: schemathesis on the OpenAPI document, random and malformed WebSocket frames.

Nothing a client sends may break the server, change a table it should not,
or close a connection but a failed hello.
"""

from __future__ import annotations

import json
import random
import string

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import positive_data_acceptance

from protocol_client import Live
from server_helpers import Server


def test_the_http_api_answers_any_request_as_its_document_says(shared_server: Server) -> None:
    api = schemathesis.openapi.from_url(f"{shared_server.base}/openapi.json")
    operations = [result.ok() for result in api.get_all_operations()]
    assert len(operations) >= 6

    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
        def fuzz(case: schemathesis.Case) -> None:
            response = case.call()
            assert response.status_code < 500, response.text
            # the document cannot say everything a request must be (a bot level of that
            # game, at least one human seat): a valid-looking request may still get a 400
            case.validate_response(response, excluded_checks=[positive_data_acceptance])
            if response.status_code >= 400:
                assert set(response.json()) >= {"error", "message"}

        fuzz()
    assert shared_server.get("/api/tables") is not None  # still up


def random_frame(rng: random.Random, version: int) -> str | bytes:
    """A frame a broken or hostile client might send."""
    kind = rng.randrange(8)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
    if kind == 1:
        return "".join(rng.choice(string.printable) for _ in range(rng.randrange(1, 80)))
    if kind == 2:
        return json.dumps(rng.choice([None, 1, "x", [], [1, {"a": 2}], True]))
    if kind == 3:
        return json.dumps({"type": rng.choice(["action", "next", "hint", "arrange", "hello", "?"])})
    junk = rng.choice([None, -1, 10**12, "7h", ["*", "Zz"], {"type": "draw"}, [[["x"]]]])
    action = rng.choice(
        [
            {"type": "draw"},
            {"type": "play", "add": junk},
            {"type": "play", "add": ["7h"], "table": junk},
            {"type": "discard", "card": junk},
            {"type": "meld", "melds": junk},
            {"type": "layoff", "card": "7h", "meld": junk},
            {"type": rng.choice(["take_upcard", "x", ""]), "seat": junk},
            junk,
        ]
    )
    return json.dumps(
        {
            "type": rng.choice(["action", "arrange", "next"]),
            "version": rng.choice([version, junk]),
            "action": action,
            "cards": junk,
        }
    )


@pytest.mark.parametrize("game", ["vatikanen", "kontrakt"])
def test_random_websocket_frames_change_nothing_and_close_nothing(
    shared_server: Server, game: str
) -> None:
    server = shared_server
    made = server.post("/api/tables", {"game": game, "seats": ["human", "human"]})
    assert isinstance(made, dict)
    tokens = []
    for seat in (0, 1):
        joined = server.post(f"/api/tables/{made['id']}/join", {"name": f"P{seat}"})
        assert isinstance(joined, dict)
        tokens.append(joined["token"])
    lives = [Live.open(server.ws, made["id"], t) for t in tokens]
    for live in lives:
        live.until(lambda s: s["status"] == "playing")
    version = lives[0].state["version"]  # type: ignore[index]
    rng = random.Random(f"fuzz-{game}")
    for i in range(300):
        live = lives[i % 2]
        frame = random_frame(rng, version)
        if isinstance(frame, bytes):
            live.ws.send(frame)
        else:
            live.ws.send(frame)
        if i % 25 == 24:
            live.drain(quiet=0.2)
    for live in lives:
        live.drain(quiet=0.5)
    summary = server.get(f"/api/tables/{made['id']}")
    assert isinstance(summary, dict)
    accepted = summary["version"] - version  # a frame may hold a legal draw: that is fine
    assert accepted <= 300
    codes = {e["code"] for live in lives for e in live.errors}
    assert codes <= {"bad_message", "stale", "not_your_turn", "illegal", "rate_limited", "not_over"}
    # every connection is still open and the server still plays
    for live in lives:
        live.send({"type": "hello", "token": None, "version": None})
        live.until(lambda s: s["version"] == summary["version"], timeout=10)
        live.close()
    assert server.get("/api/tables") is not None
