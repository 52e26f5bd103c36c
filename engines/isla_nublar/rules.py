"""The rules this engine enforces, quoting shared/rulebooks/isla-nublar.txt and, where needed, the reading."""

from __future__ import annotations

from engines.core import Rule, RuleBook

SOURCE = "isla-nublar.txt"


def _rule(rule_id: str, title: str, passage: str, note: str = "") -> Rule:
    return Rule(rule_id, title, SOURCE, passage, note)


RULES = [
    _rule(
        "IN-SETUP",
        "Game preparation: the dinosaur figures",
        "Place 1 of the 4 dinosaur figures randomly on each of the 4 red volcanoes on the game board.",
        "At a real table the figures stand where the players put them: which figure is on which volcano is "
        "read from the table.",
    ),
    _rule(
        "IN-END",
        "End of game",
        "The game can end in 3 different ways: Someone is setting up the last camp their personal supply. "
        "(It is irrelevant whether there are still Camps in the general supply.) The deck of dinosaur cards "
        "is empty. 2 of the stacks of action cards you can buy are empty. In any case, you still play to "
        "the end of the current round.",
        "The round ends when the turn would pass back to the start player (the first seat).",
    ),
    _rule(
        "IN-TIE",
        "Winner and ties",
        "Whoever has the most points at the end of this round wins the game. In the event of a tie, those "
        "tied share Participants the place.",
    ),
    _rule(
        "IN-TURN",
        "Turn order",
        "The starting player with makes the first move. Then you play in turn clockwise. On your turn, you "
        "play out your hand of cards, one at a time, openly in front of you in any order.",
    ),
    _rule(
        "IN-DRAW",
        "End of turn and drawing",
        "On your turn, you play out your hand of cards ... Only at the end of your turn do you put all the "
        "cards played face up in front of you into your personal discard pile. Then you draw 5 new cards and "
        "end your turn. (If your draw pile runs out, shuffle your discard pile and place it back as a new "
        "draw pile.)",
        "The whole hand is played out: blue cards left in hand at the end of the turn go to the discard pile "
        "as played without an action (only a hideout keeps cards). A draw pile is a face-down multiset: each "
        "drawn card is a chance outcome.",
    ),
    _rule(
        "IN-ONE-ACTION",
        "One action per card",
        "If you play an action card, you choose 1 of the possible actions that are on shown on the card. "
        "... You can also play the blue action cards without using the actions shown on the card.",
    ),
    _rule(
        "IN-SURPLUS",
        "Pooling and surplus",
        "If the value of the cards played exceeds the purchase price, You can use the excess to buy more "
        "cards. At the end of your turn, the surplus expires.",
        "Amber and box values played this turn form two pools, spent in any order during the turn.",
    ),
    _rule(
        "IN-BUY",
        "Buy a new card",
        "You can only buy the top card of the 5 piles of action cards on the game board. ... Then you take "
        "the card you bought and place it on top of yours Discard pile (so you cannot use this card "
        "immediately).",
    ),
    _rule(
        "IN-BOXES",
        "Equipment boxes",
        "Then you take (maximum) as many boxes as the card shows, from your personal Stock and place them "
        "on a field of the game board. ... Never place it on a volcano space or a space with a dinosaur "
        "figure. ... Move boxes from one field to another field of the game board.",
        "Placing or moving one box costs 1 box point.",
    ),
    _rule(
        "IN-CAMP",
        "Set up camp",
        "For a camp you have to pay for 4 boxes. Then you take out a camp of your personal stock and put it "
        "on any field (without Dinosaurs and not on a volcanic field). ... You can stack camps this way by a "
        "maximum of 3 camps on top of each other.",
    ),
    _rule(
        "IN-CAMP-SAVE",
        "Saved boxes",
        "When there are already one or more of your equipment boxes on the field where you set up your "
        "camp, you can take back as many of these equipment boxes as you want in your personal supplies. "
        "For every box that you take back, there are reduced Costs for construction of a camp by 1.",
        "A camp still needs a card with the box symbol played this turn (at least 1 box point), even when "
        "4 saved boxes make it cost nothing: 'To build a camp, you play cards with the box symbol.'",
    ),
    _rule(
        "IN-AREA",
        "Camp points of the upper areas",
        "When you set up a camp in one of the 3 upper areas of the game board, you immediately get points "
        "specified adjacent to this area.",
    ),
    _rule(
        "IN-STOCK",
        "Stock up on supplies",
        "When you play a card with the box symbol, you can take back a maximum of so many parts (Camps "
        "and/or boxes) indicated by the number in the box symbol.",
    ),
    _rule(
        "IN-DEFENCE",
        "Defensive measures",
        "If a Dinosaur moves to a space where you would lose equipment boxes or camps, you may play this "
        "card from your hand. The dinosaur figure then remains on the field ... Then you put the card on "
        "your discard pile. You pull no card from the draw pile for that. ... As long as the dinosaur "
        "figure is on the field, you are not allowed to place or move any parts on or of this field.",
        "Offered to every player who would lose pieces (box owners, else the top camp's owner), holding the "
        "card or not, so the question reveals nothing; one defence keeps every piece on the field.",
    ),
    _rule(
        "IN-HIDEOUT",
        "Hideout",
        "Place any number of cards in your hand (including your Dinosaur egg and dinosaur cards) face down "
        "in front of you. ... At the end of your turn, after drawing cards, you take the face-down cards "
        "back into your Hand.",
    ),
    _rule("IN-DIVERSION", "Diversion", "Put back any dinosaur figure on an empty volcanic field."),
    _rule(
        "IN-INVENTORY",
        "Inventory",
        "Place any number of cards from your hand to your discard pile. Then draw one card more than the "
        "numbers of cards that you discarded.",
    ),
    _rule(
        "IN-WEAR",
        "Wear and tear",
        "Remove 1 card from your hand from play. You are allowed to remove action or dinosaur cards, but "
        "never the dinosaur egg card.",
    ),
    _rule(
        "IN-REPLENISH",
        "Replenishment",
        "Immediately draw as many cards from your Draw pile into hand, as indicated by this symbol.",
    ),
    _rule(
        "IN-CHANGE",
        "The necessary change",
        "On this turn you are allowed to use the amber action from your action cards in your hand to bring "
        "equipment boxes or camps to the game board.",
        "Box points made this way place boxes and set up camps (spent first there), but do not move boxes "
        "or stock up; option necessary_change=any lets them serve every box use.",
    ),
    _rule(
        "IN-IMPROVE",
        "Improvement",
        "Remove 1 of your played cards from the Game. ... but never the dinosaur egg card. ... For this you "
        "can take a new card that is up to 2 amber more expensive than the discarded card. Place the new "
        "card on your discard pile.",
        "Starting and dinosaur cards are worth 0 amber; the new card is the top card of a pile; the "
        "improvement card removes another played card (option improve_itself: itself too).",
    ),
    _rule(
        "IN-MOVE-CAMP",
        "Move camp",
        "Move one of your camps on the game board. You may move any of your camps that is on the game board, "
        "even when another camp is built over it. ... With this action you can also put one of your "
        "overbuilt camps on the top of the stack in the same field.",
    ),
    _rule(
        "IN-RED",
        "Red cards must be played",
        "When you have the red cards (the starting card Dinosaur Egg and the Dinosaur cards) in your hand, "
        "you must play them.",
        "Your turn cannot end while a red card is in your hand.",
    ),
    _rule(
        "IN-EGG",
        "Dinosaur egg",
        "When you play the dinosaur egg card, you take the top card from the face-down dinosaur pile and "
        "play it immediately (see below). Both cards, the dinosaur egg card and the just played dinosaur "
        "card are then discarded. ... Attention: You may never take your dinosaur egg card out of the game!",
        "The dinosaur card is discarded onto the player's own discard pile: it joins that player's deck.",
    ),
    _rule(
        "IN-DINO-MOVE",
        "Dinosaur movement",
        "You have to move this dinosaur by 1 – 3 spaces in a straight line. you always move the dinosaur "
        "downwards, i.e. away from the volcanic fields at the top of the island, towards the southern tip "
        "of the island. ... Note: You are not allowed during the dinosaur movement to skip occupied fields "
        "(with camps or equipment boxes). Note: Multiple dinosaur figures are allowed to stand on one "
        "field.",
        "Straight towards the southern tip is down the field's column. Figures may share a volcano too "
        "(a whisperer's move towards the volcanoes can end on a taken one).",
    ),
    _rule(
        "IN-DINO-END",
        "How a dinosaur move ends",
        "1. You stop the movement voluntarily. ... 2. The dinosaur reaches an occupied field (Equipment "
        "boxes and/or camp). ... If there are camps and equipment boxes on the field, you just remove the "
        "boxes. The camp remains intact. ... you only remove the top camp. Once you have removed boxes or a "
        "camp, you place the dinosaur figure back to an empty Volcanic field on top of the island. ... 3. "
        "The dinosaur reaches the edge of the island in the upper 3 areas. ... 4. The dinosaur will be over "
        "the edge of the playing field in the bottom Area. ... You place the figure back to an empty "
        "volcanic field. ... 5. The dinosaur has moved 3 spaces.",
        "The active player chooses the empty volcano. A move cannot go past an upper area's edge; leaving "
        "the island in the bottom area counts as the last step.",
    ),
    _rule(
        "IN-SCORING",
        "Trigger a scoring",
        "Immediately after you set up a camp, you trigger a scoring. You choose one of the 3 scoring "
        '(wertung) cards from the "aktiv" area on the board and immediately move your counting marker on '
        "the scoring track by the number of points indicated on that card. Move all scoring cards forward "
        "in the direction of the arrows to close the gap. Put the currently used scoring card at the bottom "
        "of the scoring card track.",
        "Slots 0-2 of the row are the active area; the used card goes to slot 4.",
    ),
    _rule(
        "IN-TOP-CAMP",
        "What counts for scoring",
        "For the scoring you just take note of your own. If there are several camps stacked in a field, only "
        "the camp on top counts for the scoring.",
        "Only the top camp of a stack counts; a field with your top camp scores the camp, not your boxes. "
        "The rulebook goes on: 'Attention: This rule does not apply in this variant \"Individual ratings\"'; "
        "the engine reads that as the automatic scoring on setting up a camp (as the Attention on setting up "
        "a camp says), so the top-camp rule holds there too; option individual_buried_camps reads it as this "
        "rule.",
    ),
    _rule(
        "IN-W-LANDSCAPE",
        "Scoring: landscape",
        "You get 2 points for each camp on the pictured field or 1 point for each of these spaces with one "
        "or more of your equipment boxes.",
        "The pictured field is a landscape; every field of that landscape counts.",
    ),
    _rule(
        "IN-W-ADJACENT",
        "Scoring: next to a landscape",
        "You get 2 points for each camp on a field adjacent to the depicted field or 1 point for each of "
        "these fields with one or more of your equipment boxes. ... The landscape of your field is "
        "irrelevant here.",
    ),
    _rule(
        "IN-W-VARIETY",
        "Scoring: different landscapes",
        "You get 3 points for each different landscape field (park, mountain, forest, plain, lake) on which "
        "you have at least 1 camp.",
    ),
    _rule(
        "IN-W-STACKS",
        "Scoring: stacks",
        "You get points for each of your camps, that is on top of a stack of 2 or 3 camps.",
        "Points per camp are the card's (data file).",
    ),
    _rule(
        "IN-W-CONNECTIONS",
        "Scoring: connections",
        "You get points for every connection between your own game pieces, i.e. camps and Equipment boxes. "
        "You count the borders between the fields, not your pieces. Example: between these 3 fields there "
        "are a total of 3 connections. Red gets 6 points.",
    ),
    _rule(
        "IN-W-COLUMNS",
        "Scoring: columns",
        "For each column in which you are represented by at least 1 camp, you get 3 points.",
    ),
    _rule(
        "IN-W-GROUPS",
        "Scoring: groups",
        "For each group of at least 2 directly neighboring camps you get 6 points. ... the groups are not "
        "allowed to touch each other or they count as one group.",
    ),
    _rule(
        "IN-W-RIVER",
        "Scoring: river",
        "For every camp that is adjacent to a river field you get 2 points.",
        "A camp counts when a neighbouring field is a river field.",
    ),
    _rule(
        "IN-W-FOREFRONT",
        "Scoring: forefront",
        "You get 3 points for a camp and 2 points for equipment boxes when they are at the forefront of the "
        "column in the direction to the volcanic fields.",
        "Per column, the occupied field nearest the volcanoes: 3 if your camp is on top there, else 2 if "
        "you have boxes there.",
    ),
    _rule(
        "IN-CLIENTS",
        "The Clients",
        "When you play a blue action card, instead of preforming one of the actions you are allowed to "
        "increase your influence with the client shown on your played card ... Moves 1 tile to the right "
        "and in return you immediately receive the reward shown on that tile. If you reach the last tile on "
        "an influence track, you immediately score 10 points and take the equipment box to your personal "
        "supply.",
        "Tracks: 3 A tiles, 2 B tiles, the client's finishing tile. A choice a reward asks for may be "
        "declined; 'Remove exactly 3' needs 3 removable cards; the return-and-draw whisperer draws only "
        "with a return.",
    ),
    _rule(
        "IN-INDIVIDUAL",
        "Individual ratings",
        "You don't trigger an automatic scoring when setting up a camp. ... Like action cards, you can now "
        "also buy each of the 5 face-up scoring cards. ... When you buy a scoring card, you immediately get "
        "the points. Then you put the Scoring card into your discard pile. ... At the end of your turn, "
        "place a new scoring card from the face-down pile on each empty scoring card space.",
        "Bought cards leave gaps; at the end of the turn the cards move forward (to the right: towards "
        "slot 0, the way the basic game closes its gaps) and new cards fill the empty slots at the back "
        "(left).",
    ),
    _rule(
        "IN-PHASE",
        "Finish what was started",
        "If you play an action card, you choose 1 of the possible actions that are on shown on the card.",
        "While a card's action waits for its choices (or a reveal), only those choices are legal.",
    ),
]

RULEBOOK = RuleBook(SOURCE, RULES)
