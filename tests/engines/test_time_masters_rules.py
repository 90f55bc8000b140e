"""Rulebook scenarios for Time Masters: timers, access points, the spheres, the end."""

from __future__ import annotations

import pytest

from engines.core import IllegalAction
from engines.time_masters.actions import EndMain
from engines.time_masters.state import Timer, TmState
from tests.engines.test_time_masters_helpers import (
    ENGINE,
    act,
    check_invariants,
    give,
    keys,
    new_game,
    set_hand,
)


def _seat_timer(state: TmState, seat: int, timer: str, spells: list[str], delays: list[str] = ()) -> Timer:
    """Put a timer in play for ``seat`` with the named spells and delay cards on it."""
    [card] = give(state, seat, timer)
    state.hands[seat].remove(card)
    on = Timer(card=card)
    for design in spells:
        [spell] = give(state, seat, design)
        state.hands[seat].remove(spell)
        on.spells.append(spell)
    for design in delays:
        [delay] = give(state, seat, design)
        state.hands[seat].remove(delay)
        on.delays.append(delay)
    state.timers[seat].append(on)
    return on


def _next_turn_of(state: TmState, seat: int) -> TmState:
    """End turns (resting) until it is ``seat``'s turn again, then start it as a fresh turn."""
    while True:
        state, _ = act(state, state.turn, "rest")
        if state.turn == seat:
            return state


def test_starting_position() -> None:
    state = new_game(3, seed=4)
    for seat in range(3):
        assert len(state.hands[seat]) == 5 and len(state.decks[seat]) == 5
        assert state.ke[seat] == 4 and state.knowledge(seat) == 0
    assert [len(p) for p in state.spheres] == [12, 10, 8, 7, 6]
    assert state.phase == "main" and 0 <= state.turn < 3
    check_invariants(state)


def test_refill_is_hand_limit_minus_cards_delaying_timers() -> None:
    """The rulebook's example: hand limit 5, 2 cards delaying timers → refill to 3."""
    state = new_game(2, seed=1)
    seat = state.turn
    _seat_timer(state, seat, "hourglass", ["spark", "spark"], delays=["breath"])
    _seat_timer(state, seat, "sand-glass", ["spark"], delays=["breath"])
    set_hand(state, seat)
    state, _ = act(state, seat, "end-main")
    state, _ = act(state, seat, "end-turn")
    assert len(state.hands[seat]) == 3


def test_a_full_timer_must_be_activated_or_delayed_first() -> None:
    state = new_game(2, seed=2)
    seat = state.turn
    timer = _seat_timer(state, seat, "hourglass", ["spark", "foresight"])
    state = _next_turn_of(state, seat)
    assert state.phase == "timer"
    found = keys(state)
    assert f"activate:{timer.card}" in found
    assert all(k.startswith(("activate:", "delay:")) for k in found), "the timer is settled first"
    designs = {state.cards[c] for c in state.hands[seat]}
    assert len([k for k in found if k.startswith("delay:")]) == len(designs), "one entry per design"


def test_delaying_keeps_the_timer_and_costs_a_card_at_every_refill() -> None:
    state = new_game(2, seed=3)
    seat = state.turn
    timer = _seat_timer(state, seat, "hourglass", ["spark", "spark"])
    state = _next_turn_of(state, seat)
    hand_card = state.hands[seat][0]
    state, events = act(state, seat, f"delay:{timer.card}:{hand_card}")
    assert state.phase == "main" and state.timers[seat][0].delays == [hand_card]
    public = [e.text for e in events if e.to is None]
    assert all(state.name(hand_card) not in t for t in public), "the delaying card is face down"
    assert "rest" in keys(state), "a delayed timer still allows resting for Kè"
    state, _ = act(state, seat, "rest")
    assert len(state.hands[seat]) == 4  # refilled to 5 − 1


def test_activated_spells_must_all_be_cast_this_turn() -> None:
    state = new_game(2, seed=5)
    seat = state.turn
    timer = _seat_timer(state, seat, "hourglass", ["spark", "recall"], delays=["breath"])
    state = _next_turn_of(state, seat)
    state.ke[seat] = 0  # paid when they were laid: casting from the timer needs no Kè
    state, _ = act(state, seat, f"activate:{timer.card}")
    assert not state.timers[seat] and timer.card in state.discards[seat]
    assert timer.delays[0] in state.discards[seat], "the delaying card is discarded with the timer"
    found = keys(state)
    assert "end-main" not in found and "rest" not in found
    with pytest.raises(IllegalAction, match="must all be cast"):
        ENGINE.apply(state, seat, EndMain())
    for spell in list(state.released):
        state, _ = act(state, seat, f"cast:{spell}")
    assert state.spells_cast == 2 and state.ke[seat] == 0
    assert "end-main" in keys(state)


