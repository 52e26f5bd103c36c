"""Every rule the Jurassic Parts engine enforces, quoting the rulebook and the project's reading of it."""

from __future__ import annotations

from engines.core import Rule, RuleBook

SOURCE = "jurassic-parts.txt"


def _rule(rule_id: str, title: str, passage: str, note: str = "") -> Rule:
    return Rule(rule_id, title, SOURCE, passage, note)


RULES: list[Rule] = [
    _rule(
        "JP-END",
        "End of the game",
        "The game is over when all Tiles have been claimed from the Slab. When only 2 Fossils remain, the "
        "current player splits them, chooses 1 to keep, gives the other to the Field Leader, and finishes "
        "the "
        "turn. This ends the game.",
        "End: when 2 tiles remain on the slab, the active player keeps one and the Field Leader takes the "
        "other.",
    ),
    _rule(
        "JP-SETUP",
        "The Slab",
        "Place the remaining Pile of Bones wild card face-up in the center of the table. Arrange the Fossil "
        "Tiles on the table in a hexagonal grid surrounding the Pile of Bones, face-up or face-down as they "
        "come, in any layout you prefer.",
        "The layout is free (\"any layout you prefer\"): the engine takes positions as observed.",
    ),
    _rule(
        "JP-START-BONUS",
        "Start bonuses",
        "the second player begins the game with an extra sharpened Chisel [...], third player receives an "
        "amber, and the fourth and fifth players receive both an extra sharpened Chisel and an amber.",
        "Start bonuses, in seat order from the first player: 2nd +1 sharp chisel; 3rd +1 amber; 4th, 5th "
        "(and a 6th) +1 sharp chisel and +1 amber.",
    ),
    _rule(
        "JP-TURN",
        "Turn order",
        "On Your Turn 1. Sharpen 3 Chisels 2. Play Chisels [...] During your turn you may also conduct "
        "business with the Field Leader, before, while, or after using your Chisels.",
        "Only the active player acts, except that contributors take their tiles during a split.",
    ),
    _rule(
        "JP-SHARPEN",
        "Sharpen 3 Chisels",
        "Move 3 Chisels from the Dull (right) side of your Paleontologist Mat to the Sharp (left) side. If "
        "this is not possible (if you don't have 3 dull Chisels to sharpen), move what you can and draw the "
        "remainder from your placed Chisels on the Slab.",
        "Turn start: move 3 chisels dull -> sharp; if fewer are dull, the player picks up chisels of their "
        "own "
        "from the slab (their choice of which) for the rest; those come back sharp.",
    ),
    _rule(
        "JP-CRACK",
        "Create Cracks in the Slab",
        "Chisels may be placed on any empty gap between two Fossil Tiles. [...] Note that there are no gaps "
        "along the outside edge of the Slab.",
        "A gap is the shared edge of two adjacent tiles still on the slab; the outer edge has no gaps.",
    ),
    _rule(
        "JP-ROCKS",
        "Break Apart Rocks",
        "Creating any crack in the Slab therefore costs 1, 2, or 3 Chisels, depending on the number of Rocks "
        "in the way. You must completely pulverize the Rock in one turn. [...] only the last Chisel is "
        "played "
        "to the Slab in order to mark your color on the Crack.",
        "Crack cost: 1 chisel, plus 1 dulled chisel per rocky side of the gap (max 3). All in one turn.",
    ),
    _rule(
        "JP-ROCKS-RESTORED",
        "Rocks return when a chisel is picked up",
        "If you later pick up a Chisel that was along a rocky crack [...], anyone re-creating that crack "
        "must "
        "once more break apart any rocks along its edges.",
        "A chisel removed from a rocky gap restores its rocks.",
    ),
    _rule(
        "JP-ONE-AT-A-TIME",
        "Chisels one at a time",
        "Chisels are played one at a time. Should a break occur, you must resolve the break before "
        "continuing "
        "to place more Chisels onto the Slab.",
    ),
    _rule(
        "JP-SAVE",
        "Saving Chisels",
        "One of your Chisels may remain sharpened between turns. All other unused sharp Chisels must be "
        "returned to the dull side of your Paleontologist mat.",
        "Turn end: keep at most 1 sharp chisel (2 with the Backpack resource card); the rest go dull.",
    ),
    _rule(
        "JP-PURCHASE-COST",
        "Purchase from the Field Leader",
        "The first purchase each turn costs 1 amber. The second purchase that same turn costs 2 amber. Any "
        "additional purchases during the same turn costs 3 amber each.",
    ),
    _rule(
        "JP-BUY-IGNORE-ROCKS",
        "Purchase: ignore Rocks",
        "Your next 2 Chisels this turn ignore Rocks. Place them on any available gap without needing to dull "
        "extra Chisels.",
        "The next 2 chisels placed this turn cost 1 each, rocky gap or not (each placement uses one up); "
        "bought twice in a turn: the next 4; unused ones lapse at the end of the turn.",
    ),
    _rule("JP-BUY-SHARPEN", "Purchase: sharpen", "Sharpen 2 additional Chisels.",
          "Needs at least one dull chisel; sharpens up to 2."),
    _rule(
        "JP-BUY-SLAB-TILE",
        "Purchase: a tile from the Slab",
        "Take any Fossil Tile from the Slab, excluding a Pile of Bones or any Tile that would cause a split.",
        "Take a slab tile that is not a Pile of Bones and whose removal does not split the slab. A "
        "face-down tile chosen is turned up first; a Pile of Bones stays on the slab and nothing is paid "
        "(house rule slab_purchase=face-up: only face-up tiles). Chisels on the tile's gaps go back to their "
        "owners dull.",
    ),
    _rule("JP-BUY-LEADER-TILE", "Purchase: a tile from the Field Leader",
          "Take any Fossil Tile from the Field Leader."),
    _rule(
        "JP-SELL",
        "Sell to the Field Leader",
        "You may sell the Field Leader 1 Fossil for 1 amber. You may only sell 1 Fossil Tile per turn to the "
        "Field Leader. You may not sell a Tile from a complete dinosaur set after amber is collected for it, "
        "and you may not sell Plant Tiles.",
        "Selling: 1 tile per turn for 1 amber, never a plant, never a tile of a dinosaur already completed "
        "(a Pterodactyl is always complete; house rule sell_pterodactyls=unpaid: one that earned no amber, "
        "bought or taken while the supply was empty, may be sold). A committed Pile of Bones cannot move, "
        "so it cannot be sold.",
    ),
    _rule(
        "JP-AMBER",
        "Amber supply",
        "Place the Fossil Leader board near the playing area in reach of all players, along with the 20 "
        "Amber "
        "resources.",
        "Amber comes from and goes back to the supply of 20; a payment the supply cannot make is not made.",
    ),
    _rule(
        "JP-SPLIT",
        "Splitting the Slab",
        "At some point the Slab will be completely split into 2 parts by a line of Chisels. Splits may "
        "happen "
        "in the middle of a turn; they must be resolved immediately before the turn may continue.",
        "Split: the slab, as a graph of tiles joined by uncracked gaps, falls into two parts.",
    ),
    _rule(
        "JP-SPLIT-SMALLER",
        "Splitting into 2 uneven parts",
        "The smaller part of the Slab is awarded to the players, according to their contribution to the "
        "split.",
    ),
    _rule(
        "JP-SPLIT-EQUAL",
        "Splitting into 2 even halves",
        "The active player decides which of 2 even halves will be broken up and claimed.",
    ),
    _rule(
        "JP-SPLIT-INTERIOR",
        "Splitting entirely along the interior",
        "It is possible for a loop of Chisels to completely split the inside of the Slab from its outside. "
        "[...] Usually this will create a \"hole\" in the Slab, but if the exterior is the smaller half, it "
        "will be claimed instead!",
        "A ring of chisels that cuts out an inner region is an ordinary split; if the outside is smaller, "
        "the "
        "outside is awarded.",
    ),
    _rule("JP-FLIP", "Flip the awarded part", "Flip all face-down Fossil Tiles in this part face-up.",
          "All face-down tiles in the awarded part are turned face up before anyone takes."),
    _rule(
        "JP-CONTRIBUTORS",
        "Ranking the contributors",
        "Rank each contributor by the number of their Chisels that helped create the split. More Chisels = "
        "higher rank. If 2 or more players are tied, break each tie by starting with the current player and "
        "going clockwise. Closer to current player = higher rank. [...] a Chisel only contributes to a Split "
        "if it lies on the border between the two parts of the Slab.",
        "Contributors: players with at least one chisel on a gap between the two parts.",
    ),
    _rule(
        "JP-SHARES",
        "Shares of the split",
        "In rank order, each player takes 1/2 (rounded up) of the Fossils split from the Slab. [...] "
        "Leftover "
        "Tiles that no player claims belong to the Field Leader. However, no player may take more than 6 "
        "tiles, regardless of the number of tiles in a split.",
        "Shares: in rank order each contributor takes ceil(left / 2) tiles, at most 6; what no one takes "
        "goes "
        "to the Field Leader. Which tiles a player takes is the player's choice.",
    ),
    _rule(
        "JP-CHISELS-RETURNED",
        "Chisels after a split",
        "Chisels that contributed to a split are returned to their player as dull Chisels (after the rank "
        "order is determined). Chisels that are within the smaller part of the Slab are returned to their "
        "owners as Sharp Chisels. Chisels that are within the larger part of the Slab are left in place.",
    ),
    _rule(
        "JP-CONCEAL",
        "Concealed fossils",
        "Collected Fossil tiles that are not part of a complete dinosaur may be concealed from other "
        "players. "
        "This does not apply to plants and Pterodactyls.",
        "Views show other players' plants, Pterodactyls, completed dinosaurs and a count of concealed "
        "tiles; tiles gone from the slab are not named in any view, which would give concealed ones away.",
    ),
    _rule(
        "JP-COMPLETE",
        "Completing dinosaurs",
        "When you completely assemble a dinosaur with all of its required Tiles, you immediately reveal the "
        "dinosaur and earn 1 amber from the Field Leader.",
        "Completing a dinosaur (also with a Pile of Bones) earns 1 amber at once, from the supply of 20 "
        "while "
        "it lasts. A dinosaur is complete with one tile of each of its parts; the engine completes it as "
        "soon "
        "as the tiles are held.",
    ),
    _rule(
        "JP-PTERO",
        "Pterodactyls",
        "each Pterodactyl tile is a complete dinosaur and earns you an amber when you take it during a "
        "split. "
        "Pterodactyls purchased from the Field Leader do NOT earn you an amber. Plants do NOT earn players "
        "amber at any point in the game.",
        "A Pterodactyl taken in a split (or kept at the end) earns 1 amber; a bought one does not.",
    ),
    _rule(
        "JP-BONES",
        "Pile of Bones",
        "At any time during the game, Piles of Bones may be played as a \"wild card\" substitution for any "
        "missing Fossil piece. You can also wait until the very end of the game to commit the tile. Once "
        "committed, you cannot move the wild card to another dinosaur.",
        "A Pile of Bones only replaces a missing part of a dinosaur of which the player holds at least one "
        "real tile. It is committed by the active player in the main phase or by a contributor taking a "
        "share. Uncommitted Piles of Bones are placed at the end in the way that scores most and, among "
        "equal scores, does best in the tie-break chain (house rule end_bones=loose: they stay loose).",
    ),
    _rule(
        "JP-SCORE",
        "End game scoring",
        "Each completed dinosaur is awarded the points shown in your field guide. Incomplete dinosaurs are "
        "awarded 1 point per Fossil Tile, including unused Piles of Bones tiles. [...] Unspent Amber at the "
        "end of the game is worth 1 point each.",
        "Scores: completed dinosaurs by the field guide; every tile not in a completed dinosaur 1 point "
        "(unused "
        "Piles of Bones too); plants by count 1,3,5,8,11,15,20,25,30,35; Pterodactyl 1; unspent amber 1 "
        "each.",
    ),
    _rule(
        "JP-TIES",
        "Ties",
        "If the score is tied, the tied player with the most complete 5-tile dinosaurs wins. If the tie "
        "persists, continue comparing smaller and smaller dinosaurs among those still tied; if players have "
        "the same number for all sizes, all the way down to Pterodactyls, they are truly tied.",
    ),
    _rule(
        "JP-BACKPACK",
        "Resource cards: Backpack",
        "Backpack — You may carry over an additional Chisel between turns. (Remains in play)",
        "Resource cards are data with effects; the Backpack is revealed the first time its holder keeps a "
        "second sharp chisel.",
    ),
    _rule(
        "JP-REVEAL",
        "Face-down fossils",
        "Arrange the Fossil Tiles [...] face-up or face-down as they come.",
        "A face-down tile's identity is unknown until it is turned face up (seen by the camera or entered by "
        "hand); bots draw it from the fossils not yet seen.",
    ),
]

RULEBOOK = RuleBook(SOURCE, RULES)
