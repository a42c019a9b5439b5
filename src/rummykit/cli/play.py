"""``rummykit play vatikanen|kontrakt``: play against bots in a full-screen terminal UI.

Vatikanen: 2-5 players (default 3: you and two ``greedy`` bots). Kontrakt:
2-8 players (default 4: you and three ``basic`` bots). The record of each
game is saved under ``--records`` (default ``./records/``). Needs the ``tui``
extra (Textual). See ``docs/playing.md``. The game speaks ``--lang`` (the
global option, :mod:`rummykit.cli.main`).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from rummykit import games
from rummykit.cli.words import Commands, speaker
from rummykit.errors import MessageError, describe_error
from rummykit.i18n import DEFAULT, N_, translate

if TYPE_CHECKING:
    from rummykit.game import Game
    from rummykit.tui.controller import Controller

__all__ = ["add_parser", "run"]


def add_parser(sub: Commands, lang: str = DEFAULT) -> None:
    """Register the sub-command, its help in ``lang``."""
    _ = speaker(lang)
    p = sub.add_parser(
        "play",
        help=_("play Vatikanen or Kontraktsrummy against bots in the terminal"),
        description=_(
            "Play against bots in a full-screen terminal UI (docs/playing.md;"
            " the rules by id: docs/rules.md)."
        ),
    )
    p.add_argument(
        "game", choices=games.names(), nargs="?", help=_("the game (default: vatikanen)")
    )
    p.add_argument(
        "--resume",
        metavar="RECORD",
        help=_(
            "carry on a game that was quit, from its record (the record goes on being saved"
            " there); the players, bots and seed come from the record"
        ),
    )
    p.add_argument(
        "--players",
        type=int,
        help=_(
            "players at the table, you included (vatikanen 2-5, default 3; kontrakt 2-8, default 4)"
        ),
    )
    p.add_argument(
        "--seed", type=int, help=_("shuffle from this seed (the same seed, the same game)")
    )
    p.add_argument(
        "--bots",
        metavar="LEVEL,...",
        help=_(
            "bot level for all bots, or one per bot (vatikanen: random, greedy, strong, expert;"
            " kontrakt: random, basic, strong, expert)"
        ),
    )
    p.add_argument(
        "--name", help=_("your name in the game and its record (default: You, or Du in Swedish)")
    )
    p.add_argument("--records", default="records", metavar="DIR", help=_("where records are saved"))
    p.add_argument(
        "--delay", type=float, default=0.6, metavar="SECONDS", help=_("pause before each bot move")
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Start the game; print where the record went when the player leaves."""
    lang = getattr(args, "lang", DEFAULT)
    try:
        from rummykit.tui.app import PlayApp
    except ImportError:
        print(
            translate("rummykit play: install the tui extra: pip install 'rummykit[tui]'", lang),
            file=sys.stderr,
        )
        return 2
    from rummykit.cli.paths import folder_problem
    from rummykit.tui.setup import make_controller

    try:
        if args.resume is not None:
            controller = _resumed(args)
        else:
            controller = make_controller(
                args.game or games.names()[0],
                players=args.players,
                seed=args.seed,
                bots=args.bots,
                name=args.name,
                records=args.records,
                lang=lang,
            )
    except ValueError as exc:
        print(f"rummykit play: {describe_error(exc, lang)}", file=sys.stderr)
        return 2
    problem = folder_problem("--records", controller.records)
    if problem is not None:  # refused now, not when the game is saved at its end or quit
        print(f"rummykit play: {problem.translated(lang)}", file=sys.stderr)
        return 2
    app = PlayApp(controller, bot_delay=args.delay)
    app.run()
    if app.save_error is not None:
        print(f"rummykit play: {app.save_error}", file=sys.stderr)
        return 1
    if app.saved_path:
        print(quit_note(app.saved_path, finished=app.finished, lang=lang))
    return 0


def _resumed(args: argparse.Namespace) -> Controller[Game]:
    """The controller of ``--resume``; ValueError for options the record already fixes."""
    from rummykit.tui.setup import resume_controller

    fixed = [
        flag
        for flag, value in (
            ("--players", args.players),
            ("--seed", args.seed),
            ("--bots", args.bots),
        )
        if value is not None
    ]
    if fixed:
        raise MessageError(
            N_("--resume takes the game as its record left it: drop {options}"),
            options=", ".join(fixed),
        )
    controller = resume_controller(
        args.resume,
        records=None if args.records == "records" else args.records,
        lang=getattr(args, "lang", DEFAULT),
    )
    if args.game is not None and args.game != controller.adapter.game:
        raise MessageError(
            N_("{path} is a {game} record, not {wanted}"),
            path=args.resume,
            game=controller.adapter.game,
            wanted=args.game,
        )
    return controller


def quit_note(path: str, *, finished: bool, lang: str = DEFAULT) -> str:
    """What the command line says when the player leaves: where the record is, and how
    to go on with it (unless the game is over) or check it.

    >>> print(quit_note("records/k.json", finished=False))
    record saved: records/k.json
    resume the game with: rummykit play --resume records/k.json
    check the record with: rummykit replay records/k.json
    """
    lines = [translate("record saved: {path}", lang, path=path)]
    if not finished:
        lines.append(
            translate("resume the game with: rummykit play --resume {path}", lang, path=path)
        )
    lines.append(translate("check the record with: rummykit replay {path}", lang, path=path))
    return "\n".join(lines)
