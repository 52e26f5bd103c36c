"""Moves, components, places and differences in the words players use, from each game's kit: shared by
the pages and the command line (``companion explain``)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any


def kit_of(snap: Any) -> Any:
    from companion.kits import find_kit

    return find_kit(str(snap.get("game"))) if isinstance(snap, dict) and snap.get("game") else None


def _cell_namer(snap: Any) -> Any:
    """The game's own words for a board cell (its kit's), or the engine's coordinates."""
    kit = kit_of(snap)
    view = (snap or {}).get("view") or {}

    def name(value: Any) -> str:
        words = kit.cell_words(view, value) if kit is not None else None
        return words or _cell_text(value)

    return name


def _component_namer(snap: Any) -> Any:
    """The game's own words for a component, field or score part named by id, or the id."""
    kit = kit_of(snap)

    def name(value: str) -> str:
        words = kit.component_words(value) if kit is not None else None
        return words or value

    return name


def part_name(name: Any, snap: Any = None) -> str:
    """A score part as players call it (``D3`` -> "dinosaur 3", ``W-GROUPS`` -> its scoring card)."""
    return str(_component_namer(snap)(str(name))).replace("_", " ")


#: field names that read better as the words players use
KEY_WORDS = {"origin": "from", "target": "to", "take_back": "taking back", "other": "with",
             "victim": "from"}


#: fields whose value names itself ("Triceratops", "row 2, column 3"): said without the field's name
BARE_KEYS = frozenset({"cell", "fossil", "tile", "card", "token", "field", "figures"})


#: places in a row the engines count from 0 and players from 1 (the scoring row's slots)
COUNTED_FROM_ONE = frozenset({"slot"})


def action_label(action: Any, snap: Any = None) -> str:
    """A short human label for an action dict: its kind and its telling fields (the player is shown apart);
    with ``snap``, board cells in the game's own words."""
    cell_name = _cell_namer(snap)
    component_name = _component_namer(snap)
    if not isinstance(action, dict):
        return str(action or "")
    if isinstance(action.get("text"), str):
        return str(action["text"])
    kind = str(action.get("kind", "action")).replace("_", " ").replace("-", " ")
    parts = [kind]
    row, col = action.get("row"), action.get("col")
    grid_cell = isinstance(row, int) and isinstance(col, int) and not isinstance(row, bool)
    if grid_cell:  # a grid cell as players count it: from 1, row first
        parts.append(f"row {int(row) + 1}, column {int(col) + 1}")  # type: ignore[arg-type]
    if _is_cell(action.get("a")) and _is_cell(action.get("b")):
        parts.append(f"between {cell_name(action['a'])} and {cell_name(action['b'])}")
    for key, value in action.items():
        if key == "use" and value == "none":  # a card played for nothing, said so beside its other uses
            parts.append("without its action")
            continue
        if key in ("kind", "state", "player", "a", "b", "concealed") or value in (None, "", "none", [], {}):
            continue
        if grid_cell and key in ("row", "col"):
            continue
        if isinstance(value, bool):  # a flag: named when set ("eats"), left out when not
            if value:
                parts.append(key.replace("_", " "))
            continue
        said = _value_words(key, value, cell_name, component_name)
        if said is None:
            text = json.dumps(value, default=str)[:40] if isinstance(value, list | dict) else str(value)[:40]
        else:
            text = said[:60] if isinstance(value, str) else said
        key_words = KEY_WORDS.get(key, key.replace("_", " "))
        # the kind already says it ("move dinosaur Velociraptor", not "move dinosaur dinosaur DINO-2")
        bare = key in BARE_KEYS or key_words in kind.split(" ")
        parts.append(text if bare else f"{key_words} {text}")
        if len(parts) >= 5:
            break
    if action.get("kind") == "correct" and action.get("reason"):
        parts = ["correction", str(action["reason"])[:60]]
    label = " ".join(parts[:1]) + (" " + ", ".join(parts[1:]) if len(parts) > 1 else "")
    return label + (" (concealed)" if action.get("concealed") else "")


_ID_TOKEN = re.compile(r"\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*\b")


def in_words(text: Any, snap: Any = None) -> str:
    """A message (an engine's refusal, an objection) with the ids in it said as players say them:
    "DINO-2 may not skip the occupied field C2R2" -> "Velociraptor may not skip the occupied field column
    3, field 3 (forest)"; ids the game does not name are left as they are."""
    kit = kit_of(snap)
    if kit is None or not isinstance(text, str):
        return str(text or "")

    def named(match: re.Match[str]) -> str:
        words = kit.component_words(match.group(0))
        return str(words) if words else match.group(0)

    return _ID_TOKEN.sub(named, text)


