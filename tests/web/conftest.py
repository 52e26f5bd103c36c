"""A real in-process table session for the web tests: a real engine played by seeded bots.

``EngineSession`` implements :class:`companion.table.session.TableSession` over one of the project's engines
(no camera: its "frames" are pictures it draws of the shared view). The web app is tested against it so
that its tests do not depend on the loop's timing; the browser test drives the real demo instead.
"""

from __future__ import annotations

import datetime
import queue
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.web import WebConfig, create_app
from engines.core import Action, EngineError, IllegalAction, State, get_game, sample_chance
from engines.core.search import NotToPlay, decide

COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")


def preferred_game() -> str:
    """The game the web tests play by default (a broken engine fails them: it is never skipped)."""
    return get_game("jurassic-parts").name


def _jpeg(text: str, shade: int) -> bytes:
    image = np.full((240, 320, 3), (60 + shade % 120, 92, 64), np.uint8)
    cv2.putText(image, text, (12, 128), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (255, 255, 255), 2)
    ok, data = cv2.imencode(".jpg", image)
    assert ok
    return data.tobytes()


class EngineSession:
    """A live table without a camera: bots move, questions and objections can be raised on purpose."""

    def __init__(self, game: str | None = None, players: tuple[str, ...] = ("red", "blue", "green"),
                 seed: int = 3) -> None:
        self._lock = threading.RLock()
        self._subscribers: list[queue.Queue[dict[str, Any]]] = []
        self._games: list[dict[str, Any]] = []
        self._settings: dict[str, Any] = {}
        self.pending: dict[str, Any] | None = None
        self.presses: dict[str, int] = {"confirm": 0, "undo": 0, "next": 0, "mode": 0}
        #: when the table's own (physical) buttons were last pressed (monotonic seconds)
        self.physical_presses: dict[str, float] = {}
        self.frames = 0
        self.new_game({"game": game or preferred_game(),
                       "seats": [{"name": p, "colour": p, "seat": i} for i, p in enumerate(players)],
                       "seed": seed})

    # -- helpers for tests ------------------------------------------------------------------------------
    @property
    def _game(self) -> dict[str, Any]:
        return self._games[-1]

    @property
    def state(self) -> State:
        state: State = self._game["states"][-1]
        return state

    def _commit(self, action: Action, kind: str = "move", source: str = "camera",
                rule: dict[str, Any] | None = None) -> dict[str, Any]:
        with self._lock:
            before = self.state
            player = None if before.is_chance_node() else before.current_player()
            after = before.apply(action)
            seq = len(self._game["events"]) + 1
            event = {
                "seq": seq, "kind": kind, "action": action.to_dict(), "player": player,
                "at": datetime.datetime.now().strftime("%H:%M:%S"), "scores": after.shared_scores().to_dict(),
                "has_photo": True, "rule": rule, "source": source,
                "observation": {"tags": seq, "note": "drawn by the test session"},
            }
            self._game["events"].append(event)
            self._game["states"].append(after)
            self._game["photos"][seq] = _jpeg(f"move {seq}", seq)
        self._emit({"type": "event", "event": event})
        return event

    def bot_step(self, rng: random.Random | None = None) -> dict[str, Any] | None:
        rng = rng or self._game["rng"]
        state = self.state
        if state.is_terminal():
            return None
        if state.is_chance_node():
            return self._commit(sample_chance(state, rng), kind="reveal")
        return self._commit(rng.choice(state.legal_actions()))

    def play(self, steps: int) -> None:
        for _ in range(steps):
            if self.bot_step() is None:
                break
            while self.state.is_chance_node():
                self.bot_step()

    def ask_question(self) -> None:
        """Raise a question with up to three legal actions as options (as a low-confidence reading would)."""
        while self.state.is_chance_node():
            self.bot_step()
        options = self.state.legal_actions()[:3]
        self.pending = {
            "kind": "question", "text": "Which of these moves was made?",
            "options": [{"index": i, "label": f"option {i}", "action": a.to_dict()}
                        for i, a in enumerate(options)],
            "rule": None, "expected": "one move", "seen": "an ambiguous change",
        }
        self._emit({"type": "pending", "pending": self.pending})

    def raise_objection(self, action: Action, refusal: IllegalAction) -> None:
        self.pending = {"kind": "objection", "text": refusal.detail, "options": [],
                        "rule": refusal.rule.to_dict(), "expected": "a legal move", "seen": action.to_dict()}
        self._emit({"type": "pending", "pending": self.pending})

    def _emit(self, event: dict[str, Any]) -> None:
        with self._lock:
            for subscriber in list(self._subscribers):
                subscriber.put(event)

    # -- TableSession -----------------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            state = self.state
            current = state.current_player()
            events = self._game["events"]
            seats = [{"seat": p["seat"], "colour": p["colour"], "level": 1.0 if p["name"] == current else 0.0,
                      "on": p["name"] == current, "pattern": "steady" if p["name"] == current else "off"}
                     for p in self._game["players"]]
            return {
                "game": state.game.name, "title": state.game.title, "game_id": self._game["game_id"],
                "players": list(self._game["players"]),
                "current": current if current in state.players else None,
                "chance": state.is_chance_node() and not state.is_terminal(),
                "over": state.is_terminal(), "scores": state.shared_scores().to_dict(),
                "view": state.view(None),
                "last_event": events[-1] if events else None, "pending": self.pending, "split": None,
                "panel": {"pattern": "waiting" if self.pending else "turn", "seats": seats,
                          "status": {"rgb": [1.0, 0.45, 0.0] if self.pending else [0.0, 0.0, 0.0],
                                     "pattern": "waiting" if self.pending else "turn"},
                          "buzzer": False, "active_seat": None, "split": [], "winners": [],
                          "buttons": ["confirm", "undo", "next", "mode"], "presses": dict(self.presses)},
                "camera": {"ok": True, "age_s": 0.1, "frames": self.frames, "fps": 15.0},
                "detections": {}, "event_count": len(events),
                "legal": [a.to_dict() for a in state.legal_actions()[:20]] if not state.is_terminal() else [],
            }

    def frame_jpeg(self, annotated: bool = True) -> bytes | None:
        with self._lock:
            self.frames += 1
            return _jpeg(f"frame {self.frames}{' +' if annotated else ''}", self.frames)

    def submit(self, action: dict[str, Any], source: str = "web") -> dict[str, Any]:
        with self._lock:
            try:
                parsed = self.state.game.action_from_dict(action)
                event = self._commit(parsed, kind="correction" if parsed.kind == "correct" else "move",
                                     source=source)
            except IllegalAction as refusal:
                return {"ok": False, "error": refusal.detail, "rule": refusal.rule.to_dict()}
            except EngineError as error:
                return {"ok": False, "error": str(error), "rule": None}
            self.pending = None
            return {"ok": True, "event": event}

    def press(self, button: str) -> dict[str, Any]:
        if button not in self.presses:
            raise ValueError(f"unknown button {button!r}")
        with self._lock:
            self.presses[button] += 1
            if button == "confirm" and self.pending is not None:
                if self.pending["options"]:
                    return self.choose(0)
                self.pending = None
                self._emit({"type": "pending", "pending": None})
                return {"ok": True, "event": None}
            if button == "undo" and len(self._game["states"]) > 1:
                self._game["states"].pop()
                event = self._game["events"].pop()
                self._emit({"type": "undo", "seq": event["seq"]})
                return {"ok": True, "event": event}
            if button == "next":
                return {"ok": True, "event": self.bot_step()}
        self._emit({"type": "panel"})
        return {"ok": True, "event": None}

    def choose(self, option_index: int) -> dict[str, Any]:
        with self._lock:
            if self.pending is None:
                return {"ok": False, "error": "nothing is waiting for a decision", "rule": None}
            options = self.pending["options"]
            if not 0 <= option_index < len(options):
                return {"ok": False, "error": f"no option {option_index}", "rule": None}
            result = self.submit(options[option_index]["action"], source="web")
            return result

    def events(self, timeout: float = 15.0) -> Iterator[dict[str, Any]]:
        subscriber: queue.Queue[dict[str, Any]] = queue.Queue()
        with self._lock:
            self._subscribers.append(subscriber)
        try:
            while True:
                try:
                    yield subscriber.get(timeout=timeout)
                except queue.Empty:
                    yield {"type": "ping"}
        finally:
            with self._lock:
                self._subscribers.remove(subscriber)

    @property
    def records(self) -> EngineSession:
        return self  # the fake keeps its stored games itself

    def _find(self, game_id: int | None) -> dict[str, Any]:
        if game_id is None:
            return self._game
        for game in self._games:
            if game["game_id"] == game_id:
                return game
        raise KeyError(f"no game {game_id}")

    def history(self, game_id: int | None = None) -> list[dict[str, Any]]:
        with self._lock:
            return list(self._find(game_id)["events"])

    def state_at(self, seq: int, game_id: int | None = None) -> dict[str, Any]:
        with self._lock:
            game = self._find(game_id)
            if not 0 <= seq <= len(game["events"]):
                raise KeyError(f"no event {seq}")
            state = game["states"][seq]
            return {"seq": seq, "view": state.view(None), "scores": state.shared_scores().to_dict(),
                    "event": game["events"][seq - 1] if seq else None, "split": None}

    def event_photo(self, seq: int, game_id: int | None = None) -> bytes | None:
        with self._lock:
            photo: bytes | None = self._find(game_id)["photos"].get(seq)
            return photo

    def games(self) -> list[dict[str, Any]]:
        with self._lock:
            return [{"game_id": g["game_id"], "game": g["name"], "started": g["started"],
                     "players": [p["name"] for p in g["players"]], "over": g["states"][-1].is_terminal(),
                     "winners": list(g["states"][-1].scores().winners),
                     "assisted": bool(g.get("assisted"))} for g in self._games]

    def salvages(self) -> list[dict[str, Any]]:
        """A session in memory was never copied out of a damaged store."""
        return []

    def option_view(self, option_index: int) -> dict[str, Any]:
        with self._lock:
            options = (self.pending or {}).get("options") or []
            if not 0 <= option_index < len(options) or options[option_index].get("action") is None:
                raise LookupError(f"no option {option_index} is pending")
            data = options[option_index]["action"]
            action = self.state.game.action_from_dict(data)
            return {"view": self.state.apply(action).view(None), "action": data}

    def play_record(self, game_id: int | None = None) -> dict[str, Any]:
        with self._lock:
            game = self._find(game_id)
            state = game["states"][-1]
            return {"game_id": game["game_id"], "game": game["name"], "title": get_game(game["name"]).title,
                    "players": [{"name": p["name"], "colour": p["colour"]} for p in game["players"]],
                    "start_player": game["players"][0]["name"], "started": 1_700_000_000.0,
                    "finished": 1_700_002_400.0 if state.is_terminal() else None, "duration_s": 2400.0,
                    "moves": len(game["events"]), "over": state.is_terminal(),
                    "scores": state.shared_scores().to_dict()}

    def settings(self) -> dict[str, Any]:
        with self._lock:
            return dict(self._settings)

    def hint(self, player: str) -> dict[str, Any]:
        """The companion's move for ``player`` (level 1: the game's bots), as the loop answers it."""
        with self._lock:
            state = self.state
        try:
            decision = decide(state, player, 1, seed=5)
        except (NotToPlay, ValueError) as refusal:
            return {"ok": False, "error": str(refusal)}
        with self._lock:
            self._game["assisted"] = True
        return {"ok": True, "player": player, "level": 1, "action": decision.action.to_dict(),
                "why": decision.why}

    def new_game(self, settings: dict[str, Any]) -> dict[str, Any]:
        game = get_game(settings["game"])
        players = [dict(p) for p in settings["seats"]]
        options = game.resolve_options({**settings.get("options", {}), **settings.get("house_rules", {})})
        rng = random.Random(settings.get("seed", 1))
        initial = game.new_initial_state([p["name"] for p in players], rng=rng, options=options)
        with self._lock:
            self._games.append({"game_id": len(self._games) + 1, "name": game.name, "players": players,
                                "started": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
                                "states": [initial], "events": [], "photos": {}, "rng": rng})
            self._settings = {"game": game.name, "options": options, "house_rules": {}, "seats": players,
                              "seed": settings.get("seed")}
            self.pending = None
        self._emit({"type": "new_game"})
        return {"ok": True, "game_id": self._game["game_id"]}

    def calibration(self) -> dict[str, Any]:
        return {"ok": True, "markers_seen": [0, 1, 2, 3], "module_px": 4.2, "lighting": "even",
                "bumped": False}

    def button_pressed_within(self, button: str, seconds: float) -> bool:
        """The physical panel: a test presses it by setting ``physical_presses[button]`` to a time."""
        pressed = self.physical_presses.get(button)
        return pressed is not None and time.monotonic() - pressed <= seconds


