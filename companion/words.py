"""Moves, components, places and differences in the words players use, from each game's kit: shared by
the pages and the command line (``companion explain``)."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from companion.i18n import (
    LANGUAGES,
    LazyText,
    Said,
    gettext,
    language,
    lazy_pgettext,
    named,
    ngettext,
    pgettext,
)

if TYPE_CHECKING:
    from companion.kits.kit import Kit

#: the table as the page and the command line hold it: the loop's snapshot (JSON), or nothing known
Snapshot = Mapping[str, Any] | None
#: a move, an event or a difference as JSON: its fields by name
Fields = Mapping[str, Any]
#: a board cell as the engines write it: [column, row] or [x, y]
Cell = list[int] | tuple[int, int]
#: says a cell or a component's id in the game's words
Namer = Callable[[Any], str]


def fields_of(value: object) -> Fields:
    """``value`` when it is a JSON object, else an empty one (what comes from a page is untrusted)."""
    return value if isinstance(value, Mapping) else {}


def kit_of(snap: object) -> Kit | None:
    from companion.kits import find_kit

    game = fields_of(snap).get("game")
    return find_kit(str(game)) if game else None


def _cell_namer(snap: Snapshot) -> Namer:
    """The game's own words for a board cell (its kit's), or the engine's coordinates."""
    kit = kit_of(snap)
    view = fields_of(fields_of(snap).get("view"))

    def name(value: Cell) -> str:
        words = kit.cell_words(view, value) if kit is not None else None
        return words or _cell_text(value)

    return name


def _component_namer(snap: Snapshot) -> Namer:
    """The game's own words for a component, field or score part named by id, or the id."""
    kit = kit_of(snap)

    def name(value: str) -> str:
        words = kit.component_words(value) if kit is not None else None
        return words or value

    return name


def part_name(name: object, snap: Snapshot = None) -> str:
    """A score part as players call it (``D3`` -> "dinosaur 3", ``W-GROUPS`` -> its scoring card)."""
    return str(_component_namer(snap)(str(name))).replace("_", " ")


#: an action's fields as players say them ("origin" is "from"); a field not named here is said by its name
KEY_WORDS: dict[str, LazyText] = {
    "origin": lazy_pgettext("field", "from"), "target": lazy_pgettext("field", "to"),
    "take_back": lazy_pgettext("field", "taking back"), "other": lazy_pgettext("field", "with"),
    "victim": lazy_pgettext("field", "from"), "from": lazy_pgettext("field", "from"),
    "to": lazy_pgettext("field", "to"), "at": lazy_pgettext("field", "at"),
    "give": lazy_pgettext("field", "give"), "take": lazy_pgettext("field", "take"),
    "face": lazy_pgettext("field", "face"), "pile": lazy_pgettext("field", "pile"),
    "use": lazy_pgettext("field", "use"), "steps": lazy_pgettext("field", "steps"),
    "direction": lazy_pgettext("field", "direction"), "slot": lazy_pgettext("field", "place"),
    "part": lazy_pgettext("field", "part"), "dinosaur": lazy_pgettext("field", "dinosaur"),
    "piece": lazy_pgettext("field", "piece"), "volcano": lazy_pgettext("field", "volcano"),
    "scares": lazy_pgettext("field", "scares"), "eats": lazy_pgettext("field", "eats"),
    "reason": lazy_pgettext("field", "reason"),
}


#: fields whose value names itself ("Triceratops", "row 2, column 3"): said without the field's name
BARE_KEYS = frozenset({"cell", "fossil", "tile", "card", "token", "field", "figures"})


#: places in a row the engines count from 0 and players from 1 (the scoring row's slots)
COUNTED_FROM_ONE = frozenset({"slot"})


