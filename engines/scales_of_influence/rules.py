"""The Scales of Influence engine: the contract of ``engines.core`` for this game."""

from __future__ import annotations

import random
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engines.core import (
    CardText,
    Choice,
    Engine,
    Event,
    GameInfo,
    IllegalAction,
    Prompt,
    Recap,
    Result,
    Rng,
    Seat,
)
from engines.scales_of_influence import allegiance, hidden, reading
from engines.scales_of_influence import choices as menu
from engines.scales_of_influence.actions import (
    Eclipse,
    EclipseStar,
    PickToken,
    PlayCard,
    ShootingStar,
    SoiAction,
)
from engines.scales_of_influence.awaiting import awaited
from engines.scales_of_influence.cards import BUILTIN_DECK, Deck
from engines.scales_of_influence.checks import check_action
from engines.scales_of_influence.flow import settle
from engines.scales_of_influence.moves import carry_out_move
from engines.scales_of_influence.state import ENERGY_TOTAL, TOKENS, Alignment, SoiState
from engines.scales_of_influence.views import SoiView, build_view
from engines.scales_of_influence.views import headline as view_headline

HELP = (
    "Hidden alignments: Shadow and Light want 10+ Energy and the most on the Scale at the end of a "
    "Weighing; Harmony wants both sides equal at 5+ at any moment.\n"
    "Each day: ☀️ Sun — on your turn Receive (draw or +1 Energy), then Release (play a Hand card to a "
    "free Past/Present/Future placement, or Give Influence: draw 2 tokens in secret, put 1 in the Shadow "
    "or Light bag); Channel once per turn. 🌙 Moon — each may Eclipse a Reading card with a higher card "
    "of its element (pay 1 Energy to its holder). 🔮 Reading — Past, Present, Future resolve. ⚖️ Weighing — "
    "the bags are revealed and move the Scale.\n"
    "🌠 Shooting Stars can be played any time (1+ Energy) and Eclipsed by higher stars. The Shaman (most "
    "Energy) may once a day return 2 Energy to block a star, add 2 to a side or return 1 revealed token."
)


class SoiOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    variant: Literal["standard", "shadow-vs-light"] = Field(
        default="standard",
        description="standard: with a Harmony player; shadow-vs-light: even counts only, no Harmony.",
    )
    traveler: int | None = Field(
        default=None, ge=0, le=6, description="Seat of the first Traveler (0 = first seat); empty = random."
    )
    deck: Deck | None = Field(
        default=None, description="A custom Traveler's Tarot; empty = the built-in one."
    )


def deal_alignments(players: int, harmony: bool, rng: Rng) -> list[Alignment]:
    """Odd: one Harmony and equal Shadow/Light. Even: equal Shadow/Light, one replaced by Harmony."""
    half = players // 2
    shadow: list[Alignment] = ["shadow"] * half
    light: list[Alignment] = ["light"] * half
    cards = shadow + light
    if players % 2:
        cards.append("harmony")
    elif harmony:
        rng.shuffle(cards)
        cards[0] = "harmony"
    rng.shuffle(cards)
    return cards


