"""Day, Night and Dream as the rulebook describes them, and the end of the deck."""

from __future__ import annotations

from engines.core import IllegalAction
from engines.spheres_of_life import ENGINE
from engines.spheres_of_life.phases import start_day, start_night
from tests.engines.test_spheres_of_life_helpers import (
    act,
    act_unblocked,
    card_of,
    fresh,
    give,
    keep_in_deck,
    keys,
    to_dream,
)


def _pick_first(state, seat):  # type: ignore[no-untyped-def]
    pick = next(k for k in keys(state, seat) if k.startswith("pick:"))
    return act(state, seat, pick)[0]


def test_day_lays_one_card_per_player_then_each_picks_in_order_and_draws() -> None:
    state = fresh(3)
    state.leader = 1
    start_day(state)
    assert len(state.table) == 3 and ENGINE.prompts(state)[0].seat == 1
    deck_before = len(state.deck)
    for seat in (1, 2, 0):
        assert [p.seat for p in ENGINE.prompts(state) if p.kind == "turn"] == [seat]
        state = _pick_first(state, seat)
    # the draws happen by themselves once everyone has picked
    assert [len(h) for h in state.hands] == [2, 2, 2]
    assert state.stage == "night" and state.leader == 2
    assert len(state.deck) == deck_before - 3 - 6  # three drawn, six laid for the Night


def test_day_with_fewer_cards_than_players_is_the_last_and_the_last_player_gets_none() -> None:
    state = fresh(4)
    keep_in_deck(state, 3)
    start_day(state)
    assert len(state.table) == 3 and not state.deck
    for seat in (0, 1, 2):
        state = _pick_first(state, seat)
    assert [len(h) for h in state.hands] == [1, 1, 1, 0]
    assert state.stage == "dream" and state.dream is not None and state.dream.last


def test_night_discard_up_to_two_then_pick_as_many_and_leftovers_are_discarded() -> None:
    state = fresh(2)
    rabbit, snake, rat = give(state, 0, "noble-rabbit", "corrupted-snake", "corrupted-rat")
    start_night(state)
    assert len(state.table) == 4
    state, events = act(state, 0, f"discard:{snake}")
    assert any("discards Corrupted Snake" in e.text and e.to is None for e in events)
    state = act(state, 0, f"discard:{rat}")[0]
    assert not any(k.startswith("discard:") for k in keys(state, 0)), "at most two discards"
    assert "done" in keys(state, 0), "after two discards the picking begins by itself"
    state = _pick_first(state, 0)
    state = _pick_first(state, 0)
    assert len(state.hands[0]) == 3 and rabbit in state.hands[0]
    # picking two ended the turn; seat 1 holds nothing, so its Night turn passes by itself
    assert state.stage == "dream"
    assert len(state.discard) >= 4  # the two discards and the two leftovers


def test_night_picks_are_optional_and_leftovers_are_discarded() -> None:
    state = fresh(2)
    give(state, 0, "noble-rabbit", "corrupted-snake")
    snake = state.hands[0][1]
    keep_in_deck(state, 1)
    start_night(state)
    (left,) = state.table
    state = act(state, 0, f"discard:{snake}")[0]
    state = act(state, 0, "done")[0]
    state = act(state, 0, "done")[0]  # stops picking though one card could be picked
    assert left in state.discard and not state.table
    assert state.stage == "dream" and state.dream is not None and state.dream.last


def test_night_with_an_empty_table_allows_discarding_but_no_pick() -> None:
    state = fresh(2)
    give(state, 0, "corrupted-snake")
    give(state, 1, "corrupted-rat")
    keep_in_deck(state, 1)
    start_night(state)
    state = act(state, 0, f"discard:{state.hands[0][0]}")[0]  # an empty hand ends the discarding
    state = act(state, 0, f"pick:{state.table[0]}")[0]
    assert not state.table and ENGINE.prompts(state)[0].seat == 1
    rat = state.hands[1][0]
    state = act(state, 1, f"discard:{rat}")[0]
    assert rat in state.discard and state.stage == "dream", "nothing to pick: the turn ends"


def test_dream_steal_takes_one_random_card_and_is_told_privately() -> None:
    """ "Steal. Take one random card from another player": the thief chooses the player, never
    the card, so the card a player just picked in public is not there for the taking."""
    stolen = set()
    for seed in range(12):
        state = to_dream(fresh(3, seed=seed))
        hand = give(state, 1, "noble-deer", "corrupted-snake", "noble-owl")
        assert [k for k in keys(state, 0) if k.startswith("steal:")] == ["steal:1"]
        state, events = act_unblocked(state, 0, "steal:1")
        (card,) = state.hands[0]
        assert card in hand and sorted(state.hands[1] + [card]) == sorted(hand)
        stolen.add(card)
        public = [e for e in events if e.to is None]
        assert public and all(state.name(card) not in e.text for e in public)
        assert any(state.name(card) in e.text and sorted(e.to or []) == [0, 1] for e in events)
        assert state.dream is not None and state.dream.to_act == [1, 2]
    assert len(stolen) == 3, "the seeded draw reaches every card"


def test_forced_gift_cannot_be_refused_and_heroes_cannot_be_given() -> None:
    state = to_dream(fresh(3))
    give(state, 0, "druid")
    (snake,) = give(state, 0, "corrupted-snake")
    hero = str(state.heroes[0][0])
    assert not any(k.startswith("gift:") and k.split(":")[1] == hero for k in keys(state, 0))
    state = act_unblocked(state, 0, f"gift:{snake}:2")[0]
    assert state.hands[2] == [snake]


