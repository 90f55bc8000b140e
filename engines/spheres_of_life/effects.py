"""Ability cards and Heroes: playing one, its Block window, and its steps.

A played card becomes ``state.pending``. During a Dream (while an Apple of Life
may still be in a hand, as the table can tell) every seat first answers a Block
window; each Apple reopens the window to everyone, and an odd number of Blocks
cancels the card.
Then the steps run one by one; the interactive ones wait for the owner's choices.
"""

from __future__ import annotations

from collections.abc import Callable

from engines.core import Event, seat_ref
from engines.spheres_of_life import knowledge
from engines.spheres_of_life.cards import DREAM_ONLY, PowerSpec, Step
from engines.spheres_of_life.dream_actions import block_possible
from engines.spheres_of_life.phases import draw, names, order_from
from engines.spheres_of_life.state import Pending, SolState
from engines.words import plural

StepResult = tuple[bool, list[Event]]


def power_of(state: SolState, card: int) -> PowerSpec:
    power = state.deck_spec.power(state.kind(card))
    assert power is not None, "only Ability and Hero cards have powers"
    return power


def targets(state: SolState, seat: int, power: PowerSpec) -> list[int | None]:
    if power.target == "self":
        return [None]
    return [s for s in range(state.players) if power.target == "any" or s != seat]


def can_play_now(state: SolState, hero: bool) -> bool:
    """No card while another resolves or while an Action takes place."""
    if state.pending is not None or state.stage not in ("day", "night", "dream"):
        return False
    dream = state.dream
    if dream is not None and (dream.exchange is not None or dream.action is not None):
        return False
    return hero or state.stage == "dream"


def sensible(state: SolState, seat: int, card: int, target: int | None) -> bool:
    """Whether the card would do something now (the rulebook forbids empty plays)."""
    power = power_of(state, card)
    if power.passive or power.is_block:
        return False
    if state.stage != "dream" and any(s.do in DREAM_ONLY for s in power.steps):
        return False
    return _first_step_useful(state, seat, card, target, power.steps[0])


def _first_step_useful(state: SolState, seat: int, card: int, target: int | None, step: Step) -> bool:
    dream = state.dream
    other = state.hands[target] if target is not None else []
    own = [c for c in state.hands[seat] if c != card]
    checks: dict[str, Callable[[], bool]] = {
        "draw": lambda: bool(state.deck),
        "peek_reorder": lambda: len(other) >= 2,
        "look_take": lambda: bool(other),
        "arrange_target": lambda: len(other) >= 2,
        "lock_order": lambda: target is not None and not state.locked[target],
        "shield": lambda: (
            dream is not None
            and seat not in (dream.steal_shield if step.against == "steal" else dream.gift_shield)
        ),
        "restart_dream": lambda: dream is not None,
        "change_phase": lambda: dream is not None and not dream.last and bool(state.deck),
        "swap_hands": lambda: target != seat and bool(own or other),
        "reverse_order": lambda: dream is not None and len(dream.to_act) >= 3,
        "skip_action": lambda: dream is not None and target in dream.to_act,
        "discard": lambda: bool(own),
        "take_discard": lambda: bool(state.discard),
    }
    return checks[step.do]()


def play(state: SolState, seat: int, card: int, target: int | None) -> list[Event]:
    power = power_of(state, card)
    hero = card in state.heroes[seat]
    if hero:
        state.heroes[seat].remove(card)
        state.heroes_used[seat].append(card)
    else:
        state.hands[seat].remove(card)
        state.in_play.append(card)
    state.pending = Pending(owner=seat, card=card, hero=hero, target=target)
    on = f" on {seat_ref(target)}" if target is not None else ""
    kind = "the Hero" if hero else "the Ability"
    events = [Event(text=f"{seat_ref(seat)} plays {kind} {power.name}{on}: {power.text}")]
    if block_possible(state):
        state.pending.window = list(range(state.players))
        events.append(Event(text="Anyone may Block it with an Apple of Life, or pass."))
    return events


def block(state: SolState, seat: int, card: int) -> list[Event]:
    pending = state.pending
    assert pending is not None
    state.hands[seat].remove(card)
    state.in_play.append(card)
    pending.blockers.append(card)
    pending.blocks += 1
    pending.window = list(range(state.players))
    text = f"{seat_ref(seat)} blocks with {state.name(card)}! Anyone may Block this Block, or pass."
    return [Event(text=text)]


