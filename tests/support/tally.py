"""Tally: a test-only game in which the same move is legal many times in a row.

On its turn a seat taps as often as it likes (each tap counts one), then says
it is done; after every seat has been done once, the most taps wins. It exists
to prove that a move sent twice at once (a double click, a repeated command)
counts once even when the very same move would be legal again.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from engines.core import Choice, Engine, Event, GameInfo, NoOptions, Prompt, Result, Seat, View, seat_ref


class Tap(BaseModel):
    type: Literal["tap"] = "tap"


class Done(BaseModel):
    type: Literal["done"] = "done"


TallyAction = Annotated[Tap | Done, Field(discriminator="type")]


class TallyState(BaseModel):
    taps: list[int]
    turn: int = 0


class TallyView(View):
    taps: list[int]


class Tally(Engine[TallyState, TallyAction]):
    info = GameInfo(
        key="tally",
        title="Tally",
        summary="Tap as often as you like on your turn.",
        min_players=2,
        max_players=4,
        options_model=NoOptions,
    )
    state_type = TallyState
    action_type = TallyAction

    def setup(self, players: int, options: BaseModel, seed: int) -> TallyState:
        self.check_players(players, options)
        return TallyState(taps=[0] * players)

    def prompts(self, state: TallyState) -> list[Prompt]:
        return [] if state.turn >= len(state.taps) else [Prompt(seat=state.turn, text="Tap, or stop")]

    def legal_actions(self, state: TallyState, seat: Seat) -> list[Choice]:
        if seat != state.turn:
            return []
        return [
            Choice(key="tap", label="Tap", steps=["Tap"], action=Tap()),
            Choice(key="done", label="Done", steps=["Done"], action=Done()),
        ]

    def resolve(self, state: TallyState, seat: Seat, action: TallyAction) -> list[Event]:
        if isinstance(action, Tap):
            state.taps[seat] += 1
            return [Event(text=f"{seat_ref(seat)} taps.")]
        state.turn += 1
        return [Event(text=f"{seat_ref(seat)} is done.")]

    def view(self, state: TallyState, viewer: Seat | None) -> TallyView:
        return TallyView(viewer=viewer, headline=f"Taps: {state.taps}", taps=list(state.taps))

    def result(self, state: TallyState) -> Result | None:
        if state.turn < len(state.taps):
            return None
        best = max(state.taps)
        ranking = [[s for s, t in enumerate(state.taps) if t == best]]
        ranking += [[s] for s, t in enumerate(state.taps) if t != best]
        return Result(ranking=ranking, scores={s: float(t) for s, t in enumerate(state.taps)}, summary="")


TALLY = Tally()