def test_exchange_accepted_by_a_holder() -> None:
    state = to_dream(fresh(3))
    (rabbit,) = give(state, 0, "noble-rabbit")
    (deer,) = give(state, 2, "noble-deer")
    state = act(state, 0, f"offer:{rabbit}")[0]
    state, _events = act(state, 0, "want:noble-deer")
    prompts = ENGINE.prompts(state)
    assert sorted(p.seat for p in prompts) == [1, 2] and all(p.kind == "response" for p in prompts)
    assert keys(state, 1) == ["decline"] and keys(state, 2) == ["accept", "decline"]
    state = act_unblocked(state, 2, "accept")[0]
    assert state.hands[0] == [deer] and state.hands[2] == [rabbit]
    assert state.dream is not None and state.dream.to_act == [1, 2]


def test_exchange_refused_by_all_forces_a_steal_or_a_gift() -> None:
    state = to_dream(fresh(3))
    (rabbit,) = give(state, 0, "noble-rabbit")
    give(state, 1, "noble-owl")
    state = act(state, 0, f"offer:{rabbit}")[0]
    state = act(state, 0, "want:noble-deer")[0]
    state = act(state, 1, "decline")[0]
    state = act(state, 2, "decline")[0]
    forced = keys(state, 0)
    assert forced and all(k.startswith(("steal:", "gift:")) for k in forced)
    assert [p.kind for p in ENGINE.prompts(state)] == ["turn"], "no Ability while the Action goes on"
    with_ids = ENGINE.legal_actions(state, 0)
    assert {c.steps[0] for c in with_ids} == {"Steal", "Forced Gift"}


def test_bank_one_set_per_dream_as_a_bonus_before_the_action() -> None:
    state = to_dream(fresh(2))
    give(state, 0, *["noble-rabbit"] * 3, *["corrupted-snake"] * 3, "noble-deer")
    assert {"bank:noble-rabbit", "bank:corrupted-snake"} <= set(keys(state, 0))
    state = act(state, 0, "bank:noble-rabbit")[0]
    assert len(state.banked[0]) == 3 and not any(k.startswith("bank:") for k in keys(state, 0))
    with_error = ENGINE.parse_action({"type": "bank", "animal": "corrupted-snake"})
    try:
        ENGINE.apply(state, 0, with_error)
    except IllegalAction as error:
        assert "one set per Dream" in error.reason
    else:
        raise AssertionError("a second bank in one Dream was accepted")
    assert ENGINE.prompts(state)[0].seat == 0, "banking is not the Action"


def test_banked_cards_cannot_be_stolen() -> None:
    state = to_dream(fresh(2), leader=1)
    give(state, 0, *["noble-rabbit"] * 3)
    state.banked[0], state.hands[0] = state.hands[0], []
    assert keys(state, 1) == ["pass"] or not any(k.startswith("steal:") for k in keys(state, 1))


def test_after_each_phase_the_next_player_clockwise_begins() -> None:
    state = to_dream(fresh(3), leader=2)
    give(state, 0, "noble-rabbit")
    give(state, 1, "noble-deer")
    give(state, 2, "noble-owl")
    for seat in (2, 0, 1):
        target = (seat + 1) % 3
        state = act_unblocked(state, seat, f"steal:{target}")[0]
    assert state.stage == "day" and state.leader == 0


def test_last_dream_comes_after_a_dream_that_empties_the_deck() -> None:
    state = to_dream(fresh(2))
    give(state, 0, "morning-dew", "noble-rabbit")
    give(state, 1, "noble-deer")
    keep_in_deck(state, 1)
    dew = state.hands[0][0]
    state = act(state, 0, f"play:{dew}:me")[0]
    assert state.pending is None, "every Apple of Life is face up: no Block window"
    assert not state.deck
    state = act_unblocked(state, 0, "steal:1")[0]
    state = act_unblocked(state, 1, "steal:0")[0]
    assert state.stage == "dream" and state.dream is not None and state.dream.last
    assert state.leader == 1
    state = act_unblocked(state, 1, "steal:0")[0]
    assert ENGINE.result(state) is None
    state = act_unblocked(state, 0, "steal:1")[0]
    assert ENGINE.result(state) is not None, "the game ends when everyone acted in the Last Dream"


def test_phase_changes_are_refused_in_the_last_dream_but_a_restart_is_allowed() -> None:
    state = to_dream(fresh(2), last=True)
    give(state, 0, "sunrise", "dusk", "echo-of-dreams")
    give(state, 1, "noble-deer")
    sunrise, dusk, echo = state.hands[0]
    offered = keys(state, 0)
    assert f"play:{echo}:me" in offered
    assert f"play:{sunrise}:me" not in offered and f"play:{dusk}:me" not in offered


def test_sunrise_ends_the_dream_and_dusk_brings_a_night() -> None:
    state = to_dream(fresh(2))
    give(state, 0, "noble-owl")
    give(state, 1, "dusk", "noble-fox")
    dusk = state.hands[1][0]
    state = act(state, 1, f"play:{dusk}:me")[0]
    state = act(state, 0, "pass")[0]
    state = act(state, 1, "pass")[0]
    assert state.stage == "night" and state.leader == 1


def test_change_phase_is_offered_outside_the_last_dream() -> None:
    state = to_dream(fresh(2))
    give(state, 0, "sunrise")
    assert f"play:{card_of_hand(state, 0)}:me" in keys(state, 0)


def card_of_hand(state, seat):  # type: ignore[no-untyped-def]
    return state.hands[seat][0]


def test_card_of_finds_cards_in_the_deck() -> None:
    state = fresh(2)
    assert state.kind(card_of(state, "apple-of-life")) == "apple-of-life"
