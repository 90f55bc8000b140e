"""Ability cards, Heroes, Block windows and hand order."""

from __future__ import annotations

import pytest

from engines.core import IllegalAction
from engines.spheres_of_life import ENGINE
from engines.spheres_of_life.phases import start_day
from tests.engines.test_spheres_of_life_helpers import (
    act,
    act_unblocked,
    fresh,
    give,
    keep_in_deck,
    keys,
    to_dream,
)


def _window_passes(state, *seats):  # type: ignore[no-untyped-def]
    for seat in seats:
        state = act(state, seat, "pass")[0]
    return state


def test_block_of_ones_own_ability_cancels_it() -> None:
    state = to_dream(fresh(2))
    dew, apple = give(state, 0, "morning-dew", "apple-of-life")
    deck = len(state.deck)
    state = act(state, 0, f"play:{dew}:me")[0]
    assert sorted(p.seat for p in ENGINE.prompts(state)) == [0, 1]
    assert all(p.kind == "response" for p in ENGINE.prompts(state))
    state, _events = act(state, 0, f"block:{apple}")
    state = _window_passes(state, 1, 0)
    assert len(state.deck) == deck and state.hands[0] == []
    assert {dew, apple} <= set(state.discard)
    assert ENGINE.prompts(state)[0].seat == 0 and ENGINE.prompts(state)[0].kind == "turn"


def test_a_block_can_itself_be_blocked() -> None:
    state = to_dream(fresh(3))
    (dew,) = give(state, 0, "morning-dew")
    (apple1,) = give(state, 1, "apple-of-life")
    (apple2,) = give(state, 2, "apple-of-life")
    state = act(state, 0, f"play:{dew}:me")[0]
    state = act(state, 1, f"block:{apple1}")[0]
    assert sorted(state.pending.window) == [0, 1, 2] if state.pending else False
    state = act(state, 2, f"block:{apple2}")[0]
    state = _window_passes(state, 0, 1, 2)
    assert len(state.hands[0]) == 2, "the Block was blocked: Morning Dew draws two"


def test_every_seat_gets_the_block_window_whatever_it_holds() -> None:
    state = to_dream(fresh(3))
    (dew,) = give(state, 0, "morning-dew")
    state = act(state, 0, f"play:{dew}:me")[0]
    assert {p.seat for p in ENGINE.prompts(state)} == {0, 1, 2}
    assert keys(state, 1) == ["pass"]


def test_while_an_ability_resolves_nobody_else_may_act() -> None:
    state = to_dream(fresh(3))
    (cherry,) = give(state, 1, "blessed-cherry")
    give(state, 2, "noble-rabbit", "corrupted-snake", "noble-deer")
    state = act(state, 1, f"play:{cherry}:2")[0]
    state = _window_passes(state, 0, 1, 2)
    prompts = ENGINE.prompts(state)
    assert [(p.seat, p.kind) for p in prompts] == [(1, "turn")]
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, {"type": "steal", "target": 2})


def test_blessed_cherry_looks_at_two_cards_privately_and_puts_them_back_in_a_chosen_order() -> None:
    state = to_dream(fresh(3))
    (cherry,) = give(state, 1, "blessed-cherry")
    rabbit, snake, deer = give(state, 2, "noble-rabbit", "corrupted-snake", "noble-deer")
    state = act(state, 1, f"play:{cherry}:2")[0]
    state = _window_passes(state, 0, 1, 2)
    state = act(state, 1, "peek:1")[0]
    state, events = act(state, 1, "peek:3")
    told = [e for e in events if "Noble Rabbit" in e.text]
    assert told and all(e.to == [1] for e in told), "only the player of Blessed Cherry sees the cards"
    assert ENGINE.view(state, 1).looking_at is not None
    assert ENGINE.view(state, 0).looking_at is None and ENGINE.view(state, 2).looking_at is None
    state = act(state, 1, f"place:{deer}")[0]
    assert state.hands[2] == [deer, snake, rabbit] and state.pending is None


