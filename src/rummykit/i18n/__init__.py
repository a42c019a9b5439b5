"""Swedish and English: every string a person reads goes through the message catalogs.

The catalogs are gettext ``.po`` files in ``rummykit/i18n/locales/LANG/LC_MESSAGES/``,
one per *domain*: ``rummykit`` for the Python side (the engines' rule errors,
the terminal, the command line, the server's messages) and ``web`` for the
browser UI, which reads the same catalogs as JSON made from them
(``tools/i18n.py``). The compiled ``.mo`` files and the JSON are committed, so
an installed rummykit needs nothing but the standard library's ``gettext``.

English is the source language (the ``msgid``); Swedish uses the words Swedish
players use (talong, hög, förhand, kontrakt, tretal, färgföljd, saka, gå ut).

A message that is shown later, in a language not known yet (a rule error raised
by an engine, read by a terminal in Swedish and a browser in English), is a
:class:`Message`: the catalog's English template and its parameters, formatted
only when it is read. A parameter that is itself a :class:`Message` is read in
the same language, so that "2 groups" inside a rule error comes out as
"2 tretal" in Swedish.

>>> translate("hello", "en")
'hello'
>>> language_from("sv_SE.UTF-8"), language_from("en_GB"), language_from(None)
('sv', 'en', 'en')
>>> message = Message("it is not your turn: the player to act is {name}", name="Bo")
>>> str(message)
'it is not your turn: the player to act is Bo'
>>> message.translated("sv")
'det är inte din tur: det är Bo som ska spela'
>>> Plural("{n} card", "{n} cards", 1).translated("en"), str(Plural("{n} card", "{n} cards", 3))
('1 card', '3 cards')
"""

from __future__ import annotations

import functools
import gettext
import os
from pathlib import Path

__all__ = [
    "DEFAULT",
    "ENV",
    "LANGUAGES",
    "N_",
    "Message",
    "Plural",
    "catalog",
    "default_language",
    "language_from",
    "locale_language",
    "translate",
]

LANGUAGES = ("sv", "en")
"""The languages rummykit speaks."""
DEFAULT = "en"
"""The language of the message ids, and the fallback."""
LOCALES = Path(__file__).resolve().parent / "locales"
"""Where the catalogs are."""
ENV = "RUMMYKIT_LANG"
"""The environment variable that chooses the language (``sv`` or ``en``) over the locale."""


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs without translating it now (it is translated
    where it is shown, in the reader's language)."""
    return message


def language_from(value: str | None) -> str:
    """The rummykit language for a locale or a browser's language tag (``sv_SE.UTF-8``,
    ``sv-SE``, ``en``): Swedish for Swedish, else English."""
    if not value:
        return DEFAULT
    head = value.replace("-", "_").split("_")[0].split(".")[0].lower()
    return head if head in LANGUAGES else DEFAULT


def locale_language() -> str:
    """The language of this process's locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(name)
        if value:
            return language_from(value.split(":")[0])
    return DEFAULT


def default_language() -> str:
    """The language a program run speaks unless told otherwise: ``RUMMYKIT_LANG`` when it
    names one (``sv``, ``en``, or a locale such as ``sv_SE.UTF-8``), else the locale's."""
    chosen = os.environ.get(ENV)
    if chosen:
        return language_from(chosen)
    return locale_language()


@functools.lru_cache(maxsize=16)
def catalog(language: str, domain: str = "rummykit") -> gettext.NullTranslations:
    """The compiled catalog of ``domain`` in ``language`` (English: the message ids)."""
    if language not in LANGUAGES or language == DEFAULT:
        return gettext.NullTranslations()
    return gettext.translation(domain, localedir=LOCALES, languages=[language], fallback=True)


def translate(message: str, language: str, /, **params: object) -> str:
    """``message`` in ``language``, its ``{name}`` fields filled from ``params`` (a
    :class:`Message` among them read in ``language`` too). Messages are ``str.format``
    templates: a literal brace is written twice."""
    return Message(message, **params).translated(language)


def _read(value: object, language: str) -> object:
    """A parameter as shown in ``language``: a :class:`Message` translated, else as it is."""
    return value.translated(language) if isinstance(value, Message) else value


class Message:
    """A catalog message and its parameters, translated only where it is read.

    ``template`` is the English text (the catalog's message id) with ``{name}``
    fields (a ``str.format`` template: a literal brace is written twice);
    ``params`` fill them. A parameter that is a :class:`Message` is
    read in the reader's language too. ``str(message)`` is the English text.
    Mark the template for the catalogs: ``Message(N_("..."), name=...)``.
    """

    __slots__ = ("params", "template")

    def __init__(self, template: str, /, **params: object) -> None:
        self.template = template
        self.params = params

    def _text(self, language: str) -> str:
        if language == DEFAULT or language not in LANGUAGES:
            return self.template
        return catalog(language).gettext(self.template)

    def translated(self, language: str) -> str:
        """The message in ``language`` (``sv``, ``en``; anything else: English)."""
        text = self._text(language)
        return text.format(**{k: _read(v, language) for k, v in self.params.items()})

    def __str__(self) -> str:
        return self.translated(DEFAULT)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.template!r}, **{self.params!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Message):
            return NotImplemented
        return type(self) is type(other) and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def _key(self) -> tuple[object, ...]:
        return (self.template, self.params)


class Plural(Message):
    """A message with a singular and a plural form, chosen by ``n`` in the reader's
    language (gettext's ``ngettext``); ``{n}`` is among its fields.

    >>> Plural("{n} run", "{n} runs", 2).translated("sv")
    '2 färgföljder'
    """

    __slots__ = ("n", "plural")

    def __init__(self, singular: str, plural: str, n: int, /, **params: object) -> None:
        super().__init__(singular, n=n, **params)
        self.plural = plural
        self.n = n

    def _key(self) -> tuple[object, ...]:
        return (self.template, self.plural, self.params)

    def _text(self, language: str) -> str:
        if language == DEFAULT or language not in LANGUAGES:
            return self.template if self.n == 1 else self.plural
        return catalog(language).ngettext(self.template, self.plural, self.n)
