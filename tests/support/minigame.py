"""High Card: a minimal hidden-hand game for the runtime's own tests.

Each seat is dealt three secret cards (1–9). In turn order every seat plays one
card face up, for two rounds; after every play the other seats get a response
window in which they may "cheer" or pass (so windows and secret hands both get
exercised). Highest total of played cards wins; ties share first place.
Never registered in the bot's game list: it exists for tests only.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from engines.core import (
    Choice,
    Engine,
    Event,
    GameInfo,
    IllegalAction,
    Prompt,
    Result,
    Rng,
    Seat,
    View,
    seat_ref,
)


class HighCardOptions(BaseModel):
    rounds: int = Field(default=2, ge=1, le=3)


class Play(BaseModel):
    type: Literal["play"] = "play"
    card: int


class Cheer(BaseModel):
    type: Literal["cheer"] = "cheer"


class Pass(BaseModel):
    type: Literal["pass"] = "pass"


HighCardAction = Annotated[Play | Cheer | Pass, Field(discriminator="type")]


class HighCardState(BaseModel):
    players: int
    rounds: int
    rng: Rng
    hands: list[list[int]]
    played: list[list[int]]
    turn: int = 0
    plays_made: int = 0
    window: list[Seat] = Field(default_factory=list)
    cheers: list[int]
    last_player: int = 0


class HighCardView(View):
    hand: list[int] | None
    played: list[list[int]]
    hand_sizes: list[int]
    cheers: list[int]
    turn: Seat | None


class HighCard(Engine[HighCardState, HighCardAction]):
    info = GameInfo(
        key="high-card",
        title="High Card",
        summary="Play your best cards face up.",
        min_players=2,
        max_players=6,
        options_model=HighCardOptions,
        presets={"quick": {"rounds": 1}},
    )
    state_type = HighCardState
    action_type = HighCardAction

    def setup(self, players: int, options: BaseModel, seed: int) -> HighCardState:
        assert isinstance(options, HighCardOptions)
        self.check_players(players, options)
        rng = Rng(seed=seed)
        deck = [n for n in range(1, 10)] * 2
        rng.shuffle(deck)
        hands = [sorted(deck[i * 3 : (i + 1) * 3]) for i in range(players)]
        return HighCardState(
            players=players,
            rounds=options.rounds,
            rng=rng,
            hands=hands,
            played=[[] for _ in range(players)],
            cheers=[0] * players,
        )

    def _over(self, state: HighCardState) -> bool:
        return state.plays_made >= state.players * state.rounds and not state.window

    def prompts(self, state: HighCardState) -> list[Prompt]:
        if self._over(state):
            return []
        if state.window:
            return [Prompt(seat=s, kind="response", text="Cheer or pass") for s in state.window]
        return [Prompt(seat=state.turn, text="Play a card")]

    def legal_actions(self, state: HighCardState, seat: Seat) -> list[Choice]:
        if all(p.seat != seat for p in self.prompts(state)):
            return []
        if state.window:
            return [
                Choice(key="cheer", label="Cheer", steps=["Cheer"], action=Cheer()),
                Choice(key="pass", label="Pass", steps=["Pass"], action=Pass()),
            ]
        return [
            Choice(key=f"play:{c}", label=f"Play {c}", steps=["Play", str(c)], action=Play(card=c))
            for c in sorted(set(state.hands[seat]))
        ]

    def validate(self, state: HighCardState, seat: Seat, action: HighCardAction) -> None:
        if isinstance(action, Play) and action.card not in state.hands[seat]:
            raise IllegalAction("You do not hold that card.")

    def resolve(self, state: HighCardState, seat: Seat, action: HighCardAction) -> list[Event]:
        if isinstance(action, Play):
            state.hands[seat].remove(action.card)
            state.played[seat].append(action.card)
            state.plays_made += 1
            state.last_player = seat
            state.turn = (state.turn + 1) % state.players
            state.window = [s for s in range(state.players) if s != seat]
            return [Event(text=f"{seat_ref(seat)} plays {action.card}.")]
        state.window.remove(seat)
        if isinstance(action, Cheer):
            state.cheers[seat] += 1
            whisper = Event(text=f"{seat_ref(seat)} whispers to you: well played.", to=[state.last_player])
            return [Event(text=f"{seat_ref(seat)} cheers."), whisper]
        return []

    def view(self, state: HighCardState, viewer: Seat | None) -> HighCardView:
        turn = None if self._over(state) or state.window else state.turn
        return HighCardView(
            viewer=viewer,
            headline="Game over" if self._over(state) else f"Round {state.plays_made // state.players + 1}",
            hand=list(state.hands[viewer]) if viewer is not None else None,
            played=[list(p) for p in state.played],
            hand_sizes=[len(h) for h in state.hands],
            cheers=list(state.cheers),
            turn=turn,
        )

    def result(self, state: HighCardState) -> Result | None:
        if not self._over(state):
            return None
        totals = {s: float(sum(state.played[s])) for s in range(state.players)}
        order = sorted(set(totals.values()), reverse=True)
        ranking = [[s for s in totals if totals[s] == t] for t in order]
        return Result(ranking=ranking, scores=totals, summary="Highest total wins.")


HIGH_CARD = HighCard()
