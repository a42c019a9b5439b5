"""The arena: bots play many games against each other, with duplicate deals.

A match is described by an :class:`ArenaConfig`: the game, the number of
players, the *lineup* (one bot spec per position) and the number of games.
Game ``i`` is played from deck ``i // n`` in seat rotation ``i % n``
(:func:`schedule`): the bot at lineup position ``p`` sits at seat
``(p + rotation) % n``, so every deck is played once with every bot in every
seat and the luck of the deal cancels (duplicate deals, as in bridge).

All randomness of game ``i`` derives from the match seed and ``i`` alone
(:func:`derive_seed`): the deck (or, in Kontrakt, the seven decks and any
reshuffle) from ``(seed, "deck", deck)``, each bot's seed from
``(seed, "bot", i, seat)``. Never from a worker or the order games finish
in, so one worker, many workers or a Ray cluster give the same results.

A bot spec is a level of :func:`rummykit.bots.levels` (``greedy``) or
``cmd:COMMAND``, a program speaking ``rummykit-bot/1``
(:mod:`rummykit.bots.external`). Every answer of every bot is checked by the
engine; a fault (a late, bad or illegal answer, a crash, an exception) is
counted and replaced by the move of the game's ``random`` bot, and the game
carries on.

>>> cfg = ArenaConfig("kontrakt", 2, ("basic", "random"), games=2, seed=5)
>>> [seat_bots(cfg, i) for i in range(2)]
[('basic', 'random'), ('random', 'basic')]
>>> result = play_game(cfg, 0)
>>> result.error is None and len(result.scores) == 2
True
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rummykit.arena_stats import (
    Cluster,
    clustered_mean,
    clustered_rate,
    fit_elo,
    mean_interval,
    wilson,
)
from rummykit.bots import levels, make_bot
from rummykit.bots.base import Bot
from rummykit.bots.external import BotFault, ExternalBot
from rummykit.errors import RuleError

__all__ = [
    "GAMES",
    "MIN_CLUSTER_DECKS",
    "TIMING_KEYS",
    "ArenaConfig",
    "GameResult",
    "comparable",
    "derive_seed",
    "fill_lineup",
    "level_settings",
    "normalize_spec",
    "play_game",
    "play_games",
    "schedule",
    "seat_bots",
    "split_specs",
    "summarize",
]

GAMES = ("vatikanen", "kontrakt")
"""The games the arena plays."""

PLAYERS = {"vatikanen": (2, 5), "kontrakt": (2, 8)}
"""The number of players each game allows (V1, K1)."""

MIN_CLUSTER_DECKS = 10
"""With at least this many decks ``ci95`` allows for the decks' clusters, else plain Wilson."""

MAX_MESSAGES = 5
"""Fault messages kept per game (the counts are always complete)."""


# ---------------------------------------------------------------- specs and seeds


def split_specs(text: str) -> list[str]:
    """Split ``--bots`` at the commas outside quotes and parentheses; quotes are kept for
    :func:`normalize_spec`.

    >>> split_specs('strong,cmd:"python bot.py --x 1,2",greedy')
    ['strong', 'cmd:"python bot.py --x 1,2"', 'greedy']
    >>> split_specs("strong(samples=8,margin=0.5),basic")
    ['strong(samples=8,margin=0.5)', 'basic']
    """
    out: list[str] = []
    part: list[str] = []
    quote = ""
    depth = 0
    for ch in text:
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == "," and depth == 0:
            out.append("".join(part).strip())
            part = []
            continue
        part.append(ch)
    out.append("".join(part).strip())
    return out


_SETTINGS = re.compile(r"^([a-z][a-z0-9_-]*)\s*\((.*)\)$", re.S | re.I)


def level_settings(spec: str) -> tuple[str, dict[str, Any]]:
    """A built-in bot spec's level and settings: ``strong(samples=8)`` is the level
    ``strong`` built with ``samples=8`` (values are JSON: numbers, true, false, null;
    anything else is a string).

    >>> level_settings("strong(samples=8,own_policy=true)")
    ('strong', {'samples': 8, 'own_policy': True})
    >>> level_settings("greedy")
    ('greedy', {})
    """
    m = _SETTINGS.match(spec.strip())
    if m is None:
        return spec.strip().lower(), {}
    settings: dict[str, Any] = {}
    for item in split_specs(m.group(2)):
        if not item:
            continue
        key, eq, text = item.partition("=")
        if not eq or not key.strip().isidentifier():
            raise ValueError(f"bot setting {item!r} in {spec!r} is not of the form name=value")
        try:
            value: Any = json.loads(text)
        except json.JSONDecodeError:
            value = text.strip()
        settings[key.strip()] = value
    return m.group(1).lower(), settings


