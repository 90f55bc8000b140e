"""Scenarios for rules the engine once departed from, each asserting the
rulebook's own sentence (quoted in RULES.md beside the decision)."""

from __future__ import annotations

import random

import pytest

from bot.render import renderer_for
from engines.ai.search import advancing
from engines.phase import ENGINE, effects, moves
from engines.phase.cards import Effect
from engines.phase.state import PhState
from engines.playout import playout
from tests.engines.test_phase_helpers import (
    act,
    check_invariants,
    deck_options,
    keys,
    pass_round,
    put,
    table,
    texts,
)
from tests.engines.test_phase_render import _within_limits


def test_turnkey_unlocks_its_players_own_locked_warrior() -> None:
    """ "Card effects always overrule basic rules": Turnkey ("choose one of your
    warriors and unlock it") may choose its player's locked warrior."""
    state = table()
    horror = put(state, 0, "play", "Chained Horror")
    turnkey = put(state, 0, "hands", "Turnkey")
    state.locked.append(horror)
    state, _ = act(state, 0, f"order:{turnkey}")
    assert keys(state, 0) == [f"choose:{horror}", "cancel"]
    state, events = act(state, 0, f"choose:{horror}")
    assert horror not in state.locked and "Chained Horror is unlocked" in texts(events)
    check_invariants(state)


def test_other_orders_still_cannot_choose_their_players_locked_warrior() -> None:
    """ "A locked card cannot phase or be chosen by its player for any actions or effects"."""
    state = table()
    horror = put(state, 0, "play", "Chained Horror")
    cognet = put(state, 0, "hands", "The Cognet")
    put(state, 0, "barracks", "Ted")
    state.locked.append(horror)
    state, _ = act(state, 0, f"order:{cognet}")
    state, _ = act(state, 0, keys(state, 0)[0])  # its phase cost paid
    assert state.pending is None and state.name(horror) == "Chained Horror", "nothing to choose"


def test_elite_triggers_from_the_side_the_warrior_was_chosen_with() -> None:
    """ "Elite skills trigger every time that warrior is chosen for an order": The
    Cognet phases an Unchained (no Elite) to Chained Horror, whose Elite does not
    trigger: it was not chosen as Chained Horror."""
    state = table()
    unchained = put(state, 0, "play", "Unchained")
    cognet = put(state, 0, "hands", "The Cognet")
    ted = put(state, 0, "barracks", "Ted")
    state, _ = act(state, 0, f"order:{cognet}")
    state, _ = act(state, 0, f"phase:{ted}")
    state, events = act(state, 0, f"choose:{unchained}")
    assert state.name(unchained) == "Chained Horror"
    assert (state.attack(unchained), state.defense(unchained)) == (3, 4) and "Elite" not in texts(events)


def test_a_warrior_chosen_with_its_elite_side_triggers_it_after_phasing_away() -> None:
    """Chained Horror chosen for The Cognet: its Elite (+2/+0) triggers, after the
    order, on the warrior it has become."""
    state = table()
    horror = put(state, 0, "play", "Chained Horror")
    cognet = put(state, 0, "hands", "The Cognet")
    ted = put(state, 0, "barracks", "Ted")
    state, _ = act(state, 0, f"order:{cognet}")
    state, _ = act(state, 0, f"phase:{ted}")
    state, events = act(state, 0, f"choose:{horror}")
    assert state.name(horror) == "Unchained" and "Elite — Chained Horror" in texts(events)
    assert (state.attack(horror), state.defense(horror)) == (2 + 2, 3)


def test_the_owner_sees_every_card_of_their_discard_pile_both_sides() -> None:
    """ "A player may always look at the back side of their cards: … In their discard pile"."""
    state = table()
    pile = state.decks[0][:40]
    state.decks[0] = state.decks[0][40:]
    state.discards[0] = pile
    mine = ENGINE.view(state, 0).seats[0]
    assert [c.face.title for c in mine.discard] == [state.name(c) for c in pile]
    assert [c.back.title if c.back else None for c in mine.discard] == [
        state.side(c, flipped=True).title for c in pile
    ]
    theirs = ENGINE.view(state, 1).seats[0]
    assert len(theirs.discard) == 40 and all(c.back is None for c in theirs.discard)
    panel = renderer_for("phase").hand(ENGINE.view(state, 0))
    _within_limits(panel)
    shown = "".join(f.value for f in panel.fields if f.name.startswith("Discard pile"))
    for card in pile:
        assert f"{state.name(card)} ↺ {state.side(card, flipped=True).title}" in shown


