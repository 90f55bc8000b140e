"""Decision 17: options and decks under which a game could never end are refused
at create, in a sentence; every game accepted can end."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.core import IllegalAction
from engines.playout import playout
from engines.time_masters import DeckSpec, TmOptions
from engines.time_masters.actions import Load
from engines.time_masters.cards import builtin_deck
from engines.time_masters.playable import why_unplayable
from engines.time_masters.state import TmState
from tests.engines.test_time_masters_helpers import ENGINE, check_invariants

# The longest a random game of the small decks below may take; the built-in deck's take ~2,000.
CAP = 20_000


def _card(id: str, level: int, kind: str = "spell", copies: int = 1, **more: Any) -> dict[str, Any]:
    return {"id": id, "name": id.title(), "kind": kind, "level": level, "copies": copies, **more}


def _deck(starting: list[dict[str, Any]]) -> dict[str, Any]:
    spheres = [_card(f"lore-{n}", n, "focus", copies=3) for n in range(1, 6)]
    return {"name": "Test deck", "cards": [*starting, *spheres]}


def test_the_issue_repro_a_ke_limit_below_a_spells_cost_is_refused_at_create() -> None:
    # "You start the game with 4 Ke": the built-in Epiphany costs 4, so ke 1 locked a game for ever.
    with pytest.raises(IllegalAction, match=r"Epiphany costs 4 Kè .* Set ke to at least 4") as refused:
        ENGINE.parse_options({"ke": 1})
    assert "\n" not in refused.value.reason
    for ke in range(4, 11):
        assert ENGINE.parse_options({"ke": ke}).ke == ke  # type: ignore[attr-defined]


def test_five_five_ke_spells_at_the_default_four_ke_are_refused() -> None:
    raw = _deck([_card("blaze", 0, cost=5, copies=5)])
    with pytest.raises(IllegalAction, match="Blaze costs 5 Kè but a player can never hold more than 4"):
        ENGINE.parse_options({"deck": raw})
    with pytest.raises(IllegalAction, match="no turn can give two access points"):
        ENGINE.parse_options({"deck": raw, "ke": 5})  # one 5-Kè spell a turn: sphere 2 out of reach
    assert ENGINE.parse_options({"deck": raw, "ke": 10}).ke == 10  # type: ignore[attr-defined]


def test_setup_refuses_what_parse_options_refuses() -> None:
    # Options built without parse_options (a test, a replay) meet the same check.
    with pytest.raises(IllegalAction, match="could never be cast"):
        ENGINE.setup(2, TmOptions(ke=2), 1)


@pytest.mark.parametrize(
    ("starting", "ke", "words"),
    [
        ([_card("calm", 0, "focus", copies=5, effects=[{"do": "gain_ke"}])], 4, "has no spell"),
        ([_card("spark", 0, cost=1), _card("calm", 0, "focus", copies=4)], 4, "two access points"),
        ([_card("spark", 0, cost=3, copies=5)], 4, "two access points"),
    ],
)
def test_a_deck_that_could_never_empty_two_spheres_is_refused(
    starting: list[dict[str, Any]], ke: int, words: str
) -> None:
    deck = DeckSpec.model_validate(_deck(starting))
    reason = why_unplayable(deck, TmOptions(ke=ke))
    assert reason is not None and words in reason


@pytest.mark.parametrize(
    "starting",
    [
        [_card("spark", 0, cost=3, copies=4), _card("deep", 0, "focus", effects=[{"do": "gain_ke", "n": 2}])],
        [_card("spark", 0, cost=3, copies=4), _card("sand", 0, "timer", capacity=1)],
        [_card("surge", 0, cost=4, effects=[{"do": "access"}]), _card("calm", 0, "focus", copies=4)],
    ],
)
def test_each_way_to_two_access_points_is_accepted_and_ends(starting: list[dict[str, Any]]) -> None:
    options = ENGINE.parse_options({"deck": _deck(starting)})
    state, _ = playout(ENGINE, 2, options=options, seed=3, checked=False, max_steps=CAP)
    check_invariants(state)  # type: ignore[arg-type]


EFFECT = st.fixed_dictionaries(
    {
        "do": st.sampled_from(["gain_ke", "draw", "access", "drain", "disrupt", "refresh_ke"]),
        "n": st.integers(1, 2),
    }
)


@st.composite
def cards(draw: st.DrawFn, level: int, index: int) -> dict[str, Any]:
    kind = draw(st.sampled_from(["spell", "spell", "focus", "timer"]))
    card = _card(f"c{level}-{index}", level, kind, copies=draw(st.integers(1, 4 if level else 5)))
    if kind == "spell":
        card["cost"] = draw(st.integers(0, 6))
    if kind == "timer":
        card["capacity"] = draw(st.integers(1, 4))
    else:
        card["effects"] = draw(st.lists(EFFECT, max_size=2))
    return card


@st.composite
def decks(draw: st.DrawFn) -> DeckSpec:
    chosen: list[dict[str, Any]] = []
    for level in range(6):
        chosen += [draw(cards(level, i)) for i in range(draw(st.integers(2 if level == 0 else 1, 3)))]
    starting = sum(c["copies"] for c in chosen if c["level"] == 0)
    if starting < 5:
        chosen[0]["copies"] += 5 - starting
    return DeckSpec.model_validate({"name": "Drawn deck", "cards": chosen})


OPTIONS = st.fixed_dictionaries(
    {
        "ke": st.integers(1, 10),
        "hand_limit": st.integers(3, 8),
        "max_timers": st.one_of(st.none(), st.integers(1, 4)),
    }
)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    deck=st.one_of(st.just(builtin_deck()), decks()),
    raw=OPTIONS,
    players=st.integers(2, 4),
    seed=st.integers(0, 10_000),
)
def test_every_accepted_game_ends_and_every_refusal_is_a_sentence(
    deck: DeckSpec, raw: dict[str, Any], players: int, seed: int
) -> None:
    try:
        options = ENGINE.parse_options({**raw, "deck": deck.model_dump(mode="json")})
    except IllegalAction as refused:
        assert refused.reason.endswith(".") and "\n" not in refused.reason
        assert why_unplayable(deck, TmOptions(**raw)) is not None
        return
    state = careful_playout(options, players, seed)
    result = ENGINE.result(state)
    assert result is not None and state.empty_spheres() >= 2
    assert sorted(s for group in result.ranking for s in group) == list(range(players))


def careful_playout(options: Any, players: int, seed: int) -> TmState:
    """Random legal moves, but never laying a spell on a timer its owner has too few
    other spells to fill: spells on a timer never full stay there for good, a trap
    a player can walk into with any deck (the built-in one too). The check at
    create promises a way to the end, and a careful random player finds it."""
    rng = random.Random(seed)
    state = ENGINE.setup(players, options, seed)
    for _ in range(CAP):
        if state.phase == "over":
            return state
        choices = [c for c in ENGINE.moves(state, state.turn) if _fillable(state, c.action)]
        state = ENGINE.apply(state, state.turn, rng.choice(choices).action, legal=True).state
    raise AssertionError(f"the game did not end within {CAP} careful moves")


def _fillable(state: TmState, action: object) -> bool:
    if not isinstance(action, Load):
        return True
    timer = next(t for t in state.timers[state.turn] if t.card == action.timer)
    free = [
        c
        for c in state.owned(state.turn)
        if state.spec(c).kind == "spell"
        and c != action.card
        and not any(c in t.spells for t in state.timers[state.turn])
    ]
    return len(free) >= state.spec(timer.card).capacity - len(timer.spells) - 1
