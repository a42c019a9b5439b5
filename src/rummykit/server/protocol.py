"""PROTOCOL.md's messages on the wire: what a client may send, read once, and what is sent.

:func:`read_message` turns one text frame into one typed message
(:class:`Hello`, :class:`ActionMessage`, ...) or raises :class:`ProtocolError`
with the code PROTOCOL.md gives: it is where every bound on a frame is kept
(its size, the nesting of its JSON, the size of its numbers, its ``ref``), so
nothing past it sees a frame a client could use to make the server work
hard. The game's action inside an :class:`ActionMessage` is read by the
room, with the sender's seat, through the game's spec (once).

Outgoing messages are made here too, as compact JSON text.
"""

from __future__ import annotations

import json
import math
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

from rummykit.i18n import language_from
from rummykit.server.limits import Limits

_fast: Callable[[object], bytes] | None
try:
    from orjson import dumps as _fast
except ImportError:  # the web extra brings it; without it, the standard library
    _fast = None

__all__ = [
    "PING",
    "ActionMessage",
    "Assist",
    "ChatMessage",
    "Close",
    "Hello",
    "Message",
    "NextMessage",
    "Ping",
    "ProtocolError",
    "Ref",
    "Seen",
    "dumps",
    "error_text",
    "read_hello",
    "read_message",
]

Ref = int | str
"""A message's ``ref``: a number, or a text of at most 64 characters."""

PING: Final = '{"type":"ping"}'


class Close:
    """WebSocket close codes (PROTOCOL.md and what rummykit adds, docs/protocol.md)."""

    BAD_HELLO: Final = 4400
    UNAUTHORIZED: Final = 4401
    ORIGIN: Final = 4403
    NOT_FOUND: Final = 4404
    HELLO_TIMEOUT: Final = 4408
    TOO_SLOW: Final = 4413
    """The client did not read what it was sent (its queue filled up)."""
    TOO_MANY: Final = 4429
    """Too many connections at the table, or a client that would not slow down."""
    MOVED: Final = 4503
    """The table is served elsewhere now, or the server is stopping: reconnect."""


class ProtocolError(Exception):
    """A message answered with an ``error`` (PROTOCOL.md's codes); nothing changed."""

    def __init__(
        self, code: str, message: str, rule: str | None = None, ref: Ref | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule
        self.ref = ref

    def to_json(self) -> dict[str, object]:
        """The ``error`` message."""
        out: dict[str, object] = {
            "type": "error",
            "code": self.code,
            "rule": self.rule,
            "message": self.message,
        }
        if self.ref is not None:
            out["ref"] = self.ref
        return out


@dataclass(frozen=True, slots=True)
class Hello:
    """``hello``: who the connection is (a seat's token, or None to watch), the last
    version it saw, and the language it reads."""

    token: str | None
    version: int | None
    lang: str | None
    ref: Ref | None = None


@dataclass(frozen=True, slots=True)
class ActionMessage:
    """``action``: the version acted on and the game's action (JSON, read by the room)."""

    version: int
    action: object
    ref: Ref | None = None


@dataclass(frozen=True, slots=True)
class NextMessage:
    """``next``: the next game at the table, once this one is over."""

    version: int
    ref: Ref | None = None


@dataclass(frozen=True, slots=True)
class Assist:
    """``hint``, ``arrange`` or ``check``: help for the seat to act, changing nothing."""

    kind: str
    cards: tuple[str, ...] = ()
    action: object = None
    ref: Ref | None = None


@dataclass(frozen=True, slots=True)
class ChatMessage:
    """``chat``: a line of text to everyone at the table (trimmed, checked)."""

    text: str
    ref: Ref | None = None


@dataclass(frozen=True, slots=True)
class Seen:
    """``seen``: the player has seen the end of the last part (a Kontrakt deal's scores);
    the bots need not wait for them any longer."""

    version: int
    ref: Ref | None = None


@dataclass(frozen=True, slots=True)
class Ping:
    """``ping``: answered with ``pong``."""

    ref: Ref | None = None


Message = Hello | ActionMessage | NextMessage | Assist | ChatMessage | Ping | Seen


def _number(text: str) -> int:
    if len(text.lstrip("-")) > 18:
        raise ValueError("a number of more than 18 digits")
    return int(text)


def _float(text: str) -> float:
    if len(text) > 32:
        raise ValueError("a number of more than 32 characters")
    value = float(text)
    if not math.isfinite(value):
        raise ValueError("a number out of range")
    return value


def _constant(text: str) -> object:
    raise ValueError(f"{text} is not JSON")


def _decode(text: str, limits: Limits) -> dict[str, object]:
    """One JSON object, within the limits; ProtocolError ``bad_message`` otherwise."""
    if len(text) > limits.max_message or len(text.encode("utf-8")) > limits.max_message:
        raise ProtocolError("bad_message", "a message is at most 64 KiB")
    try:
        data = json.loads(text, parse_int=_number, parse_float=_float, parse_constant=_constant)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_message", "a message is one JSON object") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message is one JSON object")
    if _depth(data) > limits.max_depth:
        raise ProtocolError("bad_message", "a message nests too deep")
    return data