def action_label(action: object, snap: Snapshot = None) -> str:
    """A short human label for an action dict: its kind and its telling fields (the player is shown apart);
    with ``snap``, board cells in the game's own words."""
    cell_name = _cell_namer(snap)
    component_name = _component_namer(snap)
    if not isinstance(action, dict):
        return str(action or "")
    if isinstance(action.get("text"), str):
        return str(action["text"])
    kind = _kind_words(action, snap)
    parts = [kind]
    row, col = action.get("row"), action.get("col")
    grid_cell = isinstance(row, int) and isinstance(col, int) and not isinstance(row, bool)
    if isinstance(row, int) and isinstance(col, int) and grid_cell:  # as players count: from 1, row first
        parts.append(grid_place(row, col))
    if _is_cell(action.get("a")) and _is_cell(action.get("b")):
        parts.append(gettext("between %(a)s and %(b)s") % {"a": cell_name(action["a"]),
                                                            "b": cell_name(action["b"])})
    for key, value in action.items():
        if key == "use" and value == "none":  # a card played for nothing, said so beside its other uses
            parts.append(gettext("without its action"))
            continue
        if key in ("kind", "state", "player", "a", "b", "concealed") or value in (None, "", "none", [], {}):
            continue
        if grid_cell and key in ("row", "col"):
            continue
        if isinstance(value, bool):  # a flag: named when set ("eats"), left out when not
            if value:
                parts.append(str(KEY_WORDS.get(key, key.replace("_", " "))))
            continue
        said = _value_words(key, value, cell_name, component_name)
        if said is None:
            text = json.dumps(value, default=str)[:40] if isinstance(value, list | dict) else str(value)[:40]
        else:
            text = said[:60] if isinstance(value, str) else said
        key_words = str(KEY_WORDS.get(key, key.replace("_", " ")))
        # the kind already says it ("move dinosaur Velociraptor", not "move dinosaur dinosaur DINO-2")
        bare = key in BARE_KEYS or key_words in kind.split(" ")
        parts.append(text if bare else f"{key_words} {text}")
        if len(parts) >= 5:
            break
    if action.get("kind") == "correct" and action.get("reason"):
        parts = [gettext("correction"), str(action["reason"])[:60]]
    label = " ".join(parts[:1]) + (" " + ", ".join(parts[1:]) if len(parts) > 1 else "")
    return label + (" " + gettext("(concealed)") if action.get("concealed") else "")


def grid_place(row: int, col: int) -> str:
    """A grid cell as players count it, from 1 and row first: "row 3, column 4"."""
    return gettext("row %(row)d, column %(col)d") % {"row": row + 1, "col": col + 1}


_ID_TOKEN = re.compile(r"\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*\b")


def in_words(text: object, snap: Snapshot = None) -> str:
    """A message (an engine's refusal, an objection) with the ids in it said as players say them:
    "DINO-2 may not skip the occupied field C2R2" -> "Velociraptor may not skip the occupied field column
    3, field 3 (forest)"; ids the game does not name are left as they are."""
    kit = kit_of(snap)
    if kit is None or not isinstance(text, str):
        return str(text or "")

    def in_game_words(match: re.Match[str]) -> str:
        words = kit.component_words(match.group(0))
        return str(words) if words else match.group(0)

    return _ID_TOKEN.sub(in_game_words, text)


def _phrase_break() -> re.Pattern[str]:
    """Where a label may be cut: after a comma that does not start a place's second half ("row 1, column
    2" is one phrase), in the words of the language being spoken."""
    return _phrase_break_in(language())


@functools.cache
def _phrase_break_in(spoken: str) -> re.Pattern[str]:
    halves = {gettext("column"), gettext("tile"), gettext("field"), "column", "tile", "field"}
    return re.compile(r", (?!(?:" + "|".join(re.escape(h) for h in sorted(halves)) + r") \d)")


def shared_words(actions: object, snap: Snapshot = None) -> tuple[str, list[str]]:
    """What a question's options (single actions) all say, and what each says besides: ("play starting
    card: 2 boxes", ["without its action", "use boxes"]); ("", []) when they share nothing."""
    options = list(actions) if isinstance(actions, list | tuple) else []
    if len(options) < 2 or not all(isinstance(a, dict) for a in options):
        return "", []
    # a place ("row 1, column 2") is one phrase: the options are cut between phrases, never inside one
    cut = _phrase_break()
    parts = [cut.split(action_label(action, snap)) for action in options]
    common = 0
    while all(len(p) > common + 1 and p[common] == parts[0][common] for p in parts):
        common += 1
    if not common:
        return "", []
    return ", ".join(parts[0][:common]), [", ".join(p[common:]) for p in parts]


