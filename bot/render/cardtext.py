"""Card text where a player decides: select descriptions, the "Card text" view
of the act panel, and ``/card``.

:func:`card_picture` is where a card face picture attaches once a game has a
picture renderer; until then every card shows as text only.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.render.base import Panel
from bot.render.menu import MenuOption, narrow
from bot.render.pictures import card_face_png
from engines.core import CardText, Choice


def card_picture(game: str, card: CardText) -> bytes | None:
    """A PNG of ``card``'s face, or None when ``game`` has no picture renderer.
    The one place a card picture attaches to ``/card``."""
    return card_face_png(game, card)


def option_details(choices: list[Choice], path: list[int], options: Sequence[MenuOption]) -> dict[int, str]:
    """The card text for each menu option, unless every option here shares it
    (:func:`shared_detail` says it once, above them): a choice's own, or, for a step
    naming a card on the way to its target ("Wildfire" before "Past"), the text all
    choices under it share. A first step that is a verb ("Forced Gift", "Play Hero")
    gets none: the text of the one card it leads to would read as the verb's own."""
    shared = shared_detail(choices, path, options)
    details: dict[int, str] = {}
    for option in options:
        if option.choice is not None:
            text = option.choice.detail
        else:
            under = {c.detail for c in narrow(choices, [*path, option.index])}
            text = under.pop() if len(under) == 1 else ""
            if not path and not _names_its_card(option.label, text):
                text = ""
        if text and text != shared:
            details[option.index] = text
    return details


def _names_its_card(label: str, text: str) -> bool:
    """Whether a first step's label names the card whose text this is ("Send Healer"
    over "Healer (good, cost 1, 0/3) · …"), rather than being a verb alone."""
    _, _, named = label.partition(" ")
    return bool(named) and named.lower() in text.lower()


def shared_detail(choices: list[Choice], path: list[int], options: Sequence[MenuOption]) -> str:
    """The card text every choice at this menu level shares (the card whose target
    is chosen here), or "": said once for the whole menu, not under its first option."""
    if len(options) < 2:
        return ""
    under = {c.detail for c in narrow(choices, path)}
    return under.pop() if len(under) == 1 else ""


def choice_texts(choices: list[Choice]) -> list[tuple[str, str]]:
    """(what, text) for every distinct card the choices name, in menu order."""
    seen: dict[str, str] = {}  # text → the first label that names it
    for choice in choices:
        if choice.detail:
            seen.setdefault(choice.detail, choice.label)
    return [(label, text) for text, label in seen.items()]


def choices_panel(choices: list[Choice]) -> Panel:
    panel = Panel(title="Card text")
    texts = choice_texts(choices)
    for what, text in texts[:25]:
        panel.add(what, text, inline=False)
    if not texts:
        panel.description = "None of your moves here names a card."
    return panel


def card_panel(card: CardText, deck: str) -> Panel:
    panel = Panel(title=card.name, description=card.text)
    panel.add("Type", card.kind)
    for name, value in card.facts.items():
        panel.add(name.capitalize(), value)
    panel.footer = f"{deck} · only you can see this"
    return panel


def find_card(cards: list[CardText], typed: str) -> CardText | None:
    """The card a ``/card name:`` value means: its key (from autocomplete), its
    exact name, or the one card whose name contains what was typed."""
    wanted = typed.strip().lower()
    for card in cards:
        if card.key.lower() == wanted or card.name.lower() == wanted:
            return card
    matches = [c for c in cards if wanted and wanted in c.name.lower()]
    return matches[0] if len(matches) == 1 else None
