"""What each seat may see. Public: each sphere's top card and pile size, every
player's Kè, hand, deck and discard sizes, the discard piles, timers (how full,
not what lies on them) and the cards played this turn. Private to their owner:
the hand and what lies on their own timers. Nobody sees deck order or a
sphere's hidden second card."""

from __future__ import annotations

from pydantic import BaseModel, Field

from engines.core import View, seat_ref
from engines.time_masters.state import TmState

DISCARD_SHOWN = 6


class CardFace(BaseModel):
    uid: int
    name: str
    kind: str
    level: int
    cost: int = 0
    capacity: int = 0
    text: str = ""


class SphereInfo(BaseModel):
    level: int
    size: int
    top: CardFace | None = None


class TimerInfo(BaseModel):
    timer: CardFace
    loaded: int
    capacity: int
    delays: int
    spells: list[CardFace] | None = None  # only for its owner


class SeatInfo(BaseModel):
    seat: int
    ke: int
    hand_size: int
    deck_size: int
    discard_size: int
    discard_top: list[CardFace] = Field(default_factory=list)
    timers: list[TimerInfo] = Field(default_factory=list)
    delaying: int = 0
    visible_knowledge: int = 0


class TmView(View):
    phase: str
    turn: int | None
    turn_no: int
    ke_limit: int
    hand_limit: int
    spheres: list[SphereInfo]
    seats: list[SeatInfo]
    played: list[CardFace] = Field(default_factory=list)
    released: list[CardFace] = Field(default_factory=list)
    access_points: int = 0
    bought_from: list[int] = Field(default_factory=list)
    empty_spheres: int = 0
    hand: list[CardFace] | None = None
    affordable: list[int] | None = None
    knowledge: int | None = None


def face(state: TmState, card: int) -> CardFace:
    spec = state.spec(card)
    return CardFace(
        uid=card,
        name=spec.name,
        kind=spec.kind,
        level=spec.level,
        cost=spec.cost,
        capacity=spec.capacity,
        text=spec.rules_text,
    )


def build(state: TmState, viewer: int | None) -> TmView:
    playing = state.phase != "over"
    view = TmView(
        viewer=viewer,
        headline=headline(state),
        phase=state.phase,
        turn=state.turn if playing else None,
        turn_no=state.turn_no,
        ke_limit=state.options.ke,
        hand_limit=state.options.hand_limit,
        spheres=[
            SphereInfo(level=i, size=len(p), top=face(state, p[0]) if p else None)
            for i, p in enumerate(state.spheres, start=1)
        ],
        seats=[_seat(state, s, viewer) for s in range(state.players)],
        played=[face(state, c) for c in state.played] if playing else [],
        released=[face(state, c) for c in state.released] if playing else [],
        access_points=state.access_points if playing else 0,
        bought_from=list(state.bought_from),
        empty_spheres=state.empty_spheres(),
    )
    if viewer is not None:
        view.hand = [face(state, c) for c in state.hands[viewer]]
        view.affordable = [
            c
            for c in state.hands[viewer]
            if state.spec(c).kind != "spell" or state.spec(c).cost <= state.ke[viewer]
        ]
        view.knowledge = state.knowledge(viewer)
    return view


def _seat(state: TmState, seat: int, viewer: int | None) -> SeatInfo:
    timers = [
        TimerInfo(
            timer=face(state, t.card),
            loaded=len(t.spells),
            capacity=state.spec(t.card).capacity,
            delays=len(t.delays),
            spells=[face(state, c) for c in t.spells] if viewer == seat else None,
        )
        for t in state.timers[seat]
    ]
    public = [*state.discards[seat], *(t.card for t in state.timers[seat])]
    if seat == state.turn and state.phase != "over":
        public += [*state.played, *state.released]
    return SeatInfo(
        seat=seat,
        ke=state.ke[seat],
        hand_size=len(state.hands[seat]),
        deck_size=len(state.decks[seat]),
        discard_size=len(state.discards[seat]),
        discard_top=[face(state, c) for c in state.discards[seat][-DISCARD_SHOWN:]],
        timers=timers,
        delaying=state.delaying(seat),
        visible_knowledge=sum(state.spec(c).level for c in public),
    )


PHASES = {"timer": "Timer phase", "main": "Main phase", "access": "Access spheres", "over": "Game over"}


def headline(state: TmState) -> str:
    if state.phase == "over":
        return "Game over"
    return f"Turn {state.turn_no} · {PHASES[state.phase]} — {seat_ref(state.turn)} to act"