ORIGIN = "http://localhost"


@pytest.fixture
def table() -> EngineSession:
    session = EngineSession()
    session.play(6)
    return session


@pytest.fixture
def make_table() -> Any:
    """``make_table(game=..., players=..., seed=...)``: a fresh session of one's own."""
    return EngineSession


@pytest.fixture
def app(table: EngineSession) -> Any:
    return create_app(table, WebConfig())


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


@pytest.fixture
def origin() -> str:
    return ORIGIN


@pytest.fixture
def csrf() -> Any:
    """``csrf(client)``: open the table page as a browser would and read the page's CSRF token."""
    return csrf_of


@pytest.fixture
def post() -> Any:
    """``post(client, url, body, token, origin=ORIGIN)``: a JSON POST as the page's script sends it."""
    return post_json


@pytest.fixture
def fingerprint() -> Any:
    """``fingerprint(table)``: what must not change when a request is refused."""

    def of(table: EngineSession) -> tuple[int, dict[str, Any]]:
        return len(table.records.history()), table.state.to_dict()

    return of


def csrf_of(client: Any) -> str:
    """Open the table page as a browser would (the PIN form, in LAN mode without a session) and read the
    page's CSRF token."""
    page = client.get("/", headers={"Host": "localhost"})
    if page.status_code == 302 and "/login" in page.headers["Location"]:
        page = client.get("/login", headers={"Host": "localhost"})
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    marker = 'name="csrf-token" content="'
    start = html.index(marker) + len(marker)
    token: str = html[start:html.index('"', start)]
    return token


def post_json(client: Any, url: str, body: Any, token: str | None, origin: str | None = ORIGIN) -> Any:
    headers = {"Host": "localhost"}
    if token is not None:
        headers["X-CSRF-Token"] = token
    if origin is not None:
        headers["Origin"] = origin
    return client.post(url, json=body, headers=headers)


#: Debian's chromium, driven by Playwright (no browser is downloaded)
CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture
def browser() -> Iterator[Any]:
    """Headless chromium for a whole test (its pages and contexts are the test's own)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                              args=["--headless", "--no-sandbox", "--disable-gpu"])
        yield launched
        launched.close()