def test_abilities_only_in_a_dream_but_heroes_at_any_time() -> None:
    state = fresh(2)
    give(state, 0, "morning-dew", "noble-owl")
    (druid,) = give(state, 0, "druid")
    give(state, 1, "noble-rabbit", "corrupted-snake", "noble-bear")
    start_day(state)
    offered = keys(state, 0)
    assert not any(k.startswith(f"play:{state.hands[0][0]}") for k in offered)
    assert f"play:{druid}:1" in offered
    state = act(state, 0, f"play:{druid}:1")[0]
    assert state.pending is not None and not state.pending.window, "no Block window outside a Dream"
    take = next(k for k in keys(state, 0) if k.startswith("take:"))
    state = act(state, 0, take)[0]
    state = act(state, 0, "done")[0]
    state = act(state, 0, "done")[0]  # keep the rest as it is
    assert state.locked[1] and not any(k.startswith("reorder:") for k in keys(state, 1))
    with pytest.raises(IllegalAction, match="locked"):
        ENGINE.apply(state, 1, {"type": "reorder", "position": 1})
    assert druid in state.heroes_used[0]
    assert not any(k.startswith("play:") for k in keys(state, 0)), "a Hero is used once per game"


def test_reordering_ones_hand_is_an_anytime_move() -> None:
    state = to_dream(fresh(3))
    a, b = give(state, 2, "noble-rabbit", "noble-deer")
    assert any(p.seat == 2 and p.kind == "anytime" for p in ENGINE.prompts(state))
    state = act(state, 2, "reorder:1")[0]
    assert state.hands[2] == [b, a]


def test_abilities_that_make_no_sense_are_not_offered() -> None:
    state = to_dream(fresh(2))
    dew, ash = give(state, 0, "morning-dew", "phoenix-ash")
    keep_in_deck(state, 0)
    state.discard = []
    state.hero_pool += []
    offered = keys(state, 0)
    assert f"play:{dew}:me" not in offered and f"play:{ash}:me" not in offered


def test_another_player_excludes_oneself_and_any_player_includes_oneself() -> None:
    state = to_dream(fresh(2))
    cherry, sleep = give(state, 0, "blessed-cherry", "deep-sleep")
    give(state, 1, "noble-rabbit", "noble-owl")
    offered = keys(state, 0)
    assert f"play:{cherry}:1" in offered and f"play:{cherry}:0" not in offered
    assert f"play:{sleep}:0" in offered and f"play:{sleep}:1" in offered


def test_thorn_hedge_and_closed_door_protect_until_the_dream_ends() -> None:
    state = to_dream(fresh(2), leader=1)
    hedge, door = give(state, 0, "thorn-hedge", "closed-door")
    give(state, 1, "noble-rabbit")
    for card in (hedge, door):
        state = act(state, 0, f"play:{card}:me")[0]
        state = _window_passes(state, 0, 1)
    assert keys(state, 1)[0] == "offer:" + str(state.hands[1][0]) or not any(
        k.startswith(("steal:", "gift:")) for k in keys(state, 1)
    )
    with pytest.raises(IllegalAction, match="Forced Gifts"):
        ENGINE.apply(state, 1, {"type": "gift", "card": state.hands[1][0], "target": 0})


def test_deep_sleep_skips_and_whirlwind_reverses_the_order() -> None:
    state = to_dream(fresh(4))
    sleep, wind = give(state, 0, "deep-sleep", "whirlwind")
    state = act(state, 0, f"play:{wind}:me")[0]
    state = _window_passes(state, 0, 1, 2, 3)
    assert state.dream is not None and state.dream.to_act == [0, 3, 2, 1]
    state = act(state, 0, f"play:{sleep}:3")[0]
    state = _window_passes(state, 0, 1, 2, 3)
    assert state.dream is not None and state.dream.to_act == [0, 2, 1]