def normalize_spec(spec: str) -> str:
    """The canonical name of a bot spec: ``cmd:`` followed by the command, shell-quoted.

    >>> normalize_spec('cmd:"python bot.py --depth 2"')
    'cmd:python bot.py --depth 2'
    >>> normalize_spec(" Greedy ")
    'greedy'
    >>> normalize_spec("Strong( samples = 8 )")
    'strong(samples=8)'
    """
    spec = spec.strip()
    if spec.startswith("cmd:"):
        argv = shlex.split(spec[4:])
        if len(argv) == 1 and any(ch.isspace() for ch in argv[0]):
            argv = shlex.split(argv[0])  # the whole command was quoted: cmd:"python bot.py"
        if not argv:
            raise ValueError('cmd: needs a command, e.g. cmd:"python mybot.py"')
        return "cmd:" + shlex.join(argv)
    level, settings = level_settings(spec)
    level = level.lower()
    if not settings:
        return level
    inner = ",".join(f"{k}={json.dumps(v)}" for k, v in sorted(settings.items()))
    return f"{level}({inner})"


def fill_lineup(specs: Sequence[str], players: int) -> tuple[str, ...]:
    """One spec per seat: with fewer specs than players, the last one fills the other seats.

    >>> fill_lineup(["strong", "greedy"], 4)
    ('strong', 'greedy', 'greedy', 'greedy')
    """
    if not specs:
        raise ValueError("name at least one bot")
    if len(specs) > players:
        raise ValueError(f"{len(specs)} bots for {players} players: name at most one per seat")
    return (*specs, *[specs[-1]] * (players - len(specs)))


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed from the match seed and ``parts``, the same on every machine.

    >>> derive_seed(1, "deck", 0) == derive_seed(1, "deck", 0) != derive_seed(1, "deck", 1)
    True
    """
    text = ":".join(["rummykit-arena/1", str(seed), *map(str, parts)])
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


# ---------------------------------------------------------------- the match


@dataclass(frozen=True)
class ArenaConfig:
    """A match: ``games`` games of ``game`` for ``players``, ``lineup`` one bot spec per position.

    ``games`` is a whole number of decks: a multiple of ``players`` (one game
    per seat rotation of each deck). ``bot_timeout`` and ``bot_startup`` are
    the external bots' limits (seconds); ``records`` keeps every game's record.
    """

    game: str
    players: int
    lineup: tuple[str, ...]
    games: int
    seed: int
    bot_timeout: float = 5.0
    bot_startup: float = 10.0
    records: bool = False
    max_actions: int = 100_000

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise ValueError(f"unknown game {self.game!r}: the games are {', '.join(GAMES)}")
        low, high = PLAYERS[self.game]
        if not low <= self.players <= high:
            raise ValueError(f"{self.game} is for {low} to {high} players, not {self.players}")
        if len(self.lineup) != self.players:
            raise ValueError(f"the lineup names {len(self.lineup)} bots for {self.players} seats")
        if self.games < 0 or self.games % self.players:
            raise ValueError(f"games must be a multiple of the {self.players} seat rotations")
        known = levels(self.game)
        for spec in self.lineup:
            if spec.startswith("cmd:"):
                continue
            level, settings = level_settings(spec)
            if level not in known:
                names = ", ".join(known)
                raise ValueError(
                    f"no {self.game} bot called {level!r}: the levels are {names}, or cmd:COMMAND"
                )
            if settings:
                try:
                    make_bot(self.game, level, 0, **settings)
                except TypeError as exc:
                    raise ValueError(f"bot {spec!r}: {exc}") from None

    @property
    def decks(self) -> int:
        """How many decks the match deals (each played in every rotation)."""
        return self.games // self.players

    @property
    def bots(self) -> list[str]:
        """The distinct bot specs, in lineup order (the first is the Elo anchor)."""
        return list(dict.fromkeys(self.lineup))


def schedule(index: int, players: int) -> tuple[int, int]:
    """Game ``index``'s deck and seat rotation.

    >>> [schedule(i, 2) for i in range(4)]
    [(0, 0), (0, 1), (1, 0), (1, 1)]
    """
    return divmod(index, players)


def seat_bots(config: ArenaConfig, index: int) -> tuple[str, ...]:
    """The spec at each seat of game ``index``: position ``p`` sits at ``(p + rotation) % n``."""
    n = config.players
    _, rotation = schedule(index, n)
    return tuple(config.lineup[(seat - rotation) % n] for seat in range(n))


@dataclass(frozen=True)
class GameResult:
    """One game's outcome, as the arena keeps it.

    ``bots`` is the spec at each seat; ``winners`` the seats that won (ties
    share); ``scores`` per seat (Vatikanen: the game's zero-sum payments;
    Kontrakt: the total penalty of the seven deals). ``faults[seat]`` counts
    faults by kind, ``substituted[seat]`` the moves the random bot made for
    the seat. ``think``/``decisions`` give the seconds bots spent and their
    moves. ``error`` is set (and the game left out of the statistics) when
    the game could not be finished.
    """

    index: int
    deck: int
    rotation: int
    bots: tuple[str, ...]
    winners: tuple[int, ...]
    scores: tuple[float, ...]
    actions: int
    faults: tuple[Mapping[str, int], ...]
    substituted: tuple[int, ...]
    think: tuple[float, ...]
    decisions: tuple[int, ...]
    seconds: float
    messages: tuple[str, ...] = ()
    record: str | None = None
    error: str | None = None


class _Table:
    """The engine of one game, seen the way the arena needs it."""

    game: Any

    def view(self, seat: int) -> dict[str, Any]:
        view: dict[str, Any] = self.game.view(seat)
        return view

    def apply(self, action: Any) -> None:
        self.game.apply(action)

    def safe_action(self, seat: int) -> Any:
        raise NotImplementedError

    def outcome(self) -> tuple[tuple[int, ...], tuple[float, ...]]:
        raise NotImplementedError

    def record(self) -> str:
        text: str = self.game.to_record().dumps()
        return text


class _VatikanenTable(_Table):
    def __init__(self, names: Sequence[str], deck_seed: int) -> None:
        from rummykit.vatikanen import Game

        self.game = Game(names, seed=deck_seed)

    def safe_action(self, seat: int) -> Any:
        from rummykit.vatikanen import Draw, Pass

        return Draw(seat) if self.game.stock_size > 0 else Pass(seat)

    def outcome(self) -> tuple[tuple[int, ...], tuple[float, ...]]:
        end = self.game.end
        assert end is not None
        return tuple(end.winners), tuple(float(p) for p in end.payments)


class _KontraktTable(_Table):
    """Kontrakt (the engine writes each log entry once per viewer)."""

    def __init__(self, names: Sequence[str], deck_seed: int) -> None:
        from rummykit.kontrakt import KontraktGame

        self.game = KontraktGame(names, seed=deck_seed)

    def view(self, seat: int) -> dict[str, Any]:
        view: dict[str, Any] = self.game.view(seat)
        return view

    def safe_action(self, seat: int) -> Any:
        return self.game.legal_actions()[0]

    def outcome(self) -> tuple[tuple[int, ...], tuple[float, ...]]:
        return tuple(self.game.winners), tuple(float(t) for t in self.game.totals)


def _table(game: str, names: Sequence[str], deck_seed: int) -> _Table:
    if game == "vatikanen":
        return _VatikanenTable(names, deck_seed)
    return _KontraktTable(names, deck_seed)


def _player_name(spec: str) -> str:
    return spec if spec.startswith("cmd:") else f"bot:{spec}"


def _make_bot(config: ArenaConfig, spec: str, seed: int, index: int, names: list[str]) -> Bot:
    if spec.startswith("cmd:"):
        return ExternalBot(
            spec[4:],
            seed,
            timeout=config.bot_timeout,
            startup=config.bot_startup,
            game_id=index,
            players=names,
        )
    level, settings = level_settings(spec)
    return make_bot(config.game, level, seed, **settings)


def _rejections() -> tuple[type[Exception], ...]:
    from rummykit.melds import MeldError

    return (RuleError, MeldError, ValueError, TypeError, KeyError)


def play_game(config: ArenaConfig, index: int) -> GameResult:
    """Play game ``index`` of the match (see the module docstring) and return its result."""
    started = time.perf_counter()
    n = config.players
    deck, rotation = schedule(index, n)
    specs = seat_bots(config, index)
    names = [_player_name(s) for s in specs]
    table = _table(config.game, names, derive_seed(config.seed, "deck", deck))
    bots = [
        _make_bot(config, spec, derive_seed(config.seed, "bot", index, seat), index, names)
        for seat, spec in enumerate(specs)
    ]
    fallbacks: dict[int, Bot] = {}
    faults: list[dict[str, int]] = [{} for _ in range(n)]
    substituted = [0] * n
    given_up: set[int] = set()
    think = [0.0] * n
    decisions = [0] * n
    messages: list[str] = []
    rejected = _rejections()
    actions = 0
    error: str | None = None

    def fallback(seat: int, view: Mapping[str, Any]) -> None:
        substituted[seat] += 1
        if seat not in fallbacks:
            fb_seed = derive_seed(config.seed, "fallback", index, seat)
            fallbacks[seat] = make_bot(config.game, "random", fb_seed)
        try:
            table.apply(fallbacks[seat].choose(view))
        except Exception:  # the random bot failed too: the plainest legal action
            table.apply(table.safe_action(seat))

    try:
        while (seat := table.game.turn) is not None:
            if actions >= config.max_actions:
                raise RuntimeError(f"the game did not end within {config.max_actions} actions")
            actions += 1
            view = table.view(seat)
            if seat in given_up:
                fallback(seat, view)
                continue
            bot = bots[seat]
            fault: BotFault | None = None
            t0 = time.perf_counter()
            try:
                action = bot.choose(view)
            except BotFault as exc:
                fault = exc
            except Exception as exc:  # a bot's bug must not stop the match
                fault = BotFault("error", f"{type(exc).__name__}: {exc}")
            think[seat] += time.perf_counter() - t0
            decisions[seat] += 1
            if fault is None:
                try:
                    table.apply(action)
                    continue
                except rejected as exc:
                    fault = BotFault("illegal", str(exc))
            kinds = faults[seat]
            kinds[fault.kind] = kinds.get(fault.kind, 0) + 1
            if getattr(bot, "given_up", False):
                given_up.add(seat)
            if len(messages) < MAX_MESSAGES:
                messages.append(
                    f"game {index}, seat {seat} ({specs[seat]}): {fault.kind}: {fault.message};"
                    " a random legal action was played instead"
                    + (" (and for the rest of the game)" if seat in given_up else "")
                )
            fallback(seat, view)
        winners, scores = table.outcome()
        result = {"winners": list(winners), "scores": list(scores)}
        for seat, bot in enumerate(bots):
            if isinstance(bot, ExternalBot):
                bot.end(table.view(seat), result)
    except Exception as exc:
        error = f"{type(exc).__name__}: {exc}"
        winners, scores = (), ()
    finally:
        for bot in bots:
            if isinstance(bot, ExternalBot):
                bot.close()
    record = None
    if config.records:
        try:
            record = table.record()
        except Exception as exc:  # pragma: no cover - an engine that cannot record
            error = error or f"cannot write the record: {exc}"
    return GameResult(
        index=index,
        deck=deck,
        rotation=rotation,
        bots=specs,
        winners=winners,
        scores=scores,
        actions=actions,
        faults=tuple(faults),
        substituted=tuple(substituted),
        think=tuple(think),
        decisions=tuple(decisions),
        seconds=time.perf_counter() - started,
        messages=tuple(messages),
        record=record,
        error=error,
    )


def play_games(config: ArenaConfig, indices: Sequence[int]) -> list[GameResult]:
    """Games ``indices`` of the match, in order: the unit of work a worker gets."""
    return [play_game(config, i) for i in indices]


# ---------------------------------------------------------------- the summary


@dataclass
class _Tally:
    games: float = 0.0
    wins: float = 0.0
    scores: list[float] = field(default_factory=list)
    faults: dict[str, int] = field(default_factory=dict)
    substituted: int = 0
    think: float = 0.0
    decisions: int = 0
    errors: int = 0


def _better(game: str, a: float, b: float) -> float:
    """1 if score ``a`` beats ``b``, 1/2 if equal, else 0 (Kontrakt: lower is better)."""
    if a == b:
        return 0.5
    return float((a > b) if game == "vatikanen" else (a < b))


def summarize(
    config: ArenaConfig,
    results: Sequence[GameResult],
    *,
    seconds: float = 0.0,
) -> dict[str, Any]:
    """The match's JSON summary (the shape ``rummykit simulate --json`` prints).

    Per bot spec, over all the seats it held: ``games`` (seat-games), ``wins``
    (a tie for the win shares it: each of k winners gets 1/k), ``win_rate``,
    ``ci95`` (with at least :data:`MIN_CLUSTER_DECKS` decks, Wilson's interval
    widened by the design effect of the decks, :func:`~rummykit.arena_stats.clustered_rate`,
    else Wilson's; which is in ``ci95_method``, the effect in ``design_effect``),
    ``ci95_wilson``, ``mean_score`` and ``score_ci95``,
    ``elo`` (pairwise results by score, the first bot 1500), ``faults``,
    ``fault_kinds``, ``substituted_moves``, ``ms_per_move`` and ``errors``.
    """
    bots = config.bots
    tally = {b: _Tally() for b in bots}
    decks: dict[int, dict[str, list[float]]] = {}
    pairs: dict[tuple[str, str], list[float]] = {}
    for r in sorted(results, key=lambda r: r.index):
        for seat, spec in enumerate(r.bots):
            t = tally[spec]
            for kind, k in r.faults[seat].items():
                t.faults[kind] = t.faults.get(kind, 0) + k
            t.substituted += r.substituted[seat]
            t.think += r.think[seat]
            t.decisions += r.decisions[seat]
        if r.error is not None:
            for spec in set(r.bots):
                tally[spec].errors += 1
            continue
        cluster = decks.setdefault(r.deck, {b: [0.0, 0.0, 0.0] for b in bots})
        share = 1.0 / len(r.winners) if r.winners else 0.0
        for seat, spec in enumerate(r.bots):
            won = share if seat in r.winners else 0.0
            t = tally[spec]
            t.games += 1
            t.wins += won
            t.scores.append(r.scores[seat])
            c = cluster[spec]
            c[0] += 1
            c[1] += won
            c[2] += r.scores[seat]
        for i in range(len(r.bots)):
            for j in range(i + 1, len(r.bots)):
                a, b = r.bots[i], r.bots[j]
                if a == b:
                    continue
                s = _better(config.game, r.scores[i], r.scores[j])
                key, s = ((a, b), s) if (a, b) in pairs or (b, a) not in pairs else ((b, a), 1 - s)
                entry = pairs.setdefault(key, [0.0, 0.0])
                entry[0] += s
                entry[1] += 1
    clustered = len(decks) >= MIN_CLUSTER_DECKS
    elo = fit_elo(bots, {k: (v[0], v[1]) for k, v in pairs.items()})
    out: dict[str, Any] = {}
    for b in bots:
        t = tally[b]
        rate = t.wins / t.games if t.games else 0.0
        wilson_ci = wilson(t.wins, t.games)
        if clustered:
            clusters = [Cluster(*decks[d][b]) for d in sorted(decks)]
            lo, hi, deff = clustered_rate(clusters)
            ci, score_ci, method = (lo, hi), clustered_mean(clusters, t.scores), "deck-clustered"
        else:
            ci, score_ci, method, deff = wilson_ci, mean_interval(t.scores), "wilson", 1.0
        out[b] = {
            "games": int(t.games),
            "wins": _num(t.wins),
            "win_rate": _num(rate),
            "ci95": [_num(ci[0]), _num(ci[1])],
            "mean_score": _num(sum(t.scores) / len(t.scores)) if t.scores else 0.0,
            "ci95_method": method,
            "ci95_wilson": [_num(wilson_ci[0]), _num(wilson_ci[1])],
            "design_effect": round(deff, 3),
            "score_ci95": [_num(score_ci[0]), _num(score_ci[1])],
            "elo": round(elo.get(b, 1500.0), 1),
            "faults": sum(t.faults.values()),
            "fault_kinds": dict(sorted(t.faults.items())),
            "substituted_moves": t.substituted,
            "ms_per_move": round(1000 * t.think / t.decisions, 3) if t.decisions else 0.0,
            "errors": t.errors,
        }
    return {
        "game": config.game,
        "players": config.players,
        "games": sum(1 for r in results if r.error is None),
        "results": out,
        "seconds": round(seconds, 3),
    }


def _num(x: float) -> float:
    """A figure rounded for JSON (6 decimals), an int when whole."""
    r = round(x, 6)
    return int(r) if r == int(r) else r


TIMING_KEYS = ("ms_per_move",)
"""Keys of a results entry that measure time and so differ between runs."""


def comparable(summary: Mapping[str, Any]) -> dict[str, Any]:
    """The summary without what depends on the machine (seconds, think times): for checks."""
    out = json.loads(json.dumps(summary))
    out.pop("seconds", None)
    for entry in out["results"].values():
        for key in TIMING_KEYS:
            entry.pop(key, None)
    return dict(out)


ProgressFn = Callable[[int, int], None]
"""Called with (games done, games in all) as games finish."""
