"""PROTOCOL.md's "Chat" against a real server on loopback: seats and spectators, the limits,
the last 50 after each hello (also after a restart), text kept as text, and the chat gone
with its table.

The clients are :mod:`protocol_client` clients, written from the protocol alone.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from protocol_client import Live
from rummykit.server.store import ChatRow, SqliteStore, TableMeta, TableRow
from server_helpers import Server, start
from test_server_live import join, seated, table


def next_of(live: Live, kind: str, timeout: float = 10) -> dict[str, Any]:
    """Read until a message of type ``kind`` comes; that message."""
    end = time.monotonic() + timeout
    while (message := live.read(timeout=max(0.1, end - time.monotonic())))["type"] != kind:
        pass
    return message


def watch(server: Server, table_id: str) -> Live:
    """A spectator, past its hello's state and chat history."""
    live = Live.open(server.ws, table_id, None)
    next_of(live, "chat_history")
    return live


def test_chat_reaches_both_seats_and_a_spectator_saying_who_wrote(shared_server: Server) -> None:
    table_id, (anna, bo) = seated(shared_server, "vatikanen", ["human", "human"])
    for live in (anna, bo):
        live.drain(0.2)  # past the states and chat histories of their hellos
    watcher = watch(shared_server, table_id)
    version = anna.state["version"]  # type: ignore[index]
    anna.send({"type": "chat", "text": "Bra spelat!", "ref": "c1"})
    mine, theirs, watched = (next_of(live, "chat") for live in (anna, bo, watcher))
    assert mine["ref"] == "c1"  # the sender's copy says its message went through
    assert "ref" not in theirs and "ref" not in watched
    for message in (mine, theirs, watched):
        assert (message["seat"], message["name"], message["text"]) == (0, "P0", "Bra spelat!")
        assert abs(message["at"] - time.time()) < 30
    watcher.send({"type": "chat", "text": "Heja!"})
    for live in (anna, bo, watcher):
        said = next_of(live, "chat")
        assert (said["seat"], said["name"], said["text"]) == (None, None, "Heja!")
    # chat is not a change of the table: no state came, and its version is the same
    bo.send({"type": "hello", "token": None, "version": version})
    assert next_of(bo, "state")["version"] == version
    for live in (anna, bo, watcher):
        live.close()


def test_chat_text_is_trimmed_and_bounded_and_holds_no_control_characters(
    shared_server: Server,
) -> None:
    made = table(shared_server, "kontrakt", ["human", "human"])
    watcher = watch(shared_server, made["id"])
    accepted = {
        "  hej  ": "hej",
        "x" * 300: "x" * 300,
        "👨\u200d👩\u200d👧 spelar": "👨\u200d👩\u200d👧 spelar",  # emoji joined by U+200D
        "Kl.\u00a010": "Kl.\u00a010",  # a no-break space is text
    }
    for sent, kept in accepted.items():
        watcher.send({"type": "chat", "text": sent})
        assert next_of(watcher, "chat")["text"] == kept
    refused: list[object] = [
        "",
        "   ",
        "x" * 301,
        "två\nrader",
        "a\u0007b",
        "a\u2028b",
        "\x1b[31mröd",
        5,
        None,
        ["hej"],
    ]
    for k, text in enumerate(refused):
        watcher.send({"type": "chat", "text": text, "ref": k})
        error = next_of(watcher, "error")
        assert (error["code"], error["ref"]) == ("bad_message", k), text
    # a lone surrogate is no text at all (it cannot be sent on as UTF-8)
    watcher.ws.send('{"type": "chat", "text": "a\\ud800b", "ref": "s"}')
    assert next_of(watcher, "error")["code"] == "bad_message"
    watcher.drain(0.2)
    assert not any('"chat"' in text and "rader" in text for text in watcher.received)
    watcher.close()


