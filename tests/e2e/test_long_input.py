"""Whatever a user types, the answer fits in one Discord message (2,000 characters): a reply that
echoes a long value is clipped, never refused by Discord."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.harness import DiscordHarness

LONG = "x" * 2500
CASES = {
    "game": ("table create", {"game": LONG}),
    "variant": ("table create", {"game": "spheres-of-life", "variant": LONG}),
    "table to join": ("table join", {"table": LONG}),
    "table to play at": ("play", {"action": "a", "table": LONG}),
    "table of a hand": ("hand", {"table": LONG}),
}


@pytest.mark.parametrize(("command", "options"), CASES.values(), ids=CASES.keys())
async def test_a_long_value_gets_a_short_answer(
    h: DiscordHarness, command: str, options: dict[str, Any]
) -> None:
    answer = await h.slash(h.create_user("ann"), command, options)
    assert answer.ephemeral and 0 < len(answer.content or "") <= 2000
