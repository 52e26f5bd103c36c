"""The table's speaker: sentences said through espeak-ng in a thread of its own, in each sentence's
language, the text on espeak-ng's standard input; a missing espeak-ng or a failing sound device is a
problem to show, never an exception; when sentences come faster than they are said the oldest waits no
longer."""

from __future__ import annotations

import shutil
import subprocess
import threading
import time
import wave
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hw.speech import (
    LONGEST,
    NO_SOUND,
    NOT_INSTALLED,
    WAITING,
    EspeakSpeaker,
    SilentSpeaker,
    clean,
    open_speaker,
    voice,
)


class Recorder:
    """Stands in for ``subprocess.run``: keeps each command and the text it was given."""

    def __init__(self, returncode: int = 0, gate: threading.Event | None = None, stderr: bytes = b"") -> None:
        self.calls: list[tuple[list[str], str]] = []
        self.returncode = returncode
        self.gate = gate
        self.stderr = stderr

    def __call__(self, command: list[str], **options: Any) -> subprocess.CompletedProcess[bytes]:
        if self.gate is not None:
            self.gate.wait(5.0)
        self.calls.append((command, options["input"].decode("utf-8")))
        return subprocess.CompletedProcess(command, self.returncode, b"", self.stderr)


def installed(_name: str) -> str:
    return "/usr/bin/espeak-ng"


def wait_until(check: Any, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the speaker did not get there"
        time.sleep(0.005)


@given(st.text(max_size=600))
def test_what_espeak_is_given_is_one_short_line(text: str) -> None:
    said = clean(text)
    assert len(said) <= LONGEST and "\n" not in said and "\x00" not in said and said == said.strip()


def test_a_sentence_goes_on_standard_input_in_its_language_s_voice() -> None:
    run = Recorder()
    speaker = EspeakSpeaker(run=run, which=installed)
    speaker.say("-v de --stdout  El compañero\njuega", "es")
    wait_until(lambda: speaker.spoken == 1)
    command, text = run.calls[0]
    assert command[:3] == ["/usr/bin/espeak-ng", "-v", "es"] and command[-1] == "--stdin"
    assert text == "-v de --stdout El compañero juega"  # words, never options
    assert speaker.problem == ""
    speaker.close()


def test_a_failing_sound_device_is_a_problem_until_a_sentence_is_said() -> None:
    run = Recorder(returncode=1)
    speaker = EspeakSpeaker(run=run, which=installed)
    speaker.say("one", "en")
    wait_until(lambda: speaker.failed == 1)
    assert speaker.problem == NO_SOUND
    run.returncode = 0
    speaker.say("two", "en")
    wait_until(lambda: speaker.spoken == 1)
    assert speaker.problem == ""
    speaker.close()


def test_no_sound_card_is_a_problem_though_espeak_ng_exits_0() -> None:
    run = Recorder(stderr=b"ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default\n"
                          b"error: No such file or directory\n")
    speaker = EspeakSpeaker(run=run, which=installed)
    speaker.say("one", "en")
    wait_until(lambda: speaker.failed == 1)
    assert speaker.problem == NO_SOUND and speaker.spoken == 0
    speaker.close()


@pytest.mark.skipif(shutil.which("espeak-ng") is None or Path("/dev/snd").exists(),
                    reason="a machine with no sound card and espeak-ng installed (the test set-up's)")
def test_espeak_ng_itself_on_a_machine_with_no_sound_card_is_a_problem_shown() -> None:
    speaker = EspeakSpeaker()
    speaker.say("The companion plays", "en")
    wait_until(lambda: speaker.spoken + speaker.failed == 1, seconds=30.0)
    assert speaker.problem == NO_SOUND
    speaker.close()


def test_an_espeak_that_cannot_start_is_a_problem_and_the_speaker_goes_on() -> None:
    def broken(command: list[str], **options: Any) -> Any:
        raise OSError("exec format error")

    speaker = EspeakSpeaker(run=broken, which=installed)
    speaker.say("one", "en")
    wait_until(lambda: speaker.failed == 1)
    assert speaker.problem == NO_SOUND and speaker._worker is not None and speaker._worker.is_alive()
    speaker.close()


def test_without_espeak_nothing_is_said_and_the_page_is_told_why() -> None:
    speaker = EspeakSpeaker(run=Recorder(), which=lambda _name: None)
    speaker.say("one", "en")
    assert speaker.problem == NOT_INSTALLED and speaker.spoken == 0
    speaker.close()
    assert isinstance(open_speaker(False), SilentSpeaker)


def test_sentences_coming_faster_than_said_drop_the_oldest() -> None:
    gate = threading.Event()
    run = Recorder(gate=gate)
    speaker = EspeakSpeaker(run=run, which=installed)
    for number in range(WAITING + 4):
        speaker.say(f"move {number}", "en")
    gate.set()
    wait_until(lambda: speaker.spoken + speaker.dropped == WAITING + 4)
    said = [text for _, text in run.calls]
    assert said[-1] == f"move {WAITING + 3}" and speaker.dropped >= 1
    speaker.close()


def test_voices_are_language_codes_and_nothing_else() -> None:
    assert voice("es") == "es" and voice("de") == "de" and voice("") == "en"
    assert voice("en; rm -rf /") == "enrm-rf"


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is installed by the test set-up")
@pytest.mark.parametrize("language", ["en", "es", "de"])
def test_espeak_ng_itself_says_a_move(language: str, tmp_path: Path) -> None:
    speaker = EspeakSpeaker(wav_dir=tmp_path)
    speaker.say({"en": "The companion (blue) plays take row 4, column 2",
                 "es": "El compañero (azul) juega tomar fila 4, columna 2",
                 "de": "Der Begleiter (blau) spielt nimm Reihe 4, Spalte 2"}[language], language)
    wait_until(lambda: speaker.spoken + speaker.failed == 1, seconds=30.0)
    assert speaker.problem == "", speaker.failed
    with wave.open(str(next(tmp_path.glob("said-*.wav"))), "rb") as sound:
        assert sound.getnframes() / sound.getframerate() > 1.0  # a sentence, not a click
    speaker.close()