def test_a_whole_deck_in_the_discard_pile_is_listed_in_whole_fields() -> None:
    state = table()
    state.discards[0], state.decks[0] = state.decks[0], []
    for card in state.discards[0][:8]:
        put(state, 0, "barracks", state.name(card))
    panel = renderer_for("phase").hand(ENGINE.view(state, 0))
    _within_limits(panel)
    assert sum(len(f.name) + len(f.value) for f in panel.fields) + len(panel.description) <= 5200
    parts = [f.value for f in panel.fields if f.name.startswith("Discard pile")]
    assert parts and not any(p.endswith("…") for p in parts)
    for card in state.discards[0]:
        assert state.name(card) in "".join(parts)


def test_an_attack_names_one_target_for_all_its_attackers() -> None:
    """ "The active player sends one or more of their warriors to either attack The
    Nexus or another player of their choice"."""
    state = table(3)
    state.step = "attack"
    cards = [put(state, 0, "play", t) for t in ("Gladiator", "Scout", "Chained Horror")]
    state, _ = act(state, 0, "attack")
    state = pass_round(state)
    first = keys(state, 0)
    assert {f"send:{cards[0]}:{at}" for at in ("nexus", "1", "2")} <= set(first)
    state, _ = act(state, 0, f"send:{cards[0]}:2")
    sends = [k for k in keys(state, 0) if k.startswith("send:")]
    assert sends == [f"send:{cards[1]}:2", f"send:{cards[2]}:2"], "the others go at the same player"


def test_a_bot_weighs_the_whole_army_at_the_target_its_first_warrior_names() -> None:
    """The Nexus has no evil influence left, the opponent holds 20: Sister Alexis
    (good 3) alone would do best at the Nexus, but the first warrior sent names the
    target for all, and the two evil warriors take more from the opponent."""
    state = table(2)
    state.step = "attack"
    put(state, 0, "play", "Sister Alexis")
    put(state, 0, "play", "Chained Horror")
    put(state, 0, "play", "Pennaggolan")
    state.nexus, state.influence[1] = [20, 0], [0, 20]
    state, _ = act(state, 0, "attack")
    state = pass_round(state)
    for seed in range(5):
        choice = ENGINE.rollout_choice(state, 0, ENGINE.legal_actions(state, 0), random.Random(seed))
        assert choice.key.startswith("send:") and choice.key.endswith(":1"), choice.key


@pytest.mark.parametrize("active", [0, 1])
def test_warriors_destroyed_together_leave_play_then_trigger_in_turn_order(active: int) -> None:
    """Both warriors leave play first; then their Relentless skills resolve in turn
    order, starting with the active player ("the active player has the first
    opportunity", and play goes "to their left")."""
    state = table()
    state.turn = active
    scout = put(state, 0, "play", "Scout")  # Relentless: enlist a card, locked
    undying = put(state, 1, "play", "The Undying")  # Relentless: enlist a card
    state.damage[scout], state.damage[undying] = 2, 3
    events = texts(effects.check_destroyed(state)).splitlines()
    said = [line for line in events if "destroyed" in line or "Relentless" in line]
    triggers = ["Relentless — Scout.", "Relentless — The Undying."]
    assert all("destroyed" in line for line in said[:2]), "both leave play before any trigger"
    assert [line for line in said if "Relentless" in line] == (triggers if active == 0 else triggers[::-1])
    assert scout in state.discards[0] and undying in state.discards[1]
    check_invariants(state)


def test_one_players_warriors_named_out_of_order_trigger_in_the_order_they_came_into_play() -> None:
    """An effect may name the warriors it destroys in any order; decision 20 puts one
    player's Relentless skills in the order their warriors came into play."""
    state = table()
    state.turn = 0
    scout = put(state, 0, "play", "Scout")
    undying = put(state, 0, "play", "The Undying")
    said = texts(effects.leave_play(state, [undying, scout])).splitlines()
    assert [line for line in said if "Relentless" in line] == [
        "Relentless — Scout.",
        "Relentless — The Undying.",
    ]
    check_invariants(state)


