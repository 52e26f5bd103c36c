"""The Setup page's self-test speaks in sentences with what to do: no field names, no JSON, no 'None'."""

from __future__ import annotations

import re
from pathlib import Path

from companion.commands.demo import build
from companion.web import WebConfig, create_app


def test_the_self_test_and_its_measurements_are_sentences(tmp_path: Path) -> None:
    demo = build("jurassik", seed=1, state_dir=tmp_path)
    try:
        for _ in range(4):
            demo.loop.process_read(demo.camera.read())
        page = create_app(demo.loop, WebConfig()).test_client().get("/setup").get_data(as_text=True)
        start = page.index('id="calibration"')
        section = page[start:page.index("</section>", start)]
        assert "Self-test passed: the camera is ready." in section
        assert "Marker 0: seen" in section and "px per mm across the table" in section
        assert "The calibration holds: 4 corner markers seen" in section
        words = re.sub(r"<[^>]+>", " ", section)
        for dump in ("None", "{", "[", "_px", "drift px", "By Region", "true", "false"):
            assert dump not in words, dump
    finally:
        demo.close()


def test_the_self_test_speaks_the_reader_s_language_what_it_finds_and_what_to_do(tmp_path: Path) -> None:
    import copy

    demo = build("jurassik", seed=1, state_dir=tmp_path)
    try:
        for _ in range(4):
            demo.loop.process_read(demo.camera.read())
        client = create_app(demo.loop, WebConfig()).test_client()

        def section(language: str) -> str:
            page = client.get("/setup", headers={"Accept-Language": language}).get_data(as_text=True)
            start = page.index('id="calibration"')
            return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page[start:page.index("</section>", start)]))

        german = section("de")
        assert "Alle vier Marker sind zu sehen." in german and "Das Licht ist gleichmäßig" in german
        assert "Codes gelesen; die kleinsten" in german and "Weiß liegt" not in german
        assert "All four markers" not in german and "codes read" not in german and "quiet zones" not in german
        scene = copy.deepcopy(demo.loop.game.model.scene(demo.loop.current_state()))
        scene.markers = [marker for marker in scene.markers if marker.marker_id != 2]
        demo.camera.show(scene)  # marker 2 taken away
        for _ in range(3):
            demo.loop.process_read(demo.camera.read())
        spanish = section("es")
        assert "No se ve el marcador 2: vuelve a ponerlo en su esquina" in spanish, spanish
        assert "Se ven 3 de los cuatro marcadores." in spanish and "is not seen" not in spanish
        assert "Marker 2 is not seen" in section("en")
    finally:
        demo.close()


def test_a_misfit_with_its_after_sentences_is_said_in_each_language() -> None:
    from companion.i18n import speaking
    from companion.status_words import sentence_words
    from vision.table_area import AreaCheck

    check = AreaCheck((1000.0, 500.0), (1280.0, 720.0), 1100.0, (900.0, 500.0), tolerance=0.08)
    data = check.to_dict()["problem_said"]
    assert len(data["then"]) == 2
    with speaking("de"):
        german = sentence_words(data, check.problem())
    assert german.startswith("die Marker 0-1 liegen 1000 mm auseinander")
    assert "das Objektiv ist nicht angepasst" in german and "hebe die Kamera auf etwa" in german
    with speaking("en"):
        assert sentence_words(data) == check.problem()
    assert sentence_words(None, "as it was") == "as it was"
    assert sentence_words({"message": 3}, "untrusted") == "untrusted"
