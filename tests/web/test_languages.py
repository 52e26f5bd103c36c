"""Every page in its reader's language: complete catalogues, plural forms from them, the language chosen
per device (the picker), else by the browser, else by the game's edition, and no English left on a page
read in Spanish or German."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

from companion import i18n, translations
from companion.kits import find_kit
from companion.web import WebConfig, create_app
from engines.core import get_game

PAGES = ("/", "/scores", "/history", "/dispute", "/setup", "/panel")


@pytest.fixture(scope="module")
def template() -> Any:
    return translations.extract()


@pytest.mark.parametrize("code", translations.translated_languages())
@pytest.mark.parametrize("package", translations.PACKAGES, ids=lambda package: package.name)
def test_every_catalogue_is_complete(package: Any, code: str) -> None:
    """A new string on a page that nobody translated fails here, naming it."""
    assert translations.problems(translations.extract(package), code, package) == []


def test_a_new_untranslated_string_is_caught(template: Any) -> None:
    from babel.messages.catalog import Catalog

    grown = Catalog()
    for message in template:
        grown.add(message.id, None, context=message.context)
    grown.add("a sentence nobody has translated yet", None)
    assert translations.problems(grown, "es") == [
        "es: not in the catalogue: 'a sentence nobody has translated yet'"]


@pytest.mark.parametrize(("code", "one", "many"), [
    ("en", "frame", "frames"), ("es", "imagen", "imágenes"), ("de", "Bild", "Bilder")])
def test_plural_forms_come_from_the_catalogue(code: str, one: str, many: str) -> None:
    with i18n.speaking(code):
        said = {n: i18n.ngettext("%(num)d frame", "%(num)d frames", n) % {"num": n} for n in (0, 1, 2, 5)}
    assert said == {0: f"0 {many}", 1: f"1 {one}", 2: f"2 {many}", 5: f"5 {many}"}


def test_the_browser_s_languages_are_negotiated_with_their_weights() -> None:
    assert i18n.negotiate("fr-FR, es;q=0.8, de;q=0.9") == "de"
    assert i18n.negotiate("es-AR,es;q=0.9,en;q=0.5") == "es"
    assert i18n.negotiate("fr, it", fallback="de") == "de"
    assert i18n.negotiate("", fallback=None) == "en"
    assert i18n.negotiate("de;q=0, es;q=bad") == "en"
    assert i18n.negotiate("x" * 5000) == "en"


def test_the_command_line_speaks_english_unless_the_environment_says_otherwise() -> None:
    assert i18n.from_environment({}) == "en"
    assert i18n.from_environment({"LANG": "C.UTF-8"}) == "en"
    assert i18n.from_environment({"LANG": "de_DE.UTF-8"}) == "de"
    assert i18n.from_environment({"LANGUAGE": "fr:es", "LANG": "de_DE.UTF-8"}) == "es"
    assert i18n.from_environment({"LC_ALL": "es_ES.UTF-8", "LANG": "de_DE.UTF-8"}) == "es"


def test_each_kit_names_its_edition_s_language() -> None:
    assert find_kit("jurassik").edition_language({"edition": "es"}) == "es"
    assert find_kit("jurassik").edition_language({"edition": "en"}) == "en"
    assert find_kit("isla-nublar").edition_language({}) == "de"
    assert find_kit("jurassic-parts").edition_language({"edition": "xx"}) == "en"


def _visible(page: str) -> str:
    """What a reader sees: text and the attributes shown as words (titles, labels, placeholders)."""
    page = re.sub(r"<script.*?</script>", " ", page, flags=re.S)
    said = re.findall(r'(?:title|alt|aria-label|placeholder)="([^"]*)"', page)
    text = re.sub(r"<[^>]+>", " ", page)
    return html.unescape(" ".join([text, *said]))


def _english_left(page: str, template: Any, code: str) -> list[str]:
    """The catalogue's English sentences that show on ``page`` where ``code`` says them otherwise."""
    seen = _visible(page)
    left = []
    with i18n.speaking(code):
        for message in template:
            plain = isinstance(message.id, str) and "%(" not in message.id and "{" not in message.id
            if not plain or len(message.id) < 14:
                continue
            said = i18n.pgettext(message.context, message.id) if message.context else i18n.gettext(message.id)
            if said != message.id and message.id in seen:
                left.append(message.id)
    return left


