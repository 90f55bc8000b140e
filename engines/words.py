"""Counted nouns in plain English: "1 card", "2 cards", never "1 cards" or "card(s)".

Engines and the bot both speak of counts (points, cards, tables, Days), so the
helper lives here, on the floor every layer may import.
"""

from __future__ import annotations

# Nouns whose plural is not the singular plus "s"; a game's own units (Hemo,
# Globin, Kè) are the same in both numbers.
IRREGULAR = {"Globin": "Globin", "Hemo": "Hemo", "Kè": "Kè", "Globin in tokens": "Globin in tokens"}


def plural_of(noun: str) -> str:
    if noun in IRREGULAR:
        return IRREGULAR[noun]
    if noun.endswith(("s", "x", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in tuple("aeiou"):
        return noun[:-1] + "ies"
    return noun + "s"


def noun_for(count: float, noun: str, many: str | None = None) -> str:
    """``noun`` for ``count`` of it, without the number: "card" for 1, "cards" else."""
    return noun if abs(count) == 1 else (many or plural_of(noun))


def plural(count: float, noun: str, many: str | None = None) -> str:
    """``count`` and its noun: ``plural(1, "card")`` is "1 card", ``plural(3, "Day")``
    "3 Days"; ``many`` names a plural no rule finds
    (``plural(2, "Master of Water", "Masters of Water")``)."""
    return f"{count:g} {noun_for(count, noun, many)}"


def and_list(parts: list[str]) -> str:
    """Items said as a list: "a", "a and b", "a, b and c"."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
