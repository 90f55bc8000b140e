"""Decision 19, the duel's debt: "The winner of the duel takes from the loser
either 4 Globin tokens or 1 Hemo token. If a player lacks the appropriate
tokens but has others, they must exchange them according to the conversion
card" — 4 Globin for 1 Hemo, read both ways — so the loser pays exactly the
debt's worth; only when even that falls short does everything go."""

from __future__ import annotations

import pytest

from engines.once_upon_a_time_life.state import BOX
from engines.once_upon_a_time_life.tokens import Tokens, settle
from tests.engines.test_once_upon_a_time_life_duels import _duel
from tests.engines.test_once_upon_a_time_life_helpers import act, answer, purse, texts


def _lost(loser: Tokens, take: str, winner: Tokens | None = None) -> tuple[object, list[str]]:
    state = _duel()
    purse(state, 1, **loser.model_dump())  # type: ignore[arg-type]
    if winner is not None:
        purse(state, 0, **winner.model_dump())  # type: ignore[arg-type]
    state, _ = answer(state, right=False)  # type: ignore[arg-type]
    state, events = act(state, 0, f"take:{take}")
    return state, texts(events)


def test_the_issue_case_three_globin_and_six_hemo_pay_exactly_four_globin() -> None:
    state, said = _lost(Tokens(globin=3, hemo=6), "globin", winner=Tokens(hemo=1))
    assert state.purses[1] == Tokens(globin=3, hemo=5), "one Hemo changed into 4 Globin, 4 Globin paid"  # type: ignore[attr-defined]
    assert state.purses[0] == Tokens(globin=4, hemo=1), "the winner gets 4 Globin, not six Hemo"  # type: ignore[attr-defined]
    assert "<seat:1> exchanges 1 Hemo for 4 Globin at the bank (the conversion card)." in said
    assert "<seat:0> takes 4 Globin from <seat:1>." in said
    assert state.stage == "act"  # type: ignore[attr-defined]


def test_leukocyte_and_medicine_pairs_are_changed_before_a_hemo() -> None:
    state, said = _lost(Tokens(globin=2, leukocyte=2, medicine=2, hemo=2), "globin")
    assert state.purses[1] == Tokens(hemo=2)  # type: ignore[attr-defined]
    assert (
        "<seat:1> exchanges 2 Leukocyte for 1 Globin and 2 Medicine for 1 Globin at the bank "
        "(the conversion card)." in said
    )


def test_exact_change_is_paid_without_any_exchange() -> None:
    state, said = _lost(Tokens(globin=4, hemo=3), "globin")
    assert state.purses[1] == Tokens(hemo=3)  # type: ignore[attr-defined]
    assert not [s for s in said if "exchanges" in s]
    state, said = _lost(Tokens(globin=9, hemo=1), "hemo")
    assert state.purses[1] == Tokens(globin=9) and state.purses[0].hemo == 1  # type: ignore[attr-defined]
    assert "<seat:0> takes 1 Hemo from <seat:1>." in said


def test_a_loser_without_hemo_changes_four_globin_into_the_hemo_owed() -> None:
    state, said = _lost(Tokens(globin=5, medicine=3), "hemo")
    assert state.purses[1] == Tokens(globin=1, medicine=3)  # type: ignore[attr-defined]
    assert state.purses[0].hemo == 1  # type: ignore[attr-defined]
    assert "<seat:1> exchanges 4 Globin for 1 Hemo at the bank (the conversion card)." in said


def test_a_loser_with_nothing_at_all_pays_nothing() -> None:
    for take in ("globin", "hemo"):
        state, said = _lost(Tokens(), take, winner=Tokens(globin=2))
        assert state.purses[1] == Tokens() and state.purses[0] == Tokens(globin=2)  # type: ignore[attr-defined]
        assert "<seat:1> has no tokens at all to give <seat:0>." in said


def test_tokens_are_conserved_by_every_debt() -> None:
    for loser in (Tokens(globin=3, hemo=6), Tokens(leukocyte=3, medicine=1, globin=1), Tokens(hemo=1)):
        for take in ("globin", "hemo"):
            state, _ = _lost(loser, take)
            total = Tokens()
            for held in [state.bank, *state.purses]:  # type: ignore[attr-defined]
                for kind in ("hemo", "globin", "leukocyte", "medicine"):
                    total.add(kind, held.of(kind))  # type: ignore[arg-type]
            assert total == BOX


@pytest.mark.parametrize(
    ("bank", "paid", "left"),
    [
        (Tokens(globin=4), {"globin": 4}, Tokens(globin=3, hemo=5)),
        # No change at the bank: the Hemo is the debt's worth.
        (Tokens(globin=3), {"hemo": 1}, Tokens(globin=3, hemo=5)),
    ],
)
def test_a_hemo_is_changed_only_when_the_bank_holds_four_globin(
    bank: Tokens, paid: dict[str, int], left: Tokens
) -> None:
    loser, winner = Tokens(globin=3, hemo=6), Tokens()
    assert settle(loser, bank, winner, "globin", 4, break_hemo_too=True).tokens == paid
    assert loser == left


def test_a_virus_never_changes_a_hemo() -> None:
    # "gives up all the tokens they have collected, except for Hemo tokens"
    victim, bank = Tokens(globin=2, hemo=3), Tokens(globin=20)
    paid = settle(victim, bank, bank, "globin", 3, break_hemo_too=False)
    assert paid.everything and paid.tokens == {"globin": 2} and victim == Tokens(hemo=3)