def _end_turn(state: PhState) -> None:
    state.round = None
    moves.end_turn(state)


def test_the_game_goes_on_while_both_pools_hold_influence() -> None:
    """ "When either the good or evil influence pools in The Nexus is empty … play
    continues until the last player finishes their turn": no other end."""
    state = table(2)
    assert state.options.round_limit is None
    state.round_no = 200
    for _ in range(6):
        _end_turn(state)
        assert state.step != "over"
    state.nexus[1], state.influence[0][1] = 0, 20
    _end_turn(state)
    _end_turn(state)
    assert state.step == "over"


def test_a_host_may_set_a_round_limit() -> None:
    state = table(2, round_limit=5)
    state.round_no = 5
    _end_turn(state)
    assert state.step != "over"
    _end_turn(state)
    assert state.step == "over" and "round limit (5)" in ENGINE.recap(state).history[0]


def test_a_skill_may_be_used_any_number_of_times_but_bots_do_not_repeat_it() -> None:
    """ "Players then have the opportunity to take any number of actions"; "A
    resource may be phased multiple times per turn to pay for costs"."""
    state = table()
    gladiator = put(state, 0, "play", "Gladiator")  # phase 3: +3/+0
    resources = [put(state, 0, "barracks", t) for t in ("Ted", "Scout", "Trivet")]
    for use in range(1, 4):
        state, _ = act(state, 0, f"skill:{gladiator}")
        for card in resources:
            state, _ = act(state, 0, f"phase:{card}")
        assert state.attack(gladiator) == 1 + 3 * use
    assert f"skill:{gladiator}" in keys(state, 0)
    assert f"skill:{gladiator}" not in [c.key for c in advancing(ENGINE.legal_actions(state, 0))]
    assert [c.idle for c in ENGINE.moves(state, 0)] == [c.idle for c in ENGINE.legal_actions(state, 0)]
    state, _ = act(state, 0, "done")
    state = pass_round(state)
    assert state.turn == 1 and state.used == []


def test_a_table_where_nothing_can_ever_change_again_ends_after_its_round() -> None:
    """Random play with the small custom set (seed 63, three players) leaves every
    player with no warrior, no card to draw and a hand of orders nobody can pay
    for: no pool can ever empty, so the round is played out and the game ends."""
    state, result = playout(ENGINE, 3, deck_options("custom"), seed=63, in_place=True, checked=False)
    assert result is not None and 0 not in state.nexus and state.options.round_limit is None
    assert moves.stalled(state) and state.turn == state.last_seat()
    assert "nobody could attack, train or play an order" in ENGINE.recap(state).history[0]
    check_invariants(state)


def test_a_card_left_to_draw_or_a_warrior_in_play_is_not_a_stall() -> None:
    stuck, _ = playout(ENGINE, 3, deck_options("custom"), seed=63, in_place=True, checked=False)
    assert moves.stalled(stuck)
    seat = next(s for s in range(3) if stuck.hands[s])
    drawn = stuck.model_copy(deep=True)
    drawn.discards[seat].append(drawn.hands[seat].pop())
    assert not moves.stalled(drawn), "a discard pile becomes a deck again"
    fighting = stuck.model_copy(deep=True)
    fighting.play[seat].append(fighting.hands[seat].pop())
    assert not moves.stalled(fighting), "a warrior may attack"


def test_warriors_an_effect_destroys_together_leave_play_before_their_triggers() -> None:
    state = table()
    state.turn = 1
    scout = put(state, 0, "play", "Scout")
    undying = put(state, 1, "play", "The Undying")
    said = texts(effects.run(state, 0, [Effect(do="destroy")], None, [scout, undying])).splitlines()
    marks = [line for line in said if "destroyed" in line or "Relentless" in line]
    assert marks == [
        "Scout (<seat:0>) is destroyed.",
        "The Undying (<seat:1>) is destroyed.",
        "Relentless — The Undying.",
        "Relentless — Scout.",
    ], "the active player's first"
    check_invariants(state)