def test_chat_beyond_five_at_once_or_one_a_second_is_rate_limited(shared_server: Server) -> None:
    made = table(shared_server, "vatikanen", ["human", "human"])
    fast, other = watch(shared_server, made["id"]), watch(shared_server, made["id"])
    for k in range(5):
        fast.send({"type": "chat", "text": f"m{k}"})
    fast.send({"type": "chat", "text": "one too many", "ref": "late"})
    said = [next_of(fast, "chat")["text"] for _ in range(5)]
    error = next_of(fast, "error")
    assert said == [f"m{k}" for k in range(5)]
    assert (error["code"], error["ref"]) == ("rate_limited", "late")
    other.drain(0.2)  # what the other connection heard of the fast one's
    other.send({"type": "chat", "text": "another connection is counted apart"})
    assert next_of(other, "chat")["text"] == "another connection is counted apart"
    time.sleep(1.1)  # one more a second
    fast.drain(0.1)
    fast.send({"type": "chat", "text": "again"})
    assert next_of(fast, "chat")["text"] == "again"
    fast.send({"type": "chat", "text": "too soon", "ref": "soon"})
    assert next_of(fast, "error")["code"] == "rate_limited"
    for live in (fast, other):
        live.close()


def test_the_last_50_messages_come_after_each_hello_also_after_a_restart(tmp_path: Path) -> None:
    server = start(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    try:
        made = table(server, "vatikanen", ["human", "human"])
        token = join(server, made["id"], "Anna", 0)["token"]
        # 55 messages, in order: eleven spectators, five each (within their burst)
        for k in range(11):
            sender = watch(server, made["id"])
            for j in range(5):
                sender.send({"type": "chat", "text": f"m{5 * k + j}"})
                assert next_of(sender, "chat")["text"] == f"m{5 * k + j}"
            sender.close()
        anna = Live.open(server.ws, made["id"], token)
        assert anna.state is not None and anna.state["type"] == "state"  # the state first
        history = next_of(anna, "chat_history")["messages"]
        assert [m["text"] for m in history] == [f"m{n}" for n in range(5, 55)]
        assert all(m["type"] == "chat" and m["seat"] is None for m in history)
        anna.send({"type": "chat", "text": "Lycka till!"})
        next_of(anna, "chat")
        # a hello on the open connection (a resync) brings it again, with the newest last
        anna.send({"type": "hello", "token": token, "version": anna.state["version"]})
        next_of(anna, "state")
        again = next_of(anna, "chat_history")["messages"]
        assert [m["text"] for m in again][-2:] == ["m54", "Lycka till!"] and len(again) == 50
        assert (again[-1]["seat"], again[-1]["name"]) == (0, "Anna")
        anna.close()
        server.stop()
        server = start(server.db, port=server.port)
        back = Live.open(server.ws, made["id"], token)
        assert next_of(back, "chat_history")["messages"] == again
        back.close()
    finally:
        server.stop()


def test_markup_in_chat_is_sent_on_as_the_text_it_is(shared_server: Server) -> None:
    _, (anna, bo) = seated(shared_server, "kontrakt", ["human", "human", "bot:basic"])
    text = '<img src=x onerror="alert(1)"> &amp; <b>hej</b>'
    anna.send({"type": "chat", "text": text})
    assert next_of(bo, "chat")["text"] == text
    for live in (anna, bo):
        live.close()


def test_chat_is_kept_apart_from_the_game_and_removed_with_its_table(tmp_path: Path) -> None:
    async def run() -> None:
        store = SqliteStore(tmp_path / "s.sqlite3")
        await store.open()
        meta = TableMeta("waiting", 1, "{}")
        await store.create_table(TableRow("t1", "vatikanen", "{}", 1.0, meta), None)
        await store.append("t1", 1, "join", '{"seat": 0}', meta)
        for n in range(1, 206):
            await store.add_chat("t1", n, ChatRow(0, "Anna", f"m{n}", float(n)), 200)
        kept = await store.chat("t1", 1000)
        assert [n for n, _ in kept] == list(range(6, 206))  # the table's last 200
        assert [e.kind for e in await store.events("t1")] == ["join"]  # not in the game
        assert await store.remove_abandoned(time.time() + 1) == 1
        assert await store.chat("t1", 1000) == []
        await store.close()

    asyncio.run(run())
