"""No message of the server shows a seat what it may not see, and none holds a token.

Every message sent to every seat and to a spectator during whole games of
both games is recorded. Each state's view must be exactly the engine's view
of that seat after as many actions (the engine's views are proven secret for
every game by tests/test_conformance.py, which swaps hidden cards and finds
every view unchanged), and no message but the join's answer holds any
seat's token.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from protocol_client import Live, play_until_over, simple_move
from rummykit import games
from rummykit.record import parse_record
from server_helpers import Server, start


@pytest.mark.parametrize("game", ["vatikanen", "kontrakt"])
def test_every_message_of_whole_games_shows_each_seat_only_its_view(
    shared_server: Server, game: str
) -> None:
    server = shared_server
    bot = "bot:greedy" if game == "vatikanen" else "bot:basic"
    made = server.post("/api/tables", {"game": game, "seats": ["human", bot, "human"]})
    assert isinstance(made, dict)
    table_id = made["id"]
    tokens = {}
    for seat in (0, 2):
        joined = server.post(f"/api/tables/{table_id}/join", {"name": f"P{seat}", "seat": seat})
        assert isinstance(joined, dict)
        tokens[seat] = joined["token"]
    players = [Live.open(server.ws, table_id, tokens[s]) for s in (0, 2)]
    watcher = Live.open(server.ws, table_id, None)
    for live in players:
        live.until(lambda s: s["status"] == "playing")
        live.send({"type": "hint"})  # help answers are messages too
    play_until_over([*players, watcher])
    watcher.drain()
    record = parse_record(server.get(f"/api/tables/{table_id}/record"))

    # the engine's views after every number of actions, replayed from the record's decks;
    # a view's log is checked apart (as slices of the seat's whole log), so that the check
    # stays linear in the game's length
    spec = games.get(game)
    engine = spec.new(list(record.players), decks=[d.deck for d in record.deals])
    actions = [a for d in record.deals for a in d.actions]
    viewers: tuple[int | None, ...] = (None, *range(engine.n_players))
    views: list[dict[int | None, tuple[str, int]]] = []

    def snapshot() -> None:
        seen: dict[int | None, tuple[str, int]] = {}
        for viewer in viewers:
            view = dict(engine.spectator_view() if viewer is None else engine.view(viewer))
            log = view.pop("log")
            assert isinstance(log, list)
            seen[viewer] = (json.dumps(view, sort_keys=True), len(log))
        views.append(seen)

    snapshot()
    for data in actions:
        engine.apply(spec.action_from_json(data))
        snapshot()
    whole_log = {
        viewer: [json.dumps(e, sort_keys=True) for e in engine.log_entries(viewer)]
        for viewer in viewers
    }

    joins = 2
    checked = 0
    for live in (*players, watcher):
        for text in live.received:
            for token in tokens.values():
                assert token not in text, "a message holds a seat's token"
            message = json.loads(text)
            if message["type"] != "state" or message["view"] is None:
                continue
            view = dict(message["view"])
            sent = [json.dumps(e, sort_keys=True) for e in view.pop("log")]
            start = message["log_start"]
            expected, size = views[message["version"] - joins][live.seat]
            assert json.dumps(view, sort_keys=True) == expected, (
                f"seat {live.seat} was sent more (or other) than its view at version"
                f" {message['version']}"
            )
            assert start + len(sent) == size, f"a log slice of the wrong length to {live.seat}"
            assert sent == whole_log[live.seat][start:size], (
                f"seat {live.seat} was sent other log entries than its own at version"
                f" {message['version']}"
            )
            checked += 1
    assert checked > 3 * len(actions) * 0.5
    for live in (*players, watcher):
        live.close()


def test_no_log_line_holds_a_token_or_a_card(tmp_path: Path) -> None:
    server = start(f"sqlite:///{tmp_path / 's.sqlite3'}", extra=("--log-level", "debug"))
    made = server.post("/api/tables", {"game": "kontrakt", "seats": ["human", "bot:basic"]})
    assert isinstance(made, dict)
    joined = server.post(f"/api/tables/{made['id']}/join", {"name": "Anna"})
    assert isinstance(joined, dict)
    live = Live.open(server.ws, made["id"], joined["token"])
    for _ in range(20):
        live.until(lambda s: live.my_turn())
        live.act(simple_move(live.state["view"]))  # type: ignore[index]
        live.until(lambda s, v=live.state["version"]: s["version"] > v)  # type: ignore[index]
    live.close()
    server.stop()
    assert server.proc.stderr is not None
    logged = server.proc.stderr.read().decode()
    assert f"table {made['id']}" in logged  # it does log, at debug
    assert joined["token"] not in logged
    assert not re.search(r"\b(?:[2-9TJQKA][cdhs]|\*:\w+)\b", logged), "a card in a log line"


def test_a_page_from_another_origin_may_not_open_a_websocket(shared_server: Server) -> None:
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    made = shared_server.post("/api/tables", {"game": "vatikanen", "seats": ["human", "human"]})
    assert isinstance(made, dict)
    url = f"{shared_server.ws}/api/tables/{made['id']}/live"
    with pytest.raises(InvalidStatus) as info:
        connect(url, origin="http://evil.example", open_timeout=10)  # type: ignore[arg-type]
    assert info.value.response.status_code == 403
    own = f"http://127.0.0.1:{shared_server.port}"
    with connect(url, origin=own, open_timeout=10) as ws:  # type: ignore[arg-type]
        ws.send(json.dumps({"type": "hello", "token": None, "version": None}))
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