def test_laying_a_spell_on_a_timer_pays_its_ke_now() -> None:
    state = new_game(2, seed=6)
    seat = state.turn
    [timer_card, recall] = set_hand(state, seat, "hourglass", "recall")
    state, _ = act(state, seat, f"timer:{timer_card}")
    state, events = act(state, seat, f"load:{recall}:{timer_card}")
    assert state.ke[seat] == 2 and state.timers[seat][0].spells == [recall]
    assert all("Recall" not in e.text for e in events if e.to is None), "a laid spell lies face down"
    assert state.spells_cast == 0, "a laid spell is not cast: no access point yet"


def test_access_points_buy_tops_at_n_and_hidden_cards_at_n_plus_one() -> None:
    state = new_game(2, seed=7)
    seat = state.turn
    sparks = set_hand(state, seat, "spark", "spark", "spark")
    for spark in sparks:
        state, _ = act(state, seat, f"cast:{spark}")
    state, _ = act(state, seat, "end-main")
    assert state.access_points == 3
    found = keys(state)
    assert {"buy:1", "buy:2", "buy:3", "buy:1:hidden", "buy:2:hidden"} <= set(found)
    assert "buy:3:hidden" not in found and "buy:4" not in found
    hidden = state.spheres[1][1]
    state, events = act(state, seat, "buy:2:hidden")
    assert hidden in state.hands[seat] and state.access_points == 0
    public = [e.text for e in events if e.to is None]
    secret = [e.text for e in events if e.to == [seat]]
    assert all(state.name(hidden) not in t for t in public) and any(state.name(hidden) in t for t in secret)
    assert keys(state) == ["end-turn"]


def test_one_card_per_sphere_per_turn() -> None:
    state = new_game(2, seed=8)
    seat = state.turn
    for spark in set_hand(state, seat, "spark", "spark", "spark", "spark"):
        state, _ = act(state, seat, f"cast:{spark}")
    state, _ = act(state, seat, "end-main")
    state, _ = act(state, seat, "buy:1")
    assert not any(k.startswith("buy:1") for k in keys(state))
    state, _ = act(state, seat, "buy:2")
    assert state.access_points == 1 and not any(k.startswith(("buy:1", "buy:2")) for k in keys(state))


def test_focus_recovers_ke_up_to_the_limit_and_gives_no_access() -> None:
    state = new_game(2, seed=9)
    seat = state.turn
    [spark, breath] = set_hand(state, seat, "spark", "breath")
    state, _ = act(state, seat, f"cast:{spark}")
    state, _ = act(state, seat, f"focus:{breath}")
    assert state.ke[seat] == 4 and state.spells_cast == 1


def test_a_spell_needs_its_ke() -> None:
    state = new_game(2, seed=10)
    seat = state.turn
    [recall] = set_hand(state, seat, "recall")
    state.ke[seat] = 1
    assert f"cast:{recall}" not in keys(state)


def test_rest_recovers_all_ke_only_before_anything_is_done() -> None:
    state = new_game(2, seed=11)
    seat = state.turn
    [spark, _] = set_hand(state, seat, "spark", "spark")
    state.ke[seat] = 1
    assert "rest" in keys(state)
    after, _ = act(state, seat, "rest")
    assert after.ke[seat] == 4 and after.turn != seat
    state, _ = act(state, seat, f"cast:{spark}")
    assert "rest" not in keys(state)


def test_drain_and_disrupt_hit_every_other_player() -> None:
    state = new_game(3, seed=12)
    seat = state.turn
    [sap, fog] = set_hand(state, seat, "sap", "mind-fog")
    others = [s for s in range(3) if s != seat]
    state.ke[others[0]] = 0
    sizes = [len(state.hands[s]) for s in others]
    state, _ = act(state, seat, f"cast:{sap}")
    assert state.ke[others[0]] == 0 and state.ke[others[1]] == 3
    state, events = act(state, seat, f"cast:{fog}")
    assert [len(state.hands[s]) for s in others] == [n - 1 for n in sizes]
    assert all(e.to is None for e in events)
    check_invariants(state)


def test_an_empty_deck_is_refilled_from_the_shuffled_discard_pile() -> None:
    state = new_game(2, seed=13)
    seat = state.turn
    state.discards[seat] += state.decks[seat]
    state.decks[seat] = []
    [foresight] = set_hand(state, seat, "foresight")
    state, _ = act(state, seat, f"cast:{foresight}")
    assert len(state.hands[seat]) == 1 and not state.discards[seat]
    check_invariants(state)


