"""Set up a game for terminal play: names, bots, adapter and controller, from the registry.

``lang`` (``sv`` or ``en``) is the language the person reads; the command line
passes ``--lang`` (default: ``RUMMYKIT_LANG``, else the locale).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rummykit import games
from rummykit.bots import Bot
from rummykit.bots.levels import needs_settings
from rummykit.bots.names import bot_names
from rummykit.errors import MessageError
from rummykit.game import Game
from rummykit.i18n import DEFAULT, N_, translate
from rummykit.record import RecordError, load_record
from rummykit.tui.controller import Controller, GameAdapter

__all__ = ["bot_levels", "make_controller", "resume_controller"]


def bot_levels(game: str, spec: str | None, bots: int) -> list[str]:
    """The level of each bot from ``--bots`` (one level for all, or one per bot).

    >>> bot_levels("vatikanen", "random,greedy", 2)
    ['random', 'greedy']
    >>> bot_levels("kontrakt", None, 3)
    ['basic', 'basic', 'basic']
    """
    known = games.get(game)
    if not spec:
        return [known.default_bot] * bots
    wanted = [s.strip() for s in spec.split(",") if s.strip()]
    if len(wanted) == 1:
        wanted *= bots
    if len(wanted) != bots:
        raise MessageError(N_("--bots names one level, or one for each of the {n} bots"), n=bots)
    levels = [level for level in known.bot_levels() if not needs_settings(game, level)]
    for level in wanted:
        if level in known.bot_levels() and level not in levels:
            raise MessageError(
                N_(
                    "the {level} bot needs its settings ({settings}), which a table here"
                    " cannot give it: the levels to play against are {levels}"
                ),
                level=level,
                settings=", ".join(needs_settings(game, level)),
                levels=", ".join(levels),
            )
        if level not in levels:
            raise MessageError(
                N_("no {game} bot called {level}: the levels are {levels}"),
                game=game,
                level=repr(level),
                levels=", ".join(levels),
            )
    return wanted


def make_controller(
    game: str = "vatikanen",
    *,
    players: int | None = None,
    seed: int | None = None,
    bots: str | Sequence[str] | None = None,
    name: str | None = None,
    records: str | Path = "records",
    lang: str = DEFAULT,
) -> Controller[Game]:
    """A controller for ``name`` (default: "You" in ``lang``) at seat 0 against bots,
    speaking ``lang``; ValueError for a bad setup."""
    spec = games.get(game)
    n = spec.default_players if players is None else players
    spec.check_players(n)
    wanted = bots if isinstance(bots, str) or bots is None else ",".join(bots)
    chosen = bot_levels(game, wanted, n - 1)
    bot_seed = None if seed is None else seed * 1000
    seats: list[Bot | None] = [None]
    for i, level in enumerate(chosen, start=1):
        seats.append(spec.make_bot(level, None if bot_seed is None else bot_seed + i))
    person = translate("You", lang) if name is None else name
    names = [person, *bot_names(n - 1, taken=[person])]
    adapter = spec.terminal_adapter()(names, seats, seed=seed)
    assert isinstance(adapter, GameAdapter)
    adapter.lang = lang
    return Controller(adapter, Path(records))


def resume_controller(
    path: str | Path, *, records: str | Path | None = None, lang: str = DEFAULT
) -> Controller[Game]:
    """A controller for the game a record holds, where it ends (``play --resume``).

    The record's ``terminal`` field (written by terminal play, docs/record.md)
    says which seat is the person's, the bots' levels and the seeds, so that
    the game carries on exactly as it would have; a record without it (from
    ``simulate``, or written by hand) is played from seat 0 against the
    game's default bots. The record goes on being saved to ``path``.
    ValueError (a RecordError, or an illegal action) when it cannot be resumed.
    """
    from rummykit.record import IllegalAction

    record = load_record(path)
    spec = games.get(record.game)
    state = record.extra.get("terminal")
    if not isinstance(state, dict):
        state = {}
    n = len(record.players)
    person = state.get("person", 0)
    if not isinstance(person, int) or not 0 <= person < n:
        raise RecordError(N_("the record's terminal field names no seat of its {n} players"), n=n)
    wanted = state.get("bots")
    levels = wanted if isinstance(wanted, list) and len(wanted) == n else [None] * n
    seed = state.get("seed")
    seats: list[Bot | None] = []
    for i in range(n):
        if i == person:
            seats.append(None)
            continue
        given = levels[i]
        level = given if isinstance(given, str) else spec.default_bot
        bot_seed = None if not isinstance(seed, int) else seed * 1000 + i
        seats.append(spec.make_bot(level, bot_seed))
    adapter_class = spec.terminal_adapter()
    assert issubclass(adapter_class, GameAdapter)
    try:
        adapter = adapter_class.from_saved(record, seats, state)
    except IllegalAction as exc:
        raise RecordError(
            N_("the record cannot be resumed: game {deal}, action {action} breaks {rule}: {reason}")
            if spec.parts_are_games  # a session's record: its deals are games
            else N_(
                "the record cannot be resumed: deal {deal}, action {action} breaks {rule}: {reason}"
            ),
            deal=exc.deal + 1,
            action=exc.action + 1,
            rule=exc.rule,
            reason=exc.translatable,
        ) from None
    adapter.seat = person
    adapter.lang = lang
    folder = Path(records) if records is not None else Path(path).parent
    controller = Controller(adapter, folder)
    controller.resume_from(Path(path))
    return controller
