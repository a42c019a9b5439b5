"""The game server under load, measured by its CPU: N tables, four connections each, a move
every 2 s; one process or several behind a router; and a start on 100,000 stored tables.

The server runs as real ``rummykit serve`` processes pinned to one core (``taskset -c 0``,
their worker processes with them); this script is the load, pinned to the other core, and
written from the protocol alone (``tests/protocol_client.py``'s moves). Each table has two
human seats played by simulated clients over real WebSockets on loopback, two bot seats
played by the server, and two spectators: four connections. Every change at a table comes
about 2 s after its last one (the clients wait for it; the bots have ``--bot-delay 2``).

Over the measured window it prints:

- changes per second (every table's version, bots and clients);
- the server's CPU per change: the user and system time of every server process and its
  workers, from ``/proc``, divided by the changes: steady where wall times are not;
- the clients' latency: from sending an action to the state acknowledging it (its
  ``ref``), p50 and p99;
- with ``--processes 2`` or ``4`` (PostgreSQL), the processes sit behind HAProxy (Debian's
  ``haproxy``) routing by table id as docs/hosting.md gives it.

``--experts N`` adds N Vatikanen tables of three ``expert`` bots and one client playing (a
table needs a human seat) beside the load, and measures the load again with them: does a
table of experts slow the other tables (issue 44)? Its row says how many moves were made at
the expert tables in the window; its CPU per change counts the experts' CPU too.

``--puzzle-flood N`` measures instead a player's hint at a table of two (its round trip,
p50 and p99 of 100 hints, one every 0.2 s) alone, then while N addresses each send puzzle
answers as fast as they are answered (a random shipped puzzle, most of its hand laid, for
the solver to arrange: a few of them take it a second): answers are judged in learning
workers of their own, so the hint should not wait for them (docs/hosting.md).

``--stored N`` measures the start instead: N finished tables written into a new database,
then the time from starting the server to its first answer, its resident memory before
anyone connects, and the time a table mid-play takes to answer its first hello after a
restart. The baseline of each table is measured in the same run (one table alone). The
figures go to the Server section of ``docs/benchmarks.md`` unless ``--no-write``::

    python benchmarks/server.py --tables 1000 --seconds 40
    python benchmarks/server.py --tables 1000 --postgres postgresql://... --processes 1,2,4
    python benchmarks/server.py --tables 1000 --experts 1
    python benchmarks/server.py --stored 100000
    python benchmarks/server.py --puzzle-flood 8
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import re
import secrets
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import uvloop
import websockets
from picows import WSFrame, WSListener, WSMsgType, WSTransport, ws_connect

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "benchmarks.md"
START, END = "<!-- server:begin -->", "<!-- server:end -->"
sys.path.insert(0, str(ROOT / "tests"))
from protocol_client import simple_move  # noqa: E402  (the protocol client's moves)

PACE = 2.0
"""Seconds between two changes at a table."""
SERVER_CORE, LOAD_CORE = 0, 1
TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def http(base: str, method: str, path: str, body: object = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        base + path, data, {"content-type": "application/json"}, method=method
    )
    with urllib.request.urlopen(req, timeout=120) as answer:
        return json.loads(answer.read())


# ---------------------------------------------------------------- the server's processes


def descendants(pid: int) -> list[int]:
    """``pid`` and every process under it."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += children.get(p, [])
    return out


def cpu_seconds(pids: list[int], *, workers: bool = True, system: bool | None = None) -> float:
    """User and system CPU of these processes and (``workers``) everything under them
    (``system``: only the system time, True, or only the user time, False)."""
    total = 0
    for root in pids:
        for p in descendants(root) if workers else [root]:
            try:
                fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            utime, stime = int(fields[11]), int(fields[12])
            total += stime if system else utime if system is False else utime + stime
    return total / TICKS


def rss_mib(pids: list[int]) -> float:
    """Resident memory of these processes and their workers."""
    kib = 0
    for root in pids:
        for p in descendants(root):
            try:
                for line in Path(f"/proc/{p}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        kib += int(line.split()[1])
            except OSError:
                continue
    return kib / 1024


@dataclass
class Servers:
    """The server processes (and the router in front of several)."""

    procs: list[subprocess.Popen[bytes]]
    base: str
    router: subprocess.Popen[bytes] | None = None

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.procs]

    def stop(self) -> None:
        for proc in self.procs:
            proc.send_signal(2)
        for proc in self.procs:
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
        if self.router is not None:
            self.router.kill()
            self.router.wait()