_PHRASE_BREAK = re.compile(r", (?!(?:column|tile|field) \d)")


def shared_words(actions: Any, snap: Any = None) -> tuple[str, list[str]]:
    """What a question's options (single actions) all say, and what each says besides: ("play starting
    card: 2 boxes", ["without its action", "use boxes"]); ("", []) when they share nothing."""
    if not actions or len(actions) < 2 or not all(isinstance(a, dict) for a in actions):
        return "", []
    # a place ("row 1, column 2") is one phrase: the options are cut between phrases, never inside one
    parts = [_PHRASE_BREAK.split(action_label(action, snap)) for action in actions]
    common = 0
    while all(len(p) > common + 1 and p[common] == parts[0][common] for p in parts):
        common += 1
    if not common:
        return "", []
    return ", ".join(parts[0][:common]), [", ".join(p[common:]) for p in parts]


def _piece_name(kit: Any, difference: dict[str, Any]) -> str:
    what, item = difference.get("what"), str(difference.get("item") or "")
    if what == "front":  # a model may name a class of fronts ("fossil:RAPTOR-2"): the class's words
        words = kit.component_words(item)
        if words is None and ":" in item:
            words = kit.component_words(item.split(":", 1)[1])
        return str(words or f"tile {item}")
    if what == "back":
        return str(kit.back_words)
    return f"a {item} {kit.peg_words}" if item != "?" else f"a {kit.peg_words} of a colour not made out"


def _place(kit: Any, snap: Any, place: Any) -> str:
    if not isinstance(place, dict):
        return "nowhere"
    zone, at = place.get("zone"), list(place.get("at") or ())
    view = (snap or {}).get("view") or {}
    words = kit.place_words(view, kit.table_layout(snap or {}), zone, at) if len(at) == 2 else None
    if words:
        return str(words)
    if isinstance(zone, str) and zone.startswith("seat:"):
        return f"in {seat_name(snap, zone[5:])}'s area"
    shown = str(zone or "the table").replace("-", " ")
    millimetres = f" at ({at[0]:.0f}, {at[1]:.0f}) mm" if len(at) == 2 and zone == "play" else ""
    return f"in {shown}{millimetres}"


def seat_name(snap: Any, colour: str) -> str:
    """Who sits at the seat of ``colour``: the player's name (the colour where the table has none)."""
    for player in (snap or {}).get("players") or []:
        if isinstance(player, dict) and player.get("colour") == colour and player.get("name"):
            return str(player["name"])
    return colour


def _worded(difference: Any, snap: Any) -> tuple[str, str, str, Any] | str:
    """A difference's piece, expected place and seen place in the game's words, and its change; the
    plain text when the game has no kit to word it."""
    kit = kit_of(snap)
    if not isinstance(difference, dict) or kit is None:
        return str(difference.get("text") or "") if isinstance(difference, dict) else str(difference)
    return (_piece_name(kit, difference), _place(kit, snap, difference.get("expected")),
            _place(kit, snap, difference.get("seen")), difference.get("change"))


def difference_words(difference: Any, snap: Any = None) -> str:
    """One way the table differs from the game, in the game's words (its pieces, its cells)."""
    worded = _worded(difference, snap)
    if isinstance(worded, str):
        return worded
    name, expected, seen, change = worded
    if change == "appeared":
        return f"{name} appeared {seen}"
    if change == "vanished":
        return f"{name} is gone from {_bare(expected)}"
    return f"{name} moved from {_bare(expected)} to {_bare(seen)}"


def setup_step_words(difference: Any, snap: Any = None) -> str:
    """One thing to do to set the table up, in the words and places the diagram shows."""
    worded = _worded(difference, snap)
    if isinstance(worded, str):
        return worded
    name, expected, seen, change = worded
    if change == "vanished":
        return f"put {name} {expected}"
    if change == "appeared":
        return f"take {name} off the table (it lies {seen})"
    return f"move {name} from {_bare(seen)} to {_bare(expected)}"


def _bare(place: str) -> str:
    """A place without its preposition, to follow "from" or "to"."""
    for word in ("on ", "in ", "at "):
        if place.startswith(word):
            return place[len(word):]
    return place


def difference_side(difference: Any, snap: Any = None, side: str = "expected") -> str:
    """What the game expects (or the camera sees) where the table differs: "a blue chisel between ..."."""
    kit = kit_of(snap)
    if not isinstance(difference, dict) or kit is None or not isinstance(difference.get(side), dict):
        return ""
    return f"{_piece_name(kit, difference)} {_place(kit, snap, difference[side])}"


def _kind_words(action: Any) -> str:
    return str(action.get("kind", "action")).replace("_", " ").replace("-", " ")