def _depth(value: object) -> int:
    """How deep JSON nests (an object of plain values: 1), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            deepest = max(deepest, depth)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            deepest = max(deepest, depth)
            stack.extend((v, depth + 1) for v in item)
    return deepest


def _ref(data: Mapping[str, object]) -> Ref | None:
    given = data.get("ref")
    if given is None:
        return None
    if isinstance(given, bool) or not isinstance(given, int | str) or len(str(given)) > 64:
        raise ProtocolError("bad_message", "'ref' is a number or a text of 64 at most")
    return given


def _version(data: Mapping[str, object], ref: Ref | None) -> int:
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ProtocolError(
            "bad_message", "'version' is the version of the state you acted on", ref=ref
        )
    return version


def read_hello(text: str, limits: Limits) -> Hello:
    """The first message of a connection; ProtocolError (``bad_message``) if it is none."""
    data = _decode(text, limits)
    if data.get("type") != "hello":
        raise ProtocolError("bad_message", 'the first message is {"type": "hello", ...}')
    return _hello(data, _ref(data))


def _hello(data: Mapping[str, object], ref: Ref | None) -> Hello:
    token, version, lang = data.get("token"), data.get("version"), data.get("lang")
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        raise ProtocolError("bad_message", "'version' is the last version seen, or null", ref=ref)
    if token is not None and (not isinstance(token, str) or len(token) > 200):
        raise ProtocolError("unauthorized", "this token is no seat's at this table", ref=ref)
    return Hello(
        token,
        version,
        language_from(lang[:35]) if isinstance(lang, str) else None,
        ref,
    )


def read_message(text: str, limits: Limits) -> Message:
    """One message after the hello; ProtocolError with PROTOCOL.md's code if it is bad (the
    error carries the message's ``ref`` when it had a readable one)."""
    data = _decode(text, limits)
    ref = _ref(data)
    kind = data.get("type")
    if kind == "action":
        if "action" not in data:
            raise ProtocolError("bad_message", "an action message carries its 'action'", ref=ref)
        return ActionMessage(_version(data, ref), data["action"], ref)
    if kind == "next":
        return NextMessage(_version(data, ref), ref)
    if kind == "ping":
        return Ping(ref)
    if kind == "seen":
        return Seen(_version(data, ref), ref)
    if kind == "chat":
        return ChatMessage(_chat_text(data.get("text"), limits, ref), ref)
    if kind in ("hint", "check"):
        return Assist(str(kind), action=data.get("action"), ref=ref)
    if kind == "arrange":
        cards = data.get("cards")
        if (
            not isinstance(cards, list)
            or not cards
            or len(cards) > 106
            or not all(isinstance(c, str) and len(c) <= 8 for c in cards)
        ):
            raise ProtocolError("bad_message", "'cards' is a list of cards, like [\"7h\"]", ref=ref)
        return Assist("arrange", cards=tuple(str(c) for c in cards), ref=ref)
    if kind == "hello":
        return _hello(data, ref)
    shown = kind if isinstance(kind, str) and len(kind) <= 20 else "?"
    raise ProtocolError("bad_message", f"unknown message type {shown!r}", ref=ref)


def _chat_text(text: object, limits: Limits, ref: Ref | None) -> str:
    """PROTOCOL.md, Chat: 1 to 300 characters after trimming, no control characters."""
    if not isinstance(text, str):
        raise ProtocolError("bad_message", "a chat message's 'text' is text", ref=ref)
    text = text.strip()
    if not text or len(text) > limits.chat_text:
        raise ProtocolError(
            "bad_message", f"a chat message is 1 to {limits.chat_text} characters", ref=ref
        )
    if any(unicodedata.category(c) in _NOT_CHAT for c in text):
        raise ProtocolError("bad_message", "a chat message holds no control characters", ref=ref)
    return text


_NOT_CHAT = frozenset({"Cc", "Cs", "Zl", "Zp"})
"""What a chat message may not hold: control characters (a line break, a bell, an escape),
lone surrogates (no text at all) and Unicode's line and paragraph separators. Format
characters stay: emoji are joined by U+200D, and a client isolates each message's direction
(docs/protocol.md)."""


def dumps(data: object) -> str:
    """A message as sent: compact JSON (orjson where it is installed: every state is
    written with it, and it is some twenty times faster than the standard library)."""
    if _fast is not None:
        return _fast(data).decode()
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def error_text(error: ProtocolError) -> str:
    """The ``error`` message as sent."""
    return dumps(error.to_json())
