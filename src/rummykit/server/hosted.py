"""A table of the game server, as data: its settings, its seats, its game, its version.

A :class:`HostedTable` changes one event at a time — a seat taken (``join``),
an action of a seat (``action``), the next game (``next``) — and each event
raises its version by one. Live, the room hands the engine an action it has
parsed once (:meth:`HostedTable.take`); the event stored is what the engine
returns, in the record's form (:meth:`rummykit.game.Event.record_json`), so
that a rebuild (:meth:`HostedTable.replay`) takes each stored action again
without searching: a Vatikanen play carries the table it made.

A finished unit hands on what the next starts from
(:meth:`rummykit.games.spec.GameSpec.carried`), written into the ``next``
event, so a table is rebuilt from its seats and its current unit only: a
year-long Vatikanen session costs what its current game costs. Nothing here
does any input or output.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from rummykit import games
from rummykit.bots.names import BOT_NAMES, free_bot_name
from rummykit.game import AnyAction, AnyEvent, Game
from rummykit.games.spec import GameSpec, OptionValue
from rummykit.record import DealRecord, GameRecord
from rummykit.server.lookalike import same_name
from rummykit.server.protocol import dumps

__all__ = [
    "BOT_NAMES",
    "HostedTable",
    "NameTaken",
    "SeatSpec",
    "Status",
    "TableSettings",
    "event_json",
    "hash_token",
    "new_token",
]


class NameTaken(ValueError):
    """A player at the table already has the name a joining player asks for."""


Status = Literal["waiting", "playing", "over"]


def new_token() -> str:
    """A seat's secret: 192 random bits as URL-safe text (32 characters)."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """What the server keeps of a token: its SHA-256, as hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """One seat as the table was made: ``human``, or ``bot`` of a level."""

    kind: Literal["human", "bot"]
    level: str | None = None

    @classmethod
    def parse(cls, text: str, spec: GameSpec) -> SeatSpec:
        """``human`` or ``bot:LEVEL`` (a level of the game); ValueError naming the levels."""
        if text == "human":
            return cls("human")
        kind, _, level = text.partition(":")
        if kind != "bot" or not level:
            raise ValueError(f"a seat is 'human' or 'bot:LEVEL', not {text!r}")
        levels = spec.bot_levels()
        if level not in levels:
            raise ValueError(f"no {spec.name} bot called {level!r}: the levels are {levels}")
        return cls("bot", level)

    def to_json(self) -> str:
        """The seat as the create request writes it."""
        return "human" if self.kind == "human" else f"bot:{self.level}"


