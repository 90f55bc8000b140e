"""Menus through Discord: every option of the act panel and every /play
suggestion that makes a move names the whole move, within Discord's limits."""

from __future__ import annotations

from typing import Any

import pytest

from engines.core import Choice, Seat, seat_ref
from tests.e2e.harness import DiscordHarness
from tests.e2e.tables import BotMaker, button, select_options
from tests.support.minigame import HighCard, HighCardState, Play


class BowingHighCard(HighCard):
    """High Card where the best card may also be played with a bow: a group of
    one choice ("Play my best card") beside the "Play" group of several, whose
    label ("The 9, bowing…") is written to sit under its group, as "Cleansing
    Rain" sits under "Play ability" in Spheres of Life."""

    def legal_actions(self, state: HighCardState, seat: Seat) -> list[Choice]:
        choices = super().legal_actions(state, seat)
        if state.window or not choices:
            return choices
        best = max(state.hands[seat])
        others = [seat_ref((seat + n) % state.players) for n in (1, 2)]
        label = f"The {best}, bowing low to {others[0]} and {others[1]}"
        return [
            *choices,
            Choice(key="bow", label=label, steps=["Play my best card", "bow"], action=Play(card=best)),
        ]


@pytest.fixture
def games() -> dict[str, Any]:
    return {"high-card": BowingHighCard()}


async def test_a_one_choice_group_names_the_whole_move_within_the_option_limits(
    h: DiscordHarness, maker: BotMaker
) -> None:
    # Display names as long as Discord allows: the move's text outgrows an option label.
    users = [
        h.create_user(f"{name}-of-the-very-longest-name-{n}") for n, name in enumerate(("ann", "bob", "cid"))
    ]
    created = await h.slash(users[0], "table create", {"game": "high-card"})
    message = created.message
    assert message is not None
    for user in users[1:]:
        await h.click(user, message, button(message, "Join"))
    await h.click(users[0], message, button(message, "Start"))
    [table] = await maker.bot.service.store.in_channel(h.channel.id)
    best = max(maker.bot.service.view(table, users[0].id).hand)  # type: ignore[attr-defined]

    panel = (await h.click(users[0], message, button(message, "Act"))).message
    assert panel is not None
    options = [o for row in panel.components for item in row["components"] for o in item.get("options", [])]
    assert options[0]["label"] == "Play"  # a group of several cards opens a submenu
    [bow] = [o for o in options if o["label"].startswith("Play my best card")]
    whole = f"Play my best card: The {best}, bowing low to {users[1].name} and {users[2].name}"
    assert len(whole) > 100 and len(bow["label"]) == 100
    assert bow["label"][:-1] + bow["description"][1:] == whole  # label, then the rest below it

    suggested = await h.autocomplete(users[0], "play", "action", {"action": "bowing"})
    # The same words, clipped; the value carries the version the list was drawn at, as a button does.
    assert [(c["name"], c["value"]) for c in suggested] == [(bow["label"], f"bow@{table.version}")]

    custom_id, value = select_options(panel)[bow["label"]]
    played = await h.select(users[0], custom_id, [value], message=panel)  # one pick makes the move
    assert not played.failed
    record = await maker.bot.service.get(table.id)
    assert maker.bot.service.view(record, None).played[0] == [best]  # type: ignore[attr-defined]
