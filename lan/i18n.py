"""The reader's language: gettext catalogues and the language each piece of text is made in, for every page
served on the LAN (the table's and the café board's).

The language is a context variable, not a global: a page sets it per request (two phones at one table may
read two languages), the command line once from ``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG``, and
everything that makes words asks :func:`gettext` at the moment it speaks. Text made at import is marked with
:func:`lazy_gettext` (or kept as a msgid marked ``N_`` and translated where it is used). Each package that
has words registers its catalogues (``<folder>/<lang>/LC_MESSAGES/messages.po``) with
:func:`add_catalogues`; they are compiled at install time, and a missing or stale ``.mo`` is compiled from
its ``.po`` in memory, so a fresh checkout speaks every language too.
"""

from __future__ import annotations

import contextlib
import functools
import gettext as stdlib_gettext
import io
import os
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar, Token
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: the languages the product speaks, each named in itself (the language picker and the editions)
LANGUAGES: Mapping[str, str] = {"en": "English", "es": "Español", "de": "Deutsch"}
DEFAULT = "en"
DOMAIN = "messages"
#: the folders of the catalogues registered so far, searched in order
_FOLDERS: list[Path] = []


def add_catalogues(folder: Path) -> None:
    """Let the words of one package (its ``folder`` of catalogues) be said in every language."""
    if folder not in _FOLDERS:
        _FOLDERS.append(folder)
        translations.cache_clear()

_language: ContextVar[str] = ContextVar("language", default=DEFAULT)


def language() -> str:
    """The language text is being made in now."""
    return _language.get()


def supported(code: Any) -> str | None:
    """``"es-AR"``, ``"de_DE.UTF-8"`` or ``"ES"`` -> the product's language for it; None when it speaks
    none."""
    if not isinstance(code, str) or not code or len(code) > 35:
        return None
    base = code.replace("_", "-").split("-")[0].split(".")[0].strip().lower()
    return base if base in LANGUAGES else None


@contextlib.contextmanager
def speaking(code: str | None) -> Iterator[str]:
    """Make text in ``code`` (the default language when it is not one the product speaks) inside the block."""
    chosen = supported(code) or DEFAULT
    token = _language.set(chosen)
    try:
        yield chosen
    finally:
        _language.reset(token)


def use(code: str | None) -> str:
    """Make text in ``code`` from now on in this context (a request, the command line); returns the
    language."""
    chosen = supported(code) or DEFAULT
    _language.set(chosen)
    return chosen


def enter(code: str | None) -> Token[str]:
    """Speak ``code`` until :func:`leave` is given the token (a request: its thread serves others next)."""
    return _language.set(supported(code) or DEFAULT)


