"""Jurassic Brunch rules as data: each quotes the rulebook and, where it is silent, the project's reading.

Readings marked "engine reading" are this engine's own where RULES-NOTES.md is silent too; the ones a table
might play differently are house-rule options of :class:`engines.jurassic_brunch.JurassicBrunch`.
"""

from __future__ import annotations

from engines.core import Rule, RuleBook

SOURCE = "jurassic-brunch.txt"


def _rule(rule_id: str, title: str, passage: str, note: str = "") -> Rule:
    return Rule(rule_id, title, SOURCE, passage, note)


RULES = RuleBook(
    SOURCE,
    [
        _rule(
            "JB-END",
            "End of the game",
            "The game ends immediately when one of the three following conditions is fulfilled",
            "End conditions are checked once an action and everything it sets off (reveal, effect, choices)"
            " is resolved, and at the end of each turn.",
        ),
        _rule(
            "JB-SETUP-AREA",
            "Playing Area",
            "Create the Playing Area by connecting the four Pasture boards the way you like, as long as "
            "each board has at least one space adjacent to another board",
            "Four 3x3 pasture boards, placed so each board touches another. Cells are integer (x, y) on the"
            " table grid; the area is the union of the boards' cells and need not be a rectangle. Engine "
            "reading: 'adjacent' means sharing a cell edge, boards do not overlap, and 'connecting' means "
            "the four boards form one connected area.",
        ),
        _rule(
            "JB-SETUP-EGGS",
            "Starting Triceratopses",
            "They both place 4 of them on the spaces showing an egg of their colour on the boards; the 5th "
            "Triceratops is placed outside of the Playing Area, in front of each of them.",
            "Each board has egg cells printed on it (data per board; 8 in all, 4 per colour); the 28 other "
            "cells get a grass token. The rulebook does not print which cells: the engine ships an assumed "
            "default layout (one egg of each colour per board) that a table can replace.",
        ),
        _rule(
            "JB-SETUP-GRASS",
            "Grass tokens",
            "Shuffle the 28 Grass tokens, face down. Then, place them randomly on the 28 spaces of the "
            "board, without looking at them.",
            "A face-down token is unknown to the engine until it is eaten and revealed.",
        ),
        _rule(
            "JB-TURN",
            "Turns",
            "Blue player plays first. During his first turn, he will have to perform ONLY ONE action. Then,"
            " players take turns, performing TWO ACTIONS each turn.",
            "Blue's first turn has 1 action, every other turn 2; each Super Yummy discarded adds 1 action.",
        ),
        _rule(
            "JB-TURN-END",
            "Ending a turn",
            "Then, players take turns, performing TWO ACTIONS each turn.",
            "Engine reading: the player ends the turn (the Next button) once the actions are spent; a "
            "player with actions left may end it early only when no board action is possible. Free steps "
            "(filling a Hideout, discarding a Super Yummy) may come before the end.",
        ),
        _rule(
            "JB-PENDING",
            "Resolve before going on",
            "The potential effects of the Grass tokens are applied immediately",
            "Engine reading: while a token is being revealed, an effect chosen or an expelled dinosaur "
            "placed, that step comes before anything else.",
        ),
        _rule(
            "JB-MOVE",
            "Peacefully moving a Triceratops",
            "A Triceratops moves in a straight line until it is blocked by: another Triceratops, a Raptor, "
            "the edge of the Playing Area, a Grass token",
            "A standing triceratops slides orthogonally, at least one cell, until the next cell holds a "
            "dinosaur or is off the area (it stops before it) or holds a grass token (it moves onto it and "
            "eats it).",
        ),
        _rule(
            "JB-EAT",
            "Eating grass",
            "In this case (a Grass token), the Triceratops eats the Grass: it moves on the space of the "
            "Grass token, which is revealed to all players. The potential effects of the Grass tokens are "
            "applied immediately and then the token is piled up face down on previously earned tokens.",
        ),
        _rule(
            "JB-CHARGE",
            "Charging",
            "A. The Triceratops moves in a straight line until it is blocked by another dinosaur (whatever "
            "their owner or type). B. The Triceratops replaces the dinosaur.",
            "A standing triceratops slides orthogonally until the next cell holds a dinosaur; it takes that"
            " cell. Grass tokens on the way do not stop a charge and are not eaten (house-rule option: "
            "tokens block a charge). No dinosaur in that line: no charge.",
        ),
        _rule(
            "JB-CHARGE-EXPEL",
            "Expelled dinosaur",
            "The latter (another Triceratops or the Raptor) is expelled to any empty space of the board, "
            "chosen by the charging player.",
            "The charging player puts the expelled dinosaur on any empty cell (no dinosaur, no token); a "
            "sleeping triceratops stays asleep.",
        ),
        _rule(
            "JB-WAKE",
            "Waking up",
            "You can put a lying triceratops back on its feet (see Stodgy Grass token effects). During his "
            "turn, a player can choose this action twice in a row if he has two sleeping Triceratops.",
            "Waking costs an action. By default a triceratops that fell asleep this turn can be woken only "
            "from its owner's next turn on ('During one of your next turns'); house-rule option "
            "wake_same_turn.",
        ),
        _rule(
            "JB-ASLEEP",
            "Sleeping Triceratops",
            "Your Triceratops needs some rest to digest. Lay it down on the side.",
            "A sleeping triceratops cannot move or charge until woken with an action; it can be charged or "
            "scared away.",
        ),
        _rule(
            "JB-RAPTOR",
            "Moving the Raptor",
            "The Raptor moves in a straight line or diagonally until it is blocked by: a Grass token, the "
            "edge of the Playing Area, A Triceratops. In this case (a Triceratops), the Raptor scares the "
            "Triceratops away: the Raptor is placed on this Triceratops' space in the Playing Area; and the"
            " Triceratops is put back in its owner's pool.",
            "The raptor moves in 8 directions, at least one cell, until the next cell holds a grass token "
            "or is off the area (stops before), or holds a triceratops (takes its cell; the triceratops "
            "goes back to its owner's pool). Only when the raptor is on the area.",
        ),
        _rule(
            "JB-RAPTOR-ONCE",
            "The Raptor once per turn",
            "Important note: during their turn, players can choose this Action only once regardless of the "
            "number of actions they have!",
        ),
        _rule(
            "JB-BIRTH",
            "Birth",
            "Place a Triceratops from your pool on the empty space of your choice. This token scores 1 "
            "Point at the end of the game.",
            "Cannot be applied when the pool is empty or no cell is empty (no dinosaur, no token).",
        ),
        _rule(
            "JB-HIDEOUT",
            "Hideout",
            "The Hideout allows you to protect 3 of your tokens. When you find a Hideout, place it in front"
            " of you face up and you can place up to 3 tokens in a single pile below. The tokens hidden in "
            "that pile cannot be used anymore. You can place up to 3 of your tokens in the Hideout, in one "
            "or several times, as soon as you get the Hideout, or later during your turns. This token "
            "scores 1 Point at the end of the game.",
            "Hiding a token is a free step of the owner's turn. Hidden tokens still score. Engine reading: "
            "a Hideout token itself is neither hidden nor stolen (it holds the pile).",
        ),
        _rule(
            "JB-FLOWER",
            "Flower",
            "As soon as you find a Flower, immediately offer it to your opponent and randomly take one of "
            "their tokens (tokens in Hideouts are not available). The effect of the stolen token is not "
            "applied. If your opponent has no token available, keep the Flower. This token scores 1 Point "
            "at the end of the game.",
            "Flower goes to the opponent, the player takes one of the opponent's tokens at random (not from"
            " a Hideout; the stolen token's effect is not applied); with nothing to take the player keeps "
            "the Flower. Engine reading: the Flower just offered and face-up Hideouts are not among the "
            "tokens that can be taken.",
        ),
        _rule(
            "JB-STODGY",
            "Stodgy Grass",
            "Your Triceratops needs some rest to digest. Lay it down on the side. During one of your next "
            "turns, you will have to spend one of your Actions to wake it up. This token scores 3 Points at"
            " the end of the game.",
        ),
        _rule(
            "JB-TRAP",
            "It Was a Trap!",
            "Replace your Triceratops with the Raptor from the edge of the playing area. Put your "
            "Triceratops back in your pool. This token scores 3 Points at the end of the game.",
            "The raptor (from off the area, or from wherever it stands) takes the eater's cell; the eater "
            "goes to its pool.",
        ),
        _rule(
            "JB-SUPER-YUMMY",
            "Super Yummy",
            "During one of your next turns, you can discard one or more Super Yummy tokens to play one or "
            "more additional Actions. Each unused token scores 1 Point at the end of the game.",
            "Each Super Yummy discarded adds 1 action. By default a Super Yummy can be used from the turn "
            "after it was gained ('During one of your next turns'); house-rule option "
            "super_yummy_same_turn. A hidden Super Yummy cannot be used.",
        ),
        _rule(
            "JB-YUMMY",
            "Yummy",
            "The Yummy token do not give immediate effect and scores 2 Points at the end of the game.",
        ),
        _rule(
            "JB-CANNOT-APPLY",
            "An effect that cannot be applied",
            "If a player reveals a Grass token but cannot apply its effect (e.g. Birth when the player has "
            "already placed his 5 Triceratopses, or Flower when the opponent has no token available), he "
            "secretly looks at TWO Grass tokens on the Playing Area, without moving them.",
            "An effect that cannot be applied lets the player look at two grass tokens (no state change; "
            "the engine records which cells were looked at). Fewer than two on the area: all of them.",
        ),
        _rule(
            "JB-END-NO-TRICERATOPS",
            "No Triceratops left",
            "One of the players has no Triceratops left in the Playing Area. In this case, this player "
            "loses the game, and the amount of Grass eaten by each player's Triceratops is not taken into "
            "account.",
        ),
        _rule(
            "JB-END-NO-GRASS",
            "No Grass left",
            "There is no more Grass tokens in the Playing Area.",
        ),
        _rule(
            "JB-END-QUIET",
            "Two quiet turns",
            "During two turns in a row, NO player has taken a Grass token or scared away any of his "
            "opponent's Triceratops out of the Playing Area.",
            "Two turns in a row passed with no token eaten and no opposing triceratops scared off the area "
            "(by the raptor).",
        ),
        _rule(
            "JB-SCORING",
            "Winning",
            "The player with the highest amount of Leaves wins the game! In case of a tie, the player with "
            "the fewest Grass tokens is the winner. If there is still a tie, players share the victory!",
            "Winner: most points; tie: fewer tokens (hidden tokens and Hideouts included); still tied: "
            "shared.",
        ),
    ],
)
