"""Reading aids: the Chance and Bad Luck cards for /card, the kept card's text
beside the moves that play it, the rules in sections, and the recap."""

from __future__ import annotations

from engines.once_upon_a_time_life import ENGINE
from engines.once_upon_a_time_life.cards import card_spec
from tests.engines.test_once_upon_a_time_life_helpers import act, keep, new_game


def test_card_lists_every_chance_and_bad_luck_design_but_no_question() -> None:
    cards = ENGINE.cards(ENGINE.parse_options())
    kinds = {c.kind for c in cards}
    assert kinds == {"Chance", "Chance, kept secretly", "Bad Luck"}
    assert sum(int(c.facts["copies"]) for c in cards if c.facts["deck"] == "Chance") == 45
    broken = next(c for c in cards if c.key == "broken-arm")
    assert broken.text == "The bone needs weeks to heal. Go to the hospital. Lose 2 turns."
    assert not any("?" in c.text for c in cards)


def test_moves_that_play_a_kept_card_carry_its_text() -> None:
    state = new_game(2)
    keep(state, 0, "master")
    keep(state, 0, "virus")
    keep(state, 1, "master")
    details = {c.key: c.detail for c in ENGINE.legal_actions(state, 0)}
    assert details["duel:1:easy"] == card_spec("master").text
    assert details["virus:1"] == card_spec("virus").text and details["roll"] == ""
    state, _ = act(state, 0, "virus:1")
    details = {c.key: c.detail for c in ENGINE.legal_actions(state, 1)}
    assert details == {"accept": "", "master": card_spec("master").text}


def test_the_rules_come_in_sections_with_the_games_decisions() -> None:
    sections = ENGINE.rules_sections()
    assert [s.key for s in sections if not s.decision] == ["setup", "turn", "spaces", "duel", "end"]
    decisions = [s for s in sections if s.decision]
    assert len(decisions) >= 5 and not any("test_" in s.text or "`tests" in s.text for s in sections)


def test_the_recap_shows_each_purse_its_worth_and_the_cards_still_kept() -> None:
    state = new_game(3)
    keep(state, 2, "virus")
    state.purses[0].hemo, state.purses[0].globin = 7, 0
    state.bank.hemo -= 7
    state.bank.globin += 3
    state.stage, state.winner = "over", 0
    recap = ENGINE.recap(state)
    assert recap.seats[0].lines[0] == "Collected 7 Hemo first"
    assert "Hemo 7 · Globin 0 · Leukocyte 2 · Medicine 2" in recap.seats[0].lines
    assert recap.seats[2].held == ["Virus"] and recap.seats[1].held == ["no kept cards"]
    assert recap.seats[1].lines[-1] == "Worth 5 Globin by the conversion card"