def serve(db: str, port: int, extra: tuple[str, ...] = ()) -> subprocess.Popen[bytes]:
    cmd = [
        "taskset",
        "-c",
        str(SERVER_CORE),
        str(Path(sys.executable).with_name("rummykit")),
        "serve",
        "--port",
        str(port),
        "--db",
        db,
        "--bot-delay",
        str(PACE),
        "--workers",
        "1",
        "--tables-per-hour",
        "1000000",
        # thousands of connections from loopback (HAProxy's or the load's own)
        "--connections-per-address",
        "1000000",
        *extra,
    ]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_up(base: str, timeout: float = 120) -> float:
    """Seconds until the server answers."""
    start = time.monotonic()
    while True:
        try:
            urllib.request.urlopen(base + "/api/games", timeout=5).read()
            return time.monotonic() - start
        except OSError:
            if time.monotonic() - start > timeout:
                raise RuntimeError(f"{base} did not answer") from None
            time.sleep(0.02)


def haproxy(port: int, backends: list[int]) -> subprocess.Popen[bytes]:
    """HAProxy routing by table id (docs/hosting.md), pinned with the load."""
    folder = Path(tempfile.mkdtemp(prefix="rummykit-haproxy-"))
    servers = "\n".join(
        f"    server p{i} 127.0.0.1:{b} check inter 1s fall 2 rise 2"
        for i, b in enumerate(backends)
    )
    # Each connection takes two descriptors (client and server side): 9,000 fit the 20,000
    # open files a process may have here, and the load's 4,000.
    config = f"""global
    maxconn 9000
defaults
    mode http
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h
frontend rummykit
    bind 127.0.0.1:{port}
    default_backend tables
backend tables
    balance uri depth 3
    hash-type consistent
    option httpchk
    http-check send meth GET uri /api/games ver HTTP/1.1 hdr Host localhost
    http-check expect status 200
{servers}
"""
    (folder / "haproxy.cfg").write_text(config)
    cmd = ["taskset", "-c", str(LOAD_CORE), "haproxy", "-f", str(folder / "haproxy.cfg")]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def start_servers(db: str, processes: int) -> Servers:
    ports = [free_port() for _ in range(processes)]
    procs = [serve(db, port) for port in ports]
    for port in ports:
        wait_up(f"http://127.0.0.1:{port}")
    if processes == 1:
        return Servers(procs, f"http://127.0.0.1:{ports[0]}")
    if shutil.which("haproxy") is None:
        raise SystemExit("several processes need Debian's haproxy: apt-get install haproxy")
    front = free_port()
    router = haproxy(front, ports)
    servers = Servers(procs, f"http://127.0.0.1:{front}", router)
    wait_up(servers.base)
    time.sleep(2.5)  # the router's health checks see every process up
    return servers


# ---------------------------------------------------------------- the load


@dataclass
class Load:
    """What the clients measured."""

    latencies: list[float] = field(default_factory=list)
    versions: dict[str, int] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    measuring: bool = False
    main_cpu: float = 0.0
    system_cpu: float = 0.0


