"""The game server under load: N tables, four WebSocket connections each, a move every 2 s.

A real ``rummykit serve`` runs in its own process (SQLite, or PostgreSQL with
``--db``); this script is the load: it makes N tables (half Vatikanen, half
Kontraktsrummy), each with two human seats played by simulated clients over
real WebSockets on loopback, two bot seats played by the server, and two
spectators, so four connections a table. Every move comes about 2 s after the
table's last one: the clients wait for it, and the server's bots have
``--bot-delay 2``. It prints, over the measured window:

- actions per second (all tables, bots and clients);
- the clients' action latency: from sending an action to receiving the state
  that holds it (p50, p99, max);
- the server's memory per table (its resident memory after the tables were
  made and joined, less before, divided by N).

The baseline in the same run is one table alone (the latency without load).
The figures go to the Server section of ``docs/benchmarks.md`` unless
``--no-write``::

    python benchmarks/server.py --tables 1000 [--seconds 40] [--db postgresql://...]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "benchmarks.md"
START, END = "<!-- server:begin -->", "<!-- server:end -->"
sys.path.insert(0, str(ROOT / "tests"))
from protocol_client import simple_move  # noqa: E402  (the protocol client's moves)

PACE = 2.0
"""Seconds between two moves at a table."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def post(base: str, path: str, body: object) -> Any:
    req = urllib.request.Request(
        base + path, json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=60) as answer:
        return json.loads(answer.read())


def rss_kib(pid: int) -> int:
    """A process's resident memory."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


@dataclass
class Load:
    """What the clients measured."""

    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    measuring: bool = False


async def player(url: str, token: str, load: Load, pace: float, stop: asyncio.Event) -> None:
    """One human seat: acts on its turn, ``pace`` seconds after the table's last move."""
    async with websockets.connect(url, max_size=None, open_timeout=120) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "version": None}))
        log: list[Any] = []
        sent: tuple[int, float] | None = None
        acted = -1
        last_move = time.monotonic()
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=1.0)
            except TimeoutError:
                continue
            message = json.loads(text)
            if message["type"] == "error":
                load.errors[message["code"]] = load.errors.get(message["code"], 0) + 1
                sent = None
                continue
            if message["type"] != "state" or message["view"] is None:
                continue
            view = message["view"]
            log = [] if message["log_start"] == 0 else log
            log += view["log"]
            view["log"] = log
            now = time.monotonic()
            if sent is not None and message["version"] > sent[0]:
                if load.measuring:
                    load.latencies.append(now - sent[1])
                sent = None
            last_move = now
            if message["status"] == "over":
                await ws.send(json.dumps({"type": "next", "version": message["version"]}))
                continue
            if message["status"] != "playing" or view["turn"] != message["seat"]:
                continue
            if message["version"] <= acted:  # the same state again (someone came or went)
                continue
            wait = pace - (time.monotonic() - last_move)
            if wait > 0:
                await asyncio.sleep(wait)
            sent = (message["version"], time.monotonic())
            acted = message["version"]
            action = simple_move(view)
            await ws.send(
                json.dumps({"type": "action", "version": message["version"], "action": action})
            )
            if load.measuring:
                load.actions += 1


async def watcher(url: str, stop: asyncio.Event) -> None:
    """A spectator: takes every state."""
    async with websockets.connect(url, max_size=None, open_timeout=120) as ws:
        await ws.send(json.dumps({"type": "hello", "token": None, "version": None}))
        while not stop.is_set():
            try:
                await asyncio.wait_for(ws.recv(), timeout=1.0)
            except TimeoutError:
                continue


async def run_load(base: str, ws_base: str, tables: int, seconds: float, warm: float) -> Load:
    """Make ``tables`` tables, connect four clients to each, play for ``warm`` + ``seconds``."""
    load = Load()
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    loop = asyncio.get_running_loop()
    for i in range(tables):
        game = ("vatikanen", "kontrakt")[i % 2]
        bot = "bot:greedy" if game == "vatikanen" else "bot:basic"
        made = await loop.run_in_executor(
            None, post, base, "/api/tables", {"game": game, "seats": ["human", bot, "human", bot]}
        )
        url = f"{ws_base}/api/tables/{made['id']}/live"
        for seat in (0, 2):
            joined = await loop.run_in_executor(
                None, post, base, f"/api/tables/{made['id']}/join", {"name": f"P{seat}"}
            )
            tasks.append(asyncio.create_task(player(url, joined["token"], load, PACE, stop)))
        tasks += [asyncio.create_task(watcher(url, stop)) for _ in range(2)]
        if i % 50 == 49:
            await asyncio.sleep(0.5)  # let the connections open
    await asyncio.sleep(warm)
    load.measuring = True
    await asyncio.sleep(seconds)
    load.measuring = False
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return load


def total_actions(base: str) -> int:
    with urllib.request.urlopen(base + "/api/tables?status=all", timeout=60) as answer:
        return sum(t["version"] for t in json.loads(answer.read())["tables"])


