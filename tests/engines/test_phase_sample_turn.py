"""The rulebook's sample turn, replayed card by card with the reconstructed cards.

Ashley (seat 0, Fengarian), Adam (seat 1, Keeper) and Melissa (seat 2, Sun
Dominion). It is Ashley's turn, after her Preparation step. Where the
narrative skips a player's pass (everyone is asked in an action round), the
replay passes for them; the random choice of the Nexus's defender is fixed to
Adam, as the rulebook's was.
"""

from __future__ import annotations

from engines.phase import ENGINE
from engines.phase.state import PhState
from tests.engines.test_phase_helpers import act, check_invariants, keys, put, table, texts

ASHLEY, ADAM, MELISSA = 0, 1, 2


def _passes(state: PhState, *seats: int) -> PhState:
    for seat in seats:
        assert state.round is not None and state.round.seat == seat
        state, _ = act(state, seat, "pass")
    return state


def test_the_sample_turn() -> None:
    state = table(3)
    state.step = "attack"
    state.influence = [[8, 11], [7, 4], [7, 3]]
    state.nexus = [8, 12]
    horror, death, gladiator, scout = (
        put(state, ASHLEY, "play", t) for t in ("Chained Horror", "The Flying Death", "Gladiator", "Scout")
    )
    berserker, alexis, penna = (
        put(state, ADAM, "play", t) for t in ("Berserker", "Sister Alexis", "Pennaggolan")
    )
    spirit, undying, trivet, anonymous, death_order = (
        put(state, ASHLEY, "hands", t)
        for t in ("Fire Spirit", "The Undying", "Trivet", "Anonymous", "The Flying Death")
    )
    chim = put(state, ASHLEY, "barracks", "No-Ne Chim 3")
    # Faces chosen so the phases paid this turn reveal what the rulebook says.
    ted, necro, fire = (put(state, ASHLEY, "barracks", t) for t in ("Ted", "Healer", "Fire Spirit"))
    cognet = put(state, ADAM, "hands", "The Cognet")
    adams = put(state, ADAM, "barracks", "Tide Walker")
    caelistra = put(state, MELISSA, "hands", "Caelistra")
    melissas = put(state, MELISSA, "barracks", "Sun Priest")
    check_invariants(state)

    # She attacks; Adam is the one who may defend the Nexus.
    state, _ = act(state, ASHLEY, "attack")
    state.nexus_defender = ADAM
    # Maneuvering: Ashley passes; Adam plays The Cognet, phasing a resource, on his Berserker.
    state = _passes(state, ASHLEY)
    state, _ = act(state, ADAM, f"order:{cognet}")
    state, _ = act(state, ADAM, f"phase:{adams}")
    state, events = act(state, ADAM, f"choose:{berserker}")
    assert state.name(berserker) == "Nighthawk" and state.influence[ADAM] == [8, 4], "Phaseling: 1 good"
    assert "Phaseling — Berserker" in texts(events)
    state = _passes(state, MELISSA, ASHLEY, ADAM)

    # All four attack the Nexus; Adam defends three of them.
    assert state.step == "attackers"
    for card in (horror, death, gladiator, scout):
        state, _ = act(state, ASHLEY, f"send:{card}:nexus")
    state, _ = act(state, ASHLEY, "done")
    assert state.declaring == ADAM
    assert f"oppose:{penna}:{horror}" not in keys(state, ADAM), "evil never opposes evil"
    for defender, attacker in ((berserker, death), (alexis, gladiator), (penna, scout)):
        state, _ = act(state, ADAM, f"oppose:{defender}:{attacker}")
    state, _ = act(state, ADAM, "done")
    assert state.step == "skirmishes", "Melissa has no warrior to send"

    # The Scout skirmish: Fire Spirit makes it 3/3; Scout and Pennaggolan destroy each other.
    state, _ = act(state, ASHLEY, f"resolve:{scout}")
    state, _ = act(state, ASHLEY, f"order:{spirit}")
    state, _ = act(state, ASHLEY, f"choose:{scout}")
    assert (state.attack(scout), state.defense(scout)) == (3, 3)
    barracks = len(state.barracks[ASHLEY])
    state = _passes(state, ADAM, MELISSA)
    state, events = act(state, ASHLEY, "pass")
    assert scout in state.discards[ASHLEY] and penna in state.discards[ADAM]
    assert "Relentless — Scout" in texts(events)
    enlisted = state.barracks[ASHLEY][-1]
    assert len(state.barracks[ASHLEY]) == barracks + 1 and enlisted in state.locked

    # The Gladiator skirmish: The Undying and Trivet destroy Sister Alexis before she strikes.
    state, _ = act(state, ASHLEY, f"resolve:{gladiator}")
    state, _ = act(state, ASHLEY, f"order:{undying}")
    state, _ = act(state, ASHLEY, f"choose:{alexis}")
    state = _passes(state, ADAM, MELISSA)
    state, _ = act(state, ASHLEY, f"order:{trivet}")
    state, _ = act(state, ASHLEY, f"choose:{alexis}")
    assert alexis in state.discards[ADAM]
    state = _passes(state, ADAM, MELISSA)
    state, _ = act(state, ASHLEY, f"skill:{gladiator}")
    assert f"phase:{enlisted}" not in keys(state, ASHLEY), "the locked resource cannot pay"
    for card in (ted, necro, fire):
        state, _ = act(state, ASHLEY, f"phase:{card}")
    assert state.attack(gladiator) == 4
    state = _passes(state, ADAM, MELISSA, ASHLEY)
    assert state.influence[ASHLEY] == [8, 15] and state.nexus == [7, 8], "4 evil from the Nexus"
    assert state.name(gladiator) == "Arena Champion", "it phases when it goes home"

    # The Flying Death skirmish: +2/+1 for 1 good, Anonymous +2/+1, then Caelistra phases it.
    state, _ = act(state, ASHLEY, f"resolve:{death}")
    state, _ = act(state, ASHLEY, f"skill:{death}")
    assert (state.attack(death), state.defense(death)) == (4, 5) and state.influence[ASHLEY] == [7, 15]
    state = _passes(state, ADAM, MELISSA)
    state, _ = act(state, ASHLEY, f"order:{anonymous}")
    state, _ = act(state, ASHLEY, f"choose:{death}")
    assert (state.attack(death), state.defense(death)) == (6, 6)
    state = _passes(state, ADAM)
    state, _ = act(state, MELISSA, f"order:{caelistra}")
    # Choosing X, which random games seldom reach: a bot's search walks the same moves.
    bare = [(c.key, c.action, c.idle) for c in ENGINE.moves(state, MELISSA)]
    assert bare == [(c.key, c.action, c.idle) for c in ENGINE.legal_actions(state, MELISSA)]
    assert "x:1" in keys(state, MELISSA)
    state, _ = act(state, MELISSA, "x:1")
    state, _ = act(state, MELISSA, f"lock:{melissas}")
    state, _ = act(state, MELISSA, f"choose:{death}")
    assert state.name(death) == "Squeezle" and (state.attack(death), state.defense(death)) == (4, 4)
    state = _passes(state, ASHLEY, ADAM)
    state, events = act(state, MELISSA, "pass")
    said = texts(events)
    assert said.index("Nighthawk takes 4 damage") < said.index("Squeezle takes 4 damage")
    assert death in state.discards[ASHLEY] and berserker in state.play[ADAM]

    # The Chained Horror skirmish: The Flying Death's order gives +2/+0 (it is not opposed), Elite +2/+0.
    state, _ = act(state, ASHLEY, f"resolve:{horror}")
    state, _ = act(state, ASHLEY, f"order:{death_order}")
    state, events = act(state, ASHLEY, f"choose:{horror}")
    assert (state.attack(horror), state.defense(horror)) == (7, 4)
    assert "Elite — Chained Horror" in texts(events)
    state = _passes(state, ADAM, MELISSA, ASHLEY)
    assert state.influence[ASHLEY] == [7, 22] and state.nexus == [7, 1], "only 1 evil left in the Nexus"
    assert state.name(horror) == "Unchained"

    # Training: No-Ne Chim 3, then Ted, Necromancer and Fire Spirit as each is revealed.
    assert state.step == "training"
    state, _ = act(state, ASHLEY, f"train:{chim}")
    for card in (ted, necro, fire):
        state, _ = act(state, ASHLEY, f"phase:{card}")
    assert state.influence[ASHLEY] == [9, 22] and state.name(ted) == "Ted"
    state, _ = act(state, ASHLEY, f"train:{ted}")
    for card in (necro, fire):
        state, _ = act(state, ASHLEY, f"phase:{card}")
    assert state.name(necro) == "Necromancer"
    state, _ = act(state, ASHLEY, f"train:{necro}")
    state, _ = act(state, ASHLEY, f"phase:{fire}")
    assert state.name(fire) == "Fire Spirit" and state.side(fire).cost == 0
    state, _ = act(state, ASHLEY, f"train:{fire}")
    assert {chim, ted, necro, fire} <= set(state.play[ASHLEY])
    state, _ = act(state, ASHLEY, "done")
    state = _passes(state, ASHLEY, ADAM, MELISSA)
    assert state.turn == ADAM
    check_invariants(state)
