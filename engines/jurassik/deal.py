"""A concrete table for simulations: which action tile front lies under each ``"?"``.

The engine never knows the faces of face-down tiles. A simulator (the bot-played demo, the synthetic
renderer) needs a physical table, though: this module deals the unseen action tile fronts (``ROCK-1``,
``STEAL-3``...) to the face-down cells and the box with a seeded ``random.Random``. The deal lives beside
the state, never inside it, so no view can leak it; when a bot takes a ``"?"`` the simulator answers the
chance node with :func:`reveal_for`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engines.jurassik.actions import Reveal
from engines.jurassik.components import ACTION_MIX, FACE_BY_TAG, HIDDEN, face_of_tag
from engines.jurassik.engine import JurassikState

_TAG_BY_FACE = {face: tag for tag, face in FACE_BY_TAG.items()}


@dataclass(frozen=True)
class HiddenDeal:
    """Fronts of the unseen action tiles: under each face-down cell, and set aside in the box."""

    under: dict[tuple[int, int], str]
    set_aside: tuple[str, ...]

    def face_at(self, row: int, col: int) -> str:
        face = face_of_tag(self.under[(row, col)])
        assert face is not None
        return face


def unseen_fronts(state: JurassikState) -> list[str]:
    """Tag ids of the unseen action tiles; the revealed ones are taken to be the lowest numbers of a face."""
    fronts = []
    for face, total in ACTION_MIX[state.edition].items():
        left = state.unseen[face]
        fronts += [f"{_TAG_BY_FACE[face]}-{number}" for number in range(total - left + 1, total + 1)]
    return fronts


def deal_hidden_faces(state: JurassikState, rng: random.Random) -> HiddenDeal:
    """Deal the unseen fronts at random: one under every ``"?"`` cell, the rest set aside in the box."""
    fronts = unseen_fronts(state)
    rng.shuffle(fronts)
    cells = [state.cell_of(i) for i, token in enumerate(state.cells) if token == HIDDEN]
    under = dict(zip(cells, fronts))
    return HiddenDeal(under=under, set_aside=tuple(sorted(fronts[len(cells):])))


def reveal_for(tag: str) -> Reveal:
    """The chance action for an action tile front seen by the camera (``STEAL-2`` -> reveal steal)."""
    face = face_of_tag(tag)
    if face is None:
        raise ValueError(f"{tag!r} is not an action tile front")
    return Reveal(face)
