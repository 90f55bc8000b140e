"""Reading aids: the rules in sections, every card of a table's set for /card,
card text on every choice that names a card, and the recap at the end."""

from __future__ import annotations

import tomllib

from engines.playout import playout
from tests.engines.test_phase_helpers import CUSTOM, ENGINE, act, new_game, put, table


def test_rules_come_in_sections_with_the_games_decisions() -> None:
    sections = ENGINE.rules_sections()
    keys = [s.key for s in sections]
    assert keys[:4] == ["setup", "turn", "scoring", "variants"] and len(set(keys)) == len(keys)
    decisions = [s for s in sections if s.decision]
    assert decisions and all(s.key.startswith("decisions-") and len(s.key) <= 48 for s in decisions)
    for proof in ("test_", "::", "tests/", "| "):
        assert all(proof not in s.text for s in sections), proof
    rulings = next(s for s in decisions if s.title == "Decisions").text
    assert "• Attackers going home — A surviving attacker phases when it goes home" in rulings


def test_cards_come_from_the_tables_own_set_with_both_sides() -> None:
    builtin = {c.key: c for c in ENGINE.cards(ENGINE.parse_options({}))}
    assert len(builtin) == 31 and builtin["berserker"].name == "Berserker / Nighthawk"
    assert "Phaseling" in builtin["berserker"].text and builtin["berserker"].facts["from"] == "the rulebook"
    custom = ENGINE.cards(ENGINE.parse_options({"deck": tomllib.loads(CUSTOM)}))
    assert {c.key for c in custom} == {"twin-a", "twin-b", "lancer", "caller", "sage", "warlord"}


def test_every_choice_naming_a_card_carries_its_text_as_its_chooser_may_read_it() -> None:
    state = new_game(2, seed=1)
    for choice in ENGINE.legal_actions(state, 0):
        card = choice.action.card
        assert choice.detail.startswith(state.side(card, flipped=True).text()), "the side facing me first"
        assert state.side(card).text() in choice.detail, "and its other side: it is my card"
    state = table()
    mine = put(state, 0, "hands", "Trivet")
    theirs = put(state, 1, "play", "Berserker")
    state, _ = act(state, 0, f"order:{mine}")
    [choose, _cancel] = ENGINE.legal_actions(state, 0)
    assert choose.detail == state.side(theirs).text(), "an opponent's warrior: its active side only"
    assert "Nighthawk" not in choose.detail


def test_the_recap_gives_each_players_influence_and_what_they_held() -> None:
    state, result = playout(ENGINE, 3, seed=2)
    recap = ENGINE.recap(state)
    for seat in recap.seats:
        good, evil = state.influence[seat.seat]  # type: ignore[attr-defined]
        assert seat.lines[:2] == [f"Good influence: {good}", f"Evil influence: {evil}"]
        assert f"Most of a single kind: {int(result.scores[seat.seat])}" in seat.lines[2]
        assert len([h for h in seat.held if "(in hand" in h]) == len(state.hands[seat.seat])  # type: ignore[attr-defined]
    assert "rounds" in recap.history[0]
