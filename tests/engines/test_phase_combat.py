"""The Attack step: the Nexus's defender, declarations, the alignment rule, Ally,
skirmish action rounds, Swift, damage, unopposed attacks and going home."""

from __future__ import annotations

from engines.phase import ENGINE
from engines.phase.state import PhState
from tests.engines.test_phase_helpers import (
    act,
    check_invariants,
    fight,
    keys,
    pass_round,
    put,
    table,
    texts,
)


def attack_table(players: int = 2) -> PhState:
    state = table(players)
    state.step = "attack"
    return state


def test_defenders_never_oppose_their_own_alignment_unless_a_card_says_so() -> None:
    state = attack_table()
    gladiator = put(state, 0, "play", "Gladiator")  # evil
    evil = put(state, 1, "play", "Berserker")
    good = put(state, 1, "play", "Sister Alexis")
    turncoat = put(state, 1, "play", "Warden's Shade")  # evil, Turncoat: the card overrules the rule
    state, _ = act(state, 0, "attack")
    state = pass_round(state)
    state, _ = act(state, 0, f"send:{gladiator}:nexus")
    state, _ = act(state, 0, "done")
    offered = keys(state, 1)
    assert f"oppose:{good}:{gladiator}" in offered and f"oppose:{turncoat}:{gladiator}" in offered
    assert f"oppose:{evil}:{gladiator}" not in offered


def test_several_defenders_may_oppose_one_attacker_but_a_defender_only_one() -> None:
    state = attack_table()
    one, two = put(state, 0, "play", "Gladiator"), put(state, 0, "play", "Chained Horror")
    a, b = put(state, 1, "play", "Sister Alexis"), put(state, 1, "play", "Nighthawk")
    state, _ = act(state, 0, "attack")
    state = pass_round(state)
    state, _ = act(state, 0, f"send:{one}:1")
    state, _ = act(state, 0, f"send:{two}:1")
    state, _ = act(state, 0, "done")
    state, _ = act(state, 1, f"oppose:{a}:{one}")
    assert not any(k.startswith(f"oppose:{a}:") for k in keys(state, 1))
    state, _ = act(state, 1, f"oppose:{b}:{one}")
    assert state.skirmishes[0].defenders == [a, b]


def test_ally_warriors_defend_the_nexus_even_when_their_player_was_not_chosen() -> None:
    state = attack_table(3)
    horror = put(state, 0, "play", "Chained Horror")
    ally = put(state, 2, "play", "Solar Guard")  # good, Ally
    plain = put(state, 2, "play", "Dawn Lancer")  # good, no Ally
    state, _ = act(state, 0, "attack")
    state.nexus_defender = 1  # the random pick, fixed for the scenario
    state = pass_round(state)
    state, _ = act(state, 0, f"send:{horror}:nexus")
    state, _ = act(state, 0, "done")
    assert state.declaring == 2, "seat 1 has no warrior: seat 2 may still send its Ally"
    assert keys(state, 2) == [f"oppose:{ally}:{horror}", "done"]
    assert plain not in state.defending()


def test_the_nexus_defender_is_one_opponent_chosen_with_the_seeded_rng() -> None:
    chosen = set()
    for seed in range(12):
        state = table(3, seed=seed)
        state.step = "attack"
        put(state, 0, "play", "Gladiator")
        state, events = act(state, 0, "attack")
        assert state.nexus_defender in (1, 2)
        chosen.add(state.nexus_defender)
        assert "is chosen at random to defend the Nexus" in texts(events)
    assert chosen == {1, 2}


def test_swift_warriors_deal_their_damage_first() -> None:
    state = attack_table()
    gladiator = put(state, 0, "play", "Gladiator")  # 1/2
    alexis = put(state, 1, "play", "Sister Alexis")  # 3/2 Swift
    state = fight(state, [(gladiator, None)], [(alexis, gladiator)])
    state, _ = act(state, 0, f"resolve:{gladiator}")
    state, _ = act(state, 0, "pass")
    state, events = act(state, 1, "pass")
    assert gladiator in state.discards[0] and alexis in state.play[1]
    said = texts(events)
    assert "Swift warriors strike first" in said and "Sister Alexis takes" not in said
    assert state.nexus == [20, 20], "an opposed attacker takes nothing from the Nexus"


def test_without_swift_both_deal_damage_at_once_and_relentless_triggers() -> None:
    state = attack_table()
    scout = put(state, 0, "play", "Scout")  # good 1/2, Relentless: enlist a card, locked
    penna = put(state, 1, "play", "Pennaggolan")  # evil 5/3
    spirit = put(state, 0, "hands", "Fire Spirit")
    state = fight(state, [(scout, None)], [(penna, scout)])
    state, _ = act(state, 0, f"resolve:{scout}")
    state, _ = act(state, 0, f"order:{spirit}")  # +2/+1: a 3/3 Scout
    state, _ = act(state, 0, f"choose:{scout}")
    barracks = len(state.barracks[0])
    state = pass_round(state)
    assert scout in state.discards[0] and penna in state.discards[1]
    assert len(state.barracks[0]) == barracks + 1 and state.barracks[0][-1] in state.locked
    check_invariants(state)