def _piece_name(kit: Kit, difference: Fields) -> str:
    what, item = difference.get("what"), str(difference.get("item") or "")
    if what == "front":  # a model may name a class of fronts ("fossil:RAPTOR-2"): the class's words
        words = kit.component_words(item)
        if words is None and ":" in item:
            words = kit.component_words(item.split(":", 1)[1])
        return str(words or gettext("tile %(id)s") % {"id": item})
    if what == "back":
        return str(kit.back_words)
    if item == "?":
        return gettext("a %(piece)s of a colour not made out") % {"piece": kit.peg_words}
    return gettext("a %(colour)s %(piece)s") % {"colour": colour_name(item), "piece": kit.peg_words}


def _place(kit: Kit, snap: Snapshot, place: object) -> str:
    if not isinstance(place, dict):
        return gettext("nowhere")
    zone, at = place.get("zone"), list(place.get("at") or ())
    zone = zone if isinstance(zone, str) else None
    view = fields_of(fields_of(snap).get("view"))
    words = kit.place_words(view, kit.table_layout(fields_of(snap)), zone, at) if len(at) == 2 else None
    if words:
        return str(words)
    if isinstance(zone, str) and zone.startswith("seat:"):
        return gettext("in %(player)s's area") % {"player": seat_name(snap, zone[5:])}
    shown = str(kit.zone_words(zone)) if zone else gettext("the table")
    if len(at) == 2 and zone == "play":
        return gettext("in %(zone)s at (%(x).0f, %(y).0f) mm") % {"zone": shown, "x": at[0], "y": at[1]}
    return gettext("in %(zone)s") % {"zone": shown}


def seat_name(snap: Snapshot, colour: str) -> str:
    """Who sits at the seat of ``colour``: the player's name (the colour where the table has none)."""
    for player in fields_of(snap).get("players") or []:
        if isinstance(player, dict) and player.get("colour") == colour and player.get("name"):
            return str(player["name"])
    return colour


def _worded(difference: object, snap: Snapshot) -> tuple[str, str, str, object] | str:
    """A difference's piece, expected place and seen place in the game's words, and its change; the
    plain text when the game has no kit to word it."""
    kit = kit_of(snap)
    if not isinstance(difference, dict) or kit is None:
        return str(difference.get("text") or "") if isinstance(difference, dict) else str(difference)
    return (_piece_name(kit, difference), _place(kit, snap, difference.get("expected")),
            _place(kit, snap, difference.get("seen")), difference.get("change"))


def difference_words(difference: object, snap: Snapshot = None) -> str:
    """One way the table differs from the game, in the game's words (its pieces, its cells)."""
    worded = _worded(difference, snap)
    if isinstance(worded, str):
        return worded
    name, expected, seen, change = worded
    if change == "appeared":
        return gettext("%(piece)s appeared %(place)s") % {"piece": name, "place": seen}
    if change == "vanished":
        return gettext("%(piece)s is gone from %(place)s") % {"piece": name, "place": _bare(expected)}
    return gettext("%(piece)s moved from %(origin)s to %(target)s") % {
        "piece": name, "origin": _bare(expected), "target": _bare(seen)}


def setup_step_words(difference: object, snap: Snapshot = None) -> str:
    """One thing to do to set the table up, in the words and places the diagram shows."""
    worded = _worded(difference, snap)
    if isinstance(worded, str):
        return worded
    name, expected, seen, change = worded
    if change == "vanished":
        return gettext("put %(piece)s %(place)s") % {"piece": name, "place": expected}
    if change == "appeared":
        return gettext("take %(piece)s off the table (it lies %(place)s)") % {"piece": name, "place": seen}
    return gettext("move %(piece)s from %(origin)s to %(target)s") % {
        "piece": name, "origin": _bare(seen), "target": _bare(expected)}


