"""Every legal choice of a seat, as menus (who is awaited: :mod:`.awaiting`).

Hands and tokens only shape the choices offered to their owner.
"""

from __future__ import annotations

from typing import Any

from engines.core import SEAT_REF, Choice, Seat, seat_ref
from engines.scales_of_influence import actions
from engines.scales_of_influence.effects import SIDE_NAME
from engines.scales_of_influence.flow import channel_possible
from engines.scales_of_influence.state import (
    SIDES,
    SLOTS,
    Cosmic,
    Effect,
    Giving,
    Prevention,
    ShamanPick,
    SoiState,
    Tribute,
)


def _choice(key: str, label: str, steps: list[str], action: Any, detail: str = "") -> Choice:
    return Choice(key=key, label=label[:80], steps=[s[:100] for s in steps], action=action, detail=detail)


def _text(state: SoiState, card: int) -> str:
    """A card's whole text, for the choices that name it."""
    spec = state.card(card)
    return f"{spec.kind()}: {spec.ability()}"


PASS = "pass"


def pass_choice(label: str = "Pass") -> Choice:
    return _choice(PASS, label, [label], actions.Pass())


def _or_pass(found: list[Choice], label: str, why: str) -> list[Choice]:
    """``found`` and a pass; a pass left alone says ``why`` the others are missing."""
    return [*found, pass_choice(label if found else f"{label} ({why})")]


# ----- awaited choices -----


def awaited_choices(state: SoiState, seat: Seat) -> list[Choice]:
    if state.stack:
        return _interrupt_choices(state, seat)
    if state.phase == "sun":
        return _sun_choices(state, seat)
    if state.phase == "moon":
        return _moon_choices(state, seat)
    return [_choice("weigh", "Weigh the Scale", ["Weigh the Scale"], actions.Weigh())]


def _interrupt_choices(state: SoiState, seat: Seat) -> list[Choice]:
    top = state.stack[-1]
    if isinstance(top, Effect):
        return resolve_choices(state, top)
    if isinstance(top, Cosmic) and not top.responders:
        block = [c for c in shaman_choices(state, seat) if c.key == "shaman:block"]
        return _or_pass(block, "Let it shine", "you cannot block it")
    if isinstance(top, Cosmic):
        return _or_pass(
            [*_star_eclipses(state, seat, top), *shaman_choices(state, seat)],
            "Pass",
            "nothing in your hand can eclipse it",
        )
    if isinstance(top, Giving):
        return _token_choices(state, top)
    if isinstance(top, Tribute):
        return _discards(state, seat, "Channel: discard")
    if isinstance(top, Prevention):
        return _or_pass(
            [*star_plays(state, seat), *shaman_choices(state, seat)],
            "Let it end",
            "you hold no Shooting Star and no Shaman's power to prevent it",
        )
    assert isinstance(top, ShamanPick)
    return [
        _choice(
            f"pick:{s}",
            f"Make {seat_ref(s)} the Shaman",
            ["Pick the Shaman", seat_ref(s)],
            actions.ChooseShaman(seat=s),
        )
        for s in top.candidates
    ]


def resolve_choices(state: SoiState, effect: Effect) -> list[Choice]:
    spec = state.card(effect.card)
    targets: list[Seat | None] = (
        [s for s in state.order_from(effect.owner)[1:]] if spec.needs_target else [None]
    )
    sides = list(SIDES) if spec.needs_side else [None]
    head = f"Resolve {spec.short()}"
    out: list[Choice] = []
    for target in targets:
        for side in sides:
            bits = ([f"p{target}"] if target is not None else []) + ([side] if side else [])
            # Menu steps in words too: "Move from Shadow to Light", not a bare "Shadow".
            words = ([seat_ref(target)] if target is not None else []) + (
                [_capital(spec.choice_words(None, side))] if side else []
            )
            # The label says what happens ("…: Move 1 Energy from Shadow to Light."); a card
            # whose text does not fit says what the choice changes, its detail the rest.
            who = seat_ref(target) if target is not None else None
            what = spec.ability(who, side)
            sided = [w for step in spec.effect if side and (w := step.choice_words(None, side))]
            short = ", ".join([*([f"on {who}"] if who else []), *sided[:1]])
            minimal = f"{head}: {short}" if short else head
            said = [what, _capital(spec.choice_words(who, side))]
            # A label never ends on a bare colon: with nothing short to add, the card's name alone.
            fitting = [f"{head}: {words}" for words in said if words.strip()]
            label = next((t for t in fitting if len(render_width(t)) <= 80), minimal)
            out.append(
                _choice(
                    ":".join(["resolve", *bits]),
                    label,
                    [head, *words],
                    actions.Resolve(target=target, side=side),
                    detail=what,
                )
            )
    return out


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def render_width(text: str) -> str:
    """``text`` about as wide as it will be shown, a seat reference standing for
    a longish name (a longer one is cut where the label is shown)."""
    return SEAT_REF.sub("x" * 24, text)


