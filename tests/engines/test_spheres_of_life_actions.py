"""Dream Actions against the rulebook: a Steal takes a random card (a known one only after a
legitimate look), and Apple of Life may block another player's Action but never one's own."""

from __future__ import annotations

import pytest

from engines.core import IllegalAction
from engines.spheres_of_life import ENGINE, SolState
from engines.spheres_of_life.actions import Steal, Want
from tests.engines.test_spheres_of_life_helpers import (
    act,
    act_unblocked,
    fresh,
    give,
    keys,
    nobody_blocks,
    to_dream,
)


def _steals(state: SolState, seat: int) -> list[str]:
    return [k for k in keys(state, seat) if k.startswith("steal:")]


# ----- a regular Steal is random -----


def test_the_card_just_picked_in_public_cannot_be_singled_out() -> None:
    """Every received card joins the right end of the hand, so a Steal by position would take the
    card a player just picked in public. The thief chooses a player, never a card or a place."""
    state = to_dream(fresh(3), leader=0)
    give(state, 1, "corrupted-snake", "corrupted-rat")
    (deer,) = give(state, 1, "noble-deer")  # picked in public: everyone knows it is the rightmost
    assert _steals(state, 0) == ["steal:1"]
    choice = ENGINE.choice(state, 0, "steal:1")
    assert choice.action == Steal(target=1) and choice.steps == ["Steal", "<seat:1>"]
    assert "random" in choice.label
    with pytest.raises(IllegalAction, match="random card"):
        ENGINE.apply(state, 0, Steal(target=1, card=deer))


def test_the_thiefs_options_and_view_ignore_the_victims_hand_order() -> None:
    state = to_dream(fresh(3), leader=0)
    give(state, 0, "noble-fox")
    give(state, 1, "noble-deer", "corrupted-snake", "noble-owl")
    twins = [state.model_copy(deep=True) for _ in range(3)]
    twins[1].hands[1] = twins[1].hands[1][::-1]
    twins[2].hands[1] = [twins[2].hands[1][2], *twins[2].hands[1][:2]]
    for seat in (0, 2):
        assert all(ENGINE.legal_actions(t, seat) == ENGINE.legal_actions(state, seat) for t in twins)
        assert all(ENGINE.view(t, seat) == ENGINE.view(state, seat) for t in twins)
    assert all(ENGINE.prompts(t) == ENGINE.prompts(state) for t in twins)


def test_the_random_card_comes_from_the_games_seed() -> None:
    state = to_dream(fresh(3), leader=0)
    give(state, 1, "noble-deer", "corrupted-snake", "noble-owl", "noble-fox")
    first = act_unblocked(state, 0, "steal:1")[0]
    again = act_unblocked(state, 0, "steal:1")[0]
    assert first.hands == again.hands, "the same state and move replay the same steal"
    assert first.rng.draws > state.rng.draws


# ----- what a thief has legitimately seen -----


def _cherry(state: SolState, looker: int, target: int, *positions: int) -> SolState:
    (cherry,) = give(state, looker, "blessed-cherry")
    state = act(state, looker, f"play:{cherry}:{target}")[0]
    while state.pending is not None and state.pending.window:
        state = act(state, state.pending.window[0], "pass")[0]
    for position in positions:
        state = act(state, looker, f"peek:{position}")[0]
    while state.pending is not None:
        state = act(state, looker, keys(state, looker)[0])[0]
    return state


def test_blessed_cherry_lets_the_looker_steal_a_card_it_has_seen() -> None:
    """The FAQ: combine Blessed Cherry with your Steal "to steal a card that you know you will be
    getting"."""
    state = to_dream(fresh(3), leader=0)
    rabbit, snake, deer = give(state, 1, "noble-rabbit", "corrupted-snake", "noble-deer")
    state = _cherry(state, 0, 1, 1, 3)
    assert sorted(_steals(state, 0)) == sorted(["steal:1", f"steal:1:{rabbit}", f"steal:1:{deer}"])
    other = state.model_copy(deep=True)
    assert other.dream is not None
    other.dream.to_act = [2, 0, 1]
    assert _steals(other, 2) == ["steal:1"], "only the looker knows"
    label = ENGINE.choice(state, 0, f"steal:1:{deer}").label
    assert label == "Steal Noble Deer (seen) from <seat:1>"
    with pytest.raises(IllegalAction, match="random card"):
        ENGINE.apply(state, 0, Steal(target=1, card=snake))
    state, events = act_unblocked(state, 0, f"steal:1:{deer}")
    assert deer in state.hands[0] and sorted(state.hands[1]) == sorted([rabbit, snake])
    assert all("Deer" not in e.text for e in events if e.to is None)