def _bare(place: str) -> str:
    """A place without its preposition, to follow "from" or "to"."""
    # Translators: the prepositions a place may start with, separated by "|" ("on|in|at")
    for word in {*gettext("on|in|at").split("|"), "on", "in", "at"}:
        if word and place.startswith(word + " "):
            return place[len(word) + 1:]
    return place


def difference_side(difference: object, snap: Snapshot = None, side: str = "expected") -> str:
    """What the game expects (or the camera sees) where the table differs: "a blue chisel between ..."."""
    kit = kit_of(snap)
    if not isinstance(difference, dict) or kit is None or not isinstance(difference.get(side), dict):
        return ""
    return f"{_piece_name(kit, difference)} {_place(kit, snap, difference[side])}"


def _kind_words(action: object, snap: Snapshot = None) -> str:
    """A move's kind as the game's players name it ("take", "place chisel"), in the reader's language."""
    kind = str(action.get("kind", "action")) if isinstance(action, dict) else "action"
    kit = kit_of(snap)
    return named(getattr(kit, "kind_words", None) or {}, kind, kind.replace("_", " ").replace("-", " "))


def groupby_kind(actions: Iterable[object] | None, snap: Snapshot = None) -> list[tuple[str, list[Fields]]]:
    """Action dicts grouped by their kind in words, in the order the kinds first appear."""
    groups: dict[str, list[Fields]] = {}
    for action in actions or []:
        if isinstance(action, dict):
            groups.setdefault(_kind_words(action, snap), []).append(action)
    return list(groups.items())


def action_detail(action: object, snap: Snapshot = None) -> str:
    """An action's label without its kind (shown as the group's heading); the kind when nothing else."""
    label = action_label(action, snap)
    kind = _kind_words(action, snap) if isinstance(action, dict) else ""
    rest = label[len(kind):].strip() if label.startswith(kind) else label
    return rest or label


def event_label(event: object, snap: Snapshot = None) -> str:
    """What an event did: its action, or for undo/notice events what they refer to."""
    if not isinstance(event, dict):
        return ""
    if event.get("kind") == "undo":
        undone = event.get("action")
        taken = f": {action_label(undone, snap)}" if isinstance(undone, dict) and undone else ""
        return gettext("took back move #%(seq)s") % {"seq": event.get("undoes")} + taken
    if event.get("action"):
        label = action_label(event["action"], snap)
        # a chance step made for a player (a card drawn for red): whose it is, since the table made it
        for_whom = event["action"].get("player") if not event.get("player") else None
        if isinstance(for_whom, str) and for_whom:
            return gettext("%(move)s for %(player)s") % {"move": label, "player": for_whom}
        return label
    kind = event_kind(event.get("kind") or "event")
    if event.get("undoes") is not None:
        return gettext("%(kind)s of #%(seq)s") % {"kind": kind, "seq": event["undoes"]}
    return kind


#: the kinds of the history's events as the page names them
EVENT_KINDS: dict[str, LazyText] = {
    "action": lazy_pgettext("event", "move"), "correct": lazy_pgettext("event", "correction"),
    "undo": lazy_pgettext("event", "undo"), "event": lazy_pgettext("event", "event"),
}


def event_kind(kind: object) -> str:
    """A stored event's kind in the reader's words ("action" is a move)."""
    return named(EVENT_KINDS, str(kind), str(kind))


class _Blank(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return ""


def field_words(action: Fields, snap: Snapshot = None) -> dict[str, str]:
    """Each field of an action in the game's words (cells as the diagram numbers them, components by
    their names, a grid place as ``place``), for a kit's sentence of the move."""
    cell_name, component_name = _cell_namer(snap), _component_namer(snap)
    fields: dict[str, str] = _Blank()
    row, col = action.get("row"), action.get("col")
    if isinstance(row, int) and isinstance(col, int) and not isinstance(row, bool):
        fields["place"] = grid_place(row, col)
    for key, value in action.items():
        said = _value_words(key, value, cell_name, component_name) if value != "" else None
        if said is not None:  # a cell without what shows on it: that may have changed since
            fields[key] = said.split(" (")[0] if _is_cell(value) else said
    return fields


def _value_words(key: str, value: object, cell_name: Namer, component_name: Namer) -> str | None:
    """One field's value in the game's words (a cell, a component, a number counted as players count):
    None for what has no words of its own (flags, lists, mappings)."""
    if _is_cell(value):
        return str(cell_name(value))
    if isinstance(value, str):
        return str(component_name(value))
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value + 1 if key in COUNTED_FROM_ONE else value)
    return None