def groupby_kind(actions: Any) -> list[tuple[str, list[dict[str, Any]]]]:
    """Action dicts grouped by their kind in words, in the order the kinds first appear."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for action in actions or []:
        if isinstance(action, dict):
            groups.setdefault(_kind_words(action), []).append(action)
    return list(groups.items())


def action_detail(action: Any, snap: Any = None) -> str:
    """An action's label without its kind (shown as the group's heading); the kind when nothing else."""
    label = action_label(action, snap)
    kind = _kind_words(action) if isinstance(action, dict) else ""
    rest = label[len(kind):].strip() if label.startswith(kind) else label
    return rest or label


def event_label(event: Any, snap: Any = None) -> str:
    """What an event did: its action, or for undo/notice events what they refer to."""
    if not isinstance(event, dict):
        return ""
    if event.get("kind") == "undo":
        undone = event.get("action")
        taken = f": {action_label(undone, snap)}" if isinstance(undone, dict) and undone else ""
        return f"took back move #{event.get('undoes')}{taken}"
    if event.get("action"):
        label = action_label(event["action"], snap)
        # a chance step made for a player (a card drawn for red): whose it is, since the table made it
        for_whom = event["action"].get("player") if not event.get("player") else None
        return f"{label} for {for_whom}" if isinstance(for_whom, str) and for_whom else label
    kind = str(event.get("kind") or "event")
    if event.get("undoes") is not None:
        return f"{kind} of #{event['undoes']}"
    return kind


class _Blank(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return ""


def field_words(action: Mapping[str, Any], snap: Any = None) -> dict[str, str]:
    """Each field of an action in the game's words (cells as the diagram numbers them, components by
    their names, a grid place as ``place``), for a kit's sentence of the move."""
    cell_name, component_name = _cell_namer(snap), _component_namer(snap)
    fields: dict[str, str] = _Blank()
    row, col = action.get("row"), action.get("col")
    if isinstance(row, int) and isinstance(col, int) and not isinstance(row, bool):
        fields["place"] = f"row {row + 1}, column {col + 1}"
    for key, value in action.items():
        said = _value_words(key, value, cell_name, component_name) if value != "" else None
        if said is not None:  # a cell without what shows on it: that may have changed since
            fields[key] = said.split(" (")[0] if _is_cell(value) else said
    return fields


def _value_words(key: str, value: Any, cell_name: Any, component_name: Any) -> str | None:
    """One field's value in the game's words (a cell, a component, a number counted as players count):
    None for what has no words of its own (flags, lists, mappings)."""
    if _is_cell(value):
        return str(cell_name(value))
    if isinstance(value, str):
        return str(component_name(value))
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value + 1 if key in COUNTED_FROM_ONE else value)
    return None


def event_sentence(event: Any, snap: Any = None) -> str:
    """A move of the history as a sentence, in the game's words: "Ana took the tile at row 3, column 4",
    "Turned up: a Stealing tile"; the kit's phrase for the move's kind (its ``move_words``), else who did
    it and the move's label."""
    if not isinstance(event, dict):
        return ""
    action = event.get("action") if isinstance(event.get("action"), dict) else None
    player = event.get("player")
    name = who(player, snap) if isinstance(player, str) and player else ""
    if event.get("kind") == "undo":
        taken = f": {action_label(action, snap)}" if action else ""
        return f"Move #{event.get('undoes')} taken back{taken}"
    kit = kit_of(snap)
    phrase = (getattr(kit, "move_words", None) or {}).get(str((action or {}).get("kind")))
    if action is None or phrase is None:
        label = event_label(event, snap)
        return f"{name}: {label}" if name else label[:1].upper() + label[1:]
    text = " ".join(phrase.format_map(field_words(action, snap)).split())
    if name:
        return f"{name} {text}"
    for_whom = action.get("player")
    said = text[:1].upper() + text[1:]
    return f"{said} for {who(for_whom, snap)}" if isinstance(for_whom, str) and for_whom else said


def _is_cell(value: Any) -> bool:
    return isinstance(value, list | tuple) and len(value) == 2 and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    )


def _cell_text(value: Any) -> str:
    return f"({value[0]}, {value[1]})"


#: an edition named by its language, in that language
EDITION_NAMES = {"en": "English", "es": "Español", "de": "Deutsch"}


