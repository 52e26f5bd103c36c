"""The store: durable append-only events, exact resume (with undo and checkpoints), corrupt databases."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.records import export_game
from companion.store import Store, StoreError
from engines.core import Action, Correct, State, get_game, sample_chance

PLAYERS = [{"name": "red", "colour": "red", "seat": 0}, {"name": "blue", "colour": "blue", "seat": 1}]


def play(state: State, rng: random.Random) -> tuple[State, Action]:
    action = sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions())
    return state.apply(action), action


def new_game(store: Store, seed: int = 1) -> tuple[int, State]:
    game = get_game("jurassik")
    state = game.new_initial_state(["red", "blue"], rng=random.Random(seed))
    return store.new_game(game, state, PLAYERS, {}, seed), state


def test_database_is_wal_with_full_sync(tmp_path: Path) -> None:
    store = Store(tmp_path)
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert store.problems == []


def test_a_whole_game_replays_to_the_same_state(tmp_path: Path) -> None:
    store = Store(tmp_path, checkpoint_every=7)
    game_id, state = new_game(store)
    rng = random.Random(5)
    while not state.is_terminal():
        state, action = play(state, rng)
        store.append(game_id, "action", action.to_dict(), state_after=state, scores=state.scores().to_dict())
    store.close()
    reopened = Store(tmp_path)
    result = reopened.replay(game_id)
    assert result.state.to_dict() == state.to_dict()
    assert result.state.outcome() == state.outcome()
    # checkpoints were written and the replay from a checkpoint agrees with a replay from the start
    assert reopened._db.execute("SELECT count(*) FROM checkpoints").fetchone()[0] > 0
    reopened._db.execute("DELETE FROM checkpoints")
    assert reopened.replay(game_id).state.to_dict() == state.to_dict()


@settings(max_examples=25, deadline=None)
@given(
    ops=st.lists(st.sampled_from(["act", "act", "act", "undo"]), min_size=1, max_size=40),
    seed=st.integers(0, 99),
)
def test_undo_and_checkpoints_replay_exactly(
    tmp_path_factory: pytest.TempPathFactory, ops: list[str], seed: int
) -> None:
    store = Store(tmp_path_factory.mktemp("db"), checkpoint_every=3)
    game_id, state = new_game(store, seed)
    rng = random.Random(seed)
    stack = [state]
    for op in ops:
        if op == "undo":
            if len(stack) > 1:
                stack.pop()
                store.append(game_id, "undo", None, undoes=None, source="button")
        elif not stack[-1].is_terminal():
            after, action = play(stack[-1], rng)
            stack.append(after)
            store.append(game_id, "action", action.to_dict(), state_after=after)
        # nothing committed is lost and nothing undone survives
        assert store.replay(game_id).state.to_dict() == stack[-1].to_dict()
    store.close()


def test_corrections_are_events(tmp_path: Path) -> None:
    store = Store(tmp_path)
    game_id, state = new_game(store)
    rng = random.Random(2)
    state, action = play(state, rng)
    store.append(game_id, "action", action.to_dict())
    fixed = get_game("jurassik").new_initial_state(["red", "blue"], rng=random.Random(9))
    store.append(
        game_id, "correct", Correct(state=fixed.to_dict(), reason="tiles knocked").to_dict(), source="web"
    )
    assert store.replay(game_id).state.to_dict() == fixed.to_dict()
    assert [e.kind for e in store.events(game_id)] == ["action", "correct"]


def test_photos_observations_and_history(tmp_path: Path) -> None:
    store = Store(tmp_path)
    game_id, state = new_game(store)
    state, action = play(state, random.Random(1))
    event = store.append(
        game_id, "action", action.to_dict(), player="red", observation={"tags": []}, photo=b"\xff\xd8jpeg"
    )
    assert event.seq == 1 and event.has_photo
    assert store.photo(game_id, 1) == b"\xff\xd8jpeg"
    assert store.photo(game_id, 2) is None
    stored = store.event(game_id, 1)
    assert stored is not None and stored.observation == {"tags": []} and stored.player == "red"
    assert [g.game_id for g in store.games()] == [game_id]
    assert store.latest_game_id() == game_id


def test_export_of_a_finished_game_is_json(tmp_path: Path) -> None:
    store = Store(tmp_path)
    game_id, state = new_game(store)
    rng = random.Random(3)
    while not state.is_terminal():
        state, action = play(state, rng)
        store.append(game_id, "action", action.to_dict())
    outcome = state.outcome()
    assert outcome is not None
    store.finish(game_id, outcome.to_dict())
    data = json.loads(json.dumps(export_game(store, game_id)))
    assert data["final_state"] == state.to_dict()
    assert data["outcome"]["winners"] == list(outcome.winners)
    assert len(data["events"]) == store.event_count(game_id)
    assert store.game(game_id).summary()["over"] is True


@pytest.mark.parametrize(
    "garbage", [b"this is not a database at all" * 100, b"SQLite format 3\x00" + b"\x07" * 3000]
)
def test_a_corrupt_database_is_moved_aside_and_reported(tmp_path: Path, garbage: bytes) -> None:
    (tmp_path / "companion.db").write_bytes(garbage)
    store = Store(tmp_path)
    assert store.problems and "could not be read" in str(store.problems[0])
    aside = list(tmp_path.glob("companion.db.corrupt-*"))
    assert aside and aside[0].read_bytes() == garbage
    game_id, _ = new_game(store)  # and the fresh database works
    assert store.latest_game_id() == game_id


def test_damaged_pages_are_detected(tmp_path: Path) -> None:
    store = Store(tmp_path)
    game_id, _ = new_game(store)
    for _ in range(30):
        store.append(game_id, "action", None, photo=bytes(3000))
    store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    path = tmp_path / "companion.db"
    data = bytearray(path.read_bytes())
    page = 4096
    for offset in range(2 * page, len(data), page):  # scribble over every b-tree page header after the first
        data[offset : offset + 16] = b"\xee" * 16
    path.write_bytes(bytes(data))
    store = Store(tmp_path)
    assert store.problems
    assert store.games() == []


def test_replay_errors_are_store_errors(tmp_path: Path) -> None:
    store = Store(tmp_path)
    game_id, _ = new_game(store)
    store.append(game_id, "action", {"kind": "no-such-action"})
    with pytest.raises(StoreError, match="does not replay"):
        store.replay(game_id)
    with pytest.raises(StoreError):
        store.game(999)
    with pytest.raises(StoreError):
        store.append(game_id, "teleport", None)


def test_an_interrupted_transaction_leaves_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path)
    game_id, _ = new_game(store)
    with pytest.raises(sqlite3.IntegrityError):
        store.append(game_id + 5, "action", None)  # no such game: the foreign key refuses it
    assert store.event_count(game_id) == 0