class Player(WSListener):
    """One human seat (picows, callbacks: the load must not be the bottleneck): acts on its
    turn, ``PACE`` seconds after the table's last change, and times the acknowledgement of
    each action (its ``ref``)."""

    def __init__(self, table: str, token: str, load: Load) -> None:
        self.table, self.token, self.load = table, token, load
        self.transport: WSTransport | None = None
        self.log: list[Any] = []
        self.sent: dict[str, float] = {}
        self.acted = -1
        self.last = time.monotonic()
        self.n = 0
        self.timer: asyncio.TimerHandle | None = None

    def on_ws_connected(self, transport: WSTransport) -> None:
        self.transport = transport
        self.send({"type": "hello", "token": self.token, "version": None})

    def send(self, message: dict[str, Any]) -> None:
        assert self.transport is not None
        self.transport.send(WSMsgType.TEXT, orjson.dumps(message))

    def on_ws_frame(self, transport: WSTransport, frame: WSFrame) -> None:
        if frame.msg_type != WSMsgType.TEXT:
            return
        message = orjson.loads(frame.get_payload_as_bytes())
        kind = message["type"]
        load = self.load
        if kind == "error":
            load.errors[message["code"]] = load.errors.get(message["code"], 0) + 1
            self.acted = -1
            return
        if kind != "state" or message["view"] is None:
            return
        now = time.monotonic()
        ref = message.get("ref")
        if ref is not None and ref in self.sent:
            took = now - self.sent.pop(ref)
            if load.measuring:
                load.latencies.append(took)
        view = message["view"]
        if message["log_start"] == 0:
            self.log = []
        self.log += view["log"]
        view["log"] = self.log
        if message["version"] > load.versions.get(self.table, 0):
            load.versions[self.table] = message["version"]
            self.last = now
        if message["status"] == "over":
            self.send({"type": "next", "version": message["version"]})
            return
        if message["status"] != "playing" or view["turn"] != message["seat"]:
            return
        if message["version"] <= self.acted:  # the same state again (someone came or went)
            return
        self.acted = message["version"]
        wait = max(0.0, PACE - (time.monotonic() - self.last))
        loop = asyncio.get_running_loop()
        self.timer = loop.call_later(wait, self.act, message["version"], message["seat"], view)

    def act(self, version: int, seat: int, view: dict[str, Any]) -> None:
        self.n += 1
        ref = f"{self.table}-{seat}-{self.n}"
        self.sent[ref] = time.monotonic()
        self.send({"type": "action", "version": version, "ref": ref, "action": simple_move(view)})


def player_for(table: str, token: str, load: Load) -> Callable[[], Player]:
    """The listener factory of one seat (picows calls it with no arguments)."""

    def make() -> Player:
        return Player(table, token, load)

    return make


class Watcher(WSListener):
    """A spectator: takes every state, reads none (pings are answered by picows)."""

    def on_ws_connected(self, transport: WSTransport) -> None:
        transport.send(WSMsgType.TEXT, b'{"type":"hello","token":null,"version":null}')


def expert_versions(base: str, tables: list[str]) -> int:
    """The versions of the expert tables summed: how many moves their bots have made."""
    return sum(int(http(base, "GET", f"/api/tables/{t}")["version"]) for t in tables)


async def run_load(
    servers: Servers, tables: int, seconds: float, warm: float, experts: int = 0
) -> tuple[Load, float, float]:
    """Make the tables (and ``experts`` tables of three expert bots and a client), connect
    four clients to each, play for ``warm`` + ``seconds``. Answers
    what the clients saw, and the server's CPU and the wall time of the window."""
    base = servers.base
    ws_base = base.replace("http://", "ws://")
    load = Load()
    transports: list[WSTransport] = []
    loop = asyncio.get_running_loop()
    expert_tables = []
    aside = Load()  # the expert tables' own player: not counted with the load
    for _ in range(experts):
        body = {"game": "vatikanen", "seats": ["human"] + ["bot:expert"] * 3}
        made = await loop.run_in_executor(None, http, base, "POST", "/api/tables", body)
        table = made["id"]
        expert_tables.append(table)
        path = f"/api/tables/{table}/join"
        joined = await loop.run_in_executor(None, http, base, "POST", path, {"name": "P0"})
        url = f"{ws_base}/api/tables/{table}/live"
        transport, _ = await ws_connect(player_for(table, joined["token"], aside), url)
        transports.append(transport)
    for i in range(tables):
        game = ("vatikanen", "kontrakt")[i % 2]
        bot = "bot:greedy" if game == "vatikanen" else "bot:basic"
        seats = ["human", bot, "human", bot]
        made = await loop.run_in_executor(
            None, http, base, "POST", "/api/tables", {"game": game, "seats": seats}
        )
        table = made["id"]
        url = f"{ws_base}/api/tables/{table}/live"
        for seat in (0, 2):
            joined = await loop.run_in_executor(
                None, http, base, "POST", f"/api/tables/{table}/join", {"name": f"P{seat}"}
            )
            token = joined["token"]
            transport, _ = await ws_connect(player_for(table, token, load), url)
            transports.append(transport)
        for _ in range(2):
            transport, _ = await ws_connect(Watcher, url)
            transports.append(transport)
    await asyncio.sleep(warm)
    before_versions = sum(load.versions.values())
    experts_before = expert_versions(base, expert_tables)
    profiler = profile(servers.pids, seconds)
    main_before = cpu_seconds(servers.pids, workers=False)
    system_before = cpu_seconds(servers.pids, system=True)
    cpu_before, wall_before = cpu_seconds(servers.pids), time.monotonic()
    load.measuring = True
    await asyncio.sleep(seconds)
    load.measuring = False
    cpu, wall = cpu_seconds(servers.pids) - cpu_before, time.monotonic() - wall_before
    load.main_cpu = cpu_seconds(servers.pids, workers=False) - main_before
    load.system_cpu = cpu_seconds(servers.pids, system=True) - system_before
    load.versions["_changes"] = sum(load.versions.values()) - before_versions
    load.versions["_expert_moves"] = expert_versions(base, expert_tables) - experts_before
    for transport in transports:
        transport.disconnect()
    if profiler is not None:
        profiler.wait()
    return load, cpu, wall


