"""Legal choices as a walk through successive menus.

Each :class:`~engines.core.Choice` has a path of ``steps`` ("Steal", "<seat:2>",
"Card 3"). A menu level lists the distinct next steps among the choices that
match the path chosen so far, in the order the engine gave them. A step that
leads to a single choice is that choice: its option names the whole move ("Bank
a set of Foxes", "Play ability: Cleansing Rain"), never just the group's name,
and picking it makes the move. A path is kept as option indexes ("0.2"), short
enough to ride in a custom_id, and is re-derived from the same table version,
so it always means the same thing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engines.core import Choice


@dataclass(frozen=True)
class MenuOption:
    index: int
    label: str  # the whole move when ``choice`` is set, else the step's name
    choice: Choice | None  # set when picking this option completes a choice


def whole_move(choice: Choice) -> str:
    """The choice's label, led by its group (its first step) when the label
    leaves out the group's verb: a label written to sit under its group
    ("Cleansing Rain" under "Play ability") must still say what it does when
    shown on its own, while "Choose Druid" under "Choose a Hero" already does."""
    group = choice.steps[0] if choice.steps else choice.label
    verb = re.match(r"\W*(\w*)", group)
    if verb is None or re.search(rf"\b{re.escape(verb.group(1))}\b", choice.label, re.IGNORECASE):
        return choice.label
    return f"{group} — {choice.label}" if ":" in group else f"{group}: {choice.label}"


def parse_path(path: str) -> list[int]:
    return [int(part) for part in path.split(".") if part != ""]


def format_path(path: list[int]) -> str:
    return ".".join(str(p) for p in path)


def narrow(choices: list[Choice], path: list[int]) -> list[Choice]:
    """The choices still reachable after following ``path``; ``[]`` if it leads nowhere."""
    remaining = choices
    for depth, index in enumerate(path):
        labels = _distinct(remaining, depth)
        if not 0 <= index < len(labels):
            return []
        remaining = [c for c in remaining if _step(c, depth) == labels[index]]
    return remaining


def level(choices: list[Choice], path: list[int]) -> list[MenuOption]:
    """The options one level below ``path``."""
    remaining = narrow(choices, path)
    depth = len(path)
    options = []
    for index, label in enumerate(_distinct(remaining, depth)):
        matching = [c for c in remaining if _step(c, depth) == label]
        if len(matching) == 1:
            options.append(MenuOption(index=index, label=whole_move(matching[0]), choice=matching[0]))
        else:
            options.append(MenuOption(index=index, label=label, choice=None))
    return options


def _step(choice: Choice, depth: int) -> str:
    steps = choice.steps or [choice.label]
    return steps[depth] if depth < len(steps) else choice.label


def _distinct(choices: list[Choice], depth: int) -> list[str]:
    return list(dict.fromkeys(_step(c, depth) for c in choices))