def test_reordering_ones_hand_hides_it_again() -> None:
    state = to_dream(fresh(3), leader=0)
    give(state, 1, "noble-rabbit", "corrupted-snake", "noble-deer")
    state = _cherry(state, 0, 1, 1, 2)
    assert len(_steals(state, 0)) == 3
    state = act(state, 1, "reorder:2")[0]
    assert _steals(state, 0) == ["steal:1"]


def test_the_druid_sees_the_whole_hand_and_locks_its_order() -> None:
    state = to_dream(fresh(3), leader=0)
    (druid,) = give(state, 0, "druid")
    rabbit, snake, deer = give(state, 1, "noble-rabbit", "corrupted-snake", "noble-deer")
    state = act(state, 0, f"play:{druid}:1")[0]
    while state.pending is not None and state.pending.window:
        state = act(state, state.pending.window[0], "pass")[0]
    state = act(state, 0, f"take:{rabbit}")[0]
    state = act(state, 0, "done")[0]  # no second card
    state = act(state, 0, "done")[0]  # the rest keeps its order
    assert state.locked[1] and state.pending is None
    assert sorted(_steals(state, 0)) == sorted(["steal:1", f"steal:1:{snake}", f"steal:1:{deer}"])
    state = act_unblocked(state, 0, f"steal:1:{snake}")[0]
    assert snake in state.hands[0] and state.hands[1] == [deer]


def test_a_seen_card_that_leaves_the_hand_is_forgotten() -> None:
    state = to_dream(fresh(3), leader=2)
    rabbit, snake = give(state, 1, "noble-rabbit", "corrupted-snake")
    give(state, 2, "noble-owl")
    state = _cherry(state, 0, 1, 1, 2)
    state = act_unblocked(state, 2, "steal:1")[0]  # one of the two, nobody else knows which
    state = act_unblocked(state, 0, "steal:2")[0]  # it moves on from the thief's hand
    assert state.dream is not None and state.dream.to_act == [1]
    left = [c for c in (rabbit, snake) if c in state.hands[1]]
    assert not any(s.card not in state.hands[s.owner] for s in state.seen)
    assert [s.card for s in state.seen] == left


# ----- Blocking an Action -----


def test_apple_of_life_blocks_another_players_steal() -> None:
    """The FAQ: "you cannot Block your own Action" — the Apple answers other players' Actions."""
    state = to_dream(fresh(3), leader=0)
    (deer,) = give(state, 1, "noble-deer")
    (apple,) = give(state, 2, "apple-of-life")
    state, events = act(state, 0, "steal:1")
    assert state.hands[1] == [deer], "nothing is taken before the window closes"
    prompts = ENGINE.prompts(state)
    assert sorted(p.seat for p in prompts) == [1, 2] and all(p.kind == "response" for p in prompts)
    assert any("Block" in e.text for e in events if e.to is None)
    assert keys(state, 2) == [f"block:{apple}", "pass"] and keys(state, 1) == ["pass"]
    assert keys(state, 0) == [], "one cannot Block one's own Action"
    state = act(state, 2, f"block:{apple}")[0]
    assert sorted(p.seat for p in ENGINE.prompts(state)) == [0, 1, 2]
    state, events = nobody_blocks(state)
    assert state.hands[1] == [deer] and state.hands[0] == [] and apple in state.discard
    assert any("blocked" in e.text for e in events)
    assert state.dream is not None and state.dream.to_act == [1, 2], "a blocked Action is spent"


def test_the_actor_may_block_the_apple_that_blocks_its_action() -> None:
    state = to_dream(fresh(3), leader=0)
    (deer,) = give(state, 1, "noble-deer")
    (mine,) = give(state, 0, "apple-of-life")
    (theirs,) = give(state, 1, "apple-of-life")
    state = act(state, 0, "steal:1")[0]
    state = act(state, 1, f"block:{theirs}")[0]
    assert f"block:{mine}" in keys(state, 0), "the Apple is an Ability: its answer is open to all"
    state = act(state, 0, f"block:{mine}")[0]
    state = nobody_blocks(state)[0]
    assert state.hands[0] == [deer] and {mine, theirs} <= set(state.discard)


