"""Costs, phasing and locking, as the rulebook states them ("Phasing and Locking",
"Actions and Costs", "The Training Cost")."""

from __future__ import annotations

import tomllib

from engines.phase import ENGINE, effects
from engines.phase.state import Mod
from tests.engines.test_phase_helpers import (
    CUSTOM,
    act,
    check_invariants,
    keys,
    new_game,
    put,
    table,
    texts,
)


def test_training_phases_that_many_other_resources_never_the_card_itself() -> None:
    state = table()
    chim = put(state, 0, "barracks", "No-Ne Chim 3")
    others = [put(state, 0, "barracks", t) for t in ("Ted", "Necromancer")]
    assert f"train:{chim}" not in keys(state, 0), "two other resources cannot pay a cost of 3"
    others.append(put(state, 0, "barracks", "Fire Spirit"))
    state, _ = act(state, 0, f"train:{chim}")
    offered = keys(state, 0)
    assert f"phase:{chim}" not in offered and all(f"phase:{c}" in offered for c in others)
    for card in others:
        state, events = act(state, 0, f"phase:{card}")
    assert chim in state.play[0] and state.influence[0] == [2, 0], "Trained: gain 2 good influence"
    assert all(state.face[c] == 1 for c in others), "each paying resource phased once"
    assert "Trained — No-Ne Chim 3" in texts(events)
    check_invariants(state)


def test_a_resource_pays_a_single_cost_once_but_may_phase_again_for_another() -> None:
    """ "A resource may be phased multiple times per turn to pay for costs, but may
    only be phased once to pay any single cost"; "any number of actions": the same
    skill may be used again, paid by the same resources (RULES.md, decision 8)."""
    state = table()
    first, second = put(state, 0, "play", "Gladiator"), put(state, 0, "play", "Gladiator")
    resources = [put(state, 0, "barracks", t) for t in ("Ted", "Scout", "Trivet")]
    state, _ = act(state, 0, f"skill:{first}")
    state, _ = act(state, 0, f"phase:{resources[0]}")
    assert f"phase:{resources[0]}" not in keys(state, 0)
    state, _ = act(state, 0, f"phase:{resources[1]}")
    state, _ = act(state, 0, f"phase:{resources[2]}")
    assert state.attack(first) == 4 and state.pending is None
    again = ENGINE.choice(state, 0, f"skill:{first}")
    assert again.idle, "a second use is offered, idle for bots"
    assert not ENGINE.choice(state, 0, f"skill:{second}").idle
    state, _ = act(state, 0, f"skill:{first}")  # the same three resources pay again
    for card in resources:
        state, _ = act(state, 0, f"phase:{card}")
    assert state.attack(first) == 7 and all(state.face[c] == 0 for c in resources)
    state, _ = act(state, 0, f"skill:{second}")
    for card in resources:
        state, _ = act(state, 0, f"phase:{card}")
    assert state.attack(second) == 4 and all(state.face[c] == 1 for c in resources)


def test_lock_costs_are_paid_first_and_a_locked_resource_cannot_phase() -> None:
    raw = {"deck": tomllib.loads(CUSTOM), "deck_size": 16, "factions": ["sun-dominion", "keeper"]}
    state = ENGINE.setup(2, ENGINE.parse_options(raw), 3)
    state.picks, state.step, state.turn = [0, 0], "training", 0
    state.decks[0] += state.hands[0]
    state.hands[0] = []
    warlord = put(state, 0, "hands", "Warlord")
    target = put(state, 1, "play", "Twin")
    two = [put(state, 0, "barracks", "Sage"), put(state, 0, "barracks", "Witch")]
    assert f"order:{warlord}" not in keys(state, 0), "lock 2 then phase 1 needs three resources"
    third = put(state, 0, "barracks", "Witch")
    state, _ = act(state, 0, f"order:{warlord}")
    assert all(k.startswith(("lock:", "cancel")) for k in keys(state, 0)), "locks come first"
    state, _ = act(state, 0, f"lock:{two[0]}")
    state, _ = act(state, 0, f"lock:{two[1]}")
    assert keys(state, 0) == [f"phase:{third}", "cancel"], "the locked resources may not phase"
    state, _ = act(state, 0, f"phase:{third}")
    state, _ = act(state, 0, f"choose:{target}")
    assert target in state.discards[1] and set(two) <= set(state.locked) and state.name(third) == "Sage"
    assert warlord in state.discards[0]


def test_an_unpayable_action_is_not_offered() -> None:
    state = table()
    death = put(state, 0, "play", "The Flying Death")
    assert f"skill:{death}" not in keys(state, 0), "its skill costs 1 good influence: none held"
    state.influence[0][0] = 1
    state.nexus[0] -= 1
    state, _ = act(state, 0, f"skill:{death}")
    assert state.influence[0] == [0, 0] and state.removed == [1, 0] and state.attack(death) == 4
    check_invariants(state)


