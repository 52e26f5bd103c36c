"""Jurassik states: one playthrough of the English or Spanish edition.

The excavation zone is a grid of cells, each holding a token or ``None`` (a free space):

* ``"D3-2"``: a dinosaur tile, skeleton side up (known to everybody);
* ``"?"``: an action tile, question mark up; its face is unknown to the engine until it is revealed;
* ``"ROCK"``: a revealed Rock, which stays in its cell forever;
* ``"START"``: the beginning-of-excavation tile, until the first player lifts it.

Face-down action tiles are a chance node, as in OpenSpiel: after a player takes one, ``current_player()`` is
CHANCE and ``chance_outcomes()`` weighs each face by how many tiles of that face have not been seen yet
(those still face down in the zone and those set aside unseen in the box at setup).
"""

from __future__ import annotations

from collections import Counter
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from engines.core import CHANCE, TERMINAL, Action, IllegalAction, Outcome, Rule, State, refusal
from engines.jurassik.actions import Decline, Discard, Exchange, RemoveStart, ReturnTile, Reveal, Steal, Take
from engines.jurassik.board import neighbours, place_words
from engines.jurassik.components import FACES, HIDDEN, ROCK, START, dinosaur_of, tile_sort_key
from engines.jurassik.rules import RULEBOOKS
from engines.jurassik.scoring import score_hands

if TYPE_CHECKING:
    from engines.jurassik.game import JurassikGame


class Phase(StrEnum):
    """What the player to act must do; an action tile's face names the phase of resolving it."""

    START = "start"
    TAKE = "take"
    REVEAL = "reveal"
    DISCARD = "discard"
    STEAL = "steal"
    EXCHANGE = "exchange"
    RETURN = "return"
    TWICE = "twice"
    OVER = "over"


# the phases under module names for the code run on every move: looking up an enum member (Phase.OVER)
# costs about 90 ns on CPython 3.11, a module name 10
_START, _TAKE, _REVEAL, _DISCARD, _STEAL = Phase.START, Phase.TAKE, Phase.REVEAL, Phase.DISCARD, Phase.STEAL
_EXCHANGE, _RETURN, _TWICE, _OVER = Phase.EXCHANGE, Phase.RETURN, Phase.TWICE, Phase.OVER

#: the rule that governs each phase (cited when an action does not fit the phase)
PHASE_RULE = {
    Phase.START: "JK-START",
    Phase.TAKE: "JK-TURN",
    Phase.REVEAL: "JK-REVEAL",
    Phase.DISCARD: "JK-DISCARD",
    Phase.STEAL: "JK-STEAL",
    Phase.EXCHANGE: "JK-EXCHANGE",
    Phase.RETURN: "JK-RETURN",
    Phase.TWICE: "JK-TWICE",
    Phase.OVER: "JK-END",
}


