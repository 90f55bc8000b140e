"""A public picture cannot show what the public text may not: twin states that
differ only in hidden information (a hand, the deck order, an alignment) give
byte-identical table pictures, while the owner's hand picture does change."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from bot.render.pictures import PICTURES
from bot.render.pictures.base import to_png
from engines.core import Engine
from engines.registry import get_engine
from tests.engines.test_phase_secrecy import fallen_scout
from tests.render.states import NAMES, played


def _swap_with_deck(state: Any, seat: int) -> Any:
    """A twin whose ``seat`` holds a different card (taken from the deck), deck reversed."""
    twin = state.model_copy(deep=True)

    def same(a: int, b: int) -> bool:
        # Copies of one card look alike: Spheres' kinds, Time Masters' card specs.
        if hasattr(twin, "cards"):
            return bool(twin.cards[a] == twin.cards[b])
        if hasattr(twin, "spec"):
            return bool(twin.spec(a).id == twin.spec(b).id)
        return False

    hand = twin.hands[seat]
    deck = twin.deck if hasattr(twin, "deck") else twin.decks[seat]
    j = next(j for j, card in enumerate(deck) if not same(card, hand[0]))
    hand[0], deck[j] = deck[j], hand[0]
    deck.reverse()
    return twin


def _pictures(
    engine: Engine[Any, Any], state: BaseModel, game: str, players: int, seat: int = 0
) -> tuple[bytes, bytes]:
    renderer = PICTURES[game]
    table = to_png(renderer.table(engine.view(state, None), NAMES[:players]))
    hand = renderer.hand(engine.view(state, seat), NAMES[:players])
    assert hand is not None
    return table, to_png(hand)


@pytest.mark.parametrize(
    ("game", "players", "seed", "moves"),
    [
        ("spheres-of-life", 4, 3, 60),
        ("spheres-of-life", 3, 8, 150),
        ("scales-of-influence", 5, 4, 40),
        ("scales-of-influence", 4, 2, 120),
        ("time-masters", 3, 2, 40),
        ("time-masters", 4, 5, 30),
    ],
)
def test_a_different_hidden_hand_gives_the_same_table_picture(
    game: str, players: int, seed: int, moves: int
) -> None:
    engine, state = played(game, players, seed, moves)
    seat = next(s for s in range(players) if state.hands[s])  # type: ignore[attr-defined]
    twin = _swap_with_deck(state, seat)
    assert engine.view(twin, None) == engine.view(state, None), "the twin differs only in what is hidden"
    table, hand = _pictures(engine, state, game, players, seat)
    twin_table, twin_hand = _pictures(engine, twin, game, players, seat)
    assert twin_table == table
    assert twin_hand != hand, "the owner's own picture shows the card that changed"


@pytest.mark.parametrize(("players", "seed", "moves"), [(5, 4, 40), (4, 2, 120)])
def test_swapped_alignments_give_the_same_table_picture(players: int, seed: int, moves: int) -> None:
    engine, state = played("scales-of-influence", players, seed, moves)
    twin = state.model_copy(deep=True)
    other = next(s for s in range(players) if twin.alignments[s] != twin.alignments[0])
    twin.alignments[0], twin.alignments[other] = twin.alignments[other], twin.alignments[0]
    table, hand = _pictures(engine, state, "scales-of-influence", players)
    twin_table, twin_hand = _pictures(engine, twin, "scales-of-influence", players)
    assert twin_table == table
    assert twin_hand != hand, "my hand picture names my own alignment"


@pytest.mark.parametrize("players", [3, 4])
def test_a_different_secret_kept_card_gives_the_same_life_table_picture(players: int) -> None:
    """Once Upon a Time… Life: a kept Master turned Virus (or back), the Chance pile reversed."""
    # The first seeded game in which someone keeps a card by move 80.
    engine, state = next(
        (engine, state)
        for seed in range(60)
        for engine, state in [played("once-upon-a-time-life", players, seed, 80)]
        if any(state.hands[s] for s in range(players))  # type: ignore[attr-defined]
    )
    seat = next(s for s in range(players) if state.hands[s])  # type: ignore[attr-defined]
    twin = state.model_copy(deep=True)
    card = twin.hands[seat][0]
    twin.chance_cards[card] = "virus" if twin.chance_cards[card] == "master" else "master"
    twin.chance.reverse()
    assert engine.view(twin, None) == engine.view(state, None), "the twin differs only in what is hidden"
    table, hand = _pictures(engine, state, "once-upon-a-time-life", players, seat)
    twin_table, twin_hand = _pictures(engine, twin, "once-upon-a-time-life", players, seat)
    assert twin_table == table
    assert twin_hand != hand, "the owner's own picture shows the card that changed"


@pytest.mark.parametrize(("players", "seed", "moves"), [(3, 3, 80), (2, 1, 400)])
def test_a_different_inward_side_gives_the_same_phase_table_picture(
    players: int, seed: int, moves: int
) -> None:
    """Phase: the side of a hand card that faces its player is all another may not see."""
    engine, state = played("phase", players, seed, moves)
    twins = [(seat, _inward_changed(state, card)) for seat in range(players) for card in state.hands[seat]]  # type: ignore[attr-defined]
    # A hand card none of whose copies shows its inward side anywhere in public.
    seat, twin = next((s, t) for s, t in twins if engine.view(t, None) == engine.view(state, None))
    table, hand = _pictures(engine, state, "phase", players, seat)
    twin_table, twin_hand = _pictures(engine, twin, "phase", players, seat)
    assert twin_table == table
    assert twin_hand != hand, "the owner's own picture shows the side facing them"


def _inward_changed(state: Any, card: int) -> Any:
    """A twin whose ``card`` has another side facing its player, every deck below its top reversed."""
    twin = state.model_copy(deep=True)
    deck = twin.card_set.model_dump()
    spec = next(s for s in deck["cards"] if s["id"] == twin.cards[card])
    spec["sides"][twin.face[card] ^ 1]["title"] = "Hidden Changeling"
    twin.custom = type(twin.card_set).model_validate(deck)
    for pile in twin.decks:
        pile[:-1] = pile[-2::-1]
    return twin


@pytest.mark.parametrize(("players", "seed", "moves"), [(2, 1, 109), (2, 5, 309)])
def test_a_different_inward_side_gives_the_same_phase_table_picture_in_a_skirmish(
    players: int, seed: int, moves: int
) -> None:
    """Phase mid-skirmish: the skirmishes listed, one of them resolved, none hiding a hand's inward side."""
    engine, state = played("phase", players, seed, moves)
    assert state.step == "skirmish" and any(f.done for f in state.skirmishes)  # type: ignore[attr-defined]
    twins = [(seat, _inward_changed(state, card)) for seat in range(players) for card in state.hands[seat]]  # type: ignore[attr-defined]
    seat, twin = next((s, t) for s, t in twins if engine.view(t, None) == engine.view(state, None))
    table, hand = _pictures(engine, state, "phase", players, seat)
    twin_table, twin_hand = _pictures(engine, twin, "phase", players, seat)
    assert twin_table == table
    assert twin_hand != hand, "the owner's own picture shows the side facing them"


def test_a_fallen_attackers_hidden_face_gives_the_same_phase_table_picture() -> None:
    """Phase: a destroyed attacker shuffled back into its deck is drawn as it fell, whatever its face."""
    engine = get_engine("phase")
    for seed in range(12):
        state, scout = fallen_scout(seed)
        if scout in state.decks[0][:-1]:
            break
    else:
        raise AssertionError("Scout never lay under its deck's top")
    twin = state.model_copy(deep=True)
    twin.face[scout] ^= 1
    pictures = PICTURES["phase"]
    table = to_png(pictures.table(engine.view(state, None), NAMES[:2]))
    assert to_png(pictures.table(engine.view(twin, None), NAMES[:2])) == table
    assert to_png(pictures.table(engine.view(twin, 1), NAMES[:2])) == to_png(
        pictures.table(engine.view(state, 1), NAMES[:2])
    )