def test_a_forced_gift_and_an_exchange_can_be_blocked() -> None:
    state = to_dream(fresh(3), leader=0)
    (snake,) = give(state, 0, "corrupted-snake")
    (apple,) = give(state, 1, "apple-of-life")
    state = act(state, 0, f"gift:{snake}:1")[0]
    state = act(state, 1, f"block:{apple}")[0]
    state = nobody_blocks(state)[0]
    assert state.hands[0] == [snake] and state.hands[1] == []

    (rabbit,) = give(state, 1, "noble-rabbit")
    (deer,) = give(state, 2, "noble-deer")
    (apple,) = give(state, 0, "apple-of-life")
    state = act(state, 1, f"offer:{rabbit}")[0]
    state = act(state, 1, "want:noble-deer")[0]
    state = act(state, 2, "accept")[0]
    assert sorted(p.seat for p in ENGINE.prompts(state)) == [0, 2], "all but the proposer"
    state = act(state, 0, f"block:{apple}")[0]
    state = nobody_blocks(state)[0]
    assert state.hands[1] == [rabbit] and state.hands[2] == [deer]
    assert state.dream is not None and state.dream.to_act == [2]


def test_an_exchange_asks_only_for_a_kind_dealt_into_the_game() -> None:
    """The rulebook's Exchange names "another specific card": one someone may hold. At a table
    trimmed by deal 3 four Ability cards stay in the box, and in the Purist Way every Ability does,
    so the menu never offers them and a move asking for one is refused."""
    trimmed = {"trim": True, "deal": 3}
    for players, raw, out in ((2, trimmed, "whirlwind"), (3, {"purist": True}, "apple-of-life")):
        state = to_dream(fresh(players, **raw), leader=0)
        (rabbit,) = give(state, 0, "noble-rabbit")
        state = act(state, 0, f"offer:{rabbit}")[0]
        wanted = {k.removeprefix("want:") for k in keys(state, 0) if k.startswith("want:")}
        assert wanted == set(state.cards) - {"noble-rabbit"} - {
            k for k in state.cards if state.deck_spec.group(k) == "hero"
        }
        assert out not in wanted and "noble-deer" in wanted
        with pytest.raises(IllegalAction, match="no such card"):
            ENGINE.apply(state, 0, Want(wanted=out))
    state = to_dream(fresh(3), leader=0)
    (rabbit,) = give(state, 0, "noble-rabbit")
    state = act(state, 0, f"offer:{rabbit}")[0]
    assert {"want:whirlwind", "want:apple-of-life"} <= set(keys(state, 0)), "the whole deck at three"
    state = to_dream(fresh(2), leader=0)
    (rabbit,) = give(state, 0, "noble-rabbit")
    state = act(state, 0, f"offer:{rabbit}")[0]
    assert "want:whirlwind" in keys(state, 0), "a new table at two is dealt the whole deck"


def test_the_action_window_does_not_tell_who_holds_an_apple() -> None:
    """The same prompts, in the same order, at the same moment, whoever holds the Apple."""
    seen = []
    for holder in (None, 0, 1, 2):
        state = to_dream(fresh(3), leader=0)
        give(state, 1, "noble-deer", "noble-owl")
        if holder is not None:
            give(state, holder, "apple-of-life")
        steps = []
        state, events = act(state, 0, "steal:1")
        steps.append((ENGINE.prompts(state), [e.text for e in events if e.to is None]))
        for seat in (1, 2):
            state, events = act(state, seat, "pass")
            steps.append((ENGINE.prompts(state), [e.text for e in events if e.to is None]))
        seen.append(steps)
    assert all(s == seen[0] for s in seen)


def test_no_window_when_every_apple_is_face_up() -> None:
    state = to_dream(fresh(3), leader=0)
    give(state, 1, "noble-deer")
    apples = [c for c in state.deck if state.kind(c) == "apple-of-life"]
    for card in apples:
        state.deck.remove(card)
    state.discard += apples
    state = act(state, 0, "steal:1")[0]
    assert state.dream is not None and state.dream.action is None and len(state.hands[0]) == 1