def event_sentence(event: object, snap: Snapshot = None) -> str:
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
        return gettext("Move #%(seq)s taken back") % {"seq": event.get("undoes")} + taken
    kit = kit_of(snap)
    phrase = (getattr(kit, "move_words", None) or {}).get(str((action or {}).get("kind")))
    if action is None or phrase is None:
        label = event_label(event, snap)
        return f"{name}: {label}" if name else label[:1].upper() + label[1:]
    text = " ".join(str(phrase).format_map(field_words(action, snap)).split())
    if name:
        return gettext("%(player)s %(did)s") % {"player": name, "did": text}
    for_whom = action.get("player")
    said = text[:1].upper() + text[1:]
    if isinstance(for_whom, str) and for_whom:
        return gettext("%(move)s for %(player)s") % {"move": said, "player": who(for_whom, snap)}
    return said


def _is_cell(value: object) -> bool:
    return isinstance(value, list | tuple) and len(value) == 2 and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    )


def _cell_text(value: Cell) -> str:
    return f"({value[0]}, {value[1]})"


def choice_words(value: object, option: str = "") -> str:
    """A setting's choice as the setup page offers it: yes or no, an edition by its language's name."""
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if option == "edition" and isinstance(value, str) and value in LANGUAGES:
        return LANGUAGES[value]
    return str(value)


#: the seat colours as the page says them
COLOUR_NAMES: dict[str, LazyText] = {
    "red": lazy_pgettext("colour", "red"),
    "blue": lazy_pgettext("colour", "blue"),
    "green": lazy_pgettext("colour", "green"),
    "yellow": lazy_pgettext("colour", "yellow"),
    "orange": lazy_pgettext("colour", "orange"),
    "purple": lazy_pgettext("colour", "purple"),
    "white": lazy_pgettext("colour", "white"),
    "black": lazy_pgettext("colour", "black"),
    "pink": lazy_pgettext("colour", "pink"),
    "brown": lazy_pgettext("colour", "brown"),
    "grey": lazy_pgettext("colour", "grey"),
}


def colour_name(colour: object) -> str:
    """A colour in the reader's words ("rojo"); a name the product does not know, as it is."""
    return named(COLOUR_NAMES, str(colour), str(colour))


def who(player: object, snap: Snapshot = None) -> str:
    """A player as the table calls them: "Ana (orange)" where the game names its players by colour, and a
    player named by their seat's colour in the reader's words ("azul")."""
    players = snap.get("players") if isinstance(snap, Mapping) else None
    for seat in players or []:
        if not isinstance(seat, Mapping) or seat.get("name") != player:
            continue
        shown = colour_name(player) if seat.get("colour") == player else str(player)
        return f"{seat['person']} ({shown})" if seat.get("person") else shown
    return str(player)


def _one_of(phrases: list[str]) -> str:
    """"a, b or c"."""
    if len(phrases) == 1:
        return phrases[0]
    return gettext("%(some)s or %(last)s") % {"some": ", ".join(phrases[:-1]), "last": phrases[-1]}


