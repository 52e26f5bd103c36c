"""The product's words in the reader's language: the LAN pages' gettext machinery (:mod:`lan.i18n`) with the
companion's own catalogues (``companion/translations``) registered."""

from __future__ import annotations

from pathlib import Path

from lan.i18n import (
    DEFAULT,
    DOMAIN,
    LANGUAGES,
    N_,
    LazyText,
    Said,
    add_catalogues,
    asked_for,
    compiled,
    enter,
    from_environment,
    gettext,
    language,
    lazy_gettext,
    lazy_pgettext,
    leave,
    named,
    negotiate,
    ngettext,
    npgettext,
    pgettext,
    said,
    said_everywhere,
    said_n,
    speaking,
    supported,
    translations,
    use,
)

CATALOGUES = Path(__file__).resolve().parent / "translations"
add_catalogues(CATALOGUES)

__all__ = [
    "CATALOGUES",
    "DEFAULT",
    "DOMAIN",
    "LANGUAGES",
    "N_",
    "LazyText",
    "Said",
    "asked_for",
    "compiled",
    "enter",
    "from_environment",
    "gettext",
    "language",
    "lazy_gettext",
    "lazy_pgettext",
    "leave",
    "named",
    "negotiate",
    "ngettext",
    "npgettext",
    "pgettext",
    "said",
    "said_everywhere",
    "said_n",
    "speaking",
    "supported",
    "translations",
    "use",
]
