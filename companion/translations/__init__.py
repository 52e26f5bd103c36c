"""The message catalogues and the tools that keep them: extract the words from the code and the page
templates (``messages.pot``), merge them into each language's ``.po``, check that every one is translated,
and compile the ``.mo`` files the pages read (``python -m companion.translations extract|update|check|
compile``). Two packages have words: the companion (its pages, its kits, the rules and options of every
registered game) and the café board (its own deployable, with its own catalogues beside it)."""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.i18n import DEFAULT, DOMAIN, LANGUAGES, compiled

ROOT = Path(__file__).resolve().parent.parent.parent

#: the calls whose text goes into the catalogue, with where their msgctxt and msgids sit
KEYWORDS: dict[str, Any] = {
    "_": None, "gettext": None, "N_": None, "lazy_gettext": None,
    "ngettext": (1, 2), "pgettext": ((1, "c"), 2), "npgettext": ((1, "c"), 2, 3),
    "lazy_pgettext": ((1, "c"), 2), "said": None, "said_n": (1, 2), "said_everywhere": None,
}


def data_messages() -> list[tuple[str, str | None, str]]:
    """The words every registered game carries as data, not as calls: its rules' titles and the project's
    readings of them, its options' names (context ``option``) and help. The passages are not among them:
    a rulebook is quoted as printed."""
    from engines.core import available_games, get_game

    found: list[tuple[str, str | None, str]] = []
    for name in available_games():
        game = get_game(name)
        if not type(game).__module__.startswith("engines."):  # a game a test registered: not the product's
            continue
        where = f"engines/{name}"
        for rule in game.rulebook.values():
            found.append((rule.title, None, f"{where}/rules"))
            if rule.note:
                found.append((rule.note, None, f"{where}/rules"))
        for option in game.options:
            found.append((option.name.replace("_", " "), "option", f"{where}/options"))
            if option.help:
                found.append((option.help, None, f"{where}/options"))
    return found


@dataclass(frozen=True)
class Package:
    """One package's words: where its code and templates lie and where its catalogues are kept."""

    name: str
    root: Path
    templates: str
    data: Callable[[], list[tuple[str, str | None, str]]] | None = None
    skip: tuple[str, ...] = field(default=("translations/",))
    #: other packages (a path under the repository) whose sentences this one's pages say, and the calls
    #: that mark them there
    also: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    @property
    def catalogues(self) -> Path:
        return self.root / "translations"

    @property
    def template(self) -> Path:
        return self.catalogues / f"{DOMAIN}.pot"

    def po(self, code: str) -> Path:
        return self.catalogues / code / "LC_MESSAGES" / f"{DOMAIN}.po"


#: the camera's checks (vision.sentences) and the engines' refusals
SAID_ELSEWHERE: Mapping[str, Mapping[str, Any]] = {
    "vision": {"said": None},
    "engines": {"_illegal": (2,), "illegal": (2,), "refusal": None, "IllegalAction": (2,)},
}
COMPANION = Package("companion", ROOT / "companion", "web/templates/**.html", data_messages,
                    also=SAID_ELSEWHERE)
CAFE = Package("cafe", ROOT / "cafe", "templates/**.html")
PACKAGES = (COMPANION, CAFE)


def translated_languages() -> list[str]:
    return [code for code in LANGUAGES if code != DEFAULT]


def extract(package: Package = COMPANION) -> Any:
    """Every marked text of ``package`` as a Babel catalogue (its ``.pot``)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    catalog = Catalog(project="Dino Table Companion", charset="utf-8", fuzzy=False)
    methods = [(package.templates, "jinja2"), ("**.py", "python")]
    options = {package.templates: {"extensions": "jinja2.ext.i18n", "silent": "false"}}
    for filename, lineno, message, comments, context in extract_from_dir(
        str(package.root), methods, options, keywords=KEYWORDS, comment_tags=("Translators:",),
        strip_comment_tags=True,
    ):
        if filename.startswith(package.skip):
            continue
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    for also, keywords in package.also.items():  # other packages whose sentences this one's pages say
        # an engine's details written as f-strings are said as written: Babel's warning for each is no news
        with contextlib.redirect_stderr(io.StringIO()):
            found = list(extract_from_dir(str(ROOT / also), [("**.py", "python")], keywords=keywords,
                                          comment_tags=("Translators:",), strip_comment_tags=True))
        for filename, lineno, message, comments, context in found:
            catalog.add(message, None, [(f"{also}/{filename}", lineno)], auto_comments=comments,
                        context=context)
    for message, context, where in package.data() if package.data else []:
        catalog.add(message, None, [(where, 0)], context=context)
    return catalog


def read(code: str, package: Package = COMPANION) -> Any:
    from babel.messages.pofile import read_po

    with package.po(code).open("rb") as handle:
        return read_po(handle, locale=code)


def write(catalog: Any, path: Path) -> None:
    from babel.messages.pofile import write_po

    path.parent.mkdir(parents=True, exist_ok=True)
    out = io.BytesIO()
    write_po(out, catalog, width=110, sort_output=False, omit_header=False, include_lineno=False)
    path.write_bytes(out.getvalue())


def update(template: Any, package: Package = COMPANION) -> None:
    """Merge the extracted words into each language's catalogue, keeping every translation made so far."""
    from babel.messages.catalog import Catalog

    for code in translated_languages():
        path = package.po(code)
        catalog = read(code, package) if path.is_file() else Catalog(locale=code, project=template.project)
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        catalog.obsolete.clear()
        write(catalog, path)


def problems(template: Any, code: str, package: Package = COMPANION) -> list[str]:
    """Why ``code``'s catalogue is not complete: a msgid missing, empty or fuzzy, or whose placeholders
    differ from the English ones."""
    catalog = read(code, package)
    found: list[str] = []
    for message in template:
        if not message.id:
            continue
        have = catalog.get(message.id, context=message.context)
        key = message.id if isinstance(message.id, str) else message.id[0]
        if have is None:
            found.append(f"{code}: not in the catalogue: {key!r}")
        elif have.fuzzy:
            found.append(f"{code}: fuzzy: {key!r}")
        elif not _filled(have.string):
            found.append(f"{code}: not translated: {key!r}")
        elif _braces(message.id) != _braces(have.string):
            found.append(f"{code}: {key!r}: the {{fields}} differ from the English ones")
    for message, errors in catalog.check():
        for error in errors:
            found.append(f"{code}: {message.id!r}: {error}")
    return found


def _braces(text: Any) -> set[str]:
    """The ``{field}`` names a sentence fills (a kit's move words), in any of its forms."""
    forms = [text] if isinstance(text, str) else list(text or ())
    return {name for form in forms for name in re.findall(r"{(\w+)}", str(form))}


def _filled(string: Any) -> bool:
    if isinstance(string, str):
        return bool(string.strip())
    return isinstance(string, Iterable) and all(isinstance(s, str) and s.strip() for s in string)


def compile_all(package: Package = COMPANION) -> list[Path]:
    written = []
    for code in translated_languages():
        po = package.po(code)
        mo = po.with_suffix(".mo")
        mo.write_bytes(compiled(po))
        written.append(mo)
    return written
