"""The text of the cards a public table names, as ``/card`` tells it to
anyone: the table page lists every card its panel names, so a watcher reads
what a card does without leaving the page. Only names the public panel shows
are looked up, and a deck's card text is public, so nothing hidden is told."""

from __future__ import annotations

import re
from collections.abc import Iterable

from engines.core import CardText


def named(cards: Iterable[CardText], texts: Iterable[str]) -> list[CardText]:
    """The cards of ``cards`` whose name appears in ``texts`` as a whole word, once
    each, in the order of the deck (the longest name wins where one holds another:
    "Deep Focus" is not also "Focus")."""
    said = "\n".join(texts)
    found: dict[str, CardText] = {}
    for card in cards:
        if card.name and card.name in said and card.name not in found:
            found[card.name] = card
    if not found:
        return []
    longest_first = sorted(found, key=len, reverse=True)
    pattern = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, longest_first)) + r")(?!\w)")
    seen = {match.group(1) for match in pattern.finditer(said)}
    return [card for name, card in found.items() if name in seen]