def profile(pids: list[int], seconds: float) -> subprocess.Popen[bytes] | None:
    """With ``RUMMYKIT_PROFILE=PATH``: py-spy samples the first server process and its
    workers over the measured window into PATH (raw, collapsed stacks)."""
    path = os.environ.get("RUMMYKIT_PROFILE")
    if not path:
        return None
    spy = Path(sys.executable).with_name("py-spy")
    cmd = [str(spy), "record", "-p", str(pids[0]), "--subprocesses", "-d", str(int(seconds))]
    cmd += ["-r", "200", "-f", "raw", "-o", path, "--nonblocking"]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def measure(
    tables: int, seconds: float, db: str, processes: int, experts: int = 0
) -> dict[str, Any]:
    """Start the servers, put the load on them, stop them; the figures."""
    servers = start_servers(db, processes)
    try:
        warm = min(30.0, 6.0 + tables / 50)
        load, cpu, wall = uvloop.run(run_load(servers, tables, seconds, warm, experts))
    finally:
        servers.stop()
    changes = load.versions.pop("_changes")
    expert_moves = load.versions.pop("_expert_moves")
    lat = sorted(load.latencies) or [float("nan")]
    return {
        "tables": tables,
        "db": "postgresql" if db.startswith("postgres") else "sqlite",
        "processes": processes,
        "changes_per_second": changes / wall,
        "cpu_ms_per_change": 1000 * cpu / max(1, changes),
        "main_ms_per_change": 1000 * load.main_cpu / max(1, changes),
        "system_ms_per_change": 1000 * load.system_cpu / max(1, changes),
        "cpu_share": cpu / wall,
        "p50_ms": 1000 * statistics.median(lat),
        "p99_ms": 1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))],
        "samples": len(load.latencies),
        "errors": load.errors,
        "experts": experts,
        "expert_moves": expert_moves,
    }


# ---------------------------------------------------------------- a flood of puzzle answers


class Flood:
    """Addresses sending puzzle answers, each as soon as its last is answered, from threads
    of the load's process: each a random shipped Vatikanen puzzle answered with a random
    part of its hand and no table, for the solver to arrange (so that no answer is one the
    solver's caches know)."""

    def __init__(self, base: str, addresses: int, seed: int = 1) -> None:
        from rummykit.puzzles import shipped

        self.puzzles = [(p.id, [str(c) for c in p.hand]) for p in shipped("vatikanen")]
        self.base = base
        self.rng = random.Random(seed)
        self.judged = self.refused = 0
        self.stopping = threading.Event()
        self.threads = [
            threading.Thread(target=self.send, args=(f"127.0.7.{k + 1}",), daemon=True)
            for k in range(addresses)
        ]

    def send(self, address: str) -> None:
        headers = {"content-type": "application/json", "x-forwarded-for": address}
        while not self.stopping.is_set():
            puzzle, hand = self.rng.choice(self.puzzles)
            laid = self.rng.sample(hand, self.rng.randint(max(1, len(hand) - 3), len(hand)))
            body = json.dumps({"add": laid}).encode()
            url = f"{self.base}/api/puzzles/{puzzle}/answer"
            req = urllib.request.Request(url, body, headers, method="POST")
            try:
                with urllib.request.urlopen(req, timeout=120) as answer:
                    answer.read()
                self.judged += 1
            except OSError:  # 429 or 503: refused at once; ask again a little later
                self.refused += 1
                time.sleep(0.05)

    def __enter__(self) -> Flood:
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stopping.set()
        for t in self.threads:
            t.join(timeout=120)


