"""What each seat may see — the game's hidden information, modelled exactly.

A player sees both sides of their own cards in play, in hand, in the
barracks and in the discard pile, but nothing of their deck beyond the face
up on its top. Of another player's cards they see only the face the world
sees: the active side in play, in the barracks and in the discard pile, the
outward face of each hand card, and the face on top of each deck. Nobody sees
deck order. Every card shown is built from ``PhState.face`` alone, so a view
cannot hold a side its viewer may not see.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from engines.core import View, seat_ref
from engines.phase import costs
from engines.phase.cards import FACTION_NAMES
from engines.phase.state import PhState
from engines.words import plural


class Face(BaseModel):
    title: str
    alignment: str
    cost: int
    attack: int
    defense: int
    text: str


class CardView(BaseModel):
    face: Face  # the side up (for one's own hand card: the side facing its player)
    back: Face | None = None  # the other side: only for the card's own player
    attack: int | None = None  # in play: with this turn's modifiers
    defense: int | None = None
    damage: int = 0
    locked: bool = False
    flags: list[str] = Field(default_factory=list)


class SeatView(BaseModel):
    seat: int
    faction: str
    good: int
    evil: int
    play: list[CardView]
    barracks: list[CardView]
    hand: list[CardView]  # others: outward faces only
    hand_size: int
    deck_size: int
    deck_top: Face | None
    discard_size: int
    # The whole pile, oldest first: "A player may always look at the back side of
    # their cards: … In their discard pile" (both sides for its owner).
    discard: list[CardView] = Field(default_factory=list)


class SkirmishView(BaseModel):
    attacker: str
    at: str
    defenders: list[str]
    done: bool
    resolving: bool


class PhView(View):
    step: str
    turn: int | None
    round_no: int
    round_limit: int | None  # a table's option: None, the rulebook's end only
    nexus_good: int
    nexus_evil: int
    ending: bool
    nexus_defender: int | None
    to_act: int | None
    seats: list[SeatView]
    skirmishes: list[SkirmishView] = Field(default_factory=list)
    pending: str = ""


def face(state: PhState, card: int, flipped: bool = False) -> Face:
    side = state.side(card, flipped)
    return Face(
        title=side.title,
        alignment=side.alignment,
        cost=side.cost,
        attack=side.attack,
        defense=side.defense,
        text=side.text(),
    )


def card_view(
    state: PhState, card: int, mine: bool, in_hand: bool = False, in_play: bool = False
) -> CardView:
    # A hand card faces its player with the side that was down on the deck.
    flipped = in_hand and mine
    found = CardView(
        face=face(state, card, flipped),
        back=face(state, card, not flipped) if mine else None,
        locked=state.is_locked(card),
    )
    if in_play:
        found.attack, found.defense = state.attack(card), state.defense(card)
        found.damage = state.damage.get(card, 0)
        found.flags = sorted(state.flags(card))
    return found


def _seat(state: PhState, seat: int, viewer: int | None) -> SeatView:
    mine = seat == viewer
    deck = state.decks[seat]
    return SeatView(
        seat=seat,
        faction=FACTION_NAMES[state.factions[seat]],
        good=state.influence[seat][0],
        evil=state.influence[seat][1],
        play=[card_view(state, c, mine, in_play=True) for c in state.play[seat]],
        barracks=[card_view(state, c, mine) for c in state.barracks[seat]],
        hand=[card_view(state, c, mine, in_hand=True) for c in state.hands[seat]],
        hand_size=len(state.hands[seat]),
        deck_size=len(deck),
        deck_top=face(state, deck[-1]) if deck else None,
        discard_size=len(state.discards[seat]),
        discard=[card_view(state, c, mine) for c in state.discards[seat]],
    )


def to_act(state: PhState) -> int | None:
    if state.step in ("over", "pick"):
        return None
    if state.pending is not None:
        return state.pending.seat
    if state.round is not None:
        return state.round.seat
    if state.step == "defenders":
        return state.declaring
    return state.turn


def build(state: PhState, viewer: int | None) -> PhView:
    playing = state.step != "over"
    current = state.skirmish()
    # A fallen attacker by the face it fell with: its face now may lie hidden in a deck.
    fights = [
        SkirmishView(
            attacker=s.fallen or state.name(s.attacker),
            at="the Nexus" if s.at is None else seat_ref(s.at),
            defenders=[state.name(d) for d in s.defenders],
            done=s.done,
            resolving=s is current,
        )
        for s in state.skirmishes
        if s.fallen is not None or s.done or any(s.attacker in w for w in state.play)
    ]
    return PhView(
        viewer=viewer,
        headline=headline(state),
        step=state.step,
        turn=state.turn if playing else None,
        round_no=state.round_no,
        round_limit=state.options.round_limit,
        nexus_good=state.nexus[0],
        nexus_evil=state.nexus[1],
        ending=state.ending,
        nexus_defender=state.nexus_defender,
        to_act=to_act(state),
        seats=[_seat(state, s, viewer) for s in range(state.players)],
        skirmishes=fights,
        pending=paying(state),
    )


STEPS = {
    "pick": "Setup: each player picks a card for their barracks",
    "attack": "Attack step",
    "maneuver": "Maneuvering (action round)",
    "attackers": "Declare attackers",
    "defenders": "Declare defenders",
    "skirmishes": "Choose a skirmish",
    "skirmish": "Skirmish (action round)",
    "training": "Training step",
    "closing": "Last action round",
    "over": "Game over",
}


def headline(state: PhState) -> str:
    if state.step == "over":
        return "Game over"
    if state.step == "pick":
        return STEPS["pick"]
    who = to_act(state)
    turn = f"Round {state.round_no} · {seat_ref(state.turn)}'s turn"
    return f"{turn} · {STEPS[state.step]} — {seat_ref(who or 0)} to act"


def paying(state: PhState) -> str:
    """The action being set up, what its cost has taken so far and what is left to
    choose, so every front end shows each step of a payment (nothing is paid until
    the last choice, but a player sees their choices add up)."""
    p = state.pending
    if p is None:
        return ""
    what = state.side(p.card, flipped=True).title if p.kind == "order" else state.name(p.card)
    chosen = [
        f"{verb} {', '.join(state.name(c) for c in cards)}"
        for verb, cards in (("lock", p.locked), ("phase", p.phased), ("targeting", p.targets))
        if cards
    ]
    if p.x is not None:
        chosen.insert(0, f"X = {p.x}")
    left = []
    if costs.stage(state, p) == "x":
        left.append("X")
    if (locks := costs.lock_need(state, p) - len(p.locked)) > 0:
        left.append(f"{plural(locks, 'resource')} to lock")
    if (phases := costs.phase_need(state, p) - len(p.phased)) > 0:
        left.append(f"{plural(phases, 'resource')} to phase")
    if costs.stage(state, p) == "choose":
        left.append(plural(costs.target_need(state, p) - len(p.targets), "warrior"))
    text = f"{seat_ref(p.seat)} is paying for {what}"
    text += " — chosen: " + "; ".join(chosen) if chosen else " — nothing chosen yet"
    return text + (f"; still to choose: {', '.join(left)}." if left else ".")
