"""The panel and the camera in words on the page: what the panel's lights say, its buttons' names, and the
camera's calibration measurements as sentences, in the reader's language."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.i18n import LazyText, Said, gettext, lazy_pgettext, named, ngettext

#: the panel's patterns (what its lights are saying) as the page names them
PATTERN_WORDS: dict[str, LazyText] = {
    "idle": lazy_pgettext("panel", "idle"),
    "turn": lazy_pgettext("panel", "turn"),
    "legal": lazy_pgettext("panel", "legal"),
    "objection": lazy_pgettext("panel", "objection"),
    "waiting": lazy_pgettext("panel", "waiting"),
    "split": lazy_pgettext("panel", "split"),
    "game-over": lazy_pgettext("panel", "game-over"),
    "camera-lost": lazy_pgettext("panel", "camera-lost"),
    "storage": lazy_pgettext("panel", "storage"),
    "off": lazy_pgettext("panel", "off"),
}

#: the panel's buttons as they are labelled
BUTTON_WORDS: dict[str, LazyText] = {
    "confirm": lazy_pgettext("button", "confirm"),
    "undo": lazy_pgettext("button", "undo"),
    "next": lazy_pgettext("button", "next"),
    "mode": lazy_pgettext("button", "mode"),
}


def pattern_words(pattern: Any) -> str:
    return named(PATTERN_WORDS, pattern, str(pattern).replace("-", " "))


def button_name(button: Any) -> str:
    return named(BUTTON_WORDS, button, str(button))


def sentence_words(data: object, english: object = "") -> str:
    """A sentence of the camera's checks (:mod:`vision.sentences`: the self-test, the light, the area the
    markers mark) in the reader's language, with the sentences said after it; ``english`` where there is
    none."""
    if not isinstance(data, Mapping):
        return str(english or "")
    parts = [data, *(part for part in data.get("then") or [] if isinstance(part, Mapping))]
    said = [sentence.words() for sentence in map(Said.from_dict, parts) if sentence is not None]
    return "; ".join(said) if said else str(english or "")


def self_test_lines(test: object, which: str) -> list[str]:
    """The self-test's ``problems`` or ``summary`` in the reader's language."""
    if not isinstance(test, Mapping):
        return []
    english = [str(line) for line in test.get(which) or []]
    said = (test.get("said") or {}).get(which) if isinstance(test.get("said"), Mapping) else None
    if not isinstance(said, list) or len(said) != len(english):
        return english
    return [sentence_words(data, line) for data, line in zip(said, english, strict=True)]


def calibration_facts(report: Any) -> list[str]:
    """The camera's measurements on the Setup page, each a sentence (never a dump of the report)."""
    if not isinstance(report, Mapping):
        return []
    facts: list[str] = []
    status = report.get("calibration")
    if isinstance(status, Mapping):
        seen = status.get("markers_seen") or []
        drift = status.get("drift_px")
        state = calibration_state(status.get("state", "unknown"))
        marked = ngettext("%(num)d corner marker seen", "%(num)d corner markers seen", len(seen)) % {
            "num": len(seen)}
        if status.get("trusted"):
            sentence = gettext("The calibration holds: %(markers)s") % {"markers": marked}
        else:
            sentence = gettext("The calibration is %(state)s: %(markers)s") % {"state": state,
                                                                                  "markers": marked}
        if isinstance(drift, int | float):
            sentence += gettext(", %(drift)s px from where they were calibrated.") % {"drift": f"{drift:g}"}
        facts.append(sentence if isinstance(drift, int | float) else sentence + ".")
    if isinstance(report.get("frames"), int):
        facts.append(ngettext("%(num)d frame read from the camera.", "%(num)d frames read from the camera.",
                              report["frames"]) % {"num": report["frames"]})
    test = report.get("self_test")
    if isinstance(test, Mapping):
        facts += _self_test_facts(test)
    return facts


def _self_test_facts(test: Mapping[str, Any]) -> list[str]:
    facts: list[str] = []
    markers = test.get("markers")
    if isinstance(markers, Mapping):
        for marker, reading in sorted(markers.items()):
            if not isinstance(reading, Mapping):
                continue
            drift = reading.get("drift_px")
            if not reading.get("visible"):
                facts.append(gettext("Marker %(marker)s: not seen.") % {"marker": marker})
            elif isinstance(drift, int | float):
                facts.append(gettext("Marker %(marker)s: seen, %(drift)s px from its calibrated place.")
                             % {"marker": marker, "drift": f"{drift:g}"})
            else:
                facts.append(gettext("Marker %(marker)s: seen.") % {"marker": marker})
    if isinstance(test.get("reprojection_mm"), int | float):
        facts.append(gettext("The markers fit the table to within %(mm)s mm.")
                     % {"mm": f"{test['reprojection_mm']:g}"})
    size, scale = test.get("table_mm"), test.get("px_per_mm")
    if isinstance(size, list) and len(size) == 2:
        facts.append(gettext("The markers span %(width).0f x %(height).0f mm.") % {"width": size[0],
                                                                                  "height": size[1]})
    if isinstance(scale, Mapping) and {"min", "max"} <= set(scale):
        facts.append(gettext("The camera sees %(low).2f to %(high).2f px per mm across the table.")
                     % {"low": scale["min"], "high": scale["max"]})
    light = test.get("lighting")
    if isinstance(light, Mapping) and isinstance(light.get("white_level"), int | float):
        uneven = light.get("unevenness")
        english = light.get("measured_on") or gettext("the table")
        where = sentence_words(light.get("measured_on_said"), english)
        white = {"white": light["white_level"], "where": where}
        if isinstance(uneven, int | float):
            facts.append(gettext("White reads at %(white).0f of 255, varying by %(uneven)s across the table "
                                 "(measured on %(where)s).") % {**white, "uneven": f"{uneven:.0%}"})
        else:
            facts.append(gettext("White reads at %(white).0f of 255 (measured on %(where)s).") % white)
    return facts


#: a calibration's states as the Setup page says them
CALIBRATION_STATES: dict[str, LazyText] = {
    "unknown": lazy_pgettext("calibration", "unknown"),
    "ok": lazy_pgettext("calibration", "ok"),
    "uncalibrated": lazy_pgettext("calibration", "uncalibrated"),
    "bumped": lazy_pgettext("calibration", "moved"),
    "markers-hidden": lazy_pgettext("calibration", "markers hidden"),
    "misfit": lazy_pgettext("calibration", "not matching the table area"),
    "imprecise": lazy_pgettext("calibration", "imprecise"),
}


def calibration_state(state: Any) -> str:
    return named(CALIBRATION_STATES, state, str(state).replace("-", " "))
