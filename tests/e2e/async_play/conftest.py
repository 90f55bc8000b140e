"""The games these tests' bot offers: the real ones and High Card, a quick game
whose every move is a card played."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from engines.registry import GAMES
from tests.support.minigame import HIGH_CARD


@pytest.fixture
def games() -> Mapping[str, Any]:
    return {**GAMES, "high-card": HIGH_CARD}
