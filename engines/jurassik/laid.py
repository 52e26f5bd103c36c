"""The excavation zone as the players laid it: their own choice of dinosaurs, the action tiles they drew
and where every tile lies, checked against the rulebook's set-up (JK-SETUP).

The set-up document is ``{"grid": [[token, ...], ...]}``, north row first, each token a skeleton-side
dinosaur tile (``D3-2``), ``START``, or a face-down action tile (``"?"`` or its opaque back id). What the
action tiles are stays unknown: they were drawn at random, face down, so every one of them is chance until
it is turned up, exactly as when the engine deals.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engines.core import StateFormatError
from engines.jurassik.codec import is_back_id, state_from_observation
from engines.jurassik.components import (
    HIDDEN,
    START,
    Setup,
    parse_dino,
    setup_for,
)
from engines.jurassik.state import JurassikState, Phase

if TYPE_CHECKING:
    from engines.jurassik.game import JurassikGame


def _grid(laid: Mapping[str, Any]) -> list[list[str | None]]:
    grid = laid.get("grid") if isinstance(laid, Mapping) else None
    if not isinstance(grid, Sequence) or isinstance(grid, str) or not grid:
        raise StateFormatError("a laid set-up needs 'grid': a list of rows of tile ids")
    rows: list[list[str | None]] = []
    for index, row in enumerate(grid):
        if not isinstance(row, Sequence) or isinstance(row, str):
            raise StateFormatError(f"grid row {index + 1} is not a list of tile ids")
        rows.append([value if isinstance(value, str) else None for value in row])
    return rows


def _token(value: str | None) -> str | None:
    """A cell as the set-up rules count it: a dinosaur tile (either side) as its skeleton id, a face-down
    action tile (its back id) as ``"?"``."""
    if value is None or value in (START, HIDDEN):
        return value
    parsed = parse_dino(value)
    if parsed is not None:
        return f"D{parsed[0]}-{parsed[1]}"
    return HIDDEN if is_back_id(value) else value


def _sizes(edition: str, players: int) -> dict[tuple[int, int], bool]:
    """The squares the rulebook lets ``players`` lay, each with whether it is the all-tiles game."""
    normal = setup_for(edition, players)
    sizes = {(normal.rows, normal.cols): False}
    if edition == "es":
        sizes[(normal.cols, normal.rows)] = False  # the 6x8 rectangle may lie either way round
    else:
        every = setup_for(edition, players, long_game=True)
        sizes.setdefault((every.rows, every.cols), True)
    return sizes


def _long_game(game: JurassikGame, edition: str, players: int, rows: int, cols: int) -> bool:
    sizes = _sizes(edition, players)
    if (rows, cols) in sizes:
        return sizes[(rows, cols)]
    allowed = " / ".join(f"{r}x{c}" for r, c in sizes)
    raise game.illegal("JK-SETUP", "the tiles lie in a %(rows)dx%(cols)d square; %(players)d players lay "
                       "%(allowed)s", rows=rows, cols=cols, players=players, allowed=allowed)


def _check_pieces(game: JurassikGame, cells: Sequence[str | None], cols: int, setup: Setup) -> None:
    """Whole dinosaurs, the right number of them and of action tiles, one start tile, no gap."""
    for index, token in enumerate(cells):
        if token is None:
            row, col = divmod(index, cols)
            raise game.illegal("JK-SETUP", "the square has a gap at row %(row)d, column %(col)d", row=row + 1,
                               col=col + 1)
    starts = cells.count(START)
    if starts != 1:
        if not starts:
            raise game.illegal("JK-SETUP", "the square needs the beginning of excavation tile, once")
        raise game.illegal("JK-SETUP", "the square holds the beginning of excavation tile twice")
    doubled = sorted(t for t, n in Counter(cells).items() if n > 1 and t is not None and parse_dino(t))
    if doubled:
        raise game.illegal("JK-SETUP", "the tile %(tile)s lies twice in the square", tile=doubled[0])
    pieces: dict[int, set[int]] = {}
    for token in cells:
        parsed = parse_dino(token)
        if parsed is not None:
            pieces.setdefault(parsed[0], set()).add(parsed[1])
    for dinosaur, found in sorted(pieces.items()):
        if len(found) != 4:
            missing = ", ".join(str(p) for p in range(1, 5) if p not in found)
            raise game.illegal("JK-SETUP", "dinosaur %(dinosaur)d has %(found)d of its 4 tiles in the square "
                               "(piece %(missing)s is not there)", dinosaur=dinosaur, found=len(found),
                               missing=missing)
    if len(pieces) != setup.dinosaurs:
        raise game.illegal("JK-SETUP", "the square holds %(found)d dinosaurs; this game takes %(wanted)d",
                           found=len(pieces), wanted=setup.dinosaurs)
    actions = cells.count(HIDDEN)
    if actions != setup.actions:
        raise game.illegal("JK-SETUP", "the square holds %(found)d action tiles; this game takes %(wanted)d",
                           found=actions, wanted=setup.actions)


def _filled(grid: list[list[str | None]], setup: Setup) -> list[list[str | None]]:
    """A square with places not laid yet, each given the tile the set-up still lacks where that is
    certain (every lacking tile alike: face-down action tiles, or the one tile missing)."""
    tokens = [_token(value) for row in grid for value in row]
    gaps = [index for index, token in enumerate(tokens) if token is None]
    if not gaps:
        return grid
    pieces: dict[int, set[int]] = {}
    for token in tokens:
        if (parsed := parse_dino(token)) is not None:
            pieces.setdefault(parsed[0], set()).add(parsed[1])
    lacking = [f"D{d}-{p}" for d, found in sorted(pieces.items()) for p in range(1, 5) if p not in found]
    lacking += [START] * (START not in tokens)
    lacking += [HIDDEN] * max(0, setup.actions - tokens.count(HIDDEN))
    if len(lacking) != len(gaps) or len(set(lacking)) != 1:
        return grid
    cols = len(grid[0])
    filled = [list(row) for row in grid]
    for index in gaps:
        filled[index // cols][index % cols] = lacking[0]
    return filled


def state_as_laid(game: JurassikGame, players: Sequence[str], laid: Mapping[str, Any],
                  options: Mapping[str, Any] | None = None, strict: bool = True) -> JurassikState:
    """The start of play on the square as laid (see the module's note). ``strict``: the rulebook's set-up
    for the edition and player count (:class:`IllegalAction` on JK-SETUP saying what differs); otherwise
    any square the rules can start from (its start tile in it, whatever its size), a place not laid yet
    holding the tile the set-up lacks where that is certain (:func:`_filled`).
    :class:`~engines.core.IllegalAction` names the rule; :class:`StateFormatError` when unreadable."""
    names = game.check_players(players)
    resolved = game.resolve_options(options)
    edition: str = resolved["edition"]
    grid = _grid(laid)
    rows, cols = len(grid), len(grid[0])
    long_game = bool(resolved["long_game"])
    if not strict and (rows, cols) in (sizes := _sizes(edition, len(names))):
        grid = _filled(grid, setup_for(edition, len(names), sizes[(rows, cols)]))
    if strict:
        # five players lay every tile either way: there the option as set says which game it is
        long_game = _long_game(game, edition, len(names), rows, cols) or (long_game and len(names) == 5)
        tokens = [_token(value) for row in grid for value in row]
        if any(len(row) != cols for row in grid):
            raise game.illegal("JK-SETUP", "the tiles do not lie in a square (rows of different lengths)")
        _check_pieces(game, tokens, cols, setup_for(edition, len(names), long_game))
    try:
        state = state_from_observation(game, names, grid, edition=edition, long_game=long_game)
    except StateFormatError as error:
        if not strict:
            raise
        said_so = " ".join(str(error).split())  # the state's own words: no message of the catalogue
        raise game.illegal("JK-SETUP", said_so) from None
    if state.phase != Phase.START:
        raise game.illegal("JK-START", "the square has no beginning of excavation tile to lift")
    state.compulsory_actions = bool(resolved["compulsory_actions"])
    return state