def test_echo_of_dreams_restarts_the_dream_from_the_phase_card_holder() -> None:
    state = to_dream(fresh(2), leader=0)
    (rabbit,) = give(state, 0, "noble-rabbit")
    echo, _ = give(state, 1, "echo-of-dreams", "noble-owl")
    state = act_unblocked(state, 0, f"gift:{rabbit}:1")[0]
    state = act(state, 1, f"play:{echo}:me")[0]
    state = _window_passes(state, 0, 1)
    assert state.dream is not None and state.dream.to_act == [0, 1]


def test_mirror_lake_swaps_hands_and_tells_each_privately() -> None:
    state = to_dream(fresh(2))
    (mirror,) = give(state, 0, "mirror-lake")
    rabbit, owl = give(state, 1, "noble-rabbit", "noble-owl")
    state = act(state, 0, f"play:{mirror}:1")[0]
    state, events = act(state, 1, "pass")
    state, events = act(state, 0, "pass")
    assert state.hands[0] == [rabbit, owl] and state.hands[1] == []
    assert all("Noble Rabbit" not in e.text for e in events if e.to is None)


def test_windmaster_is_never_played() -> None:
    state = to_dream(fresh(2))
    (wind,) = give(state, 0, "windmaster")
    assert not any(k.startswith(f"play:{wind}") for k in keys(state, 0))


def test_oracle_draws_then_discards_up_to_two() -> None:
    state = to_dream(fresh(2))
    (oracle,) = give(state, 0, "oracle")
    state = act(state, 0, f"play:{oracle}:me")[0]
    state = _window_passes(state, 0, 1)
    assert len(state.hands[0]) == 2
    discard = next(k for k in keys(state, 0) if k.startswith("discard:"))
    state = act(state, 0, discard)[0]
    state = act(state, 0, "done")[0]
    assert len(state.hands[0]) == 1 and state.pending is None


def test_shadow_paw_shows_the_hand_only_to_its_player_and_takes_one() -> None:
    state = to_dream(fresh(3))
    (paw,) = give(state, 0, "shadow-paw")
    rabbit, snake = give(state, 1, "noble-rabbit", "corrupted-snake")
    state = act(state, 0, f"play:{paw}:1")[0]
    state, events = act(state, 0, "pass")
    state, events = act(state, 1, "pass")
    state, events = act(state, 2, "pass")
    shown = [e for e in events if "Noble Rabbit" in e.text]
    assert shown and all(e.to == [0] for e in shown)
    state, events = act(state, 0, f"take:{rabbit}")
    assert state.hands[0] == [rabbit] and state.hands[1] == [snake] and state.pending is None
    assert all("Rabbit" not in e.text for e in events if e.to is None)


def test_guardian_shields_against_steal_and_gift_until_the_dream_ends() -> None:
    state = to_dream(fresh(2), leader=1)
    (guardian,) = give(state, 0, "guardian")
    give(state, 0, "noble-owl")
    give(state, 1, "noble-rabbit")
    state = act(state, 0, f"play:{guardian}:me")[0]
    state = _window_passes(state, 0, 1)
    assert state.dream is not None and state.dream.steal_shield == [0] and state.dream.gift_shield == [0]
    assert all(k.startswith("offer:") for k in keys(state, 1) if not k.startswith(("reorder", "play")))


def test_phoenix_ash_takes_the_top_of_the_discard_pile() -> None:
    state = to_dream(fresh(2))
    (ash,) = give(state, 0, "phoenix-ash")
    top = state.deck.pop()
    state.discard.append(top)
    state = act(state, 0, f"play:{ash}:me")[0]
    state = _window_passes(state, 0, 1)
    assert state.hands[0] == [top] and ash in state.discard


def test_heroes_cannot_be_played_while_a_window_is_open() -> None:
    state = to_dream(fresh(2))
    (dew,) = give(state, 0, "morning-dew")
    (trick,) = give(state, 1, "trickster")
    state = act(state, 0, f"play:{dew}:me")[0]
    assert keys(state, 1) == ["pass"]
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, {"type": "play", "card": trick, "target": 0})
