"""Counted nouns read right everywhere: one helper, and no "(s)" or "1 cards" left in the texts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engines.words import noun_for, plural

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("count", "noun", "said"),
    [
        (1, "card", "1 card"),
        (0, "card", "0 cards"),
        (3, "Day", "3 Days"),
        (2, "access", "2 accesses"),
        (1.5, "point", "1.5 points"),
        (2, "Globin", "2 Globin"),
        (2, "body", "2 bodies"),
        (2, "day", "2 days"),
        (-1, "point", "-1 point"),
    ],
)
def test_a_count_takes_the_noun_in_its_number(count: float, noun: str, said: str) -> None:
    assert plural(count, noun) == said


def test_an_irregular_plural_may_be_named() -> None:
    assert plural(2, "Master of Water", "Masters of Water") == "2 Masters of Water"
    assert noun_for(1, "Master of Water", "Masters of Water") == "Master of Water"


# A count in braces straight before a plural noun, or a "(s)": the shapes that read
# "1 cards" or "card(s)" once the count is 1.
COUNTED = re.compile(
    r"\{[^{}]+\} (cards|points|pts|tables|rounds|turns|moves|tokens|seats|days|Days|spheres)\b"
    r"|(card|token|table|Day|Block|turn|point|round|player|seat|move|spell)\(s\)"
)
# Not counts, or counts never 1: "Sphere 2 cards" (the cards of sphere 2), "no Ability cards",
# a deck's size limit, a count already told apart from one.
NAMING = ("Sphere {level} cards", "no {missing[0]} cards", "{MAX_CARDS} cards",
          "== 1 else f\"{len(drawn)} cards")


def test_no_text_counts_with_a_bare_plural() -> None:
    found = []
    for folder in ("engines", "bot/render", "bot/ui", "bot/announce.py", "bot/turn_notice.py", "bot/news.py"):
        path = ROOT / folder
        for file in [path] if path.is_file() else sorted(path.rglob("*.py")):
            if file.name == "words.py":
                continue
            for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
                if COUNTED.search(line) and not any(name in line for name in NAMING):
                    found.append(f"{file.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "counts that read wrong for one:\n" + "\n".join(found)
