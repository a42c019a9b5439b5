"""``rummykit serve``: the game server friends play at (``docs/protocol.md``).

Serves the HTTP API, the live WebSocket and the browser UI until stopped;
prints the address to open. Needs the ``web`` extra. At start it raises its soft limit of
open files to the hard one (every connection is one), and runs uvicorn with the
connection guard (``server/guard.py``: a request head's time and size, connections per
address).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
from pathlib import Path

from rummykit.cli.words import Commands, speaker
from rummykit.errors import describe_error
from rummykit.i18n import DEFAULT, default_language, translate

__all__ = ["add_parser", "default_db", "run"]


def default_db() -> str:
    """SQLite in the user's data folder."""
    from platformdirs import user_data_dir

    return f"sqlite:///{Path(user_data_dir('rummykit')) / 'server.sqlite3'}"


def add_parser(sub: Commands, lang: str = DEFAULT) -> None:
    """Register the sub-command, its help in ``lang``."""
    _ = speaker(lang)
    p = sub.add_parser(
        "serve",
        help=_("run the game server: play with friends in a browser"),
        description=_("Run the game server (docs/protocol.md) and the browser UI."),
    )
    p.add_argument(
        "--host", default="127.0.0.1", help=_("address to listen on (default 127.0.0.1)")
    )
    p.add_argument("--port", type=int, default=8000, help=_("port (default 8000)"))
    p.add_argument(
        "--db",
        metavar="URL",
        help=_("sqlite:///PATH (default: a file in your data folder) or postgresql://..."),
    )
    p.add_argument(
        "--bot-delay",
        type=float,
        default=1.0,
        metavar="S",
        help=_("seconds before a bot moves (default 1; 0 plays at once)"),
    )
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        help=_("processes bots think in, and as many for players' hints and plays (default 1)"),
    )
    p.add_argument(
        "--log-level",
        default="warning",
        choices=["debug", "info", "warning", "error"],
        help=_("what the server logs (default warning); no log line holds a card or a token"),
    )
    p.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="URL",
        help=_("a web origin besides the server's own whose pages may use the API (repeatable)"),
    )
    p.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help=_("a name the server answers to besides its --host and localhost (repeatable)"),
    )
    p.add_argument(
        "--tables-per-hour",
        type=int,
        default=20,
        metavar="N",
        help=_("tables one address may make in an hour (default 20)"),
    )
    p.add_argument(
        "--record-seconds",
        type=float,
        default=20.0,
        metavar="S",
        help=_("CPU seconds one replay or review of a record may take (default 20)"),
    )
    p.add_argument(
        "--header-timeout",
        type=float,
        default=10.0,
        metavar="S",
        help=_("seconds a request's head may take before the connection is closed (default 10)"),
    )
    p.add_argument(
        "--idle-timeout",
        type=int,
        default=5,
        metavar="S",
        help=_("seconds a connection may send nothing between requests (default 5)"),
    )
    p.add_argument(
        "--connections-per-address",
        type=int,
        default=64,
        metavar="N",
        help=_("connections one client address may hold at once (default 64)"),
    )
    p.add_argument(
        "--forwarded-allow-ips",
        metavar="LIST",
        default=None,
        help=_(
            "front ends whose X-Forwarded-For names the client, comma-separated"
            " (default 127.0.0.1,::1)"
        ),
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Serve until stopped (Ctrl+C)."""
    lang = getattr(args, "lang", None) or default_language()
    try:
        import uvicorn

        from rummykit.server.app import create_app, hosts_for
        from rummykit.server.guard import ConnectionLimits, Guard, raise_open_files
        from rummykit.server.limits import Limits
        from rummykit.server.rooms import Rooms
        from rummykit.server.store import SqliteStore, open_store
    except ImportError:
        print(
            translate("rummykit serve: install the web extra: pip install 'rummykit[web]'", lang),
            file=sys.stderr,
        )
        return 2
    try:
        store = open_store(args.db or default_db())
    except ValueError as exc:
        print(f"rummykit serve: {describe_error(exc, lang)}", file=sys.stderr)
        return 2
    problem = store.unwritable() if isinstance(store, SqliteStore) else None
    if problem is not None:  # said now: SQLite would fail later, or die of SIGBUS
        line = translate(
            "rummykit serve: {path} is not writable ({reason}): the server writes the"
            " database's folder and its files (-wal, -shm)",
            lang,
            path=str(problem[0]),
            reason=problem[1],
        )
        print(line, file=sys.stderr)
        return 2
    if (
        args.bot_delay < 0
        or args.workers < 0
        or args.tables_per_hour < 1
        or not 0 < args.record_seconds <= 3600
    ):
        print(
            translate(
                "rummykit serve: --bot-delay, --workers: 0 or more; --tables-per-hour: 1 or more;"
                " --record-seconds: more than 0, at most 3600",
                lang,
            ),
            file=sys.stderr,
        )
        return 2
    if args.header_timeout <= 0 or args.idle_timeout < 1 or args.connections_per_address < 1:
        print(
            translate(
                "rummykit serve: --header-timeout: more than 0;"
                " --idle-timeout, --connections-per-address: 1 or more",
                lang,
            ),
            file=sys.stderr,
        )
        return 2
    # every connection is an open file: the soft limit (often 1,024) up to the hard one
    raise_open_files()
    trusted = args.forwarded_allow_ips or os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
    guard = Guard(
        ConnectionLimits(
            head_timeout=args.header_timeout, per_address=args.connections_per_address
        ),
        trusted=trusted,
    )
    http_protocol, ws_protocol = guard.protocols()
    logging.basicConfig(format="%(asctime)s %(name)s %(levelname)s %(message)s")
    logging.getLogger("rummykit").setLevel(args.log_level.upper())
    limits = Limits(tables_per_hour=args.tables_per_hour, replay_seconds=args.record_seconds)
    rooms = Rooms(store, bot_delay=args.bot_delay, workers=args.workers, limits=limits)
    origins = tuple(args.allow_origin)
    app = create_app(
        rooms,
        allowed_origins=origins,
        allowed_hosts=hosts_for(args.host, origins, tuple(args.allow_host)),
        any_ip_host=args.host in ("0.0.0.0", "::"),
    )
    shown = "localhost" if args.host in ("127.0.0.1", "0.0.0.0", "::") else args.host
    url = f"http://{shown}:{args.port}/"
    line = translate("rummykit: open {url} in your browser (Ctrl+C stops)", lang, url=url)
    print(line, flush=True)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        # uvicorn's httptools and websockets-sansio protocols, guarded (server/guard.py):
        # head timeout and limits, connections per address; a reason on every close
        http=http_protocol,
        ws=ws_protocol,
        timeout_keep_alive=args.idle_timeout,
        forwarded_allow_ips=trusted,
        ws_max_size=1 << 20,
        ws_per_message_deflate=False,
        # PROTOCOL.md, Heartbeat: a peer silent to WebSocket pings for 15 s is gone
        ws_ping_interval=10.0,
        ws_ping_timeout=5.0,  # states are small; compressing each costs more CPU
        # never the web server's debug: it writes the frames, tokens and hands included
        log_level="info" if args.log_level == "debug" else args.log_level,
        lifespan="on",
    )
    server = uvicorn.Server(config)
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C: uvicorn shut down, then re-raised it
        server.run()
    return 0 if server.started else 3  # 3: it did not start (uvicorn has said why)
