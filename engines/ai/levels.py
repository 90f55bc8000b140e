"""How hard a bot plays: how many sampled games it searches, for how long at
most, and how far each quick simulated game runs before it is scored."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

LevelName = Literal["easy", "normal", "hard"]


@dataclass(frozen=True)
class Level:
    name: LevelName
    # Search iterations per decision. A count, not a clock, decides when the
    # search stops, so the same seed gives the same move on any machine...
    iterations: int
    # ...and the budget in milliseconds only cuts a search that runs late
    # (a slow machine, a huge table), so no decision ever takes much longer.
    budget_ms: float
    # Moves of a simulated game after the tree before the game's own
    # evaluation scores it (whole games are far too slow to play out).
    rollout_depth: int
    # UCB exploration constant.
    exploration: float = 0.7


LEVELS: dict[LevelName, Level] = {
    "easy": Level("easy", iterations=10, budget_ms=40, rollout_depth=0),
    # The budget leaves room under the 300 ms a decision may take at most: the
    # legal moves, the first sample and the last iteration come on top of it,
    # and a loaded machine stretches all three.
    "normal": Level("normal", iterations=80, budget_ms=150, rollout_depth=6),
    "hard": Level("hard", iterations=320, budget_ms=1500, rollout_depth=8),
}


def level_of(name: str | None) -> Level:
    """The level called ``name`` (``None`` or unknown: normal)."""
    return next((level for level in LEVELS.values() if level.name == name), LEVELS["normal"])