@pytest.mark.parametrize("code", translations.translated_languages())
@pytest.mark.parametrize("game", ["jurassic-parts", "jurassik", "isla-nublar", "jurassic-brunch"])
def test_every_page_reads_in_the_asked_language(template: Any, make_table: Any, code: str, game: str) -> None:
    players = ("blue", "orange") if get_game(game).name == "jurassic-brunch" else ("red", "blue", "green")
    table = make_table(game=game, players=players)
    table.play(4)
    client = create_app(table, WebConfig()).test_client()
    for path in PAGES:
        answer = client.get(path, headers={"Accept-Language": f"{code},en;q=0.5"})
        assert answer.status_code == 200, path
        page = answer.get_data(as_text=True)
        assert f'<html lang="{code}">' in page, path
        assert _english_left(page, template, code) == [], (path, code)
    nav = {"es": ("Mesa", "Puntuaciones", "Historial"), "de": ("Tisch", "Wertung", "Verlauf")}[code]
    assert all(word in page for word in nav)


def test_a_device_s_own_choice_beats_the_browser_s(client: Any, csrf: Any, origin: str) -> None:
    token = csrf(client)
    answer = client.post("/language", data={"lang": "de", "next": "/scores", "csrf_token": token},
                         headers={"Origin": origin})
    assert answer.status_code == 302 and answer.headers["Location"].endswith("/scores")
    page = client.get("/scores", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert '<html lang="de">' in page and 'value="de" lang="de" selected' in page
    client.post("/language", data={"lang": "", "next": "/", "csrf_token": token}, headers={"Origin": origin})
    assert '<html lang="es">' in client.get("/", headers={"Accept-Language": "es"}).get_data(as_text=True)


def test_a_language_nobody_offers_is_refused(client: Any, csrf: Any, origin: str) -> None:
    token = csrf(client)
    answer = client.post("/language", data={"lang": "xx", "csrf_token": token}, headers={"Origin": origin})
    assert answer.status_code == 400
    assert '<html lang="en">' in client.get("/").get_data(as_text=True)


def test_two_readers_at_one_table_read_two_languages(app: Any) -> None:
    spanish, german = app.test_client(), app.test_client()
    for _ in range(2):
        es = spanish.get("/history", headers={"Accept-Language": "es"}).get_data(as_text=True)
        de = german.get("/history", headers={"Accept-Language": "de"}).get_data(as_text=True)
        assert "Jugadas registradas" in es and "Festgehaltene Züge" in de
        assert "Festgehaltene" not in es and "Jugadas" not in de


def test_without_a_browser_choice_the_page_speaks_the_edition_s_language(make_table: Any) -> None:
    table = make_table(game="jurassik", players=("red", "blue", "green"))
    table.new_game({"game": "jurassik", "options": {"edition": "es"},
                    "seats": [{"name": p, "colour": p, "seat": i} for i, p in enumerate(("red", "blue"))]})
    client = create_app(table, WebConfig()).test_client()
    page = client.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)  # none it speaks
    assert '<html lang="es">' in page and "Jugadas válidas" in page
    assert '<html lang="en">' in client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)


@pytest.mark.parametrize(("code", "turn"), [("es", "Le toca a"), ("de", "ist am Zug"), ("en", "to play")])
def test_the_live_snapshot_speaks_the_reader_s_language(client: Any, code: str, turn: str) -> None:
    snap = client.get("/api/snapshot", headers={"Accept-Language": code}).get_json()
    said = snap["words"]
    assert said["language"] == code
    assert turn in said["next_step"] and turn.lower() in said["turn"].lower()
    assert said["last_move"]