def _star_eclipses(state: SoiState, seat: Seat, event: Cosmic) -> list[Choice]:
    if state.energy[seat] < 1:
        return []
    top_rank = state.card(event.stars[-1]).rank
    return [
        _choice(
            f"estar:{c}",
            f"Eclipse with {state.card(c).short()} (1 Energy)",
            ["Eclipse the star", state.card(c).short()],
            actions.EclipseStar(card=c),
            _text(state, c),
        )
        for c in _sorted(state, state.hands[seat])
        if state.card(c).star and state.card(c).rank > top_rank
    ]


def _token_choices(state: SoiState, giving: Giving) -> list[Choice]:
    out = []
    for value in sorted(set(giving.drawn), reverse=True):
        for side in SIDES:
            label = f"Put {value:+d} in the {SIDE_NAME[side]} bag"
            out.append(
                _choice(
                    f"token:{value:+d}:{side}",
                    label,
                    ["Give Influence", f"{value:+d}", f"Into the {SIDE_NAME[side]} bag"],
                    actions.PickToken(value=value, side=side),
                )
            )
    return out


def _discards(state: SoiState, seat: Seat, verb: str) -> list[Choice]:
    return [
        _choice(
            f"discard:{c}",
            f"Discard {state.card(c).short()}",
            [verb, state.card(c).short()],
            actions.Discard(card=c),
            _text(state, c),
        )
        for c in _sorted(state, state.hands[seat])
    ]


def _sorted(state: SoiState, cards: list[int]) -> list[int]:
    order = ["spirit", "fire", "water", "air", "earth"]
    return sorted(cards, key=lambda c: (order.index(state.card(c).element), state.card(c).rank, c))


# ----- Sun and Moon -----


def _sun_choices(state: SoiState, seat: Seat) -> list[Choice]:
    assert state.turn is not None
    step = state.turn.step
    if step == "discard":
        return _discards(state, seat, "Discard down to 7")
    if step == "receive":
        main = _receive_choices(state)
    elif step == "release":
        main = _release_choices(state, seat)
    else:
        main = [pass_choice("End the turn")]
    return main + channel_choices(state, seat)


def _receive_choices(state: SoiState) -> list[Choice]:
    out = []
    if state.deck:
        out.append(
            _choice(
                "receive:draw",
                "Receive: draw a card",
                ["Receive", "Draw a card"],
                actions.Receive(how="draw"),
            )
        )
    if state.source_energy:
        out.append(
            _choice(
                "receive:energy",
                "Receive: gain 1 Energy",
                ["Receive", "Gain 1 Energy"],
                actions.Receive(how="energy"),
            )
        )
    return out or [pass_choice("Nothing to receive")]


def _release_choices(state: SoiState, seat: Seat) -> list[Choice]:
    free = [i for i, p in enumerate(state.reading) if p.holder is None]
    out = [
        _choice(
            f"play:{c}:{SLOTS[i].lower()}",
            f"Play {state.card(c).short()} to the {SLOTS[i]}",
            ["Play to the Reading", state.card(c).short(), SLOTS[i]],
            actions.PlayCard(card=c, slot=i),
            _text(state, c),
        )
        for c in _sorted(state, state.hands[seat])
        if not state.card(c).star
        for i in free
    ]
    if state.source_tokens:
        out.append(_choice("give", "Give Influence (secret)", ["Give Influence"], actions.GiveInfluence()))
    return out or [pass_choice("Nothing to release")]