def pass_window(state: SolState, seat: int) -> list[Event]:
    pending = state.pending
    assert pending is not None
    pending.window.remove(seat)
    return []


def advance(state: SolState) -> list[Event]:
    """Run the pending card's steps until one waits for a choice or all are done."""
    events: list[Event] = []
    pending = state.pending
    while pending is not None and not pending.window:
        steps = power_of(state, pending.card).steps
        if pending.blocks % 2 or pending.step >= len(steps):
            return events + finish(state)
        done, more = STEPS[steps[pending.step].do](state, pending, steps[pending.step])
        events += more
        if not done:
            break
        _next_step(pending)
    return events


def _next_step(pending: Pending) -> None:
    pending.step += 1
    pending.started, pending.stop, pending.count = False, False, 0
    pending.chosen, pending.pool, pending.slots, pending.placed = [], [], [], []


def finish(state: SolState) -> list[Event]:
    pending = state.pending
    assert pending is not None
    events = []
    if pending.blocks % 2:
        events.append(Event(text=f"{state.name(pending.card)} is blocked and has no effect."))
    state.discard.extend(state.in_play)
    state.in_play = []
    state.pending = None
    return events


def current_step(state: SolState) -> Step | None:
    pending = state.pending
    if pending is None or pending.window or pending.blocks % 2:
        return None
    steps = power_of(state, pending.card).steps
    return steps[pending.step] if pending.step < len(steps) else None


# ----- the vocabulary of steps -----


def _subject(pending: Pending) -> int:
    return pending.target if pending.target is not None else pending.owner


def _draw(state: SolState, pending: Pending, step: Step) -> StepResult:
    return True, draw(state, _subject(pending), step.n)[1]


def _peek_reorder(state: SolState, pending: Pending, step: Step) -> StepResult:
    target = _subject(pending)
    hand = state.hands[target]
    if len(pending.chosen) < min(step.n, len(hand)):
        return False, []
    events: list[Event] = []
    if not pending.started:
        pending.started = True
        pending.slots = sorted(pending.chosen)
        pending.pool = [hand[i] for i in pending.slots]
        shown = ", ".join(f"#{i + 1} {state.name(hand[i])}" for i in pending.slots)
        events.append(Event(text=f"You look at {seat_ref(target)}'s cards: {shown}.", to=[pending.owner]))
    if len(pending.pool) - len(pending.placed) > 1:
        return False, events
    _arrange(state, target, pending)
    where = ", ".join(f"#{i + 1}" for i in pending.slots)
    return True, [
        *events,
        Event(
            text=f"{seat_ref(pending.owner)} looks at {plural(len(pending.slots), 'card')} of "
            f"{seat_ref(target)}'s hand and puts them back."
        ),
        Event(
            text=f"{seat_ref(pending.owner)} looked at your cards {where} and put them back "
            "in an order of their choosing.",
            to=[target],
        ),
    ]


def _arrange(state: SolState, target: int, pending: Pending) -> None:
    order = pending.placed + [c for c in pending.pool if c not in pending.placed]
    for slot, card in zip(pending.slots, order, strict=True):
        state.hands[target][slot] = card
    # Only the player who put the cards back knows where they now are.
    knowledge.forget_hand(state, target, keep=pending.owner)
    knowledge.remember(state, pending.owner, target, pending.pool)


def _look_take(state: SolState, pending: Pending, step: Step) -> StepResult:
    target = _subject(pending)
    events: list[Event] = []
    if not pending.started:
        pending.started = True
        knowledge.remember(state, pending.owner, target, state.hands[target])
        events.append(Event(text=f"{seat_ref(pending.owner)} looks at {seat_ref(target)}'s hand."))
        events.append(
            Event(text=f"{seat_ref(target)}'s hand: {names(state, state.hands[target])}.", to=[pending.owner])
        )
    finished = pending.stop or pending.count >= step.n or not state.hands[target]
    return finished, events