def test_effects_are_done_as_far_as_possible() -> None:
    state = table()
    undying = put(state, 0, "hands", "The Undying")
    state, _ = act(state, 0, f"order:{undying}")  # no warrior to damage: played all the same
    assert undying in state.discards[0] and state.pending is None
    assert state.name(undying) == "The Undying", "a played order is discarded with its side up"


def test_cancel_changes_nothing() -> None:
    state = table()
    gladiator = put(state, 0, "play", "Gladiator")
    resources = [put(state, 0, "barracks", t) for t in ("Ted", "Scout", "Trivet")]
    before = state.model_copy(deep=True)
    state, _ = act(state, 0, f"skill:{gladiator}")
    state, _ = act(state, 0, f"phase:{resources[0]}")
    state, _ = act(state, 0, "cancel")
    assert state == before


def test_phasing_clears_damage_and_the_sides_modifiers() -> None:
    state = table()
    berserker = put(state, 0, "play", "Berserker")
    cognet = put(state, 0, "hands", "The Cognet")
    resource = put(state, 0, "barracks", "Ted")
    state.damage[berserker] = 1
    state.mods[berserker] = Mod(a=2)
    state, _ = act(state, 0, f"order:{cognet}")
    state, _ = act(state, 0, f"phase:{resource}")
    state, _ = act(state, 0, f"choose:{berserker}")
    assert state.name(berserker) == "Nighthawk"
    assert berserker not in state.damage and berserker not in state.mods
    assert state.attack(berserker) == 4 and state.influence[0] == [1, 0], "Phaseling: gain 1 good influence"


def test_locked_cards_cannot_be_chosen_by_their_player_nor_phase() -> None:
    state = table()
    horror = put(state, 0, "play", "Chained Horror")
    spirit = put(state, 0, "hands", "Fire Spirit")
    ted = put(state, 0, "barracks", "Ted")
    state.locked += [horror, ted]
    assert f"train:{ted}" not in keys(state, 0), "a locked card cannot enter play"
    state, _ = act(state, 0, f"order:{spirit}")
    assert state.pending is None, "its own locked warrior cannot be chosen: the order does nothing"
    assert state.attack(horror) == 3
    # An opponent may choose it for an effect that does not phase it...
    trivet = put(state, 1, "hands", "Trivet")
    state.turn = 1
    state, _ = act(state, 1, f"order:{trivet}")
    assert keys(state, 1) == [f"choose:{horror}", "cancel"]
    # ...but nobody may phase a locked card: the Echo Sage's skill may only choose itself.
    state.pending = None
    sage = put(state, 1, "play", "Echo Sage")
    put(state, 1, "barracks", "Ted")
    state, _ = act(state, 1, f"skill:{sage}")
    state, _ = act(state, 1, keys(state, 1)[0])
    assert keys(state, 1) == [f"choose:{sage}", "cancel"]


def test_cards_unlock_at_the_start_of_their_players_turn_only() -> None:
    state = table()
    mine, theirs = put(state, 0, "barracks", "Ted"), put(state, 1, "barracks", "Scout")
    state.locked += [mine, theirs]
    state, _ = act(state, 0, "done")
    while state.round is not None:
        state, _ = act(state, state.round.seat, "pass")
    assert state.turn == 1 and theirs not in state.locked and mine in state.locked


def test_drawing_shows_the_outward_face_and_enlisting_never_phases() -> None:
    state = new_game(2, seed=4)
    seat = 0
    top, below = state.decks[seat][-1], state.decks[seat][-2]
    up_top, up_below = state.face[top], state.face[below]
    effects.draw(state, seat)
    effects.enlist(state, seat)
    assert state.face[top] == up_top and state.face[below] == up_below
    view = ENGINE.view(state, 1).seats[0]
    assert view.hand[-1].face.title == state.side(top).title and view.hand[-1].back is None
    mine = ENGINE.view(state, 0).seats[0].hand[-1]
    assert mine.face.title == state.side(top, flipped=True).title and mine.back is not None
    assert view.barracks[-1].face.title == state.side(below).title


def test_elite_triggers_each_time_the_warrior_is_chosen_for_an_order() -> None:
    state = table()
    horror = put(state, 0, "play", "Chained Horror")  # 3/4, Elite: +2/+0
    first, second = put(state, 0, "hands", "Fire Spirit"), put(state, 0, "hands", "Anonymous")
    for order in (first, second):
        state, _ = act(state, 0, f"order:{order}")
        state, _ = act(state, 0, f"choose:{horror}")
    assert (state.attack(horror), state.defense(horror)) == (3 + 2 + 2 + 2 + 2, 4 + 1 + 1)


def test_phaseling_works_only_in_play() -> None:
    state = table()
    gladiator = put(state, 0, "play", "Gladiator")
    berserkers = [put(state, 0, "barracks", "Berserker") for _ in range(3)]
    state, _ = act(state, 0, f"skill:{gladiator}")
    for card in berserkers:
        state, _ = act(state, 0, f"phase:{card}")
    assert all(state.name(c) == "Nighthawk" for c in berserkers) and state.influence[0] == [0, 0]
