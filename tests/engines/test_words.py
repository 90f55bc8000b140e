"""Counted nouns read right everywhere: one helper, and no "(s)" or "1 cards" left in the texts."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from engines.registry import get_engine
from engines.words import and_list, noun_for, plural

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


def test_items_are_said_as_an_english_list() -> None:
    assert [and_list(items) for items in (["a"], ["a", "b"], ["a", "b", "c"])] == [
        "a",
        "a and b",
        "a, b and c",
    ]


def test_an_irregular_plural_may_be_named() -> None:
    assert plural(2, "Master of Water", "Masters of Water") == "2 Masters of Water"
    assert noun_for(1, "Master of Water", "Masters of Water") == "Master of Water"


# A count in braces straight before a plural noun, or a "(s)": the shapes that read
# "1 cards" or "card(s)" once the count is 1.
COUNTED = re.compile(
    r"\{[^{}]+\} (cards|points|pts|tables|rounds|turns|moves|tokens|seats|days|Days|spheres|lines)\b"
    r"|(card|token|table|Day|Block|turn|point|round|player|seat|move|spell)\(s\)"
)
# Not counts, or counts never 1: "Sphere 2 cards" (the cards of sphere 2), "no Ability cards",
# a deck's size limit, a count already told apart from one.
NAMING = (
    "Sphere {level} cards",
    "no {missing[0]} cards",
    "{MAX_CARDS} cards",
    '== 1 else f"{len(drawn)} cards',
    "{n} days a move",
)


def test_no_text_counts_with_a_bare_plural() -> None:
    found = []
    for folder in (
        "engines",
        "bot/render",
        "bot/app/ui",
        "bot/app/announce.py",
        "bot/app/turn_notice.py",
        "bot/service/news.py",
        "bot/service/catch_up.py",
        "bot/app/cogs",
    ):
        path = ROOT / folder
        for file in [path] if path.is_file() else sorted(path.rglob("*.py")):
            if file.name == "words.py":
                continue
            for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
                if COUNTED.search(line) and not any(name in line for name in NAMING):
                    found.append(f"{file.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "counts that read wrong for one:\n" + "\n".join(found)


LONE = {"pass", "roll", "end-turn"}  # the keys of a move that may be the only one left


def _labels_along(game: str, players: int, seed: int, moves: int) -> list[tuple[str, list[str]]]:
    """(prompt's key set, labels) for each seat that may act, along a seeded random game."""
    engine = get_engine(game)
    rng = random.Random(seed)
    state = engine.setup(players, engine.parse_options(), seed)
    seen = []
    for _ in range(moves):
        if engine.result(state) is not None:
            break
        movers = sorted({p.seat for p in engine.prompts(state)})
        for seat in movers:
            choices = engine.legal_actions(state, seat)
            seen.append(([c.key for c in choices], [c.label for c in choices]))
        seat, choices = rng.choice([(s, c) for s in movers if (c := engine.legal_actions(state, s))])
        state = engine.apply(state, seat, rng.choice(choices).action).state
    return seen


@pytest.mark.parametrize(
    ("game", "players"),
    [
        ("spheres-of-life", 3),
        ("scales-of-influence", 4),
        ("time-masters", 3),
        ("once-upon-a-time-life", 3),
        ("phase", 2),
    ],
)
def test_a_lone_move_says_why_and_no_label_ends_on_a_colon(game: str, players: int) -> None:
    lone = 0
    for keys, labels in _labels_along(game, players, 1, 300):
        assert not any(label.rstrip().endswith(":") or len(label) > 80 for label in labels), labels
        if keys == [next(iter(LONE & set(keys)), "")]:
            lone += 1
            assert "(" in labels[0] or ": " in labels[0], f"a lone move that does not say why: {labels[0]}"
        for label in labels:
            if label.startswith("Done discarding"):
                assert re.fullmatch(r"Done discarding \((1 card|\d+ cards) discarded\)", label), label
    assert lone, "the game never came to a lone move"