def _empty_spheres(state: TmState, *levels: int) -> None:
    """Move every card of these spheres into the box of the first seat's discard pile."""
    for level in levels:
        state.discards[0] += state.spheres[level - 1]
        state.spheres[level - 1] = []


def test_the_game_ends_after_the_turn_that_empties_a_second_sphere() -> None:
    state = new_game(2, seed=14)
    seat = state.turn
    _empty_spheres(state, 5)
    pile = state.spheres[0]
    state.discards[0] += pile[1:]
    del pile[1:]
    [spark] = set_hand(state, seat, "spark")
    state, _ = act(state, seat, f"cast:{spark}")
    state, _ = act(state, seat, "end-main")
    state, events = act(state, seat, "buy:1")
    assert state.empty_spheres() == 2 and ENGINE.result(state) is None, "the turn is finished first"
    assert any("Sphere 1 is empty" in e.text for e in events)
    state, _ = act(state, seat, "end-turn")
    result = ENGINE.result(state)
    assert result is not None and state.phase == "over"
    assert len(state.hands[seat]) == 5, "the cleanup of that last turn still happens"


def test_most_knowledge_wins_then_most_ke_then_shared() -> None:
    state = new_game(3, seed=15)
    give(state, 0, "epiphany")  # 5 points
    give(state, 1, "time-fold", "quickening")  # 4 + 1
    give(state, 2, "torrent")  # 3
    state.phase = "over"
    state.ke = [1, 4, 2]
    result = ENGINE.result(state)
    assert result is not None
    assert result.scores == {0: 5.0, 1: 5.0, 2: 3.0}
    assert result.ranking == [[1], [0], [2]], "a tie on knowledge goes to the most Kè"
    state.ke = [3, 3, 4]
    result = ENGINE.result(state)
    assert result is not None and result.ranking == [[0, 1], [2]], "still tied: the win is shared"


def test_a_late_seat_settles_its_timer_and_ends_the_turn_without_spending() -> None:
    state = new_game(2, seed=16)
    seat = state.turn
    timer = _seat_timer(state, seat, "hourglass", ["spark", "spark"])
    state = _next_turn_of(state, seat)
    ke, hand = state.ke[seat], list(state.hands[seat])
    moves = 0
    while state.turn == seat and ENGINE.result(state) is None:
        state = ENGINE.apply(state, seat, ENGINE.default_action(state, seat)).state
        moves += 1
    assert moves == 5  # activate, cast both released spells, go on to buying, end the turn
    assert timer.card in state.discards[seat] and state.ke[seat] == ke
    assert all(c in state.hands[seat] for c in hand), "no card of the hand was spent"


@pytest.mark.parametrize("cap", [None, 2])
def test_a_hand_of_timers_is_never_stuck(cap: int | None) -> None:
    """Decision 3: the rulebook sets no limit on timers in play, so a timer can
    always be set. Under a table's limit a timer that cannot be set may be
    discarded, and the Rest that ends the turn refills the hand."""
    state = new_game(2, seed=3, max_timers=cap)
    seat = state.turn
    set_hand(state, seat)
    _seat_timer(state, seat, "sand-glass", [])
    _seat_timer(state, seat, "water-clock", [])
    set_hand(state, seat, "sand-glass", "sand-glass", "water-clock", "eternal-clock", "eternal-clock")
    setting = [k for k in keys(state) if k.startswith("timer:")]
    if cap is None:
        assert setting, "a third timer may be set"
        assert not [k for k in keys(state) if k.startswith("discard:")]
        state, _ = act(state, seat, setting[0])
        assert len(state.timers[seat]) == 3
        check_invariants(state)
        return
    discarding = [k for k in keys(state) if k.startswith("discard:")]
    assert not setting and set(keys(state)) == {"rest", "end-main", *discarding}
    assert len(discarding) == 3, "one choice per design of timer in hand"
    hand = list(state.hands[seat])
    state, events = act(state, seat, discarding[0])
    [card] = [c for c in hand if c not in state.hands[seat]]
    assert state.discards[seat][-1] == card and state.turn == seat
    assert "discards the timer" in events[0].text and events[0].to is None
    assert "rest" in keys(state), "discarding is not a play: the turn may still be a Rest"
    state, _ = act(state, seat, "rest")
    assert len(state.hands[seat]) == state.options.hand_limit
    assert any(state.spec(c).kind != "timer" for c in state.hands[seat]), "the refill brought other cards"
    check_invariants(state)
