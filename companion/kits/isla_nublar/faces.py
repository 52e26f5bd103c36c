"""A card's face as a small picture for the hand picker: its group's colour, its price, what it shows in
the rulebook's words, a red edge for a card that must be played. Plain SVG text: no web layer needed."""

from __future__ import annotations

from functools import lru_cache
from html import escape

from companion.i18n import language, lazy_pgettext, ngettext, pgettext
from companion.kits.isla_nublar.words import landscape_words, scoring_kind_words
from engines.isla_nublar.components import EGG, CardType, default_cards
from engines.isla_nublar.unseen import UNSEEN

#: (fill, ink) per card group, as the printed cards are coloured
GROUP_TONES = {
    "starting": ("#e8e2cf", "#3b3424"), "action": ("#cfe3f2", "#1d3a52"),
    "dinosaur": ("#d8ecd0", "#27452a"), "scoring": ("#efe0f5", "#47275a"), "egg": ("#fbecc8", "#5a3f0a"),
}
#: what the face shows, in a word or two per action (the card's title line)
ACTION_MARKS = {
    "amber": lazy_pgettext("isla-nublar", "{n} amber"), "replenish": lazy_pgettext("card", "draw {n}"),
    "defence": lazy_pgettext("card", "defence {n}"), "hideout": lazy_pgettext("isla-nublar", "hideout"),
    "diversion": lazy_pgettext("isla-nublar", "diversion"),
    "inventory": lazy_pgettext("isla-nublar", "inventory"),
    "wear": lazy_pgettext("isla-nublar", "wear"), "change": lazy_pgettext("isla-nublar", "change"),
    "improve": lazy_pgettext("isla-nublar", "improve"), "move_camp": lazy_pgettext("card", "move camp"),
    "egg": lazy_pgettext("card", "egg"),
}
WIDTH, HEIGHT = 64, 88


def _lines(card: CardType) -> list[str]:
    if card.card_id == EGG:
        return [pgettext("card", "dinosaur"), pgettext("card", "egg")]
    if card.group == "dinosaur":
        return (card.name or pgettext("card", "dinosaur")).split(" ", 1)
    if card.group == "scoring":
        kind = str(card.scoring.get("kind", "scoring"))
        return [scoring_kind_words(kind), landscape_words(str(card.scoring.get("landscape", "")))]
    return [_mark(do, n) for do, n in card.actions][:3]


def _mark(do: str, n: int) -> str:
    if do == "boxes":
        return ngettext("%(num)d box", "%(num)d boxes", n) % {"num": n}
    if do == "defence" and not n:
        return pgettext("isla-nublar", "defence")
    return str(ACTION_MARKS.get(do, do)).format(n=n)


def card_face_svg(card_id: str) -> str:
    """The face of ``card_id`` (or of a card nobody has seen: its back) as an inline SVG, in the reader's
    language."""
    return _card_face_svg(card_id, language())


@lru_cache(maxsize=256)
def _card_face_svg(card_id: str, spoken_in: str) -> str:
    card = default_cards().cards.get(card_id)
    if card is None:
        back = "#6d5a3a" if card_id == UNSEEN else "#999"
        return (f'<svg class="card-face" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
                f'aria-hidden="true"><rect x="1" y="1" width="{WIDTH - 2}" height="{HEIGHT - 2}" rx="5" '
                f'fill="{back}"/><text x="{WIDTH / 2}" y="{HEIGHT / 2 + 6}" font-size="24" fill="#fff" '
                'text-anchor="middle">?</text></svg>')
    fill, ink = GROUP_TONES["egg" if card.card_id == EGG else card.group]
    edge = "#c62828" if card.red else ink
    parts = [f'<svg class="card-face" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
             f'aria-hidden="true"><rect x="1.5" y="1.5" width="{WIDTH - 3}" height="{HEIGHT - 3}" rx="5" '
             f'fill="{fill}" stroke="{edge}" stroke-width="{3 if card.red else 1.5}"/>']
    if card.cost:
        parts.append(f'<circle cx="13" cy="13" r="10" fill="#f2b33d"/><text x="13" y="17.5" font-size="12" '
                     f'text-anchor="middle" fill="#3b2a05">{card.cost}</text>')
    for i, line in enumerate(_lines(card)):
        parts.append(f'<text x="{WIDTH / 2}" y="{42 + 14 * i}" font-size="12" text-anchor="middle" '
                     f'fill="{ink}">{escape(line[:9])}</text>')
    parts.append("</svg>")
    return "".join(parts)
