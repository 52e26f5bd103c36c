"""The Jurassik rules as data, quoting the English rulebook and, for the Spanish edition, the Spanish one.

Both rulebooks use the same rule ids; a state cites the book of its own edition. ``note`` quotes the
project's reading in RULES-NOTES.md.
"""

from __future__ import annotations

from engines.core import Rule, RuleBook

EN = "jurassik-en.txt"
ES = "jurassik-es.txt"

# (rule id, title, English passage, Spanish passage, RULES-NOTES reading)
_RULES: list[tuple[str, str, str, str, str]] = [
    (
        "JK-END",
        "End of the game",
        "The game ends when the last accessible dinosaur tile is taken from the excavation zone. It is "
        'possible that some action tiles or "inaccessible" tiles remain (F.).',
        "Se acaba la partida cuando la última carta dinosaurio accesible ha sido cogida de la zona de "
        "excavación. Pueden quedar algunas cartas acción que no hayan sido cogidas así como cartas no "
        "accesibles (g).",
        "End: when a dinosaur tile is taken and afterwards no accessible dinosaur tile remains. Also when a "
        "player must take a tile and no tile is accessible at all.",
    ),
    (
        "JK-SETUP",
        "Setup by edition and player count",
        'Depending on the number of players, take: 2 players: 6 dinosaurs (24 tiles), 11 "action" tiles '
        'randomly taken; 3 or 4 players: 8 dinosaurs (32 tiles), 16 "action" tiles randomly taken; 5 '
        'players: All 10 dinosaurs, All 23 "action" tiles. It is possible, regardless of the number of '
        "players, to take all the tiles for a little longer game. The remaining tiles are left in the game "
        "box. [...] in a square of 6x6, 7x7 or 8x8, depending on the number of tiles taken for the game.",
        "-Mezclar las 22 cartas acción y descartar a 7 cartas, cara abajo [...] -Pues, mezclar las 15 "
        "cartas acción que quedan con las 32 cartas dinosaurio y la carta inicio de excavación. [...] en un "
        "cuadrado de 6x8.",
        "English action mix (23): 6 Rock, 3 Discarding, 4 Exchanging, 4 Stealing, 4 Playing Twice, 2 "
        "Returning. Spanish (22): 6 Rock, 4 Discarding, 4 Exchanging, 4 Stealing, 4 Playing Twice, no "
        "Returning.",
    ),
    (
        "JK-START",
        "Beginning of excavation",
        "The first player removes the beginning of excavations tile, which creates a free space between "
        "the tiles: the game begins!",
        "El primer jugador descarta la carta inicio de excavación, así queda un espacio libre entre las "
        "cartas, y la partida puede empezar.",
        "",
    ),
    (
        "JK-TURN",
        "Turn order: one tile per turn",
        "The paleontologists play clockwise. On his turn, the player takes an accessible* tile in the "
        "excavation zone",
        "Los paleontólogos juegan cada uno a su vez, en el sentido de las agujas de un reloj. Cuando le "
        "toca, el jugador coge una carta “accesible” de la zona de excavación",
        "A turn takes exactly one accessible tile.",
    ),
    (
        "JK-ACCESS",
        "Accessible tiles",
        '* A tile is said "accessible" when one of its sides is next to a free space created by tiles that '
        "have previously been removed from the excavation zone.",
        "Una carta es “accesible” cuando uno de sus lados está al borde de un espacio libre, creado por las "
        "cartas anteriormente retiradas de la zona de excavación ( ).",
        "Accessible: a tile in the zone with at least one side (orthogonal, not diagonal) next to a free "
        "space. A free space is a cell whose tile has been removed. The table's outer edge is not a free "
        "space.",
    ),
    (
        "JK-DINO",
        "Taking a dinosaur tile",
        "The player can take a dinosaur tile and put it in front of him (B.).",
        "El jugador puede coger una carta dinosaurio y ponerla ante él (c).",
        "A dinosaur tile goes to the player.",
    ),
    (
        "JK-COMPLETE",
        "Completing a dinosaur",
        "If the player takes the 4th tile of a dinosaur and he already has the 3 first ones, he "
        "reconstitutes the puzzle of 4 tiles and turns them over with the face living dinosaur showing (C.). "
        "[...] However, the 4 tiles of a complete dinosaur cannot be separated.",
        "Si el jugador coge la cuarta carta de un dinosaurio y que ya tiene a las 3 primeras, reconstituye "
        "el puzle de 4 cartas y le da la vuelta cara dinosaurio “en carne” (d). [...] Sin embargo, las 4 "
        "cartas de un dinosaurio completo no se pueden separar.",
        "Completion: whenever any player holds all 4 pieces of one dinosaur (by taking, stealing, "
        "exchanging or returning), those 4 become a complete dinosaur and can never again be stolen, "
        "exchanged or discarded.",
    ),
    (
        "JK-REVEAL",
        "Taking an action tile",
        "The player can take an action tile, reveal it, and do the action immediately. Action tiles that "
        "have been turned over (face up) are removed from the excavation zone, except in the case of a "
        '"rock" tile, which remains where it was revealed (D.).',
        "El jugador puede coger una carta acción , enseñarla, y efectuar la acción al momento. Las cartas "
        "acción a las cuales se les dio la vuelta tienen que ser retiradas de la zona de excavación (e), "
        "salvo las cartas rocas que se quedan donde se les ha dado la vuelta (f).",
        "An action tile is revealed and resolved at once, then leaves the zone (its cell becomes free), "
        "except Rock.",
    ),
    (
        "JK-ROCK",
        "Rock",
        "Rock: the player who turned this tile over finishes his turn and leaves the rock face up on the "
        "place where he found it.",
        "Roca: Cuando un jugador le da la vuelta a una carta roca acaba su turno dejando la roca cara arriba "
        "en el lugar donde la encontró.",
        "A revealed Rock stays in its cell, is not a free space, and can never be taken.",
    ),
    (
        "JK-STEAL",
        "Stealing",
        "Stealing: this action tile allows the player who turned it over to steal a tile of his choice from "
        "another player. However, the 4 tiles of a complete dinosaur cannot be separated.",
        "Robar: cuando un jugador la ha dado la vuelta a una carta acción robar, puede coger la carta de su "
        "elección entre las de sus adversarios. Sin embargo, las 4 cartas de un dinosaurio completo no se "
        "pueden separar.",
        "Stealing: take one tile of your choice from another player, not from a complete dinosaur.",
    ),
    (
        "JK-EXCHANGE",
        "Exchanging",
        "Exchanging: this action tile allows the player who turned it over to choose one of his own tiles "
        "and exchange it with a tile of his choice of another player's hand. However, the 4 tiles of a "
        "complete dinosaur cannot be separated.",
        "Intercambiar: el jugador que la ha dado la vuelta a la acción intercambiar, puede cambiar una de "
        "sus cartas contra la carta de su elección de cualquiera de sus adversarios. Sin embargo las 4 "
        "cartas de un dinosaurio completo no se pueden separar.",
        "Exchanging: give one of your loose tiles and take one loose tile of another player.",
    ),
    (
        "JK-DISCARD",
        "Discarding",
        "Discarding: the player who turned this action tile over has to choose a tile in his hand and "
        "discard it in the box. However, the 4 tiles of a complete dinosaur cannot be separated.",
        "Descartar: el jugador que le dio la vuelta a la acción descartar tiene que volver a meter en la "
        "caja a una de sus cartas. Sin embargo las 4 cartas de un dinosaurio completo no se pueden separar.",
        "Discarding: put one of your own loose tiles into the box (the box keeps it; Returning may bring it "
        "back).",
    ),
    (
        "JK-TWICE",
        "Playing twice",
        "Playing twice: this action tile allows the player to take 2 new dinosaur tiles from the excavation "
        "zone. The player cannot take a new action tile.",
        "Jugar dos veces: esta acción le permite al jugador quitar dos nuevas cartas dinosaurio de la zona "
        "de excavación. El jugador no puede coger una nueva carta acción.",
        "Playing twice: take up to 2 more accessible dinosaur tiles, one after the other (the first may "
        "open the second). Action tiles may not be taken with them.",
    ),
    (
        "JK-RETURN",
        "Returning",
        "Returning: this action allows the player to take a Dinosaur tile of his choice in the box.",
        "EN LA CAJA -32 cartas dinosaurio (8 dinosaurios X 4 cartas por dinosaurio) -22 cartas acción "
        "[roca x6, descartar, intercambiar x4, robar x4, jugar dos veces x4]",
        "Returning (en only): take one dinosaur tile of your choice from the box (tiles left out at setup "
        "and discarded tiles).",
    ),
    (
        "JK-NO-EFFECT",
        "An action that cannot be carried out",
        "It is possible that a player cannot do an action; in that case the tile is removed without having "
        "any effect on the game.",
        "Puede ocurrir que un jugador no pueda efectuar la acción, en ese caso se vuelve a poner la carta "
        "acción en la caja sin ninguna incidencia en el juego.",
        "An action that cannot be carried out has no effect; the tile still leaves the zone.",
    ),
    (
        "JK-BOX",
        "The box",
        "The remaining tiles are left in the game box. [...] discard it in the box. [...] take a Dinosaur "
        "tile of his choice in the box.",
        "-Mezclar las 22 cartas acción y descartar a 7 cartas, cara abajo [...] se vuelve a poner la carta "
        "acción en la caja",
        "Returning (en only): take one dinosaur tile of your choice from the box (tiles left out at setup "
        "and discarded tiles).",
    ),
    (
        "JK-SCORE",
        "Scoring and winners",
        "1 isolated tile of a dinosaur gives 1 point; 2 tiles of the same dinosaur give 3 points; 3 tiles "
        "of the same dinosaur give 6 points; A complete dinosaur (4 tiles) gives 10 points. The player who "
        "has the most points is the best paleontologist of the game. The score can be even, so there can be "
        "several winners.",
        "una sola carta dinosaurio vale 1 punto; dos cartas del mismo dinosaurio valen 3 puntos; tres "
        "cartas del mismo dinosaurio valen 6 puntos; Un dinosaurio completo (4 cartas) vale 10 puntos [...] "
        "El jugador que haya totalizado la mayor cantidad de puntos es elegido el mejor paleontólogo de la "
        "partida. En caso de igualdad puede ser que haya varios ganadores.",
        "Score per dinosaur held: 1 piece 1, 2 pieces 3, 3 pieces 6, 4 pieces 10. Equal best scores share "
        "the win.",
    ),
]


def _book(edition: str) -> RuleBook:
    source = EN if edition == "en" else ES
    rules = []
    for rule_id, title, english, spanish, note in _RULES:
        passage = english if edition == "en" else spanish
        rules.append(Rule(rule_id, title, source, passage, note))
    return RuleBook(source, rules)


RULEBOOKS: dict[str, RuleBook] = {"en": _book("en"), "es": _book("es")}
