"""``rummykit simulate``: bots play many games with duplicate deals; win rates and ratings.

    rummykit simulate --game vatikanen --players 2 --bots greedy,random --games 200
    rummykit simulate --game kontrakt --players 4 --bots basic,random --games 40 --json
    rummykit simulate --game vatikanen --bots greedy,cmd:"python examples/random_bot.py"
    rummykit simulate --game kontrakt --players 4 --bots "strong(samples=16),basic"

``--bots`` names one bot per seat, comma-separated; with fewer bots than
players the last one fills the other seats (``strong,greedy`` with four
players is strong against three greedy). A bot is a level of the game's bot
registry, optionally with settings for its constructor in parentheses
(``strong(samples=16,margin=0.5)``: JSON values, else strings; the bots'
settings are in ``docs/bots.md``), or ``cmd:COMMAND``, a program speaking
``rummykit-bot/1`` (``docs/bot-protocol.md``).

``--games G`` is rounded up to a whole number of decks: each deck is played
once in each of the N seat rotations, so G games are ceil(G / N) decks.

Exit 0 when every game was played to its end, 1 when some game could not be
(the error is printed; the game is left out of the figures), 2 for bad input.

The summary, notes and errors are in ``--lang``; the JSON summary is data, and
what a failing game or a faulty bot reported (an exception, a bot program's
own words) is shown as it was reported.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path

from rummykit import games
from rummykit.arena import (
    ArenaConfig,
    GameResult,
    fill_lineup,
    normalize_spec,
    split_specs,
    summarize,
)
from rummykit.arena.run import Progress, default_workers, run_match
from rummykit.arena.summary import MatchSummary
from rummykit.cli.paths import file_problem, folder_problem
from rummykit.cli.words import Commands, speaker
from rummykit.errors import MessageError, describe_error
from rummykit.i18n import DEFAULT, N_, Message, Plural, catalog, translate

PLOT_SUFFIXES = (".png", ".svg", ".pdf")

EPILOG = N_(
    """\
seats and games:
  --bots a,b with 4 players seats a, b, b, b (the last bot fills the other
  seats). Game i is played from deck i // N in seat rotation i % N: the bot
  listed p-th sits at seat (p + rotation) % N, so every deck is played once
  with every bot in every seat. G is rounded up to whole decks: ceil(G/N)
  decks x N rotations.

figures, per bot (over every seat it held):
  games      seat-games played (3 greedy seats in 10 games: 30)
  wins       a shared win (tied totals, V15 split) counts 1/k to each winner
  95% CI     Wilson's interval; with 10 or more decks widened by the design
             effect of the decks (the games of one deck are correlated), never
             narrower; the JSON also has ci95_wilson, design_effect, score_ci95
  score      Vatikanen: the game's zero-sum payment (higher is better);
             Kontrakt: the total penalty of the seven deals (lower is better)
  Elo        Bradley-Terry fit of every game's pairwise results by score,
             the first bot 1500

randomness:
  every game's deck and bot seeds derive from (--seed, game, seat) only:
  the same seed gives the same games with any --workers and with --ray.

external bots:
  cmd:"python mybot.py" runs a program speaking rummykit-bot/1
  (docs/bot-protocol.md). A late, bad or illegal answer, or a crash, is
  counted and replaced by a random legal action; the match goes on.