def next_step(snap: Snapshot, hand_moves: Iterable[object] = ()) -> str:
    """Who should do what next, as one sentence (the page's status line): the set-up, a decision, the
    piece being turned face up, or the player to act and the kinds of move open to them."""
    if not isinstance(snap, Mapping) or not snap.get("game"):
        return ""
    if snap.get("over"):
        return gettext("The game is over: the scores page shows how each player scored.")
    waiting = snap.get("pending")
    pending = fields_of(waiting)
    kind, actor = pending.get("kind"), pending.get("actor")
    if kind == "setup":
        steps = len((pending.get("checklist") or {}).get("steps") or [])
        if steps:
            return ngettext("Everyone: set the table up as the list says (%(num)d step to go); the "
                "game starts "
                            "by itself.", "Everyone: set the table up as the list says (%(num)d "
                                "steps to go); "
                            "the game starts by itself.", steps) % {"num": steps}
        return gettext("Everyone: set the table up as the list says; the game starts by itself.")
    if kind in ("objection", "question"):
        someone = who(actor, snap) if actor else gettext("Everyone")
        if kind == "question":
            return gettext("%(player)s: answer the question (Dispute page), or make the move plainer on the "
                           "table.") % {"player": someone}
        return gettext("%(player)s: put the table back as the diagram shows, or decide on the Dispute page."
                       ) % {"player": someone}
    current = snap.get("current")
    if current:
        kinds = [name for name, _ in groupby_kind(snap.get("legal"), snap)]
        if hand_moves and not kinds:
            kinds = [gettext("lay a card from the hand")]
        if kinds:
            return gettext("%(player)s to play: %(moves)s.") % {"player": who(current, snap),
                                                               "moves": _one_of(kinds[:5])}
        return gettext("%(player)s to play.") % {"player": who(current, snap)}
    if snap.get("chance"):
        kit = kit_of(snap)
        said = kit.chance_words(snap.get("view") or {}) if kit is not None else None
        if said:
            return gettext("Now %(what)s.") % {"what": said}
        last = snap.get("last_event")
        mover = last.get("player") if isinstance(last, Mapping) else None
        someone = who(mover, snap) if mover else gettext("The player who moved")
        return gettext("%(player)s: turn the piece face up; the camera reads it.") % {"player": someone}
    return ""


def rule_words(text: object) -> str:
    """A rule's title or the project's reading of it in the reader's language (the catalogue holds every
    registered rulebook's; the passage itself is always quoted as its rulebook prints it)."""
    return gettext(str(text)) if text else ""


def rulebook_language(source: object) -> str:
    """The language a rulebook file is printed in: ``jurassik-es.txt`` is Spanish; one with no language
    in its name is the game's own (English, or German for a German game)."""
    stem = str(source or "").rsplit(".", 1)[0]
    tail = stem.rsplit("-", 1)[-1]
    if tail in LANGUAGES and "-" in stem:
        return tail
    from companion.kits import find_kit

    for kit_name in (stem, stem.rsplit("-", 1)[0]):
        kit = find_kit(kit_name)
        if kit is not None:
            return kit.language
    return "en"


def option_name(name: object) -> str:
    """A game option's name as the setup page shows it ("short game")."""
    return pgettext("option", str(name).replace("_", " "))


def option_words(text: object) -> str:
    """A game option's help in the reader's language."""
    return gettext(str(text)) if text else ""


def said_words(data: object, english: object = "", snap: Snapshot = None) -> str:
    """A sentence the table made for readers not yet known (an objection, a question, a choice), in the
    reader's language with the ids in it in the game's words; ``english`` where it carries no such form."""
    sentence = Said.from_dict(data)
    return in_words(sentence.words(said_values(snap)) if sentence is not None else str(english or ""), snap)


#: a sentence's values that are people: said as the table calls them ("Ana (orange)")
PERSON_KEYS = frozenset({"player", "other", "actor", "owner", "leader"})


def said_values(snap: Snapshot = None) -> Callable[[str, object], str | None]:
    """How a sentence made without a reader says its values on the page: a board cell as the diagram
    numbers it, a piece by its name in the game's words, a player as the table calls them; numbers as
    they are (the sentence counts them itself)."""
    cell_name, component_name = _cell_namer(snap), _component_namer(snap)

    def value_words(key: str, value: object) -> str | None:
        if _is_cell(value):
            return str(cell_name(value)).split(" (")[0]
        if isinstance(value, str) and key in PERSON_KEYS:
            return who(value, snap)
        if isinstance(value, str):
            return str(component_name(value))
        return None

    return value_words


def reason_words(reason: object, snap: Snapshot = None) -> str:
    """Why the game ended, in the reader's language (the kit's sentence for its engine's reason), with the
    ids in it said as players say them."""
    kit = kit_of(snap)
    text = kit.reason_words(str(reason or "")) if kit is not None else str(reason or "")
    return in_words(text, snap)