@dataclass(frozen=True)
class TableSettings:
    """What a table is made with, fixed for its life.

    ``seed`` shuffles every deal; ``clock`` is the turn clock in seconds (0:
    none; at zero the seat's bot plays that turn); ``grace`` is how long a
    player may be away before a bot plays for them, if ``stand_in`` (a slow
    table may rather wait for its players). A ``rated`` table is one rated game
    between accounts (docs/ratings.md): each human seat is taken by a signed-in
    account, and once its game is over (a Vatikanen session of one game, V16; a
    Kontrakt game, K4) no next one is dealt.
    """

    game: str
    seats: tuple[SeatSpec, ...]
    options: Mapping[str, OptionValue]
    seed: int
    clock: int = 0
    grace: int = 60
    stand_in: bool = True
    rated: bool = False

    def to_json(self) -> dict[str, object]:
        """As the store keeps it."""
        return {
            "game": self.game,
            "seats": [s.to_json() for s in self.seats],
            "options": dict(self.options),
            "seed": self.seed,
            "clock": self.clock,
            "grace": self.grace,
            "stand_in": self.stand_in,
            "rated": self.rated,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> TableSettings:
        """Back from the store."""
        spec = games.get(str(data["game"]))
        seats = data["seats"]
        options = data["options"]
        assert isinstance(seats, list) and isinstance(options, dict)
        seed, clock, grace = data["seed"], data.get("clock", 0), data.get("grace", 60)
        assert isinstance(seed, int) and isinstance(clock, int) and isinstance(grace, int)
        return cls(
            game=spec.name,
            seats=tuple(SeatSpec.parse(str(s), spec) for s in seats),
            options=spec.check_options(options),
            seed=seed,
            clock=clock,
            grace=grace,
            stand_in=bool(data.get("stand_in", True)),
            rated=bool(data.get("rated", False)),
        )


@dataclass
class HostedTable:
    """One table: settings, seat names and token hashes, the game, the version.

    ``base`` is the version of the event the current unit started at (its
    ``next``, or 0): a rebuild needs the seats' events and those from
    ``base`` on. ``record_deals`` are the deals of finished units that the
    current unit's record goes on from (a Vatikanen session's earlier games),
    kept by the store and given back when a record is asked for.
    """

    id: str
    settings: TableSettings
    created: float
    version: int = 0
    names: list[str | None] = field(default_factory=list)
    token_hashes: list[str | None] = field(default_factory=list)
    accounts: list[str | None] = field(default_factory=list)
    game: Game | None = None
    games_played: int = 0
    base: int = 0

    def __post_init__(self) -> None:
        n = len(self.settings.seats)
        if not self.names:
            self.names = [
                BOT_NAMES[i % len(BOT_NAMES)] if s.kind == "bot" else None
                for i, s in enumerate(self.settings.seats)
            ]
            self.token_hashes = [None] * n
        if not self.accounts:
            self.accounts = [None] * n

    @property
    def spec(self) -> GameSpec:
        """The table's game, from the registry."""
        return games.get(self.settings.game)

    @property
    def n_players(self) -> int:
        """How many seats."""
        return len(self.settings.seats)

    @property
    def human_seats(self) -> int:
        """How many seats are people's (their joins are the table's first events)."""
        return sum(1 for s in self.settings.seats if s.kind == "human")

    @property
    def status(self) -> Status:
        """``waiting`` for players, ``playing``, or ``over`` (until someone asks for more)."""
        if self.game is None:
            return "waiting"
        return "over" if self.game.over else "playing"

    def is_bot(self, seat: int) -> bool:
        """True for a bot's seat."""
        return self.settings.seats[seat].kind == "bot"

    def free_seats(self) -> list[int]:
        """The human seats nobody has taken."""
        return [
            s
            for s, spec in enumerate(self.settings.seats)
            if spec.kind == "human" and self.token_hashes[s] is None
        ]

    def name_taken(self, name: str) -> bool:
        """Whether a player at the table already has ``name`` or one that looks like it
        (case, spaces, accents and confusable letters aside: :mod:`.lookalike`); a bot
        gives its name up to a player who joins with it."""
        return any(
            not self.is_bot(s) and (have := self.names[s]) is not None and same_name(have, name)
            for s in range(self.n_players)
        )

    def seat_of(self, token: str) -> int | None:
        """The seat whose token this is (compared in constant time), or None."""
        digest = hash_token(token)
        found = None
        for seat, known in enumerate(self.token_hashes):
            if known is not None and hmac.compare_digest(digest, known):
                found = seat
        return found

    # ------------------------------------------------------------ changes, live

    def join(
        self, seat: int, name: str, token_hash: str, account: str | None = None
    ) -> dict[str, object]:
        """Take a free human seat (by a signed-in ``account``, if any); the game starts when
        the last is taken. The event's data."""
        data: dict[str, object] = {"seat": seat, "name": name, "token_hash": token_hash}
        if account is not None:
            data["account"] = account
        self._join(data)
        self.version += 1
        return data

    def take(self, action: AnyAction) -> AnyEvent:
        """The engine takes ``action`` (checking it, once: RuleError or ActionError change
        nothing); the version goes up by one. The event, whose ``record_json()`` is stored."""
        assert self.game is not None, "no game is being played"
        event = self.game.apply(action)
        self.version += 1
        return event

    def next_unit(self, by: int) -> tuple[dict[str, object], GameRecord]:
        """Start the next unit after a finished one (V16's next game, a new Kontrakt game).

        Returns the ``next`` event's data and the finished unit's record (the
        store keeps its deals when the new unit goes on the same record).
        """
        game = self.game
        assert game is not None and game.over, "the game is not over"
        finished = game.to_record()
        carried = game.carried()
        data: dict[str, object] = {"by": by, "carried": carried, "unit": self.games_played}
        self._next(data)
        self.version += 1
        self.base = self.version
        return data, finished

    # ------------------------------------------------------------ changes, stored

    def replay(self, version: int, kind: str, data: Mapping[str, object]) -> None:
        """Apply stored event ``version`` (a rebuild). Events may be skipped only between
        the seats' joins and the current unit's ``next`` (see ``base``)."""
        if kind == "join":
            self._join(data)
        elif kind == "action":
            assert self.game is not None, "no game is being played"
            self.game.apply(self.spec.action_from_json(data["action"]))
        elif kind == "next":
            self._next(data)
            self.base = version
        else:
            raise ValueError(f"unknown table event {kind!r}")
        self.version = version

    def _join(self, data: Mapping[str, object]) -> None:
        seat, name, digest = data["seat"], data["name"], data["token_hash"]
        assert isinstance(seat, int) and isinstance(name, str) and isinstance(digest, str)
        assert seat in self.free_seats(), f"seat {seat} is not free"
        self.names[seat] = name
        self.token_hashes[seat] = digest
        account = data.get("account")
        self.accounts[seat] = account if isinstance(account, str) else None
        for other in range(self.n_players):  # names are unique at a table
            if self.is_bot(other) and same_name(self.names[other] or "", name):
                self.names[other] = free_bot_name((n for n in self.names if n), same_name)
        if not self.free_seats():
            self._start(None, 0)

    def _next(self, data: Mapping[str, object]) -> None:
        carried = data.get("carried")
        if not isinstance(carried, dict):  # a table stored before units were carried
            self._next_v1()
            return
        unit = data.get("unit")
        assert isinstance(unit, int)
        self._start(carried, unit)

    def _start(self, carried: Mapping[str, object] | None, unit: int) -> None:
        names = [n or "" for n in self.names]
        seed = self.settings.seed if unit == 0 else _derived(self.settings.seed, unit)
        self.game = self.spec.new(
            names, seed=seed, options=self.settings.options, carried=carried or None
        )
        self.games_played = unit + 1

    def _next_v1(self) -> None:
        """The next unit as tables stored before version 2 of the schema made it: the
        unit's next part where it goes on (a Vatikanen session's next game, V16), else a
        new unit."""
        game = self.game
        assert game is not None
        if game.can_next_part():
            game.next_part()
        else:
            self._start(None, self.games_played)
            return
        self.games_played += 1

    # ------------------------------------------------------------ what others see

    def seats_json(
        self, connected: Sequence[bool], stand_ins: Sequence[bool]
    ) -> list[dict[str, object]]:
        """The summary's list of seats."""
        out: list[dict[str, object]] = []
        for seat, spec in enumerate(self.settings.seats):
            entry: dict[str, object] = {
                "seat": seat,
                "kind": spec.kind,
                "name": self.names[seat],
                "taken": spec.kind == "bot" or self.token_hashes[seat] is not None,
                "connected": spec.kind == "bot" or connected[seat],
                "stand_in": spec.kind == "human" and stand_ins[seat],
            }
            if spec.kind == "bot":
                entry["level"] = spec.level
            out.append(entry)
        return out

    def summary(
        self,
        connected: Sequence[bool],
        stand_ins: Sequence[bool],
        waiting_for_players: bool = False,
    ) -> dict[str, object]:
        """The table's summary (PROTOCOL.md), with what rummykit adds (``waiting_for_players``:
        the game waits for a player to come back, see the room)."""
        game = self.game
        return {
            "id": self.id,
            "game": self.settings.game,
            "status": self.status,
            "version": self.version,
            "options": dict(self.settings.options),
            "seats": self.seats_json(connected, stand_ins),
            "created": self.created,
            "clock": self.settings.clock,
            "grace": self.settings.grace,
            "stand_in": self.settings.stand_in,
            "rated": self.settings.rated,
            "games_played": self.games_played,
            "to_act": None if game is None else game.to_act,
            "result": None if game is None or (r := game.result()) is None else r.to_json(),
            "waiting_for_players": waiting_for_players,
        }

    def record(self, earlier: Sequence[DealRecord] = ()) -> GameRecord:
        """The record of the unit at the table (secret while it runs: it holds the decks),
        after ``earlier`` deals of the same record (a session's finished games)."""
        assert self.game is not None
        current = self.game.to_record()
        if not earlier:
            return current
        return GameRecord(
            game=current.game,
            players=current.players,
            deals=(*earlier, *current.deals),
            options=current.options,
            result=current.result,
        )


def _derived(seed: int, number: int) -> int:
    """The seed of the table's unit ``number`` (from 0) after the first."""
    text = f"rummykit-table:{seed}:{number}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def event_json(data: Mapping[str, object]) -> str:
    """An event's data as stored (compact JSON)."""
    return dumps(data)