"""
)
MAX_PRINTED_MESSAGES = 20


def add_parser(sub: Commands, lang: str = DEFAULT) -> None:
    """Register the sub-command, its help in ``lang``."""
    _ = speaker(lang)
    p = sub.add_parser(
        "simulate",
        help=_("let bots play many games (duplicate deals) and measure them"),
        description=_(
            "Let bots play many games with duplicate deals: every deck is played once "
            "in every rotation of the seats. Reports per bot: games, wins, win rate with a 95% "
            "interval, mean score and Elo-style ratings. The rules by id: docs/rules.md."
        ),
        epilog=_(EPILOG),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--game", choices=games.names(), required=True, help=_("the game"))
    p.add_argument(
        "--players", type=int, help=_("players at the table (default: the number of bots, min 2)")
    )
    p.add_argument(
        "--bots",
        required=True,
        help=_(
            "bot per seat, comma-separated: a level (random, greedy, basic, strong, expert),"
            ' optionally with settings, strong(samples=16), or cmd:"COMMAND"; the last one'
            " fills the remaining seats"
        ),
    )
    p.add_argument(
        "--games",
        type=int,
        default=100,
        help=_("games to play, rounded up to a multiple of the players (default 100)"),
    )
    p.add_argument("--seed", type=int, help=_("match seed (default: a random one, printed)"))
    p.add_argument(
        "--workers",
        type=int,
        help=_("local processes (default: every core, here %(cores)s; 1 = in-process)")
        % {"cores": default_workers()},
    )
    p.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help=_("run on a Ray cluster (no address: a local Ray instance); needs rummykit[cluster]"),
    )
    p.add_argument("--records", metavar="DIR", help=_("write every game's record into DIR"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    p.add_argument(
        "--plot", metavar="FILE", help=_("draw win rates with their intervals (.png/.svg)")
    )
    p.add_argument(
        "--bot-timeout",
        type=float,
        default=5.0,
        metavar="S",
        help=_("seconds an external bot has for each answer (default 5)"),
    )
    p.add_argument(
        "--bot-startup",
        type=float,
        default=10.0,
        metavar="S",
        help=_("extra seconds for an external bot's first answer of a game (default 10)"),
    )
    p.add_argument(
        "--quiet",
        action="store_true",
        help=_("no progress output and no notes (the summary only)"),
    )
    p.set_defaults(handler=run)


def _fail(message: str) -> int:
    print(f"rummykit simulate: {message}", file=sys.stderr)
    return 2


def config_from_args(args: argparse.Namespace) -> tuple[ArenaConfig, list[Message]]:
    """The match the arguments ask for, and notes for the user; ValueError for bad input."""
    specs = [normalize_spec(s) for s in split_specs(args.bots) if s.strip()]
    if not specs:
        raise MessageError(N_("--bots names no bot"))
    players = args.players if args.players is not None else max(2, len(specs))
    notes = []
    if args.games < 1:
        raise MessageError(N_("--games must be at least 1"))
    decks = math.ceil(args.games / players)
    games = decks * players
    if games != args.games:
        notes.append(
            Message(
                N_("{asked} games rounded up to {games}: {decks} x {players} rotations"),
                asked=args.games,
                games=games,
                decks=Plural("{n} deck", "{n} decks", decks),
                players=players,
            )
        )
    if args.bot_timeout <= 0 or args.bot_startup < 0:
        raise MessageError(N_("--bot-timeout must be positive and --bot-startup not negative"))
    seed = args.seed
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
        notes.append(
            Message(N_("seed {seed} (give --seed {seed} to play the same games again)"), seed=seed)
        )
    config = ArenaConfig(
        game=args.game,
        players=players,
        lineup=fill_lineup(specs, players),
        games=games,
        seed=seed,
        bot_timeout=args.bot_timeout,
        bot_startup=args.bot_startup,
        records=args.records is not None,
    )
    return config, notes


def run(args: argparse.Namespace) -> int:
    """Play the match and print the summary."""
    lang = getattr(args, "lang", DEFAULT)
    try:
        config, notes = config_from_args(args)
    except ValueError as exc:
        return _fail(describe_error(exc, lang))
    if args.workers is not None and args.workers < 1:
        return _fail(translate("--workers must be at least 1", lang))
    if args.plot is not None:
        problem = check_plot(args.plot)
        if problem:
            return _fail(problem.translated(lang))
    records = Path(args.records) if args.records is not None else None
    if records is not None:
        problem = folder_problem("--records", records)
        if problem is not None:  # refused before the match, not at its first record
            return _fail(problem.translated(lang))
    if not args.quiet:  # the seed is in the summary too
        for note in notes:
            print(f"rummykit simulate: {note.translated(lang)}", file=sys.stderr)
    progress = None if args.quiet else Progress(bar=False if args.json else None, lang=lang)

    def keep(result: GameResult) -> None:
        if records is not None and result.record is not None:
            path = records / f"{config.game}-{result.index:06d}.json"
            path.write_text(result.record, encoding="utf-8")

    try:
        match = run_match(
            config,
            workers=args.workers,
            ray_address=args.ray,
            progress=progress,
            on_result=keep,
        )
    except RuntimeError as exc:
        return _fail(catalog(lang).gettext(str(exc)))
    summary = summarize(config, match.results, seconds=match.seconds)
    report_problems(match.results, lang)
    if args.json:
        print(json.dumps(summary))
    else:
        print(format_summary(summary, config, match.backend, lang))
    if args.plot is not None:
        plot_summary(summary, args.plot, lang)
        if not args.json:
            print(translate("plot: {path}", lang, path=args.plot))
    return 1 if any(r.error is not None for r in match.results) else 0


def report_problems(results: list[GameResult], lang: str = DEFAULT) -> None:
    """Print the games that failed and the first fault messages to stderr."""
    printed = 0
    for r in results:
        if r.error is not None:
            said = translate("game {index} failed: {error}", lang, index=r.index, error=r.error)
            print(f"rummykit simulate: {said}", file=sys.stderr)
        for message in r.messages:
            if printed < MAX_PRINTED_MESSAGES:
                print(f"rummykit simulate: {message}", file=sys.stderr)
            printed += 1
    if printed > MAX_PRINTED_MESSAGES:
        more = printed - MAX_PRINTED_MESSAGES
        rest = Plural("... and {n} more bot fault", "... and {n} more bot faults", more)
        print(f"rummykit simulate: {rest.translated(lang)}", file=sys.stderr)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def format_summary(
    summary: MatchSummary, config: ArenaConfig, backend: str = "", lang: str = DEFAULT
) -> str:
    """The summary as a table for a terminal, in ``lang``."""

    def _(message: str, /, **params: object) -> str:
        return translate(message, lang, **params)

    n = config.players
    decks = config.decks
    head = _(
        "{game}, {n} players: {games} games ({decks} x {n} seat rotations), seed {seed}",
        game=summary["game"],
        n=n,
        games=summary["games"],
        decks=Plural("{n} deck", "{n} decks", decks),
        seed=config.seed,
    )
    head += (f", {backend}" if backend else "") + f", {summary['seconds']:.1f} s"
    spec = config.spec
    score_name = _("mean {score}", score=Message(spec.score_name))
    sign = "+" if spec.higher_is_better else ""
    results = summary["results"]
    width = max([4, *(len(b) for b in results)])
    method = next((e["ci95_method"] for e in results.values()), "wilson")
    # (heading, width, right-aligned); a longer heading widens its column
    columns = [
        (_("bot"), width, False),
        (_("games"), 6, True),
        (_("wins"), 8, True),
        (_("win rate"), 8, True),
        (_("95% CI ({method})", method=method), 24, False),
        (score_name, 12, True),
        (_("95% CI"), 18, False),
        (_("Elo"), 6, True),
        (_("ms/move"), 8, True),
    ]
    widths = [max(w, len(h)) for h, w, _right in columns]

    def row(cells: list[str]) -> str:
        out = []
        for cell, w, (_h, _w, right) in zip(cells, widths, columns, strict=True):
            out.append(f"{cell:>{w}}" if right else f"{cell:<{w}}")
        return "  ".join(out)

    lines = [head, row([h for h, _w, _r in columns])]
    for bot, e in results.items():
        lo, hi = e["ci95"]
        slo, shi = e["score_ci95"]
        lines.append(
            row(
                [
                    bot,
                    f"{e['games']}",
                    f"{e['wins']:.1f}",
                    _pct(e["win_rate"]),
                    f"[{_pct(lo)}, {_pct(hi)}]",
                    f"{e['mean_score']:{sign}.2f}",
                    f"[{slo:{sign}.1f}, {shi:{sign}.1f}]",
                    f"{e['elo']:.0f}",
                    f"{e['ms_per_move']:.1f}",
                ]
            )
        )
    lines.append(
        f"{Message(spec.score_name).translated(lang)}: {Message(spec.score_note).translated(lang)}"
    )
    lines.append(
        _("par win rate with {n} players: {rate} (ties share a win)", n=n, rate=_pct(1 / n))
    )
    for bot, e in results.items():
        if e["faults"] or e["substituted_moves"] or e["errors"]:
            kinds = ", ".join(f"{k} {v}" for k, v in e["fault_kinds"].items())
            lines.append(
                _(
                    "{bot}: {faults} ({kinds}), {moves} played by the random bot, {failed} failed",
                    bot=bot,
                    faults=Plural("{n} fault", "{n} faults", e["faults"]),
                    kinds=kinds or _("none"),
                    moves=Plural("{n} move", "{n} moves", e["substituted_moves"]),
                    failed=Plural("{n} game", "{n} games", e["errors"]),
                )
            )
    return "\n".join(lines)


def check_plot(path: str) -> Message | None:
    """Why ``--plot path`` cannot work, or None: asked before the match, so that a path
    that cannot be written is refused at once, not after the whole match has run."""
    if Path(path).suffix.lower() not in PLOT_SUFFIXES:
        return Message(
            N_("--plot writes {suffixes} files, not {path}"),
            suffixes=", ".join(PLOT_SUFFIXES),
            path=path,
        )
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return Message(N_("--plot needs matplotlib: pip install 'rummykit[plot]'"))
    return file_problem("--plot", path)


def plot_summary(summary: MatchSummary, path: str, lang: str = DEFAULT) -> None:
    """Draw each bot's win rate with its 95% interval, and the par line, into ``path``;
    its words in ``lang``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    results = summary["results"]
    names = list(results)
    rates = [100 * results[b]["win_rate"] for b in names]
    lows = [r - 100 * results[b]["ci95"][0] for r, b in zip(rates, names, strict=True)]
    highs = [100 * results[b]["ci95"][1] - r for r, b in zip(rates, names, strict=True)]
    fig, ax = plt.subplots(figsize=(max(4.0, 1.4 * len(names) + 2), 4.0))
    xs = list(range(len(names)))
    ax.bar(xs, rates, color="#8fb3d9", edgecolor="#2b5c8a")
    ax.errorbar(xs, rates, yerr=[lows, highs], fmt="none", ecolor="black", capsize=6)
    par = 100 / summary["players"]
    ax.axhline(
        par,
        color="#c0392b",
        linestyle="--",
        linewidth=1,
        label=translate("par {par:.0f}%", lang, par=par),
    )
    ax.set_xticks(xs)
    ax.set_xticklabels([n if len(n) <= 24 else n[:21] + "..." for n in names])
    ax.set_ylabel(translate("win rate (%)", lang))
    ax.set_ylim(0, 100)
    ax.set_title(
        translate(
            "{game}, {players} players, {games} games (95% intervals)",
            lang,
            game=summary["game"],
            players=summary["players"],
            games=summary["games"],
        )
    )
    ax.legend(loc="best")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