class JurassikState(State):
    """One Jurassik playthrough. Only ``apply`` (on a clone) changes these fields."""

    game: JurassikGame
    phase: Phase

    def __init__(
        self,
        *,
        game: JurassikGame,
        edition: str,
        long_game: bool,
        players: tuple[str, ...],
        rows: int,
        cols: int,
        cells: list[str | None],
        hands: dict[str, list[str]],
        box_dinos: list[str],
        box_actions: dict[str, int],
        box_start: bool,
        unseen: dict[str, int],
        turn: int,
        phase: Phase,
        twice_left: int,
        reveal_cell: int | None,
        end_reason: str,
        last_event: str,
        compulsory_actions: bool = False,
    ) -> None:
        self.game = game
        self.edition = edition
        self.long_game = long_game
        self._players = players
        self.rows = rows
        self.cols = cols
        self.cells = cells
        self.hands = hands
        self.box_dinos = box_dinos
        self.box_actions = box_actions
        self.box_start = box_start
        self.unseen = unseen
        self.turn = turn
        self.phase = Phase(phase)
        self.twice_left = twice_left
        self.reveal_cell = reveal_cell
        self.end_reason = end_reason
        self.last_event = last_event
        self.compulsory_actions = compulsory_actions
        self.rules = RULEBOOKS[edition]

    # -- whose move -------------------------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    @property
    def to_play(self) -> str:
        """The player whose turn it is (also while a reveal is pending)."""
        return self._players[self.turn]

    def current_player(self) -> str:
        if self.phase == _OVER:
            return TERMINAL
        if self.phase == _REVEAL:
            return CHANCE
        return self._players[self.turn]

    def game_over_rule(self) -> Rule:
        return self.rules["JK-END"]

    def _illegal(self, rule_id: str, detail: str, **params: object) -> IllegalAction:
        return IllegalAction(self.rules[rule_id], detail, params)

    # -- the zone ---------------------------------------------------------------------------------------
    def cell_index(self, row: int, col: int) -> int:
        return row * self.cols + col

    def cell_of(self, index: int) -> tuple[int, int]:
        return divmod(index, self.cols)

    def tile_at(self, row: int, col: int) -> str | None:
        return self.cells[self.cell_index(row, col)]

    def _is_accessible(self, index: int) -> bool:
        token = self.cells[index]
        if token is None or token in (ROCK, START):
            return False
        cells = self.cells
        return any(cells[j] is None for j in neighbours(self.rows, self.cols)[index])

    def accessible_cells(self, dinosaurs_only: bool = False) -> list[int]:
        """Flat indices of the accessible tiles (a revealed Rock is never accessible)."""
        cells = self.cells
        found = []
        for index, near in enumerate(neighbours(self.rows, self.cols)):
            token = cells[index]
            if token is None or token in (ROCK, START):
                continue
            if dinosaurs_only and token == HIDDEN:
                continue
            for j in near:
                if cells[j] is None:
                    found.append(index)
                    break
        return found

    def _any_accessible_dinosaur(self) -> bool:
        return self._any_accessible((ROCK, START, HIDDEN))

    def _any_accessible(self, untakeable: tuple[str, ...] = (ROCK, START)) -> bool:
        cells = self.cells
        for index, near in enumerate(neighbours(self.rows, self.cols)):
            token = cells[index]
            if token is None or token in untakeable:
                continue
            for j in near:
                if cells[j] is None:
                    return True
        return False

    # -- holdings ---------------------------------------------------------------------------------------
    def complete_dinosaurs(self, player: str) -> list[int]:
        """Dinosaurs of which ``player`` holds all 4 pieces: complete, and never separated again."""
        counts = Counter(dinosaur_of(tile) for tile in self.hands[player])
        return sorted(d for d, n in counts.items() if n == 4)

    def loose_tiles(self, player: str) -> list[str]:
        """Tiles of ``player`` that are not part of a complete dinosaur."""
        hand = self.hands[player]
        counts = Counter(dinosaur_of(tile) for tile in hand)
        # sorted as to_dict() stores them, so the legal list is the same after a JSON round trip
        return sorted((tile for tile in hand if counts[dinosaur_of(tile)] < 4), key=tile_sort_key)

    def _others_loose(self, player: str) -> list[tuple[str, str]]:
        return [
            (other, tile) for other in self._players if other != player for tile in self.loose_tiles(other)
        ]

    # -- actions ----------------------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == _OVER:
            return []
        if phase == _REVEAL:
            return [action for action, _ in self.chance_outcomes()]
        player = self._players[self.turn]
        if phase == _START:
            return [RemoveStart(player)]
        if phase in (_TAKE, _TWICE):
            reachable = self.accessible_cells(dinosaurs_only=phase == _TWICE)
            actions: list[Action] = [Take(player, *self.cell_of(i)) for i in reachable]
            if phase == _TWICE:
                actions.append(Decline(player))
            return actions
        if phase == _DISCARD:
            return [Discard(player, tile) for tile in self.loose_tiles(player)]
        if phase == _STEAL:
            steals: list[Action] = [Steal(player, other, tile) for other, tile in self._others_loose(player)]
            return steals + self._declines(player)
        if phase == _EXCHANGE:
            others = self._others_loose(player)
            exchanges: list[Action] = [
                Exchange(player, give, other, take)
                for give in self.loose_tiles(player)
                for other, take in others
            ]
            return exchanges + self._declines(player)
        if phase == _RETURN:
            returns: list[Action] = [
                ReturnTile(player, tile) for tile in sorted(self.box_dinos, key=tile_sort_key)
            ]
            return returns + self._declines(player)
        raise AssertionError(f"unknown phase {phase}")

    def _declines(self, player: str) -> list[Action]:
        return [] if self.compulsory_actions else [Decline(player)]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.phase != _REVEAL:
            return []
        total = sum(self.unseen.values())
        return [(Reveal(face), count / total) for face, count in self.unseen.items() if count > 0]

    def apply(self, action: Action) -> JurassikState:
        after = super().apply(action)
        assert isinstance(after, JurassikState)
        return after

    def clone(self) -> JurassikState:
        new = object.__new__(JurassikState)
        new.__dict__.update(self.__dict__)
        new.cells = self.cells[:]
        new.hands = {name: hand[:] for name, hand in self.hands.items()}
        new.box_dinos = self.box_dinos[:]
        new.box_actions = self.box_actions.copy()
        new.unseen = self.unseen.copy()
        return new

    def _apply_in_place(self, action: Action) -> None:
        phase = self.phase
        if phase == _REVEAL:
            if not isinstance(action, Reveal):
                raise self._illegal("JK-REVEAL", "the action tile just taken must be revealed first")
            self._reveal(action.face)
            return
        if isinstance(action, Reveal):
            raise self._illegal("JK-REVEAL", "no action tile is waiting to be revealed")
        player = getattr(action, "player", None)
        if player != self.to_play:
            raise self._illegal("JK-TURN", "it is %(player)s's turn, not %(other)s's", player=self.to_play,
                                other=str(player))
        handler = _HANDLERS.get((phase, type(action)))
        if handler is None and isinstance(action, ReturnTile) and self.edition != "en":
            raise self._illegal("JK-RETURN", "the Spanish edition has no Returning action tile")
        if handler is None:
            raise self._illegal(PHASE_RULE[phase], _PHASE_WAIT[phase], player=self.to_play)
        handler(self, action)

    # -- the steps --------------------------------------------------------------------------------------
    def _remove_start(self, action: RemoveStart) -> None:
        index = self.cells.index(START)
        self.cells[index] = None
        self.box_start = True
        self.phase = _TAKE
        self.last_event = f"{action.player} removed the beginning-of-excavation tile"
        if not self._any_accessible():
            self._finish("no tile is accessible")

    def _checked_take(self, action: Take) -> int:
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (action.row, action.col)):
            raise self._illegal("JK-ACCESS", "row and col must be integers: %(row)s, %(col)s",
                                row=repr(action.row), col=repr(action.col))
        if not (0 <= action.row < self.rows and 0 <= action.col < self.cols):
            raise self._illegal("JK-ACCESS", "row %(row)d, column %(col)d is outside the %(rows)dx%(cols)d "
                                "excavation zone", row=action.row + 1, col=action.col + 1, rows=self.rows,
                                cols=self.cols)
        index = self.cell_index(action.row, action.col)
        token = self.cells[index]
        where = {"row": action.row + 1, "col": action.col + 1}
        if token is None:
            raise self._illegal("JK-ACCESS", "row %(row)d, column %(col)d is a free space, no tile there",
                                **where)
        if token == ROCK:
            raise self._illegal("JK-ROCK", "the Rock at row %(row)d, column %(col)d can never be taken",
                                **where)
        if not self._is_accessible(index):
            if token == HIDDEN:
                raise self._illegal("JK-ACCESS", "the face-down action tile at row %(row)d, column %(col)d "
                                    "has no side next to a free space", **where)
            if token == START:
                raise self._illegal("JK-ACCESS", "the beginning of excavation tile at row %(row)d, column "
                                    "%(col)d has no side next to a free space", **where)
            raise self._illegal("JK-ACCESS", "%(tile)s at row %(row)d, column %(col)d has no side next to a "
                                "free space", tile=token, **where)
        return index

    def _take(self, action: Take) -> None:
        index = self._checked_take(action)
        token = self.cells[index]
        assert token is not None
        if token == HIDDEN:
            self.phase = _REVEAL
            self.reveal_cell = index
            self.last_event = f"{action.player} took an action tile at {place_words(action.row, action.col)}"
            return
        self._take_dinosaur(action, index, token)

    def _take_twice(self, action: Take) -> None:
        index = self._checked_take(action)
        token = self.cells[index]
        assert token is not None
        if token == HIDDEN:
            raise self._illegal("JK-TWICE", "while playing twice only dinosaur tiles may be taken")
        self._take_dinosaur(action, index, token)

    def _take_dinosaur(self, action: Take, index: int, tile: str) -> None:
        self.cells[index] = None
        self.hands[action.player].append(tile)
        self.last_event = f"{action.player} took {tile}" + self._completion_note(action.player, tile)
        if not self._any_accessible_dinosaur():
            self._finish(f"{tile} was the last accessible dinosaur tile")
            return
        if self.phase == _TWICE:
            self.twice_left -= 1
            if self.twice_left > 0:
                return
        self._end_turn()

    def _completion_note(self, player: str, tile: str) -> str:
        dinosaur = dinosaur_of(tile)
        if dinosaur in self.complete_dinosaurs(player):
            return f"; D{dinosaur} is complete"
        return ""

    def _reveal(self, face: str) -> None:
        if face not in FACES[self.edition]:
            raise self._illegal(
                "JK-SETUP" if face != "return" else "JK-RETURN",
                "the %(edition)s edition has no %(face)s action tile", edition=self.edition, face=repr(face),
            )
        if self.unseen.get(face, 0) <= 0:
            raise self._illegal("JK-SETUP", "every %(face)s action tile has already been revealed",
                                face=repr(face))
        index = self.reveal_cell
        assert index is not None
        self.unseen[face] -= 1
        self.reveal_cell = None
        player = self.to_play
        if face == "rock":
            self.cells[index] = ROCK
            self.last_event = f"{player} revealed a Rock; it stays in place and the turn ends"
            self._end_turn()
            return
        self.cells[index] = None
        self.box_actions[face] += 1
        possible, why_not = self.can_carry_out(face, player)
        if not possible:
            self.last_event = f"{player} revealed {face}: it cannot be carried out ({why_not}), no effect"
            self._end_turn()
            return
        self.last_event = f"{player} revealed {face}"
        self.phase = Phase(face)
        self.twice_left = 2 if face == "twice" else 0

    def can_carry_out(self, face: str, player: str) -> tuple[bool, str]:
        if face == "discard":
            return bool(self.loose_tiles(player)), f"{player} holds no loose tile"
        if face == "steal":
            return bool(self._others_loose(player)), "no other player holds a loose tile"
        if face == "exchange":
            if not self.loose_tiles(player):
                return False, f"{player} holds no loose tile"
            return bool(self._others_loose(player)), "no other player holds a loose tile"
        if face == "return":
            return bool(self.box_dinos), "the box holds no dinosaur tile"
        if face == "twice":
            return self._any_accessible_dinosaur(), "no dinosaur tile is accessible"
        raise AssertionError(face)

    def _discard(self, action: Discard) -> None:
        self._check_loose(action.player, action.tile, "JK-DISCARD", "discard")
        self.hands[action.player].remove(action.tile)
        self.box_dinos.append(action.tile)
        self.last_event = f"{action.player} discarded {action.tile} into the box"
        self._end_turn()

    def _steal(self, action: Steal) -> None:
        victim = action.victim
        if not isinstance(victim, str) or victim == action.player or victim not in self.hands:
            raise self._illegal("JK-STEAL", "%(player)s is not another player", player=repr(action.victim))
        self._check_loose(action.victim, action.tile, "JK-STEAL", "steal")
        self.hands[action.victim].remove(action.tile)
        self.hands[action.player].append(action.tile)
        self.last_event = f"{action.player} stole {action.tile} from {action.victim}" + self._completion_note(
            action.player, action.tile
        )
        self._end_turn()

    def _exchange(self, action: Exchange) -> None:
        other = action.other
        if not isinstance(other, str) or other == action.player or other not in self.hands:
            raise self._illegal("JK-EXCHANGE", "%(player)s is not another player", player=repr(action.other))
        self._check_loose(action.player, action.give, "JK-EXCHANGE", "give")
        self._check_loose(action.other, action.take, "JK-EXCHANGE", "take")
        self.hands[action.player].remove(action.give)
        self.hands[action.other].remove(action.take)
        self.hands[action.player].append(action.take)
        self.hands[action.other].append(action.give)
        self.last_event = (
            f"{action.player} gave {action.give} to {action.other} for {action.take}"
            + self._completion_note(action.player, action.take)
            + self._completion_note(action.other, action.give)
        )
        self._end_turn()

    def _return(self, action: ReturnTile) -> None:
        if not isinstance(action.tile, str) or action.tile not in self.box_dinos:
            raise self._illegal("JK-RETURN", "%(tile)s is not a dinosaur tile in the box",
                                tile=repr(action.tile))
        self.box_dinos.remove(action.tile)
        self.hands[action.player].append(action.tile)
        self.last_event = f"{action.player} took {action.tile} from the box" + self._completion_note(
            action.player, action.tile
        )
        self._end_turn()

    def _decline(self, action: Decline) -> None:
        if self.compulsory_actions and self.phase != _TWICE:
            raise self._illegal(
                PHASE_RULE[self.phase], "house rule compulsory_actions: use %(action)s when possible",
                action=str(self.phase)
            )
        self.last_event = f"{action.player} used no more of the {self.phase} action"
        self._end_turn()

    def _check_loose(self, holder: str, tile: str, rule_id: str, verb: str) -> None:
        if not isinstance(tile, str) or tile not in self.hands[holder]:
            raise self._illegal(rule_id, _NOT_HELD[verb], player=holder, tile=repr(tile))
        if dinosaur_of(tile) in self.complete_dinosaurs(holder):
            raise self._illegal(
                "JK-COMPLETE",
                "%(tile)s belongs to %(player)s's complete D%(dinosaur)d, which cannot be separated",
                tile=tile, player=holder, dinosaur=dinosaur_of(tile),
            )

    def _end_turn(self) -> None:
        self.turn = (self.turn + 1) % len(self._players)
        self.phase = _TAKE
        self.twice_left = 0
        if not self._any_accessible():
            self._finish(f"{self.to_play} must take a tile and none is accessible")

    def _finish(self, reason: str) -> None:
        self.phase = _OVER
        self.twice_left = 0
        self.end_reason = reason

    # -- explanations -----------------------------------------------------------------------------------
    def rules_for(self, action: Action) -> list[Rule]:
        after = self.apply(action)
        ids: list[str] = []
        if isinstance(action, RemoveStart):
            ids = ["JK-START"]
        elif isinstance(action, Take):
            ids = ["JK-TURN", "JK-ACCESS"]
            if self.phase == _TWICE:
                ids.append("JK-TWICE")
            inside = 0 <= action.row < self.rows and 0 <= action.col < self.cols
            token = self.tile_at(action.row, action.col) if inside else None
            ids.append("JK-REVEAL" if token == HIDDEN else "JK-DINO")
        elif isinstance(action, Reveal):
            faces = {phase.value: rule for phase, rule in PHASE_RULE.items()}
            face_rule = "JK-ROCK" if action.face == "rock" else faces.get(action.face, "JK-REVEAL")
            ids = ["JK-REVEAL", face_rule]
            if "cannot be carried out" in after.last_event:
                ids.append("JK-NO-EFFECT")
        elif isinstance(action, Discard):
            ids = ["JK-DISCARD", "JK-COMPLETE", "JK-BOX"]
        elif isinstance(action, Steal):
            ids = ["JK-STEAL", "JK-COMPLETE"]
        elif isinstance(action, Exchange):
            ids = ["JK-EXCHANGE", "JK-COMPLETE"]
        elif isinstance(action, ReturnTile):
            ids = ["JK-RETURN", "JK-BOX"]
        elif isinstance(action, Decline):
            ids = [PHASE_RULE[self.phase]]
        if after.phase == _OVER:
            ids.append("JK-END")
        return [self.rules[i] for i in dict.fromkeys(ids)]

    # -- scores -----------------------------------------------------------------------------------------
    def scores(self) -> Outcome:
        totals, breakdown = score_hands(self.hands)
        best = max(totals.values())
        winners = tuple(name for name in self._players if totals[name] == best)
        reason = self.end_reason if self.phase == _OVER else "in progress"
        return Outcome(totals, breakdown, winners, reason)

    # -- views and serialization ------------------------------------------------------------------------
    def view(self, player: str | None = None) -> dict[str, Any]:
        """The table as anybody sees it. Nothing is private among players; face-down action tiles are "?"
        and the engine does not know their faces, so nothing can leak."""
        if player is not None and player not in self._players:
            raise ValueError(f"{player!r} is not a player of this game")
        data = self.to_dict()
        data["current_player"] = self.current_player()
        data["accessible"] = [list(self.cell_of(i)) for i in self.accessible_cells()]
        data["complete"] = {name: [f"D{d}" for d in self.complete_dinosaurs(name)] for name in self._players}
        outcome = self.scores()
        data["scores"] = {name: outcome.scores[name] for name in self._players}
        return data

    def to_dict(self) -> dict[str, Any]:
        grid = [self.cells[r * self.cols : (r + 1) * self.cols] for r in range(self.rows)]
        return {
            **self.header(),
            "edition": self.edition,
            "long_game": self.long_game,
            "players": list(self._players),
            "to_play": self.to_play,
            "phase": self.phase,
            "twice_left": self.twice_left,
            "reveal_cell": None if self.reveal_cell is None else list(self.cell_of(self.reveal_cell)),
            "grid": grid,
            "hands": {name: sorted(self.hands[name], key=tile_sort_key) for name in self._players},
            "box": {
                "dinosaurs": sorted(self.box_dinos, key=tile_sort_key),
                "actions": dict(self.box_actions),
                "start": self.box_start,
            },
            "unseen_actions": dict(self.unseen),
            "end_reason": self.end_reason,
            "last_event": self.last_event,
            "compulsory_actions": self.compulsory_actions,
        }


