"""Swedish and English: every string a person reads goes through the message catalogs.

The catalogs are gettext ``.po`` files in ``rummykit/i18n/locales/LANG/LC_MESSAGES/``,
one per *domain*: ``rummykit`` for the Python side (the engines' rule errors,
the terminal, the command line, the server's messages) and ``web`` for the
browser UI, which reads the same catalogs as JSON made from them
(``tools/i18n.py``). The compiled ``.mo`` files and the JSON are committed, so
an installed rummykit needs nothing but the standard library's ``gettext``.

English is the source language (the ``msgid``); Swedish uses the words Swedish
players use (talong, hög, förhand, kontrakt, tretal, färgföljd, saka, gå ut).

>>> translate("hello", "en")
'hello'
>>> language_from("sv_SE.UTF-8"), language_from("en_GB"), language_from(None)
('sv', 'en', 'en')
"""

from __future__ import annotations

import functools
import gettext
import os
from pathlib import Path

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "N_",
    "catalog",
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


@functools.lru_cache(maxsize=16)
def catalog(language: str, domain: str = "rummykit") -> gettext.NullTranslations:
    """The compiled catalog of ``domain`` in ``language`` (English: the message ids)."""
    if language not in LANGUAGES or language == DEFAULT:
        return gettext.NullTranslations()
    return gettext.translation(domain, localedir=LOCALES, languages=[language], fallback=True)


def translate(message: str, language: str, /, **params: object) -> str:
    """``message`` in ``language``, its ``{name}`` fields filled from ``params``."""
    text = catalog(language).gettext(message)
    return text.format(**params) if params else text
