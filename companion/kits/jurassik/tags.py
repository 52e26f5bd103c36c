"""The tags of Jurassik: both sides of every dinosaur tile (skeleton ``D3-2``, living ``D3-2L``), the action
tiles (the largest count of each kind in either edition, so one printed set serves both) with opaque
backs, and the start tile; counts from the engine's component data."""

from __future__ import annotations

from companion.kits.jurassik.reading import READING
from companion.kits.kit import printed_set
from engines.jurassik.components import ACTION_MIX, DINOSAURS_IN_BOX, FACES, START, dino_id
from engines.jurassik.game import JurassikGame
from vision.tags import DEFAULT_SEED, ManifestEntry, PrintedSet, TagInventory

#: the game as its engine declares it; its code begins every payload
INFO = JurassikGame.info
CODE = INFO.code


def action_prefix(face: str) -> str:
    """The printed name of an action face (``steal`` -> ``STEAL``, as in ``STEAL-2``)."""
    return face.upper()


def inventory() -> TagInventory:
    faces: list[ManifestEntry] = []
    for dino in range(1, max(DINOSAURS_IN_BOX.values()) + 1):
        for piece in range(1, 5):
            name = dino_id(dino, piece)
            what = f"dinosaur {dino} piece {piece}"
            faces.append(ManifestEntry(name, "front", "tile", f"{what} skeleton"))
            faces.append(ManifestEntry(f"{name}L", "back", "tile", f"{what} living"))
    kinds = tuple(dict.fromkeys(face for edition in INFO.editions for face in FACES[edition]))
    actions = []
    for face in kinds:  # one printed set serves every edition
        count = max(mix.get(face, 0) for mix in ACTION_MIX.values())
        prefix = action_prefix(face)
        actions += [f"{prefix}-{number}" for number in range(1, count + 1)]
    faces += [ManifestEntry(tag, "front", "action", tag.split("-")[0]) for tag in actions]
    faces.append(ManifestEntry(START, "front", "tile", START))
    counts = {edition: sum(mix.values()) for edition, mix in ACTION_MIX.items()}
    note = "action tiles: the largest count of either edition ({}) is printed".format(
        ", ".join(f"{edition} {count}" for edition, count in counts.items())
    )
    return TagInventory(
        code=CODE,
        name=INFO.name,
        faces=tuple(faces),
        opaque=tuple((tag, None) for tag in actions),
        notes=(note,),
    )


INVENTORY = inventory()


def printed(seed: int = DEFAULT_SEED) -> PrintedSet:
    return printed_set(INVENTORY, READING.tag_mm, seed)
