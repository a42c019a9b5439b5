"""Look-alike names at a hosted table (issue 40, item 9), against a real server: names
are compared by their TR39 skeleton, so a Cyrillic letter, a combining accent or a
fullwidth form does not give a second player the same name to the eye."""

from __future__ import annotations

import pytest

from protocol_client import HttpError, request
from server_helpers import Server

LOOK_ALIKES = (
    "Anna",
    "\u0410nna",  # Cyrillic capital A
    "Ann\u0430",  # Cyrillic small a
    "Anna\u0301",  # a combining acute accent
    "ANNA",
    "\uff21\uff4e\uff4e\uff41",  # fullwidth
    "Anna\u0308",  # a combining diaeresis
    "Anna\ufe0f",  # a variation selector
    "Anna\u3164",  # a Hangul filler, printable and invisible
)


def _error(server: Server, path: str, body: object) -> HttpError:
    with pytest.raises(HttpError) as info:
        request(server.base, "POST", path, body)
    return info.value


def test_look_alike_names_cannot_sit_at_one_table(shared_server: Server) -> None:
    server = shared_server
    made = server.post("/api/tables", {"game": "vatikanen", "seats": ["human"] * 3})
    assert isinstance(made, dict)
    path = f"/api/tables/{made['id']}/join"
    server.post(path, {"name": "Anna", "seat": 0})
    for name in LOOK_ALIKES:
        error = _error(server, path, {"name": name, "seat": 1})
        assert error.status == 409 and error.body["error"] == "name_taken", ascii(name)
    for name in ("An\u200bna", "\u202eAnna", "Anna\u2066"):  # zero-width, bidi: refused
        error = _error(server, path, {"name": name, "seat": 1})
        assert error.status in (400, 422), ascii(name)
    server.post(path, {"name": "Anja", "seat": 1})  # a different name is fine


def test_a_bot_gives_up_a_name_that_looks_like_a_players(shared_server: Server) -> None:
    server = shared_server
    made = server.post(
        "/api/tables", {"game": "vatikanen", "seats": ["human", "bot:greedy", "human"]}
    )
    assert isinstance(made, dict) and made["seats"][1]["name"] == "Bo"
    path = f"/api/tables/{made['id']}"
    server.post(path + "/join", {"name": "\u0412o", "seat": 0})  # a Cyrillic B
    summary = server.get(path)
    assert isinstance(summary, dict)
    bot = summary["seats"][1]["name"]
    assert bot not in ("Bo", None), bot
    error = _error(server, path + "/join", {"name": "B\u043e", "seat": 2})  # a Cyrillic o
    assert error.status == 409 and error.body["error"] == "name_taken"