def choice_words(value: Any, option: str = "") -> str:
    """A setting's choice as the setup page offers it: yes or no, an edition by its language's name."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if option == "edition" and value in EDITION_NAMES:
        return EDITION_NAMES[value]
    return str(value)


def counted(n: Any, singular: str, plural: str | None = None) -> str:
    """A number and its noun, agreeing: "1 move", "3 moves", "1 box", "2 boxes"."""
    regular = singular + ("es" if singular.endswith(("s", "x")) else "s")
    word = singular if n == 1 else (plural or regular)
    return f"{n} {word}"


def calibration_facts(report: Any) -> list[str]:
    """The camera's measurements on the Setup page, each a sentence (never a dump of the report)."""
    if not isinstance(report, Mapping):
        return []
    facts: list[str] = []
    status = report.get("calibration")
    if isinstance(status, Mapping):
        seen = status.get("markers_seen") or []
        drift = status.get("drift_px")
        named = str(status.get("state", "unknown")).replace("-", " ")
        state = "holds" if status.get("trusted") else f"is {named}"
        facts.append(f"The calibration {state}: {counted(len(seen), 'corner marker')} seen"
                     + (f", {drift:g} px from where they were calibrated." if isinstance(drift, int | float)
                        else "."))
    if isinstance(report.get("frames"), int):
        facts.append(f"{counted(report['frames'], 'frame')} read from the camera.")
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
            facts.append(f"Marker {marker}: " + ("not seen." if not reading.get("visible") else
                         f"seen, {drift:g} px from its calibrated place." if isinstance(drift, int | float)
                         else "seen."))
    if isinstance(test.get("reprojection_mm"), int | float):
        facts.append(f"The markers fit the table to within {test['reprojection_mm']:g} mm.")
    size, scale = test.get("table_mm"), test.get("px_per_mm")
    if isinstance(size, list) and len(size) == 2:
        facts.append(f"The markers span {size[0]:.0f} x {size[1]:.0f} mm.")
    if isinstance(scale, Mapping) and {"min", "max"} <= set(scale):
        facts.append(f"The camera sees {scale['min']:.2f} to {scale['max']:.2f} px per mm across the table.")
    light = test.get("lighting")
    if isinstance(light, Mapping) and isinstance(light.get("white_level"), int | float):
        uneven = light.get("unevenness")
        varying = f", varying by {uneven:.0%} across the table" if isinstance(uneven, int | float) else ""
        facts.append(f"White reads at {light['white_level']:.0f} of 255{varying}"
                     + f" (measured on {light.get('measured_on', 'the table')}).")
    return facts


def who(player: Any, snap: Any = None) -> str:
    """A player as the table calls them: "Ana (orange)" where the game names its players by colour."""
    players = snap.get("players") if isinstance(snap, Mapping) else None
    for seat in players or []:
        if isinstance(seat, Mapping) and seat.get("name") == player and seat.get("person"):
            return f"{seat['person']} ({player})"
    return str(player)


def _one_of(phrases: list[str]) -> str:
    """"a, b or c"."""
    return phrases[0] if len(phrases) == 1 else f"{', '.join(phrases[:-1])} or {phrases[-1]}"


def next_step(snap: Any, hand_moves: Any = ()) -> str:
    """Who should do what next, as one sentence (the page's status line): the set-up, a decision, the
    piece being turned face up, or the player to act and the kinds of move open to them."""
    if not isinstance(snap, Mapping) or not snap.get("game"):
        return ""
    if snap.get("over"):
        return "The game is over: the scores page shows how each player scored."
    waiting = snap.get("pending")
    pending: Mapping[str, Any] = waiting if isinstance(waiting, Mapping) else {}
    kind, actor = pending.get("kind"), pending.get("actor")
    if kind == "setup":
        steps = len((pending.get("checklist") or {}).get("steps") or [])
        left = f" ({counted(steps, 'step')} to go)" if steps else ""
        return f"Everyone: set the table up as the list says{left}; the game starts by itself."
    if kind in ("objection", "question"):
        someone = who(actor, snap) if actor else "Everyone"
        if kind == "question":
            return f"{someone}: answer the question (Dispute page), or make the move plainer on the table."
        return f"{someone}: put the table back as the diagram shows, or decide on the Dispute page."
    current = snap.get("current")
    if current:
        kinds = [name for name, _ in groupby_kind(snap.get("legal"))]
        if hand_moves and not kinds:
            kinds = ["lay a card from the hand"]
        doing = f": {_one_of(kinds[:5])}" if kinds else ""
        return f"{who(current, snap)} to play{doing}."
    if snap.get("chance"):
        kit = kit_of(snap)
        said = kit.chance_words(snap.get("view") or {}) if kit is not None else None
        if said:
            return f"Now {said}."
        last = snap.get("last_event")
        mover = last.get("player") if isinstance(last, Mapping) else None
        someone = who(mover, snap) if mover else "The player who moved"
        return f"{someone}: turn the piece face up; the camera reads it."
    return ""
