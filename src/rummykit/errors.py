"""The two errors a game raises for an action it does not take.

- :class:`RuleError`: a well-formed action of the game that the rules forbid
  now; it names the rule (``"V9"``, ``"K7"``) and says, in a player's words,
  what is wrong.
- :class:`ActionError`: something that is not an action of the game at all
  (an unknown type, a missing field, a card that is no card, another game's
  action).

Both are :class:`ValueError`, so a host may catch either with one clause, and
a rejected action changes nothing.

Both are :class:`MessageError`: the message is a catalog template and its
parameters (:class:`rummykit.i18n.Message`), so that every host can show it in
its reader's language. ``message`` and ``str(error)`` stay the English text;
``error.translated("sv")`` is the message in Swedish. The English text is
formatted only when it is first read, so that the engines' checks (which bots
call by the thousand, and mostly catch) cost no more than before.

>>> from rummykit.i18n import N_
>>> exc = RuleError("V4", N_("it is not your turn: the player to act is {name}"), name="Bo")
>>> str(exc)
'it is not your turn: the player to act is Bo (V4)'
>>> exc.message, exc.rule, exc.params
('it is not your turn: the player to act is Bo', 'V4', {'name': 'Bo'})
>>> exc.translated("sv")
'det är inte din tur: det är Bo som ska spela'
>>> exc.translated("sv", cite=True)
'det är inte din tur: det är Bo som ska spela (V4)'
"""

from __future__ import annotations

from rummykit.i18n import Message

__all__ = [
    "ActionError",
    "MessageError",
    "RuleError",
    "as_sentence",
    "describe_error",
    "message_of",
    "quoted",
]


class MessageError(ValueError):
    """A :class:`ValueError` whose message is a catalog :class:`~rummykit.i18n.Message`.

    Raise it with the English template, marked for the catalogs, and its
    parameters: ``MessageError(N_("rank {rank} is no rank"), rank=15)``, or
    with a :class:`~rummykit.i18n.Message` already made. ``message`` is the
    English text; ``template`` and ``params`` what it is made of;
    ``translatable`` the message itself, to pass on as a parameter of another
    message; :meth:`translated` the text in a language. ``args`` are the
    arguments it was raised with, so that it pickles.
    """

    _english: str | None = None
    _translatable: Message | None = None

    def __init__(self, message: str | Message, /, **params: object) -> None:
        # No ValueError.__init__: the arguments are ``args`` already (BaseException.__new__),
        # and this stays as cheap as the f-string it replaces: nothing is formatted here.
        if type(message) is str:
            self.template = message
            self.params = params
        else:
            self._set(message, params)

    def _set(self, message: str | Message, params: dict[str, object]) -> None:
        if isinstance(message, Message):
            self._translatable = message
            self.template = message.template
            self.params = message.params
        else:
            self.template = str(message)
            self.params = params

    @property
    def translatable(self) -> Message:
        """The message, to translate, or to pass on as a parameter of another message."""
        if self._translatable is None:
            self._translatable = Message(self.template, **self.params)
        return self._translatable

    @property
    def message(self) -> str:
        """The message in English (formatted when first read)."""
        if self._english is None:
            self._english = str(self.translatable)
        return self._english

    def translated(self, language: str, *, cite: bool = False) -> str:
        """The message in ``language`` (``sv``, ``en``); ``cite``: as ``str(error)`` is,
        with anything it adds (a rule error's rule id)."""
        return self.translatable.translated(language)

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r})"


class RuleError(MessageError):
    """An action that the rules forbid.

    ``rule`` is the id from RULES.md (``"V9"``, ``"K7"``); ``message`` says in a
    player's words what is wrong. A rejected action changes nothing.
    ``str(error)`` cites the rule after the message.

    >>> from rummykit.i18n import N_
    >>> str(RuleError("V7", N_("your first play must be one run from your hand")))
    'your first play must be one run from your hand (V7)'
    """

    def __init__(self, rule: str, message: str | Message, /, **params: object) -> None:
        self.rule = rule
        if type(message) is str:  # MessageError.__init__, inlined: engines raise these often
            self.template = message
            self.params = params
        else:
            self._set(message, params)

    def translated(self, language: str, *, cite: bool = False) -> str:
        """The message in ``language``; ``cite``: with the rule id after it, as ``str``."""
        text = self.translatable.translated(language)
        return f"{text} ({self.rule})" if cite else text

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.rule!r}, {self.message!r})"


class ActionError(MessageError):
    """Not an action of the game: its JSON has no known ``type``, lacks a field, or holds
    a value of the wrong kind; or it is an action of another game.

    >>> from rummykit.i18n import N_
    >>> str(ActionError(N_("'card' must be one card written as text, like '7h'")))
    "'card' must be one card written as text, like '7h'"
    """


def quoted(text: str, limit: int = 24) -> str:
    """Text a person typed, quoted for a message and cut to ``limit`` characters, so that
    a long line pasted by mistake does not fill the screen with its own echo.

    >>> quoted("fold"), quoted("x" * 3000)
    ("'fold'", "'xxxxxxxxxxxxxxxxxxxxxxx…'")
    """
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return repr(text)


def message_of(exc: BaseException) -> Message:
    """What ``exc`` says, as a message to pass on as a parameter: a
    :class:`MessageError`'s own (translatable), else its English text as it is."""
    if isinstance(exc, MessageError):
        return exc.translatable
    return Message("{text}", text=str(exc))  # no catalog entry: the text as it is


def as_sentence(text: str) -> str:
    """A message shown on its own line, begun with a capital as a sentence is: the engine
    writes its messages in lower case, to stand after a rule id or inside another sentence
    (the browser's ``shownSentence`` does the same).

    >>> as_sentence("lay the contract first")
    'Lay the contract first'
    """
    return text[:1].upper() + text[1:]


def describe_error(exc: BaseException, language: str) -> str:
    """What ``exc`` says in ``language``, as ``str(exc)`` says it in English: a
    :class:`MessageError` translated (a rule error with its rule id), anything else
    as it is."""
    if isinstance(exc, MessageError):
        return exc.translated(language, cite=True)
    return str(exc)