_PHASE_WAIT = {
    _START: refusal("%(player)s must first remove the beginning-of-excavation tile"),
    _TAKE: refusal("%(player)s must take one accessible tile"),
    _DISCARD: refusal("%(player)s must discard one loose tile into the box"),
    _STEAL: refusal("%(player)s must steal a loose tile or decline"),
    _EXCHANGE: refusal("%(player)s must exchange a loose tile or decline"),
    _RETURN: refusal("%(player)s must take a dinosaur tile from the box or decline"),
    _TWICE: refusal("%(player)s may take another accessible dinosaur tile or decline"),
    _OVER: refusal("the game is over"),
}
#: a loose tile its holder does not have, by what was to be done with it
_NOT_HELD = {
    "steal": refusal("%(player)s does not hold %(tile)s, so cannot steal it"),
    "give": refusal("%(player)s does not hold %(tile)s, so cannot give it"),
    "take": refusal("%(player)s does not hold %(tile)s, so cannot take it"),
    "discard": refusal("%(player)s does not hold %(tile)s, so cannot discard it"),
}

_HANDLERS: dict[tuple[Phase, type], Any] = {
    (_START, RemoveStart): JurassikState._remove_start,
    (_TAKE, Take): JurassikState._take,
    (_TWICE, Take): JurassikState._take_twice,
    (_TWICE, Decline): JurassikState._decline,
    (_DISCARD, Discard): JurassikState._discard,
    (_STEAL, Steal): JurassikState._steal,
    (_STEAL, Decline): JurassikState._decline,
    (_EXCHANGE, Exchange): JurassikState._exchange,
    (_EXCHANGE, Decline): JurassikState._decline,
    (_RETURN, ReturnTile): JurassikState._return,
    (_RETURN, Decline): JurassikState._decline,
}
