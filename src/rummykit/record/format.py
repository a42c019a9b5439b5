"""The record format (RECORD.md): a whole game as one JSON document, read and written.

A record holds the seats, every shuffled deck and every action.
:func:`load_record` reads one (raising :class:`RecordError` for anything
that is not a record at all); the game found by name in the registry says
which deck a deal uses. Replaying and rebuilding a record is the game's own
work (:meth:`rummykit.games.GameSpec.from_record`, :mod:`rummykit.record.replay`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from rummykit.cards import Card
from rummykit.errors import MessageError, RuleError, message_of
from rummykit.i18n import N_, Message

__all__ = [
    "FORMAT",
    "DealRecord",
    "GameRecord",
    "IllegalAction",
    "RecordError",
    "load_record",
    "parse_record",
    "read_card",
    "read_cards",
]

FORMAT = "rummykit-record/1"

_CARD_FIELDS = ("add", "card", "as")
_KNOWN = ("format", "game", "players", "options", "deals", "result")
"""The top-level fields RECORD.md defines; others are kept in ``GameRecord.extra``."""
_MELD_FIELDS = ("table", "melds")


class RecordError(MessageError):
    """A document that is not a game record: bad JSON, unknown cards, a wrong deck (a
    :class:`ValueError`, its message to read in any language)."""


class IllegalAction(RuleError):
    """The first action of a record that breaks a rule: where it is, and which rule.

    ``deal`` and ``action`` count from 0, as RECORD.md's ``replay --json`` does.
    The message is the engine's (a :class:`~rummykit.i18n.Message`, to read in
    any language with :meth:`translated`), or a template with ``params``.
    """

    def __init__(
        self, deal: int, action: int, rule: str, message: str | Message, /, **params: object
    ) -> None:
        super().__init__(rule, message, **params)
        self.deal = deal
        self.action = action


def read_card(text: object) -> Card:
    """A card from a record's text, or :class:`RecordError`."""
    if not isinstance(text, str):
        raise RecordError(
            N_("{text} is not a card: cards are written as text like '7h'"), text=repr(text)
        )
    try:
        return Card.parse(text)
    except ValueError as exc:
        raise RecordError(message_of(exc)) from None


def read_cards(texts: object) -> list[Card]:
    """A list of cards from a record, or :class:`RecordError`."""
    if not isinstance(texts, list):
        raise RecordError(N_("{text} is not a list of cards"), text=repr(texts))
    return [read_card(t) for t in texts]


@dataclass(frozen=True)
class DealRecord:
    """One deal: the dealer's seat, the whole deck top first, and the actions in order.

    Actions stay the JSON objects of RECORD.md; the game reads them.
    """

    dealer: int
    deck: tuple[Card, ...]
    actions: tuple[Mapping[str, object], ...] = ()

    def to_json(self) -> dict[str, object]:
        """The deal as RECORD.md JSON."""
        return {
            "dealer": self.dealer,
            "deck": [str(c) for c in self.deck],
            "actions": [dict(a) for a in self.actions],
        }


@dataclass(frozen=True)
class GameRecord:
    """A whole game as RECORD.md describes it.

    ``extra`` holds the document's other top-level fields, kept as read and
    written back (RECORD.md: readers ignore what they do not know); the
    terminal writes its ``terminal`` field there (docs/record.md).
    """

    game: str
    players: tuple[str, ...]
    deals: tuple[DealRecord, ...]
    options: Mapping[str, object] = field(default_factory=dict)
    result: Mapping[str, object] | None = None
    extra: Mapping[str, object] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        """The record as one JSON object."""
        doc: dict[str, object] = {
            "format": FORMAT,
            "game": self.game,
            "players": list(self.players),
            "options": dict(self.options),
            "deals": [d.to_json() for d in self.deals],
        }
        if self.result is not None:
            doc["result"] = dict(self.result)
        for key, value in self.extra.items():
            doc.setdefault(key, value)
        return doc

    def dumps(self) -> str:
        """The record as JSON text, one action per line for readable diffs."""
        doc = self.to_json()
        del doc["deals"]
        head = json.dumps(doc, ensure_ascii=False)[:-1]
        parts = []
        for deal in self.deals:
            actions = ",\n        ".join(
                json.dumps(dict(a), ensure_ascii=False) for a in deal.actions
            )
            parts.append(
                f'    {{"dealer": {deal.dealer},\n'
                f'     "deck": {json.dumps([str(c) for c in deal.deck])},\n'
                f'     "actions": [\n        {actions}\n     ]}}'
            )
        return head + ',\n  "deals": [\n' + ",\n".join(parts) + "\n  ]}\n"

    def save(self, path: str | Path) -> Path:
        """Write the record to ``path`` (folders are made) and return it."""
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(self.dumps(), encoding="utf-8")
        return target


def _check_action(action: object, where: Message) -> Mapping[str, object]:
    """``action`` as a record's action object; RecordError naming ``where`` and the field."""
    if not isinstance(action, dict):
        raise RecordError(N_("{where} is not a JSON object"), where=where)
    seat = action.get("seat")
    if (
        not isinstance(seat, int)
        or isinstance(seat, bool)
        or not isinstance(action.get("type"), str)
    ):
        raise RecordError(N_("{where} needs an integer 'seat' and a text 'type'"), where=where)
    for key in _CARD_FIELDS:
        if key in action:
            value = action[key]
            try:
                read_cards(value) if isinstance(value, list) else read_card(value)
            except RecordError as exc:
                raise RecordError(
                    N_("{where}, field '{key}': {error}"),
                    where=where,
                    key=key,
                    error=exc.translatable,
                ) from None
    for key in _MELD_FIELDS:
        if key in action:
            melds = action[key]
            if not isinstance(melds, list):
                raise RecordError(
                    N_("{where}, field '{key}': it must be a list of melds"), where=where, key=key
                )
            for m, meld in enumerate(melds):
                try:
                    read_cards(meld)
                except RecordError as exc:
                    raise RecordError(
                        N_("{where}, field '{key}', meld {meld}: {error}"),
                        where=where,
                        key=key,
                        meld=m + 1,
                        error=exc.translatable,
                    ) from None
    return action