def channel_choices(state: SoiState, seat: Seat) -> list[Choice]:
    if state.turn is None or state.turn.step == "discard" or not channel_possible(state, seat):
        return []
    out = []
    if state.energy[seat] >= 1 and state.deck:
        out.append(
            _choice(
                "channel:draw",
                "Channel: return 1 Energy, draw a card",
                ["Channel", "Draw a card"],
                actions.ChannelDraw(),
            )
        )
    if len(state.hands[seat]) >= 2:
        out += [
            _choice(
                f"channel:take:{t}",
                f"Channel: discard 2, take 2 Energy from {seat_ref(t)}",
                ["Channel", "Take 2 Energy", seat_ref(t)],
                actions.ChannelTake(target=t),
            )
            for t in state.order_from(seat)[1:]
            if state.energy[t]
        ]
    if state.energy[seat] >= 3:
        out += [
            _choice(
                f"channel:clear:{SLOTS[i].lower()}",
                f"Channel: return 3 Energy, clear the {SLOTS[i]}",
                ["Channel", "Clear a Reading card", SLOTS[i]],
                actions.ChannelClear(slot=i),
            )
            for i, p in enumerate(state.reading)
            if p.cards
        ]
    return out


def _moon_choices(state: SoiState, seat: Seat) -> list[Choice]:
    out = []
    if state.energy[seat] >= 1:
        for i, placement in enumerate(state.reading):
            top = state.top_card(i)
            if top is None or placement.holder is None:
                continue
            out += [
                _choice(
                    f"eclipse:{c}:{SLOTS[i].lower()}",
                    f"Eclipse the {SLOTS[i]} with {state.card(c).short()}",
                    ["Eclipse", SLOTS[i], state.card(c).short()],
                    actions.Eclipse(card=c, slot=i),
                    _text(state, c),
                )
                for c in _sorted(state, state.hands[seat])
                if can_eclipse(state, c, top)
            ]
    return [*out, pass_choice("Pass" if out else "Pass (no card in your hand can eclipse this star)")]


def can_eclipse(state: SoiState, card: int, covered: int) -> bool:
    mine, theirs = state.card(card), state.card(covered)
    return not mine.star and mine.element == theirs.element and mine.rank > theirs.rank


# ----- at any time -----


def anytime_choices(state: SoiState, seat: Seat) -> list[Choice]:
    if state.phase == "over" or (state.stack and isinstance(state.stack[-1], Prevention)):
        return []
    if any(isinstance(item, Prevention) for item in state.stack):
        # Inside the "prevent the end" round each seat acts on its own turn; only a
        # Shooting Star played there may still be blocked by the Shaman.
        return [c for c in shaman_choices(state, seat) if c.key == "shaman:block"]
    return [*star_plays(state, seat), *shaman_choices(state, seat)]


def star_plays(state: SoiState, seat: Seat) -> list[Choice]:
    if state.energy[seat] < 1 or (state.stack and isinstance(state.stack[-1], Cosmic)):
        return []
    return [
        _choice(
            f"star:{c}",
            f"Shooting Star: {state.card(c).short()}",
            ["Shooting Star", state.card(c).short()],
            actions.ShootingStar(card=c),
            _text(state, c),
        )
        for c in _sorted(state, state.hands[seat])
        if state.card(c).star
    ]


def shaman_choices(state: SoiState, seat: Seat) -> list[Choice]:
    if seat != state.shaman or state.shaman_used or state.energy[seat] < 2 or state.phase == "over":
        return []
    out = []
    top = state.stack[-1] if state.stack else None
    if isinstance(top, Cosmic) and len(top.stars) - 1 not in top.blocked:
        out.append(
            _choice(
                "shaman:block",
                "Shaman: block the Shooting Star",
                ["Shaman", "Block the star"],
                actions.ShamanPower(power="block"),
            )
        )
    out += [
        _choice(
            f"shaman:scale:{side}",
            f"Shaman: add 2 Energy to {SIDE_NAME[side]}",
            ["Shaman", "Add 2 Energy", f"To {SIDE_NAME[side]}"],
            actions.ShamanPower(power="scale", side=side),
        )
        for side in SIDES
    ]
    if state.phase == "weighing" and state.weigh_step == "confirm":
        out += [
            _choice(
                f"shaman:token:{side}:{v:+d}",
                f"Shaman: return {v:+d} from the {SIDE_NAME[side]} bag",
                ["Shaman", "Return Influence", f"{v:+d} from the {SIDE_NAME[side]} bag"],
                actions.ShamanPower(power="token", side=side, value=v),
            )
            for side in SIDES
            for v in sorted(set(state.bags[side]), reverse=True)
        ]
    return out