def _arrange_target(state: SolState, pending: Pending, step: Step) -> StepResult:
    target = _subject(pending)
    if not pending.started:
        pending.started = True
        pending.pool = list(state.hands[target])
        pending.slots = list(range(len(pending.pool)))
    if not pending.stop and len(pending.pool) - len(pending.placed) > 1:
        return False, []
    _arrange(state, target, pending)
    return True, [
        Event(text=f"{seat_ref(pending.owner)} re-sorts {seat_ref(target)}'s hand."),
        Event(text=f"Your hand was re-sorted: {names(state, state.hands[target])}.", to=[target]),
    ]


def _lock_order(state: SolState, pending: Pending, step: Step) -> StepResult:
    target = _subject(pending)
    state.locked[target] = True
    return True, [Event(text=f"{seat_ref(target)} may not reorder their hand until this phase ends.")]


def _shield(state: SolState, pending: Pending, step: Step) -> StepResult:
    assert state.dream is not None
    shields = state.dream.steal_shield if step.against == "steal" else state.dream.gift_shield
    if pending.owner not in shields:
        shields.append(pending.owner)
    what = "be stolen from" if step.against == "steal" else "receive a Forced Gift"
    return True, [Event(text=f"{seat_ref(pending.owner)} cannot {what} until this Dream ends.")]


def _restart_dream(state: SolState, pending: Pending, step: Step) -> StepResult:
    assert state.dream is not None
    state.dream.to_act = order_from(state, state.leader)
    state.dream.offer = None
    return True, [Event(text=f"The Dream restarts from {seat_ref(state.leader)}.")]


def _change_phase(state: SolState, pending: Pending, step: Step) -> StepResult:
    assert state.dream is not None and step.to is not None
    state.dream.to_act, state.dream.offer = [], None
    state.next_phase = step.to
    return True, [Event(text=f"The Dream ends at once; a {step.to.capitalize()} comes next.")]


def _swap_hands(state: SolState, pending: Pending, step: Step) -> StepResult:
    owner, target = pending.owner, _subject(pending)
    state.hands[owner], state.hands[target] = state.hands[target], state.hands[owner]
    knowledge.forget_hand(state, owner)
    knowledge.forget_hand(state, target)
    return True, [
        Event(text=f"{seat_ref(owner)} and {seat_ref(target)} swap hands."),
        *(Event(text=f"Your new hand: {names(state, state.hands[s])}.", to=[s]) for s in (owner, target)),
    ]


def _reverse_order(state: SolState, pending: Pending, step: Step) -> StepResult:
    assert state.dream is not None
    dream = state.dream
    dream.to_act = dream.to_act[:1] + dream.to_act[1:][::-1]
    order = ", ".join(map(seat_ref, dream.to_act))
    return True, [Event(text=f"The Dream turns the other way: {order}.")]


def _skip_action(state: SolState, pending: Pending, step: Step) -> StepResult:
    assert state.dream is not None
    target = _subject(pending)
    if target in state.dream.to_act:
        if state.dream.to_act[0] == target:
            state.dream.offer = None
        state.dream.to_act.remove(target)
    return True, [Event(text=f"{seat_ref(target)} sleeps through this Dream and skips their Action.")]


def _discard(state: SolState, pending: Pending, step: Step) -> StepResult:
    finished = pending.stop or pending.count >= step.n or not state.hands[pending.owner]
    return finished, []


def _take_discard(state: SolState, pending: Pending, step: Step) -> StepResult:
    taken = [state.discard.pop() for _ in range(min(step.n, len(state.discard)))]
    state.hands[pending.owner].extend(taken)
    return True, [Event(text=f"{seat_ref(pending.owner)} takes {names(state, taken)} from the discard pile.")]


def _never(state: SolState, pending: Pending, step: Step) -> StepResult:
    return True, []


STEPS: dict[str, Callable[[SolState, Pending, Step], StepResult]] = {
    "draw": _draw,
    "peek_reorder": _peek_reorder,
    "look_take": _look_take,
    "arrange_target": _arrange_target,
    "lock_order": _lock_order,
    "shield": _shield,
    "restart_dream": _restart_dream,
    "change_phase": _change_phase,
    "swap_hands": _swap_hands,
    "reverse_order": _reverse_order,
    "skip_action": _skip_action,
    "discard": _discard,
    "take_discard": _take_discard,
    "block": _never,
    "lead_first_three": _never,
}