def measure(tables: int, seconds: float, db: str | None, bot_delay: float) -> dict[str, Any]:
    """Start a server, put the load on it, stop it; the figures."""
    port = free_port()
    folder = tempfile.mkdtemp(prefix="rummykit-bench-")
    url = db or f"sqlite:///{folder}/server.sqlite3"
    cmd = [
        str(Path(sys.executable).with_name("rummykit")),
        "serve",
        "--port",
        str(port),
        "--db",
        url,
        "--bot-delay",
        str(bot_delay),
        "--workers",
        "1",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                urllib.request.urlopen(base + "/api/tables", timeout=5)
                break
            except OSError:
                time.sleep(0.1)
        before = rss_kib(proc.pid)
        start_actions = total_actions(base)
        started = time.monotonic()
        warm = min(20.0, 5.0 + tables / 100)
        load = asyncio.run(run_load(base, ws_base, tables, seconds, warm))
        wall = time.monotonic() - started
        after = rss_kib(proc.pid)
        moved = total_actions(base) - start_actions
    finally:
        proc.send_signal(2)
        proc.wait(timeout=60)
    lat = sorted(load.latencies) or [float("nan")]
    return {
        "tables": tables,
        "db": "postgresql" if db and db.startswith("postgres") else "sqlite",
        "actions_per_second": moved / wall,
        "client_actions_per_second": load.actions / seconds,
        "p50_ms": 1000 * statistics.median(lat),
        "p99_ms": 1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))],
        "max_ms": 1000 * lat[-1],
        "samples": len(load.latencies),
        "kib_per_table": (after - before) / max(1, tables),
        "errors": load.errors,
    }


def table(rows: list[dict[str, Any]]) -> str:
    out = [
        "| db | tables | connections | actions/s (all) | client actions/s | latency p50 | p99 |"
        " max | memory per table | errors |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        errors = ", ".join(f"{k} {v}" for k, v in sorted(r["errors"].items())) or "none"
        out.append(
            f"| {r['db']} | {r['tables']} | {4 * r['tables']} | {r['actions_per_second']:.0f} |"
            f" {r['client_actions_per_second']:.0f} | {r['p50_ms']:.1f} ms | {r['p99_ms']:.1f} ms |"
            f" {r['max_ms']:.0f} ms | {r['kib_per_table']:.0f} KiB | {errors} |"
        )
    return "\n".join(out)


def write_doc(text: str, args: argparse.Namespace) -> None:
    doc = DOC.read_text(encoding="utf-8")
    body = (
        f"{START}\n## Server\n\n"
        f"`python benchmarks/server.py --tables {args.tables} --seconds {args.seconds:g}` on"
        f" {platform.machine()} / Python {platform.python_version()}, {time.strftime('%Y-%m-%d')},"
        f" {os.cpu_count()} cores shared by the server, its bot worker and the clients. Half the"
        " tables Vatikanen (greedy bots), half Kontraktsrummy (basic bots); each has two human"
        " seats played by simulated clients over WebSockets on loopback, two bot seats and two"
        " spectators (four connections), and a move about every 2 s. *Latency*: a client's"
        " action sent to the state holding it received. Each database's first row is its baseline,"
        " measured in the same run: one table alone. Each row starts on an empty database (a new"
        " SQLite file, a new PostgreSQL schema). *stale*: at a game's end both players ask for"
        " the next game with the same version, and the second is told the first was first.\n\n"
        f"{text}\n{END}"
    )
    if START in doc:
        doc = re.sub(re.escape(START) + r".*?" + re.escape(END), lambda _: body, doc, flags=re.S)
    else:
        doc = doc.rstrip("\n") + "\n\n" + body + "\n"
    DOC.write_text(doc, encoding="utf-8")


@contextmanager
def fresh_schema(url: str | None) -> Iterator[str | None]:
    """A PostgreSQL URL on a new, empty schema (dropped afterwards), so that tables of
    earlier runs, which a starting server rebuilds and whose bots play on, weigh nothing;
    any other URL as it is."""
    if url is None or not url.startswith("postgres"):
        yield url
        return
    import psycopg

    schema = f"bench_{secrets.token_hex(6)}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in url else "?"
    try:
        yield f"{url}{sep}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def measured(tables: int, seconds: float, db: str | None) -> dict[str, Any]:
    """One row, measured on a fresh database (a new SQLite file or PostgreSQL schema), and
    printed at once."""
    with fresh_schema(db) as url:
        row = measure(tables, seconds, url, PACE)
    print(table([row]).splitlines()[-1], flush=True)
    return row


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=1000)
    p.add_argument("--seconds", type=float, default=40)
    p.add_argument("--db", help="postgresql://... (default: a new SQLite file)")
    p.add_argument("--postgres", help="also measure on this PostgreSQL database")
    p.add_argument("--no-write", action="store_true")
    args = p.parse_args(argv)
    rows = [measured(1, min(args.seconds, 20), args.db)]
    rows.append(measured(args.tables, args.seconds, args.db))
    if args.postgres:
        rows.append(measured(1, min(args.seconds, 20), args.postgres))
        rows.append(measured(args.tables, args.seconds, args.postgres))
    text = table(rows)
    print(text)
    if not args.no_write:
        write_doc(text, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