def leave(token: Token[str]) -> None:
    _language.reset(token)


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The command line's language, as gettext reads the environment: the first of ``LANGUAGE`` (a list),
    ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set; English when that is none the product speaks."""
    env = os.environ if environ is None else environ
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable)
        if not value:
            continue
        for code in value.split(":"):
            chosen = supported(code)
            if chosen:
                return chosen
        return DEFAULT  # the first variable set decides, as in gettext ("C" means English)
    return DEFAULT


def negotiate(accept_language: str | None, fallback: str | None = None) -> str:
    """The best of the product's languages for an ``Accept-Language`` header (its q-values honoured);
    ``fallback`` (a game edition's language) when the header names none of them."""
    return asked_for(accept_language) or supported(fallback) or DEFAULT


def asked_for(accept_language: str | None) -> str | None:
    """The best of the product's languages an ``Accept-Language`` header names; None when it names none."""
    ranked: list[tuple[float, int, str]] = []
    for position, item in enumerate((accept_language or "")[:400].split(",")[:20]):
        code, _, params = item.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        chosen = supported(code.strip())
        if chosen and 0.0 < quality <= 1.0:
            ranked.append((-quality, position, chosen))
    return min(ranked)[2] if ranked else None


@functools.cache
def translations(code: str) -> stdlib_gettext.NullTranslations:
    """The compiled catalogues of ``code``, one after the other (each registered package's); English (the
    msgids) has none."""
    if code == DEFAULT or code not in LANGUAGES:
        return stdlib_gettext.NullTranslations()
    found: stdlib_gettext.NullTranslations | None = None
    for folder in _FOLDERS:
        one = _catalogue(folder / code / "LC_MESSAGES")
        if one is None:
            continue
        if found is None:
            found = one
        else:
            found.add_fallback(one)
    return found or stdlib_gettext.NullTranslations()


def _catalogue(folder: Path) -> stdlib_gettext.GNUTranslations | None:
    """A folder's ``.mo`` when it is newer than its ``.po``, else the ``.po`` compiled in memory."""
    po, mo = folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as handle:
            return stdlib_gettext.GNUTranslations(handle)
    if not po.is_file():
        return None
    return stdlib_gettext.GNUTranslations(io.BytesIO(compiled(po)))


def compiled(po: Path) -> bytes:
    """A ``.po`` file as ``.mo`` bytes (Babel's reader and writer; fuzzy entries are left out, as msgfmt
    does)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as handle:
        catalog = read_po(handle)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def gettext(message: str) -> str:
    """``message`` in the current language."""
    return translations(language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted phrase the current language uses for ``n`` (its plural rule, not English's)."""
    return translations(language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language as said in ``context`` (a game: "tile" is a Jurassik "carta")."""
    return translations(language()).pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return translations(language()).npgettext(context, singular, plural, n)


def N_(message: str) -> str:
    """Mark text made at import for the catalogue; it is translated where it is used (``gettext(x)``)."""
    return message


class LazyText:
    """Text made at import and said in the language of the moment it is shown."""

    __slots__ = ("context", "message")

    def __init__(self, message: str, context: str = "") -> None:
        self.message, self.context = message, context

    def __str__(self) -> str:
        return pgettext(self.context, self.message) if self.context else gettext(self.message)

    def __repr__(self) -> str:
        return f"LazyText({self.message!r})"

    def __html__(self) -> str:
        from markupsafe import escape

        return str(escape(str(self)))

    def format(self, *args: Any, **kwargs: Any) -> str:
        return str(self).format(*args, **kwargs)


def named(words: Mapping[str, Any], key: Any, otherwise: str) -> str:
    """``key``'s entry of a table of words (lazy texts made at import) in the language being spoken;
    ``otherwise`` for a key the table does not name."""
    found = words.get(str(key))
    return str(found) if found is not None else otherwise


def lazy_gettext(message: str) -> LazyText:
    return LazyText(message)


def lazy_pgettext(context: str, message: str) -> LazyText:
    return LazyText(message, context)


@dataclass(frozen=True)
class Said:
    """A sentence made where no reader is known (the loop, an objection), kept as its msgid and the values
    that fill it, so that each reader's page says it in their own language; ``str()`` is the English (logs,
    the command line, the café's messages)."""

    message: str
    params: Mapping[str, Any] = field(default_factory=dict)
    plural: str = ""
    n: int | None = None
    #: values that are words themselves (a piece's name, a place), made in each language beforehand
    localized: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def __str__(self) -> str:
        with speaking(DEFAULT):
            return self.words()

    def words(self, value_words: ValueWords | None = None) -> str:
        """The sentence in the language being spoken now; ``value_words(key, value)`` says a value in the
        game's words (a board cell, a piece, a player), None leaving it as it is. A value that is a sentence
        itself (an engine's refusal inside an objection) is said the same way."""
        if self.plural and self.n is not None:
            template = ngettext(self.message, self.plural, self.n)
        else:
            template = gettext(self.message)
        params = {key: _said_value(key, value, value_words) for key, value in self.params.items()}
        values = {**params, **self.localized.get(language(), {})}
        english = self.plural if self.plural and self.n != 1 else self.message
        in_english = {**params, **self.localized.get(DEFAULT, {})}
        for sentence, filling in ((template, values), (english, in_english)):
            try:
                return sentence % filling if filling or "%(" in sentence else sentence
            except (KeyError, ValueError, TypeError):  # a translation (or a stored sentence) its values miss
                continue
        return english

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"message": self.message, "params": dict(self.params)}
        if self.plural:
            data.update(plural=self.plural, n=self.n)
        if self.localized:
            data["localized"] = {code: dict(values) for code, values in self.localized.items()}
        return data

    @classmethod
    def from_dict(cls, data: Any, depth: int = 0) -> Said | None:
        """A sentence as stored; None for anything that is not one (read untrusted: a stored snapshot)."""
        if not isinstance(data, Mapping) or not isinstance(data.get("message"), str):
            return None
        localized = data.get("localized")
        by_language = {code: _plain(localized.get(code)) for code in LANGUAGES} if isinstance(
            localized, Mapping) else {}
        n = data.get("n")
        return cls(data["message"], _plain(data.get("params"), depth), str(data.get("plural") or ""),
                   n if isinstance(n, int) and not isinstance(n, bool) else None,
                   {code: values for code, values in by_language.items() if values})


#: how a page says a sentence's value in the game's words: (key, value) -> words, or None for as it is
ValueWords = Callable[[str, Any], "str | None"]
#: a sentence inside a sentence inside ... read from outside: no deeper than this
_NESTING = 3


def _said_value(key: str, value: Any, value_words: ValueWords | None) -> Any:
    if isinstance(value, Mapping):
        inner = Said.from_dict(value)
        return inner.words(value_words) if inner is not None else ""
    said = value_words(key, value) if value_words is not None else None
    return value if said is None else said


def _plain(values: Any, depth: int = 0) -> dict[str, Any]:
    """A sentence's values read untrusted: words and numbers, board cells (two whole numbers) and, a few
    levels deep, sentences."""
    if not isinstance(values, Mapping):
        return {}
    kept: dict[str, Any] = {}
    for key, value in values.items():
        if isinstance(value, str | int | float) and not isinstance(value, bool):
            kept[str(key)] = value
        elif isinstance(value, list | tuple) and len(value) == 2 and all(
                isinstance(v, int) and not isinstance(v, bool) for v in value):
            kept[str(key)] = list(value)
        elif isinstance(value, Mapping) and depth < _NESTING:
            inner = Said.from_dict(value, depth + 1)
            if inner is not None:
                kept[str(key)] = inner.to_dict()
    return kept


def said_everywhere(message: str, make: Callable[[], Mapping[str, Any]], **params: Any) -> Said:
    """A sentence whose values are words too: ``make()`` is called once in each language the product
    speaks, so that a reader's page fills the sentence with words in its own language."""
    localized = {}
    for code in LANGUAGES:
        with speaking(code):
            localized[code] = dict(make())
    return Said(message, params, localized=localized)


def said(message: str, **params: Any) -> Said:
    """A sentence for a reader not yet known: ``said("%(player)s moved out of turn", player="Ana")``."""
    return Said(message, params)


def said_n(singular: str, plural: str, n: int, **params: Any) -> Said:
    """A counted sentence for a reader not yet known; ``num`` is ``n``."""
    return Said(singular, {"num": n, **params}, plural, n)
