"""A speaker at the table: sentences said aloud through espeak-ng (text to speech from Debian and Raspberry
Pi OS: ``sudo apt install espeak-ng``), one at a time in a thread of its own, so the loop never waits for a
voice.

The text goes to espeak-ng on its standard input (never on a command line, where a sentence starting with
``-`` would be read as an option); a sentence is cut at :data:`LONGEST` characters, control characters
dropped; when sentences come faster than they are said, the oldest waiting one is dropped (what is said
must be the table now). A missing espeak-ng or a failing sound device is kept as :attr:`Speaker.problem`
(the page shows it), never raised.
"""

from __future__ import annotations

import logging
import queue
import shutil
import subprocess
import threading
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

log = logging.getLogger(__name__)

ESPEAK = "espeak-ng"
#: the longest sentence said, in characters (a move's words are short)
LONGEST = 300
#: sentences waiting at most
WAITING = 3
#: a sentence still being said after this long is stopped (a stuck sound device)
TIMEOUT_S = 30.0
#: words per minute (espeak-ng's default is 175: a little slower carries across a table)
WORDS_PER_MINUTE = 150
NOT_INSTALLED = "espeak-ng is not installed: sudo apt install espeak-ng"
NO_SOUND = "espeak-ng could not say a sentence (is a speaker or headphones connected?)"


class Speaker(Protocol):
    problem: str

    def say(self, text: str, language: str) -> None: ...

    def close(self) -> None: ...


class SilentSpeaker:
    """No speaker: nothing is said."""

    problem = ""

    def say(self, text: str, language: str) -> None:
        return None

    def close(self) -> None:
        return None


def clean(text: str) -> str:
    """``text`` as espeak-ng is given it: one line, no control characters, at most :data:`LONGEST`."""
    kept = "".join(" " if unicodedata.category(char).startswith("C") else char for char in str(text))
    return " ".join(kept.split())[:LONGEST]


Run = Callable[..., Any]


class EspeakSpeaker:
    """Says sentences through ``command`` (espeak-ng) in the voice of each sentence's language; with
    ``wav_dir`` each sentence is written there as a WAV file instead of played (a table without a sound
    device, tests)."""

    def __init__(self, command: str = ESPEAK, wav_dir: Path | None = None, run: Run = subprocess.run,
                 which: Callable[[str], str | None] = shutil.which) -> None:
        self.path = which(command)
        self.wav_dir = wav_dir
        self._run = run
        self.problem = "" if self.path else NOT_INSTALLED
        self.spoken = 0
        self.failed = 0
        self.dropped = 0
        self._waiting: queue.Queue[tuple[str, str] | None] = queue.Queue(maxsize=WAITING)
        self._worker: threading.Thread | None = None
        if self.path:
            self._worker = threading.Thread(target=self._speak_all, name="speaker", daemon=True)
            self._worker.start()
        else:
            log.warning("the companion's moves are not said aloud: %s", NOT_INSTALLED)

    def say(self, text: str, language: str) -> None:
        sentence = clean(text)
        if not sentence or self._worker is None:
            return
        while True:
            try:
                self._waiting.put_nowait((sentence, language))
                return
            except queue.Full:
                try:
                    self._waiting.get_nowait()
                    self.dropped += 1
                except queue.Empty:
                    pass

    def _speak_all(self) -> None:
        while True:
            item = self._waiting.get()
            if item is None:
                return
            try:
                self._speak(*item)
            except Exception:  # the speaker must never stop: the next sentence is tried again
                log.exception("the speaker failed")
                self.failed += 1
                self.problem = NO_SOUND

    def _speak(self, sentence: str, language: str) -> None:
        command = [str(self.path), "-v", voice(language), "-s", str(WORDS_PER_MINUTE), "--stdin"]
        if self.wav_dir is not None:
            command += ["-w", str(self.wav_dir / f"said-{self.spoken + self.failed + 1:04d}.wav")]
        try:
            done = self._run(command, input=sentence.encode("utf-8"), capture_output=True, timeout=TIMEOUT_S,
                             check=False)
        except (OSError, subprocess.SubprocessError) as error:
            log.warning("espeak-ng failed: %s", error)
            self.failed += 1
            self.problem = NO_SOUND
            return
        complaint = bytes(done.stderr or b"")
        # with no sound card espeak-ng still exits 0, saying "error: ..." after ALSA's own lines
        if done.returncode != 0 or b"error:" in complaint.lower():
            log.warning("espeak-ng failed (%s): %s", done.returncode, complaint[-200:])
            self.failed += 1
            self.problem = NO_SOUND
            return
        self.spoken += 1
        self.problem = ""

    def close(self) -> None:
        if self._worker is None:
            return
        try:
            self._waiting.put_nowait(None)
        except queue.Full:
            return  # daemon thread: it ends with the process
        self._worker.join(timeout=1.0)


def voice(language: str) -> str:
    """espeak-ng's voice for a language code (``es``, ``de``, ``en``...): its own name, letters only."""
    code = "".join(char for char in language.lower() if char.isalpha() or char == "-")[:10]
    return code or "en"


def open_speaker(enabled: bool, wav_dir: Path | None = None) -> Speaker:
    """The table's speaker: espeak-ng when the configuration asks for speech, else silence."""
    return EspeakSpeaker(wav_dir=wav_dir) if enabled else SilentSpeaker()