async def hint_round_trips(base: str, hints: int) -> list[float]:
    """At a new table of two humans: the round trips of ``hints`` hints of the seat to act,
    one every 0.2 s (after one that warms the play workers)."""
    loop = asyncio.get_running_loop()
    body = {"game": "vatikanen", "seats": ["human", "human"]}
    made = await loop.run_in_executor(None, http, base, "POST", "/api/tables", body)
    url = base.replace("http://", "ws://") + f"/api/tables/{made['id']}/live"
    seats = []
    for seat in (0, 1):
        path = f"/api/tables/{made['id']}/join"
        joined = await loop.run_in_executor(None, http, base, "POST", path, {"name": f"P{seat}"})
        ws = await websockets.connect(url, max_size=None)
        await ws.send(json.dumps({"type": "hello", "token": joined["token"], "version": None}))
        seats.append(ws)
    to_act = None
    while to_act is None:
        for ws in seats:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), 0.2))
            except TimeoutError:
                continue
            view = message.get("view") if message.get("type") == "state" else None
            if view and message["status"] == "playing" and view["turn"] == message["seat"]:
                to_act = ws
    took = []
    for _ in range(hints + 1):
        begun = time.monotonic()
        await to_act.send('{"type":"hint"}')
        while json.loads(await to_act.recv())["type"] != "hint":
            pass
        took.append(time.monotonic() - begun)
        await asyncio.sleep(0.2)
    for ws in seats:
        await ws.close()
    return took[1:]


def measure_flood(addresses: int, hints: int = 100) -> list[dict[str, Any]]:
    """The hint's round trips alone, then under a flood from ``addresses`` addresses, on one
    server (SQLite); the server's CPU over each window."""
    folder = tempfile.mkdtemp(prefix="rummykit-bench-")
    servers = start_servers(f"sqlite:///{folder}/server.sqlite3", 1)
    rows = []
    try:
        for flooders in (0, addresses):
            with Flood(servers.base, flooders) as flood:
                time.sleep(2.0 if flooders else 0.0)  # the answers queue
                judged0 = flood.judged
                cpu0, wall0 = cpu_seconds(servers.pids), time.monotonic()
                took = sorted(asyncio.run(hint_round_trips(servers.base, hints)))
                cpu, wall = cpu_seconds(servers.pids) - cpu0, time.monotonic() - wall0
                judged = flood.judged - judged0
            rows.append(
                {
                    "addresses": flooders,
                    "p50_ms": 1000 * statistics.median(took),
                    "p99_ms": 1000 * took[min(len(took) - 1, int(0.99 * len(took)))],
                    "max_ms": 1000 * took[-1],
                    "judged_per_second": judged / wall,
                    "cpu_share": cpu / wall,
                }
            )
    finally:
        servers.stop()
    return rows


FLOOD_HEAD = (
    "| puzzle answers flooding from | hint p50 ms | hint p99 ms | hint max ms"
    " | ratio p50 | ratio p99 | answers judged /s | server CPU share |"
    "\n|---|---|---|---|---|---|---|---|"
)


def flood_rows(rows: list[dict[str, Any]]) -> str:
    """The rows of the flood's table, each hint's p50 and p99 against the first row's (no
    flood, measured in the same run)."""
    first = rows[0]
    return "\n".join(
        f"| {r['addresses']} addresses | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | {r['max_ms']:.1f}"
        f" | {r['p50_ms'] / first['p50_ms']:.2f} | {r['p99_ms'] / first['p99_ms']:.2f}"
        f" | {r['judged_per_second']:.1f} | {r['cpu_share']:.2f} |"
        for r in rows
    )


# ---------------------------------------------------------------- start on stored tables