def _deck_problem(deck: list[Card], expected: Counter[Card], title: str) -> Message | None:
    """What is wrong with a deck of the right size, by card; None when it is the game's deck."""
    have = Counter(deck)
    if have == expected:
        return None
    extra = sorted(have - expected, key=str)
    short = sorted(expected - have, key=str)

    def copies(cards: list[Card], counts: Counter[Card]) -> Message:
        parts = [
            Message(N_("{card} ({have} of {of})"), card=str(c), have=counts[c], of=expected[c])
            for c in cards[:5]
        ]
        out = parts[0]
        for part in parts[1:]:
            out = Message("{first}, {second}", first=out, second=part)
        return out

    if extra and short:
        return Message(
            N_("the deck is not {game}'s deck: it has too many of {extra} and too few of {short}"),
            game=title,
            extra=copies(extra, have),
            short=copies(short, have),
        )
    if extra:
        return Message(
            N_("the deck is not {game}'s deck: it has too many of {extra}"),
            game=title,
            extra=copies(extra, have),
        )
    return Message(
        N_("the deck is not {game}'s deck: it has too few of {short}"),
        game=title,
        short=copies(short, have),
    )


def parse_record(data: object) -> GameRecord:
    """A :class:`GameRecord` from decoded JSON; :class:`RecordError` if it is not one."""
    if not isinstance(data, dict):
        raise RecordError(N_("a record is one JSON object"))
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT:
        raise RecordError(
            N_("unknown format {format}: expected {expected}"),
            format=repr(fmt),
            expected=repr(FORMAT),
        )
    from rummykit import games

    game = data.get("game")
    if not isinstance(game, str):
        raise RecordError(
            N_("a record names its game: one of {games}"), games=", ".join(games.names())
        )
    try:
        spec = games.get(game)
    except ValueError as exc:
        raise RecordError(message_of(exc)) from None
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError(N_("'players' must be a list of names"))
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RecordError(N_("'options' must be a JSON object"))
    try:
        spec.check_players(len(players))
        expected = Counter(spec.deck(len(players), spec.check_options(options)))
    except RuleError as exc:
        raise RecordError(
            Message("{text} ({rule})", text=exc.translatable, rule=exc.rule)
        ) from None
    except ValueError as exc:
        raise RecordError(message_of(exc)) from None
    size = sum(expected.values())
    raw_deals = data.get("deals")
    if not isinstance(raw_deals, list):
        raise RecordError(N_("'deals' must be a list"))
    deals = []
    n = len(players)
    for i, raw in enumerate(raw_deals):
        where = Message(N_("deal {deal}"), deal=i + 1)
        if not isinstance(raw, dict):
            raise RecordError(N_("{where} is not a JSON object"), where=where)
        dealer = raw.get("dealer")
        if dealer is None:
            raise RecordError(
                N_("{where} has no 'dealer': give the dealer's seat (0 to {last})"),
                where=where,
                last=n - 1,
            )
        if not isinstance(dealer, int) or isinstance(dealer, bool):
            raise RecordError(
                N_("{where}: 'dealer' is a seat number (0 to {last}), not {dealer}"),
                where=where,
                last=n - 1,
                dealer=repr(dealer),
            )
        if not 0 <= dealer < n:
            raise RecordError(
                N_(
                    "{where}: the dealer is seat {dealer}, but the record names {n} players"
                    " (seats 0 to {last})"
                ),
                where=where,
                dealer=dealer,
                n=n,
                last=n - 1,
            )
        try:
            deck = read_cards(raw.get("deck"))
        except RecordError as exc:
            raise RecordError(
                N_("{where}, field 'deck': {error}"), where=where, error=exc.translatable
            ) from None
        if len(deck) != size:
            raise RecordError(
                N_("{where}: the deck has {have} cards, {game} uses {size}"),
                where=where,
                have=len(deck),
                game=game,
                size=size,
            )
        problem = _deck_problem(deck, expected, game)
        if problem is not None:
            raise RecordError("{where}: {problem}", where=where, problem=problem)
        actions = raw.get("actions", [])
        if not isinstance(actions, list):
            raise RecordError(N_("{where}: 'actions' must be a list"), where=where)
        checked = tuple(
            _check_action(a, Message(N_("deal {deal}, action {action}"), deal=i + 1, action=j + 1))
            for j, a in enumerate(actions)
        )
        deals.append(DealRecord(dealer, tuple(deck), checked))
    result = data.get("result")
    return GameRecord(
        game=game,
        players=tuple(players),
        deals=tuple(deals),
        options=options,
        result=result if isinstance(result, dict) else None,
        extra={k: v for k, v in data.items() if k not in _KNOWN},
    )


def load_record(source: str | Path) -> GameRecord:
    """Read a record from a file path; :class:`RecordError` if it is not one."""
    try:
        text = Path(source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(N_("cannot read {path}: {error}"), path=source, error=exc) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(N_("{path} is not valid JSON: {error}"), path=source, error=exc) from None
    return parse_record(data)
