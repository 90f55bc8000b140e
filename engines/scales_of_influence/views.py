"""What each seat may see. Hidden: hands, alignments, drawn tokens, bag contents
before Weighing, who gave what, the deck order and the rng."""

from __future__ import annotations

from pydantic import BaseModel

from engines.core import Seat, View
from engines.scales_of_influence.awaiting import awaited
from engines.scales_of_influence.state import SLOTS, TOKENS, Cosmic, Giving, Prevention, SoiState


class CardView(BaseModel):
    id: int
    name: str
    element: str
    rank: int
    short: str
    ability: str
    star: bool


class PlacementView(BaseModel):
    slot: str
    cards: list[CardView]
    holder: Seat | None


class CosmicView(BaseModel):
    stars: list[CardView]
    owners: list[Seat]
    responders: list[Seat]
    blocked: list[int]


class SoiView(View):
    players: int
    harmony_in_game: bool
    phase: str
    day: int
    traveler: Seat
    shaman: Seat | None
    shaman_used: bool
    final_day: bool
    awaiting: Seat | None
    awaiting_text: str
    reading: list[PlacementView]
    lingering: list[CardView]
    scale: dict[str, int]
    energy: list[int]
    hand_sizes: list[int]
    source_energy: int
    source_tokens: int
    tokens_given: int
    deck_size: int
    discard_size: int
    discard_top: CardView | None
    revealed_bags: dict[str, list[int]] | None
    cosmic: list[CosmicView]
    prevention: list[Seat] | None
    giving: Seat | None
    alignment: str | None = None
    hand: list[CardView] | None = None
    drawn_tokens: list[int] | None = None
    alignments: list[str] | None = None
    winner: str | None = None
    ending: str = ""


def card_view(state: SoiState, card: int) -> CardView:
    spec = state.card(card)
    return CardView(
        id=card,
        name=spec.name,
        element=spec.element,
        rank=spec.rank,
        short=spec.short(),
        ability=spec.ability(),
        star=spec.star,
    )


def build_view(state: SoiState, viewer: Seat | None) -> SoiView:
    waiting = awaited(state)
    giving = next((i for i in state.stack if isinstance(i, Giving)), None)
    drawn = sum(len(i.drawn) for i in state.stack if isinstance(i, Giving))
    prevention = next((i for i in reversed(state.stack) if isinstance(i, Prevention)), None)
    over = state.phase == "over"
    view = SoiView(
        viewer=viewer,
        headline=_headline(state, waiting[2] if waiting else ""),
        players=state.players,
        harmony_in_game=state.harmony,
        phase=state.phase,
        day=state.day,
        traveler=state.traveler,
        shaman=state.shaman,
        shaman_used=state.shaman_used,
        final_day=state.final_day,
        awaiting=waiting[0] if waiting else None,
        awaiting_text=waiting[2] if waiting else "",
        reading=[
            PlacementView(slot=SLOTS[i], cards=[card_view(state, c) for c in p.cards], holder=p.holder)
            for i, p in enumerate(state.reading)
        ],
        lingering=[card_view(state, k.card) for k in state.lingering],
        scale=dict(state.scale),
        energy=list(state.energy),
        hand_sizes=[len(h) for h in state.hands],
        source_energy=state.source_energy,
        source_tokens=len(state.source_tokens),
        tokens_given=len(TOKENS) - len(state.source_tokens) - drawn,
        deck_size=len(state.deck),
        discard_size=len(state.discard),
        discard_top=card_view(state, state.discard[-1]) if state.discard else None,
        revealed_bags={s: sorted(b, reverse=True) for s, b in state.bags.items()} if state.revealed else None,
        cosmic=[_cosmic(state, i) for i in state.stack if isinstance(i, Cosmic)],
        prevention=list(prevention.remaining) if prevention else None,
        giving=giving.seat if giving else None,
        alignments=list(state.alignments) if over else None,
        winner=state.winner,
        ending=state.ending,
    )
    if viewer is not None:
        _add_private(state, viewer, view, giving)
    return view


def _add_private(state: SoiState, viewer: Seat, view: SoiView, giving: Giving | None) -> None:
    view.alignment = state.alignments[viewer]
    view.hand = [card_view(state, c) for c in state.hands[viewer]]
    if giving is not None and giving.seat == viewer:
        view.drawn_tokens = list(giving.drawn)


def _cosmic(state: SoiState, event: Cosmic) -> CosmicView:
    # After the last answer, the Shaman's moment to block is the answer still awaited.
    shaman = [state.shaman] if event.shaman_turn and state.shaman is not None else []
    return CosmicView(
        stars=[card_view(state, c) for c in event.stars],
        owners=list(event.owners),
        responders=list(event.responders) or shaman,
        blocked=list(event.blocked),
    )


_PHASE = {
    "sun": "☀️ Sun",
    "moon": "🌙 Moon",
    "reading": "🔮 Reading",
    "weighing": "⚖️ Weighing",
    "over": "🏁 Over",
}


def headline(state: SoiState) -> str:
    waiting = awaited(state)
    return _headline(state, waiting[2] if waiting else "")


def _headline(state: SoiState, waiting: str) -> str:
    base = f"Day {state.day} · {_PHASE[state.phase]}"
    if state.phase == "over":
        return f"{base} — {state.ending}"
    return f"{base}{' (final day)' if state.final_day else ''} — {waiting}"