def test_a_skirmish_round_lets_only_its_warriors_use_skills_or_be_chosen() -> None:
    state = attack_table()
    horror, gladiator = put(state, 0, "play", "Chained Horror"), put(state, 0, "play", "Gladiator")
    for title in ("Ted", "Scout", "Trivet"):
        put(state, 0, "barracks", title)
    undying = put(state, 0, "hands", "The Undying")
    state = fight(state, [(horror, None), (gladiator, None)], [])
    state, _ = act(state, 0, f"resolve:{horror}")
    assert f"skill:{gladiator}" not in keys(state, 0), "Gladiator is not in this skirmish"
    state, _ = act(state, 0, f"order:{undying}")
    assert keys(state, 0) == [f"choose:{horror}", "cancel"], "only Chained Horror may be chosen"


def test_an_unopposed_attacker_takes_influence_of_its_alignment_and_goes_home_phased() -> None:
    state = attack_table()
    gladiator = put(state, 0, "play", "Gladiator")  # evil 1/2
    state = fight(state, [(gladiator, None)], [])
    state, _ = act(state, 0, f"resolve:{gladiator}")
    state, _ = act(state, 0, "pass")
    state, _ = act(state, 1, "pass")
    assert state.influence[0] == [0, 1] and state.nexus == [20, 19]
    assert state.name(gladiator) == "Arena Champion", "an attacker phases when it goes home"
    assert state.step == "training"


def test_an_unopposed_attack_on_a_player_makes_them_lose_that_much() -> None:
    state = attack_table()
    horror = put(state, 0, "play", "Chained Horror")  # evil 3/4
    state.influence[1] = [2, 2]
    state.nexus = [18, 18]
    state = fight(state, [(horror, 1)], [])
    state, _ = act(state, 0, f"resolve:{horror}")
    state = pass_round(state)
    assert state.influence[1] == [2, 0] and state.removed == [0, 2], "3 evil to lose: 2 held, both lost"
    check_invariants(state)


def test_no_influence_of_a_type_once_the_nexus_has_none_of_it() -> None:
    state = attack_table()
    horror = put(state, 0, "play", "Chained Horror")
    state.nexus, state.influence[1] = [20, 1], [0, 19]
    state = fight(state, [(horror, None)], [])
    state, _ = act(state, 0, f"resolve:{horror}")
    state = pass_round(state)
    assert state.influence[0] == [0, 1] and state.nexus == [20, 0]
    check_invariants(state)


def test_negative_attack_deals_no_damage() -> None:
    state = attack_table(3)
    skulker = put(state, 0, "play", "Skulker")  # evil 2/1
    first, second = put(state, 2, "hands", "Shadowbearer"), put(state, 2, "hands", "Shadowbearer")  # -2/+0
    state = fight(state, [(skulker, 1)], [])
    state.influence[1] = [5, 5]
    state.nexus = [15, 15]
    state, _ = act(state, 0, f"resolve:{skulker}")
    for order in (first, second):  # any player may act in a skirmish
        while state.round is not None and state.round.seat != 2:
            state, _ = act(state, state.round.seat, "pass")
        state, _ = act(state, 2, f"order:{order}")
        state, _ = act(state, 2, f"choose:{skulker}")
    assert state.attack(skulker) == -2
    state = pass_round(state)
    assert state.influence[1] == [5, 5] and state.removed == [0, 0]


def test_a_defender_destroyed_before_resolution_leaves_the_attacker_unopposed() -> None:
    state = attack_table()
    gladiator = put(state, 0, "play", "Gladiator")
    alexis = put(state, 1, "play", "Sister Alexis")
    undying, trivet = put(state, 0, "hands", "The Undying"), put(state, 0, "hands", "Trivet")
    state = fight(state, [(gladiator, None)], [(alexis, gladiator)])
    state, _ = act(state, 0, f"resolve:{gladiator}")
    state, _ = act(state, 0, f"order:{undying}")
    state, _ = act(state, 0, f"choose:{alexis}")
    state, _ = act(state, 1, "pass")
    state, _ = act(state, 0, f"order:{trivet}")
    state, _ = act(state, 0, f"choose:{alexis}")
    assert alexis in state.discards[1], "1 damage, then defense 0: destroyed before it strikes"
    state = pass_round(state)
    assert state.influence[0] == [0, 1] and gladiator in state.play[0]


def test_the_active_player_chooses_the_order_of_skirmishes() -> None:
    state = attack_table()
    cards = [put(state, 0, "play", t) for t in ("Gladiator", "Scout", "Chained Horror")]
    state = fight(state, [(c, None) for c in cards], [])
    assert sorted(keys(state, 0)) == sorted(f"resolve:{c}" for c in cards)
    state, _ = act(state, 0, f"resolve:{cards[2]}")
    state = pass_round(state)
    assert sorted(keys(state, 0)) == sorted(f"resolve:{c}" for c in cards[:2])
    assert ENGINE.prompts(state)[0].seat == 0