def store_finished(db_file: Path, n: int) -> None:
    """``n`` finished tables written straight into a SQLite database of the current
    schema (a server made it): rows and summaries as the server writes them."""
    db = sqlite3.connect(db_file)
    (settings, summary, created) = db.execute(
        "SELECT settings, summary, created FROM game_tables LIMIT 1"
    ).fetchone()
    base = json.loads(summary)
    rows = []
    for i in range(n):
        table_id = f"stored{i:07d}"
        base.update(id=table_id, status="over", version=120, created=created - n + i)
        rows.append(
            (table_id, "vatikanen", settings, created - n + i, "over", 120, json.dumps(base))
        )
    db.executemany(
        "INSERT INTO game_tables (id, game, settings, created, status, version, summary)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    db.commit()
    db.close()


def measure_start(stored: int) -> dict[str, Any]:
    """Start time and memory on ``stored`` finished tables (and on none, the baseline), and
    the first answer of a table mid-play after a restart."""
    folder = Path(tempfile.mkdtemp(prefix="rummykit-start-"))
    out: dict[str, Any] = {"stored": stored}
    for label, count in (("empty", 0), ("stored", stored)):
        db_file = folder / f"{label}.sqlite3"
        db = f"sqlite:///{db_file}"
        port = free_port()
        proc = serve(db, port)
        base = f"http://127.0.0.1:{port}"
        wait_up(base)
        made = http(base, "POST", "/api/tables", {"game": "vatikanen", "seats": ["human", "human"]})
        table = made["id"]
        tokens = [
            http(base, "POST", f"/api/tables/{table}/join", {"name": f"P{s}"})["token"]
            for s in (0, 1)
        ]
        proc.send_signal(2)
        proc.wait(timeout=60)
        if count:
            store_finished(db_file, count)
        started = time.monotonic()
        proc = serve(db, port)
        out[f"{label}_start_s"] = wait_up(base)
        time.sleep(8.0)  # the shipped puzzle sets are read 5 s after the start: count them
        out[f"{label}_rss_mib"] = rss_mib([proc.pid])
        first = time.monotonic()

        async def hello(base: str = base, table: str = table, token: str = tokens[0]) -> None:
            url = base.replace("http://", "ws://") + f"/api/tables/{table}/live"
            async with websockets.connect(url) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token, "version": None}))
                assert json.loads(await ws.recv())["type"] == "state"

        asyncio.run(hello())
        out[f"{label}_first_table_s"] = time.monotonic() - first
        out[f"{label}_total_s"] = time.monotonic() - started
        proc.send_signal(2)
        proc.wait(timeout=60)
    shutil.rmtree(folder, ignore_errors=True)
    return out


# ---------------------------------------------------------------- the report


@contextmanager
def fresh_schema(url: str) -> Iterator[str]:
    """A PostgreSQL URL on a new, empty schema (dropped afterwards)."""
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


def load_row(r: dict[str, Any]) -> str:
    errors = ", ".join(f"{k} {v}" for k, v in sorted(r["errors"].items())) or "none"
    tables = str(r["tables"])
    if r.get("experts"):
        tables += f" + {r['experts']} with three experts ({r['expert_moves']} moves there)"
    return (
        f"| {r['db']} | {r['processes']} | {tables} | {4 * r['tables']} |"
        f" {r['changes_per_second']:.0f} | {r['cpu_ms_per_change']:.3f} ms"
        f" ({r['main_ms_per_change']:.3f}; {r['system_ms_per_change']:.3f}) |"
        f" {r['cpu_share']:.2f} | {r['p50_ms']:.1f} ms | {r['p99_ms']:.1f} ms | {errors} |"
    )


LOAD_HEAD = (
    "| db | processes | tables | connections | changes/s | server CPU per change (main; system) |"
    " server CPU (cores) | latency p50 | p99 | errors |\n|---|---|---|---|---|---|---|---|---|---|"
)


def start_table(r: dict[str, Any]) -> str:
    return "\n".join(
        [
            "| stored tables | start (to the first answer) | resident memory, no one connected |"
            " a table mid-play, first hello answered |",
            "|---|---|---|---|",
            f"| 0 (baseline) | {r['empty_start_s']:.2f} s | {r['empty_rss_mib']:.0f} MiB |"
            f" {1000 * r['empty_first_table_s']:.0f} ms |",
            f"| {r['stored']:,} | {r['stored_start_s']:.2f} s | {r['stored_rss_mib']:.0f} MiB |"
            f" {1000 * r['stored_first_table_s']:.0f} ms |",
        ]
    )


