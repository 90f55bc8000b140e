"""Setup, options, variants and the tarot as data."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.core import IllegalAction
from engines.scales_of_influence import ENGINE, parse_deck
from engines.scales_of_influence.cards import BUILTIN_DECK, ELEMENT_EMOJI
from engines.scales_of_influence.state import TOKENS
from tests.engines.test_scales_of_influence_helpers import check_invariants, new_game, options


@pytest.mark.parametrize("players", range(3, 8))
def test_setup_follows_the_rulebook(players: int) -> None:
    state = ENGINE.setup(players, options(), 11)
    assert state.energy == [3] * players and state.source_energy == 50 - 3 * players
    assert all(len(h) == 3 for h in state.hands) and len(state.deck) == 77 - 3 * players
    assert sorted(state.source_tokens) == sorted(TOKENS) and Counter(TOKENS) == {
        3: 1,
        2: 3,
        1: 6,
        -2: 2,
        -1: 4,
    }
    assert state.phase == "sun" and state.turn is not None and state.turn.seat == state.traveler
    assert all(p.holder is None and not p.cards for p in state.reading)
    check_invariants(state)


@pytest.mark.parametrize("players", [3, 5, 7])
def test_odd_count_deal(players: int) -> None:
    for seed in range(20):
        count = Counter(ENGINE.setup(players, options(), seed).alignments)
        assert count["harmony"] == 1 and count["shadow"] == count["light"] == players // 2


@pytest.mark.parametrize("players", [4, 6])
def test_even_count_deal_replaces_one_with_harmony(players: int) -> None:
    seen = set()
    for seed in range(30):
        count = Counter(ENGINE.setup(players, options(), seed).alignments)
        assert count["harmony"] == 1 and count["shadow"] + count["light"] == players - 1
        assert {count["shadow"], count["light"]} == {players // 2, players // 2 - 1}
        seen.add(count["shadow"])
    assert len(seen) == 2, "either side may lose a card to Harmony"


@pytest.mark.parametrize("players", [4, 6])
def test_shadow_vs_light_variant(players: int) -> None:
    state = ENGINE.setup(players, ENGINE.parse_options({"preset": "shadow-vs-light"}), 2)
    assert Counter(state.alignments) == {"shadow": players // 2, "light": players // 2} and not state.harmony


def test_variant_needs_an_even_count() -> None:
    for players in (3, 5, 7):
        with pytest.raises(IllegalAction, match="even number"):
            ENGINE.setup(players, options(variant="shadow-vs-light"), 1)
    assert ENGINE.seat_range(options(variant="shadow-vs-light")) == (4, 6)
    with pytest.raises(IllegalAction, match="3–7 players"):
        ENGINE.setup(8, options(), 1)


def test_traveler_host_chosen_or_random() -> None:
    assert new_game(5, traveler=3).traveler == 3
    travelers = {ENGINE.setup(5, options(), seed).traveler for seed in range(30)}
    assert len(travelers) > 2
    with pytest.raises(IllegalAction, match="seat from 0 to 3"):
        ENGINE.setup(4, options(traveler=5), 1)
    with pytest.raises(IllegalAction, match="Bad option"):
        ENGINE.parse_options({"colour": "red"})


def test_builtin_tarot_structure() -> None:
    cards = BUILTIN_DECK.cards
    assert len(cards) == 77
    stars = sorted(c.rank for c in cards if c.star)
    assert stars == list(range(1, 22))
    for element in ("fire", "water", "air", "earth"):
        assert sorted(c.rank for c in cards if c.element == element) == list(range(1, 15))
    named = {c.name: c for c in cards if c.origin == "rulebook"}
    assert set(named) == {"Deception", "The Fighter", "The Light"}
    assert (
        named["The Fighter"].effect[0].do == "block" and named["The Light"].rank > named["The Fighter"].rank
    )
    assert all(c.ability() and c.short().startswith(ELEMENT_EMOJI[c.element]) for c in cards)


def test_strength_grows_with_rank() -> None:
    for element in ("fire", "water", "air", "earth", "spirit"):
        ranked = sorted((c for c in BUILTIN_DECK.cards if c.element == element), key=lambda c: c.rank)
        low = sum(s.n for c in ranked[:4] for s in c.effect)
        high = sum(s.n for c in ranked[-4:] for s in c.effect)
        assert high > low, element


# The rulebook's suits: "Fire affects Energy • Water affects Influence • Air affects players •
# Earth affects cards", said of the Minor Arcana (ranks 1-10). Which suits each primitive fits.
FITS = {
    "gain": {"fire"},
    "scale_add": {"fire"},
    "scale_remove": {"fire"},
    "scale_move": {"fire"},
    "take": {"fire", "air"},  # a player's Energy
    "drain_all": {"fire", "air"},
    "give_influence": {"water"},
    "blind_token": {"water"},
    "switch_token": {"water"},
    "return_token": {"water"},
    "steal_card": {"air", "earth"},  # a player's cards
    "discard_random": {"air", "earth"},
    "each_discard": {"air", "earth"},
    "draw": {"earth"},
    "block": set(),
}


def test_minor_arcana_follow_their_suit() -> None:
    minors = [c for c in BUILTIN_DECK.cards if c.element != "spirit" and c.rank <= 10]
    assert len(minors) == 40
    wrong = [f"{c.name}: {s.do}" for c in minors for s in c.effect if c.element not in FITS[s.do]]
    assert wrong == []


def test_the_deck_model_knows_the_same_suits() -> None:
    from engines.scales_of_influence.cards import SUIT_OF

    assert {do: set(suits) for do, suits in SUIT_OF.items()} == FITS


MINI = """
name = "Mini"
{cards}
"""


def _mini_deck(count: int = 40) -> str:
    cards = []
    for i in range(count):
        element = "spirit" if i < 10 else "fire"
        rank = i + 1 if i < 10 else (i % 14) + 1
        cards.append(
            f'[[cards]]\nname = "C{i}"\nelement = "{element}"\nrank = {rank}\neffect = [{{ do = "gain" }}]\n'
        )
    return MINI.format(cards="\n".join(cards))


def test_custom_deck_plays_and_survives_a_round_trip() -> None:
    deck = parse_deck(_mini_deck())
    state = ENGINE.setup(4, ENGINE.parse_options({"deck": deck.model_dump()}), 5)
    assert len(state.tarot.cards) == 40 and len(state.deck) == 28
    assert ENGINE.load_state(ENGINE.dump_state(state)) == state
    from engines.playout import playout

    _final, result = playout(ENGINE, 4, options(deck=deck.model_dump()), seed=3)
    assert result.winners


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name = ", "not valid TOML"),
        ('name = "x"\ncards = []', "cards"),
        (_mini_deck().replace('do = "gain"', 'do = "explode"', 1), "cards.0.effect.0.do"),
        (
            _mini_deck().replace('element = "fire"\nrank = 11', 'element = "fire"\nrank = 19', 1),
            "Hand cards rank 1 to 14",
        ),
        (_mini_deck().replace('name = "C1"', 'name = "C0"'), "two cards are named"),
        (
            _mini_deck().replace(
                'effect = [{ do = "gain" }]', 'effect = [{ do = "give_influence" }, { do = "gain" }]', 1
            ),
            "Give Influence must be the last step",
        ),
        (
            _mini_deck().replace(
                'rank = 11\neffect = [{ do = "gain" }]', 'rank = 11\neffect = [{ do = "block" }]', 1
            ),
            "only Shooting Stars can block",
        ),
        (
            _mini_deck().replace(
                'element = "fire"\nrank = 3\neffect = [{ do = "gain" }]',
                'element = "water"\nrank = 3\neffect = [{ do = "gain" }, { do = "give_influence" }]',
                1,
            ),
            r"cards\.16: C16 is a Minor Arcana card of Water, which affects Influence: gain does not",
        ),
    ],
)
def test_bad_deck_files_are_refused_with_a_sentence(text: str, message: str) -> None:
    with pytest.raises(IllegalAction, match=message):
        parse_deck(text)


def test_game_info() -> None:
    info = ENGINE.info
    assert info.key == "scales-of-influence" and info.title == "Scales of Influence"
    assert (info.min_players, info.max_players) == (3, 7) and len(info.help) <= 1000
    for name, field in info.options_model.model_fields.items():
        assert field.description, name
