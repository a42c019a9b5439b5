"""The arena: bots play many games against each other, with duplicate deals.

A match is described by an :class:`ArenaConfig`: the game, the number of
players, the *lineup* (one bot spec per position) and the number of games.
Game ``i`` is played from deck ``i // n`` in seat rotation ``i % n``
(:func:`schedule`): the bot at lineup position ``p`` sits at seat
``(p + rotation) % n``, so every deck is played once with every bot in every
seat and the luck of the deal cancels (duplicate deals, as in bridge).

All randomness of game ``i`` derives from the match seed and ``i`` alone
(:func:`~rummykit.arena.specs.derive_seed`): the deck (or, in Kontrakt, the
seven decks and any reshuffle) from ``(seed, "deck", deck)``, each bot's seed
from ``(seed, "bot", i, seat)``. Never from a worker or the order games finish
in, so one worker, many workers or a Ray cluster give the same results.

Every game is held through the one game interface (:class:`rummykit.game.Game`),
found by name in the registry. Every answer of every bot is checked by the
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

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rummykit import games
from rummykit.arena.specs import derive_seed, level_settings
from rummykit.bots.base import Bot
from rummykit.bots.external import BotFault, ExternalBot
from rummykit.bots.levels import check_settings
from rummykit.errors import MessageError
from rummykit.games.spec import GameSpec
from rummykit.i18n import N_

__all__ = [
    "ArenaConfig",
    "GameResult",
    "play_game",
    "play_games",
    "schedule",
    "seat_bots",
]

MAX_MESSAGES = 5
"""Fault messages kept per game (the counts are always complete)."""


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
        spec = games.get(self.game)
        spec.check_players(self.players)
        if len(self.lineup) != self.players:
            raise MessageError(
                N_("the lineup names {n} bots for {players} seats"),
                n=len(self.lineup),
                players=self.players,
            )
        if self.games < 0 or self.games % self.players:
            raise MessageError(
                N_("games must be a multiple of the {players} seat rotations"),
                players=self.players,
            )
        known = spec.bot_levels()
        for bot in self.lineup:
            if bot.startswith("cmd:"):
                continue
            level, settings = level_settings(bot)
            if level not in known:
                raise MessageError(
                    N_("no {game} bot called {level}: the levels are {levels}, or cmd:COMMAND"),
                    game=self.game,
                    level=repr(level),
                    levels=", ".join(known),
                )
            # every setting's name, type and range, and the settings a level needs
            # (ValueError naming the setting), before any game is played
            check_settings(self.game, level, settings)
            if settings:
                spec.make_bot(level, 0, **settings)  # a file a setting names is read here

    @property
    def spec(self) -> GameSpec:
        """The game as the registry describes it."""
        return games.get(self.game)

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
    moves; ``think_cpu`` the CPU seconds of this process's thread meanwhile (the
    in-process bots' own cost, whatever else the machine runs; for a ``cmd:`` bot
    only the arena's side of the exchange). ``error`` is set (and the game left out
    of the statistics) when the game could not be finished.
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
    think_cpu: tuple[float, ...] = ()


def _player_name(spec: str) -> str:
    return spec if spec.startswith("cmd:") else f"bot:{spec}"


def player_names(specs: Sequence[str]) -> list[str]:
    """The record's name of each seat: its bot (``bot:greedy``, ``cmd:...``), and, when
    several seats play the same bot, its seat after it, so that a record (and its
    review or replay) names every seat apart.

    >>> player_names(["greedy", "random", "greedy"])
    ['bot:greedy #0', 'bot:random', 'bot:greedy #2']
    """
    names = [_player_name(s) for s in specs]
    return [f"{n} #{seat}" if names.count(n) > 1 else n for seat, n in enumerate(names)]


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
    return config.spec.make_bot(level, seed, **settings)


def play_game(config: ArenaConfig, index: int) -> GameResult:
    """Play game ``index`` of the match (see the module docstring) and return its result."""
    started = time.perf_counter()
    n = config.players
    deck, rotation = schedule(index, n)
    specs = seat_bots(config, index)
    names = player_names(specs)
    game = config.spec.new(names, seed=derive_seed(config.seed, "deck", deck))
    bots = [
        _make_bot(config, spec, derive_seed(config.seed, "bot", index, seat), index, names)
        for seat, spec in enumerate(specs)
    ]
    fallbacks: dict[int, Bot] = {}
    faults: list[dict[str, int]] = [{} for _ in range(n)]
    substituted = [0] * n
    given_up: set[int] = set()
    think = [0.0] * n
    think_cpu = [0.0] * n
    decisions = [0] * n
    messages: list[str] = []
    actions = 0
    error: str | None = None

    def fallback(seat: int, view: Mapping[str, object]) -> None:
        substituted[seat] += 1
        if seat not in fallbacks:
            fb_seed = derive_seed(config.seed, "fallback", index, seat)
            fallbacks[seat] = config.spec.make_bot("random", fb_seed)
        try:
            game.apply(fallbacks[seat].choose(view))
        except Exception:  # the random bot failed too: the plainest legal action
            game.apply(game.suggested_actions()[0])

    try:
        while (seat := game.to_act) is not None:
            if actions >= config.max_actions:
                raise RuntimeError(f"the game did not end within {config.max_actions} actions")
            actions += 1
            view = game.view(seat)
            if seat in given_up:
                fallback(seat, view)
                continue
            bot = bots[seat]
            fault: BotFault | None = None
            t0, c0 = time.perf_counter(), time.thread_time()
            try:
                action = bot.choose(view)
            except BotFault as exc:
                fault = exc
            except Exception as exc:  # a bot's bug must not stop the match
                fault = BotFault("error", f"{type(exc).__name__}: {exc}")
            think[seat] += time.perf_counter() - t0
            think_cpu[seat] += time.thread_time() - c0
            decisions[seat] += 1
            if fault is None:
                try:
                    game.apply(action)
                    continue
                except ValueError as exc:  # RuleError, ActionError: the action is refused
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
        outcome = game.result()
        assert outcome is not None
        winners, scores = outcome.winners, outcome.scores
        for seat, bot in enumerate(bots):
            if isinstance(bot, ExternalBot):
                bot.end(game.view(seat), {"winners": list(winners), "scores": list(scores)})
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
            record = game.to_record().dumps()
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
        think_cpu=tuple(think_cpu),
        decisions=tuple(decisions),
        seconds=time.perf_counter() - started,
        messages=tuple(messages),
        record=record,
        error=error,
    )


def play_games(config: ArenaConfig, indices: Sequence[int]) -> list[GameResult]:
    """Games ``indices`` of the match, in order: the unit of work a worker gets."""
    return [play_game(config, i) for i in indices]
