"""``rummykit play vatikanen|kontrakt``: play against bots in a full-screen terminal UI.

Vatikanen: 2-5 players (default 3: you and two ``greedy`` bots). Kontrakt:
2-8 players (default 4: you and three ``basic`` bots). The record of each
game is saved under ``--records`` (default ``./records/``). Needs the ``tui``
extra (Textual). See ``docs/playing.md``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rummykit import games

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    """Register the sub-command."""
    p = sub.add_parser(
        "play",
        help="play Vatikanen or Kontraktsrummy against bots in the terminal",
        description="Play against bots in a full-screen terminal UI (docs/playing.md).",
    )
    p.add_argument("game", choices=games.names(), nargs="?", default=games.names()[0])
    p.add_argument(
        "--players",
        type=int,
        help="players at the table, you included (vatikanen 2-5, default 3; kontrakt 2-8,"
        " default 4)",
    )
    p.add_argument("--seed", type=int, help="shuffle from this seed (the same seed, the same game)")
    p.add_argument(
        "--bots",
        metavar="LEVEL,...",
        help="bot level for all bots, or one per bot (vatikanen: random, greedy, strong;"
        " kontrakt: random, basic, strong)",
    )
    p.add_argument("--name", default="You", help="your name in the game and its record")
    p.add_argument("--records", default="records", metavar="DIR", help="where records are saved")
    p.add_argument(
        "--delay", type=float, default=0.6, metavar="SECONDS", help="pause before each bot move"
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Start the game; print where the record went when the player leaves."""
    try:
        from rummykit.tui.app import PlayApp
    except ImportError:
        print("rummykit play: install the tui extra: pip install 'rummykit[tui]'", file=sys.stderr)
        return 2
    from rummykit.tui.setup import make_controller

    try:
        controller = make_controller(
            args.game,
            players=args.players,
            seed=args.seed,
            bots=args.bots,
            name=args.name,
            records=args.records,
        )
    except ValueError as exc:
        print(f"rummykit play: {exc}", file=sys.stderr)
        return 2
    app = PlayApp(controller, bot_delay=args.delay)
    app.run()
    if app.saved_path:
        print(f"record saved: {app.saved_path} (check it with: rummykit replay {app.saved_path})")
    return 0