@pytest.mark.parametrize("code", ["es", "de", "en"])
def test_the_snapshot_s_rule_and_problems_read_in_the_reader_s_language(app: Any, code: str) -> None:
    from companion.i18n import said
    from companion.web.api import spoken_snapshot

    rule = {"id": "JK-START", "title": "Beginning of excavation", "note": "", "passage": "The first player"}
    problem = said("The saved games could not be read: a new database was started. The damaged file is kept "
                   "as %(original)s.", original="companion.db.corrupt-1")
    snap = {"game": "jurassik", "players": [], "last_event": {"seq": 1, "kind": "action", "rule": rule},
            "problems": [{"text": str(problem), "said": problem.to_dict()}]}
    with app.test_request_context("/api/snapshot", headers={"Host": "localhost", "Accept-Language": code}):
        app.preprocess_request()
        spoken = spoken_snapshot(snap)
    title, text = spoken["last_event"]["rule"]["title"], spoken["problems"][0]["text"]
    assert (title != rule["title"]) == (code != "en") and (text != str(problem)) == (code != "en")
    assert spoken["last_event"]["rule"]["passage"] == rule["passage"]  # a rulebook is quoted as printed
    assert "companion.db.corrupt-1" in text


def test_an_objection_reads_in_each_reader_s_language(table: Any, app: Any) -> None:
    from companion.i18n import said

    objection = said("%(actor)s moved out of turn: it is %(player)s's turn", actor="Ana", player="Bruno")
    table.pending = {"kind": "objection", "text": str(objection), "said": objection.to_dict(), "options": [],
                     "rule": None, "differences": [], "since": 1.0}
    pages = {code: app.test_client().get("/dispute", headers={"Accept-Language": code}).get_data(as_text=True)
             for code in ("en", "es", "de")}
    assert "Ana moved out of turn: it is Bruno&#39;s turn" in pages["en"]
    assert "Ana movió fuera de turno: le toca a Bruno" in pages["es"]
    assert "Ana hat außer der Reihe gezogen: Bruno ist am Zug" in pages["de"]


def test_a_sentence_s_own_words_are_made_in_every_language() -> None:
    """A group's own set-up step names its pieces and places in each reader's words, made once."""
    from companion.i18n import Said, said_everywhere, speaking
    from companion.words import grid_place

    step = said_everywhere("push %(pieces)s into line with the square (%(place)s)",
                           lambda: {"pieces": "X", "place": grid_place(1, 2)})
    again = Said.from_dict(step.to_dict())
    assert again is not None
    with speaking("es"):
        assert again.words() == "alinea X con el cuadrado (fila 2, columna 3)"
    with speaking("de"):
        assert again.words() == "schiebt X in eine Linie mit dem Quadrat (Reihe 2, Spalte 3)"
    assert str(again) == "push X into line with the square (row 2, column 3)"
    assert Said.from_dict({"message": 3}) is None and Said.from_dict("text") is None
    hostile = Said.from_dict({"message": "%(x)s", "params": {"x": ["a"]}, "localized": {"es": "no"}})
    assert hostile is not None and hostile.words() == "%(x)s"


def test_the_demo_runs_an_edition_from_the_command_line(tmp_path: Any) -> None:
    from companion.commands.demo import build

    demo = build("jurassik", seed=2, state_dir=tmp_path, options={"edition": "es"})
    try:
        assert demo.loop.settings()["options"]["edition"] == "es"
        assert demo.loop.current_state().edition == "es"
    finally:
        demo.close()


def test_no_words_hide_where_the_catalogue_cannot_find_them() -> None:
    """A gettext call inside an f-string's braces is never extracted (nor translated): none is written."""
    root = translations.ROOT
    files = [path for package in translations.PACKAGES for path in sorted(package.root.rglob("*.py"))]
    hidden = [f"{path.relative_to(root)}:{number}" for path in files
              for number, line in enumerate(path.read_text().splitlines(), start=1)
              if re.search(r"""\bf(['"]).*\{[^}]*\b(n?p?gettext|_)\(""", line)]
    assert hidden == []


@pytest.mark.parametrize(("game", "reason", "spanish"), [
    ("jurassik", "D5-4 was the last accessible dinosaur tile",
     "dinosaurio 5, pieza 4 era la última carta dinosaurio accesible"),
    ("isla-nublar", "the dinosaur deck is empty; the round was played to its end",
     "el mazo de dinosaurios está vacío; la ronda se jugó hasta el final"),
    ("jurassic-parts", "a reason no kit knows", "a reason no kit knows"),
])
def test_why_a_game_ended_reads_in_the_reader_s_language(game: str, reason: str, spanish: str) -> None:
    from companion.words import reason_words

    with i18n.speaking("es"):
        assert reason_words(reason, {"game": game}) == spanish