def write_doc(section: str, text: str) -> None:
    """Put ``text`` in the Server section's part ``section`` (load, start) of the doc."""
    doc = DOC.read_text(encoding="utf-8")
    if START not in doc:
        doc = doc.rstrip("\n") + f"\n\n{START}\n## Server\n{END}\n"
    body = re.search(re.escape(START) + r"(.*?)" + re.escape(END), doc, flags=re.S)
    assert body is not None
    inner = body.group(1)
    mark_a, mark_b = f"<!-- {section}:begin -->", f"<!-- {section}:end -->"
    part = f"{mark_a}\n{text}\n{mark_b}"
    if mark_a in inner:
        inner = re.sub(
            re.escape(mark_a) + r".*?" + re.escape(mark_b), lambda _: part, inner, flags=re.S
        )
    else:
        inner = inner.rstrip("\n") + "\n\n" + part + "\n"
    doc = doc[: body.start(1)] + inner + doc[body.end(1) :]
    DOC.write_text(doc, encoding="utf-8")


def machine() -> str:
    return (
        f"{platform.machine()} / Python {platform.python_version()}, {time.strftime('%Y-%m-%d')},"
        f" {os.cpu_count()} cores: the server processes pinned to core {SERVER_CORE}, the load"
        f" (and the router) to core {LOAD_CORE}"
    )


def measure_sqlite_or_pg(
    args: argparse.Namespace, tables: int, processes: int, experts: int
) -> dict[str, Any]:
    """One load row on the database the command line chose, beside ``experts`` tables."""
    if args.postgres:
        with fresh_schema(args.postgres) as url:
            return measure(tables, args.seconds, url, processes, experts)
    folder = tempfile.mkdtemp(prefix="rummykit-bench-")
    return measure(tables, args.seconds, f"sqlite:///{folder}/server.sqlite3", processes, experts)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=1000)
    p.add_argument("--seconds", type=float, default=40)
    p.add_argument("--postgres", help="measure on this PostgreSQL database (else SQLite)")
    p.add_argument("--processes", default="1", help="with --postgres: e.g. 1,2,4")
    p.add_argument("--stored", type=int, help="measure the start on this many stored tables")
    p.add_argument("--experts", type=int, default=0, help="also measure beside N expert tables")
    p.add_argument(
        "--puzzle-flood", type=int, default=0, help="measure a hint beside N flooding addresses"
    )
    p.add_argument("--no-write", action="store_true")
    args = p.parse_args(argv)
    os.sched_setaffinity(0, {LOAD_CORE})
    if args.puzzle_flood:
        text = FLOOD_HEAD + "\n" + flood_rows(measure_flood(args.puzzle_flood))
        print(text)
        if not args.no_write:
            command = f"python benchmarks/server.py --puzzle-flood {args.puzzle_flood}"
            write_doc("flood", f"`{command}` on {machine()}.\n\n{text}")
        return 0
    if args.stored:
        result = measure_start(args.stored)
        text = start_table(result)
        print(text)
        if not args.no_write:
            write_doc(
                "start",
                f"`python benchmarks/server.py --stored {args.stored}` on {machine()}.\n\n{text}",
            )
        return 0
    rows = []
    for processes in [int(x) for x in args.processes.split(",")]:
        for tables in (1, args.tables):
            if args.postgres:
                with fresh_schema(args.postgres) as url:
                    row = measure(tables, args.seconds if tables > 1 else 20, url, processes)
            else:
                folder = tempfile.mkdtemp(prefix="rummykit-bench-")
                url = f"sqlite:///{folder}/server.sqlite3"
                row = measure(tables, args.seconds if tables > 1 else 20, url, processes)
            print(load_row(row), flush=True)
            rows.append(row)
            if args.experts and tables > 1:
                row = measure_sqlite_or_pg(args, tables, processes, args.experts)
                print(load_row(row), flush=True)
                rows.append(row)
    text = LOAD_HEAD + "\n" + "\n".join(load_row(r) for r in rows)
    print(text)
    if not args.no_write:
        db = "postgres" if args.postgres else "sqlite"
        command = f"python benchmarks/server.py --tables {args.tables} --seconds {args.seconds:g}"
        if args.postgres:
            command += f" --postgres postgresql://... --processes {args.processes}"
        if args.experts:
            command += f" --experts {args.experts}"
        section = f"load-{db}" + ("-experts" if args.experts else "")
        write_doc(section, f"`{command}` on {machine()}.\n\n{text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