class ScalesOfInfluence(Engine[SoiState, SoiAction]):
    info = GameInfo(
        key="scales-of-influence",
        title="Scales of Influence",
        summary="Hidden alignments tip the Scale with tarot, secret Influence and Shooting Stars.",
        min_players=3,
        max_players=7,
        options_model=SoiOptions,
        presets={"standard": {"variant": "standard"}, "shadow-vs-light": {"variant": "shadow-vs-light"}},
        help=HELP,
    )
    state_type = SoiState
    action_type = SoiAction

    def seat_range(self, options: BaseModel) -> tuple[int, int]:
        if isinstance(options, SoiOptions) and options.variant == "shadow-vs-light":
            return 4, 6
        return 3, 7

    def check_players(self, players: int, options: BaseModel) -> None:
        if isinstance(options, SoiOptions) and options.variant == "shadow-vs-light" and players not in (4, 6):
            raise IllegalAction("Shadow vs Light needs an even number of players (4 or 6).")
        super().check_players(players, options)

    def setup(self, players: int, options: BaseModel, seed: int) -> SoiState:
        assert isinstance(options, SoiOptions)
        self.check_players(players, options)
        if options.traveler is not None and options.traveler >= players:
            raise IllegalAction(f"The first Traveler must be a seat from 0 to {players - 1}.")
        rng = Rng(seed=seed)
        harmony = options.variant == "standard"
        alignments = deal_alignments(players, harmony, rng)
        tarot = options.deck or BUILTIN_DECK
        deck = list(range(len(tarot.cards)))
        rng.shuffle(deck)
        hands = [[deck.pop() for _ in range(3)] for _ in range(players)]
        traveler = options.traveler if options.traveler is not None else rng.below(players)
        state = SoiState(
            players=players,
            harmony=harmony,
            rng=rng,
            tarot=tarot,
            alignments=alignments,
            deck=deck,
            hands=hands,
            energy=[3] * players,
            source_energy=ENERGY_TOTAL - 3 * players,
            source_tokens=list(TOKENS),
            traveler=traveler,
            first_traveler=traveler,
        )
        settle(state, [])
        return state

    def prompts(self, state: SoiState) -> list[Prompt]:
        waiting = awaited(state)
        if waiting is None:
            return []
        seat, kind, text = waiting
        anytime = "At any time: play a Shooting Star (1+ Energy) or use the Shaman's power."
        return [
            Prompt(seat=s, kind=kind, text=text)
            if s == seat
            else Prompt(seat=s, kind="anytime", text=anytime)
            for s in range(state.players)
        ]

    def legal_actions(self, state: SoiState, seat: Seat) -> list[Choice]:
        waiting = awaited(state)
        if waiting is None or not 0 <= seat < state.players:
            return []
        mine = menu.awaited_choices(state, seat) if waiting[0] == seat else []
        seen = {c.key for c in mine}
        return mine + [c for c in menu.anytime_choices(state, seat) if c.key not in seen]

    def validate(self, state: SoiState, seat: Seat, action: SoiAction) -> None:
        check_action(state, seat, action)

    def resolve(self, state: SoiState, seat: Seat, action: SoiAction) -> list[Event]:
        events: list[Event] = []
        carry_out_move(state, seat, action, events)
        settle(state, events)
        return events

    def view(self, state: SoiState, viewer: Seat | None) -> SoiView:
        return build_view(state, viewer)

    def headline(self, state: SoiState) -> str:
        return view_headline(state)

    def cards(self, options: BaseModel) -> list[CardText]:
        assert isinstance(options, SoiOptions)
        return reading.card_texts(options.deck or BUILTIN_DECK)

    def recap(self, state: SoiState) -> Recap:
        return reading.recap(state)

    def determinize(self, state: SoiState, seat: Seat, rng: random.Random) -> SoiState:
        return hidden.determinize(state, seat, rng)

    def content_of(self, state: SoiState, choice: Choice) -> str | None:
        action = choice.action
        if isinstance(action, (PlayCard, ShootingStar, Eclipse, EclipseStar)):
            # To the Reading, on top of another card or as a Cosmic Event: the card is played.
            return f"play {state.card(action.card).name}"
        return None

    def first_player(self, state: SoiState) -> Seat | None:
        return state.first_traveler

    def rounds_of(self, state: SoiState) -> int | None:
        return state.day

    def evaluate(self, state: SoiState) -> dict[Seat, float]:
        if state.winner is not None:
            return super().evaluate(state)
        return hidden.evaluate(state)

    def rollout_choice(
        self, state: SoiState, seat: Seat, choices: list[Choice], rng: random.Random
    ) -> Choice:
        """Each seat pushes the Scale its alignment's way and keeps its Energy and Stars."""
        return allegiance.quick_move(state, seat, choices, rng)

    def result(self, state: SoiState) -> Result | None:
        if state.winner is None:
            return None
        teams: dict[str, list[Seat]] = {}
        for seat, alignment in enumerate(state.alignments):
            teams.setdefault(alignment.capitalize(), []).append(seat)
        if state.winner == "draw":
            ranking = [list(range(state.players))]
        else:
            won = teams.get(state.winner.capitalize(), [])
            ranking = [won, [s for s in range(state.players) if s not in won]]
        ranking = [group for group in ranking if group]
        scores = {s: 1.0 if s in ranking[0] else 0.0 for s in range(state.players)}
        return Result(ranking=ranking, scores=scores, teams=teams, summary=state.ending)

    def default_action(self, state: SoiState, seat: Seat) -> SoiAction:
        waiting = awaited(state)
        if waiting is None or waiting[0] != seat:
            return super().default_action(state, seat)
        options = menu.awaited_choices(state, seat)
        tokens = [o.action for o in options if isinstance(o.action, PickToken)]
        if tokens:
            return _timeout_token(state, tokens)
        for key in ("pass", "weigh", "receive:energy", "give"):
            for option in options:
                if option.key == key:
                    return option.action  # type: ignore[no-any-return]
        return options[0].action  # type: ignore[no-any-return]


def _timeout_token(state: SoiState, tokens: list[PickToken]) -> PickToken:
    """A timed-out giver gives the weakest drawn token, into a bag picked by a
    coin drawn from the hidden seed. A fixed bag would tell everyone which bag
    that seat's token went into, since a timeout is public; the coin keeps it
    secret and the same game still replays the same way."""
    weakest = min(abs(t.value) for t in tokens)
    candidates = sorted((t for t in tokens if abs(t.value) == weakest), key=lambda t: (t.side, t.value))
    coin = random.Random(f"{state.rng.seed}:{state.rng.draws}:timeout").randrange(len(candidates))
    return candidates[coin]
