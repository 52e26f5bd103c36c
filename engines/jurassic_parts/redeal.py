"""What one player cannot see, dealt again: the others' concealed fossil tiles (every kind but the
Plants and Pterodactyls they keep face up), the fossils still face down on the slab, and the others'
resource cards not yet shown. Each holding keeps its size; what the table shows stays as it is.

A Pile of Bones committed as a part was committed in the open, so it stays where it is; the tiles gone
from the slab keep their recorded fossil, which nothing reads once they are gone."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from engines.core.dealing import counted, deal, deal_list, pooled
from engines.jurassic_parts.components import COMMITTED, PLANT, PTERO, RESOURCE_CARDS

if TYPE_CHECKING:
    from engines.jurassic_parts.state import JurassicPartsState


def _concealed(kind: int) -> bool:
    return kind < COMMITTED and kind not in (PLANT, PTERO)


def resample(state: JurassicPartsState, player: str, rng: random.Random) -> JurassicPartsState:
    new = state.clone()
    me = state.names.index(player)
    others = [q for q in range(len(state.names)) if q != me]
    _redeal_tiles(state, new, others, rng)
    _redeal_cards(state, new, me, others, rng)
    return new


def _redeal_tiles(state: JurassicPartsState, new: JurassicPartsState, others: list[int],
                  rng: random.Random) -> None:
    held = [{k: n for k, n in enumerate(state.loose[q]) if n and _concealed(k)} for q in others]
    pool = pooled(dict(enumerate(state.unseen())), *held)
    for q, holding in zip(others, held):
        dealt = deal(pool, sum(holding.values()), rng, _concealed)
        new.loose[q] = tuple(dealt.get(k, 0) if _concealed(k) else n for k, n in enumerate(state.loose[q]))


def _redeal_cards(state: JurassicPartsState, new: JurassicPartsState, me: int, others: list[int],
                  rng: random.Random) -> None:
    if not any(len(state.cards[q]) > len(state.revealed_cards[q]) for q in others):
        return
    shown = {card for q in others for card in state.revealed_cards[q]} | set(state.cards[me])
    hidden = [[card for card in state.cards[q] if card not in state.revealed_cards[q]] for q in others]
    deck = {card.card_id for card in RESOURCE_CARDS}
    # the box's cards nobody has shown, and any card of another edition a player was dealt by hand
    pool = pooled(counted(card for card in sorted(deck - shown)),
                  *(counted(card for card in cards if card not in deck) for cards in hidden))
    for q, cards in zip(others, hidden):
        new.cards[q] = (*state.revealed_cards[q], *deal_list(pool, len(cards), rng))
