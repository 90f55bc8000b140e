"""What each seat may see. Other hands appear only as sizes; the deck only as
a count; secret Hero picks and throws only to their owner."""

from __future__ import annotations

from pydantic import BaseModel, Field

from engines.core import View, seat_ref
from engines.spheres_of_life import dream_actions, effects
from engines.spheres_of_life.scoring import hand_breakdown, score
from engines.spheres_of_life.state import SolState
from engines.words import plural

DISCARD_SHOWN = 8


class CardFace(BaseModel):
    uid: int
    kind: str
    name: str
    group: str
    text: str = ""  # what an Ability or Hero does (animals say it by their name)


class SeatInfo(BaseModel):
    seat: int
    hand_size: int
    banked: list[str] = Field(default_factory=list)
    heroes: list[CardFace] = Field(default_factory=list)
    heroes_used: list[CardFace] = Field(default_factory=list)
    locked: bool = False
    match_points: int = 0


class SolView(View):
    stage: str
    variant: str
    round_no: int
    rounds: int
    last_dream: bool = False
    leader: int | None = None
    current: int | None = None
    waiting: list[int] = Field(default_factory=list)
    table: list[CardFace] = Field(default_factory=list)
    deck_size: int = 0
    discard_size: int = 0
    discard_top: list[CardFace] = Field(default_factory=list)
    seats: list[SeatInfo] = Field(default_factory=list)
    to_act: list[int] = Field(default_factory=list)
    pending: str | None = None
    exchange: str | None = None
    shields: list[str] = Field(default_factory=list)
    hand: list[CardFace] | None = None
    hand_points: dict[str, int] | None = None
    score: int | None = None
    my_hero_picks: list[str] | None = None
    my_throw: str | None = None
    looking_at: list[CardFace] | None = None
    my_offer: CardFace | None = None


def face(state: SolState, card: int) -> CardFace:
    kind = state.kind(card)
    power = state.deck_spec.power(kind)
    return CardFace(
        uid=card,
        kind=kind,
        name=state.name(card),
        group=state.deck_spec.group(kind),
        text=power.text if power is not None else "",
    )


def variant_text(state: SolState) -> str:
    o = state.options
    parts = ["Restore the Balance" if o.goal == "balance" else "Become the Strongest Hero"]
    parts += [
        label
        for on, label in (
            (o.pace, "key changes"),
            (o.purist, "Purist Way"),
            ((o.decks or 1) > 1, f"{o.decks} decks"),
        )
        if on
    ]
    return ", ".join(parts)


def build(state: SolState, viewer: int | None, waiting: list[int], current: int | None) -> SolView:
    dream = state.dream
    view = SolView(
        viewer=viewer,
        headline=headline(state, current),
        stage=state.stage,
        variant=variant_text(state),
        round_no=state.round_no,
        rounds=state.options.rounds,
        last_dream=bool(dream and dream.last),
        leader=state.leader if state.stage in ("day", "night", "dream") else None,
        current=current,
        waiting=waiting,
        table=[face(state, c) for c in state.table],
        deck_size=len(state.deck),
        discard_size=len(state.discard),
        discard_top=[face(state, c) for c in state.discard[-DISCARD_SHOWN:]],
        seats=[_seat(state, s) for s in range(state.players)],
        to_act=list(dream.to_act) if dream else [],
        pending=_pending_text(state) or dream_actions.describe(state),
        exchange=_exchange_text(state),
        shields=_shields(state),
    )
    if viewer is not None:
        _private(state, viewer, view)
    return view


def _seat(state: SolState, seat: int) -> SeatInfo:
    spec = state.deck_spec
    sets = [spec.name_of(state.kind(c)) for c in state.banked[seat][::3]]
    return SeatInfo(
        seat=seat,
        hand_size=len(state.hands[seat]),
        banked=sets,
        heroes=[face(state, c) for c in state.heroes[seat]],
        heroes_used=[face(state, c) for c in state.heroes_used[seat]],
        locked=state.locked[seat],
        match_points=state.match_scores[seat],
    )


def _private(state: SolState, viewer: int, view: SolView) -> None:
    view.hand = [face(state, c) for c in state.hands[viewer]]
    spec = state.deck_spec
    view.hand_points = {spec.name_of(k): p for k, p in hand_breakdown(state, viewer).items()}
    view.score = score(state, viewer)
    if state.stage == "heroes":
        view.my_hero_picks = [spec.name_of(k) for k in state.hero_picks[viewer]]
    if state.stage == "rps":
        view.my_throw = state.rps[viewer]
    pending = state.pending
    if pending is not None and pending.owner == viewer and pending.started:
        step = effects.current_step(state)
        target = pending.target if pending.target is not None else viewer
        shown = state.hands[target] if step is not None and step.do == "look_take" else pending.pool
        view.looking_at = [face(state, c) for c in shown]
    dream = state.dream
    if dream is not None and dream.offer is not None and dream.to_act and dream.to_act[0] == viewer:
        view.my_offer = face(state, dream.offer)


def headline(state: SolState, current: int | None) -> str:
    round_part = f"Round {state.round_no}/{state.options.rounds} · " if state.options.rounds > 1 else ""
    stage = {
        "heroes": "Choosing Heroes",
        "rps": "Rock, paper, scissors",
        "day": "Day",
        "night": "Night",
        "dream": "The Last Dream" if state.dream and state.dream.last else "Dream",
        "over": "Game over",
    }[state.stage]
    turn = f" — {seat_ref(current)} to act" if current is not None else ""
    return f"{round_part}{stage}{turn}"


def _pending_text(state: SolState) -> str | None:
    pending = state.pending
    if pending is None:
        return None
    on = f" on {seat_ref(pending.target)}" if pending.target is not None else ""
    text = f"{seat_ref(pending.owner)} plays {state.name(pending.card)}{on}"
    if pending.window:
        return f"{text} — Block window ({plural(pending.blocks, 'Block')} so far)"
    return f"{text} — resolving"


def _exchange_text(state: SolState) -> str | None:
    dream = state.dream
    if dream is None or dream.exchange is None:
        return None
    ex = dream.exchange
    text = f"{seat_ref(ex.proposer)} offers {state.name(ex.card)} for {state.deck_spec.name_of(ex.wanted)}"
    return f"{text} — refused: must Steal or Forced Gift" if ex.refused else text


def _shields(state: SolState) -> list[str]:
    dream = state.dream
    if dream is None:
        return []
    return [f"{seat_ref(s)} cannot be stolen from" for s in dream.steal_shield] + [
        f"{seat_ref(s)} refuses Forced Gifts" for s in dream.gift_shield
    ]
