"""Carrying out a validated move, and the flow of a turn: Preparation, the
Attack step (Maneuvering, declarations, skirmishes), the Training step and
the last action round; setup's secret pick and the first player; the end."""

from __future__ import annotations

from engines.core import Event, seat_ref
from engines.phase import actions, costs, effects, rounds, skirmish
from engines.phase.cards import Ability
from engines.phase.state import KINDS, Pending, PhState, Skirmish

MAX_CUTS = 20


def carry_out(state: PhState, seat: int, action: actions.PhAction) -> list[Event]:
    if isinstance(action, actions.Pick):
        return _pick(state, seat, action.card)
    if state.pending is not None:
        return _pending_step(state, action)
    if isinstance(action, (actions.Order, actions.Skill, actions.Train)):
        kind = {"order": "order", "skill": "skill", "train": "train"}[action.type]
        state.pending = Pending(seat=seat, kind=kind, card=action.card)
        return _after_pending(state)
    if isinstance(action, actions.Pass):
        return _after_round_move(state, passed=True)
    if isinstance(action, actions.Attack):
        return _attack(state, action.attack)
    if isinstance(action, actions.Send):
        state.skirmishes.append(Skirmish(attacker=action.card, at=action.at))
        where = "the Nexus" if action.at is None else seat_ref(action.at)
        return [Event(text=f"{seat_ref(seat)} sends {state.name(action.card)} to attack {where}.")]
    if isinstance(action, actions.Oppose):
        fight = next(s for s in state.skirmishes if s.attacker == action.attacker)
        fight.defenders.append(action.card)
        return [
            Event(
                text=f"{seat_ref(seat)} sends {state.name(action.card)} to oppose "
                f"{state.name(action.attacker)}."
            )
        ]
    if isinstance(action, actions.Done):
        return _done(state, seat)
    assert isinstance(action, actions.Resolve)
    state.current = next(i for i, s in enumerate(state.skirmishes) if s.attacker == action.attacker)
    state.skirmishes[state.current].opposed = bool(state.skirmishes[state.current].defenders)
    rounds.open_round(state, "skirmish")
    return [
        Event(
            text=f"{seat_ref(seat)} resolves the skirmish of {state.name(action.attacker)}: "
            "an action round with its warriors only."
        )
    ]


def _pending_step(state: PhState, action: actions.PhAction) -> list[Event]:
    pending = state.pending
    assert pending is not None
    if isinstance(action, actions.Cancel):
        state.pending = None
        return []
    if isinstance(action, actions.SetX):
        pending.x = action.n
    elif isinstance(action, actions.Lock):
        pending.locked.append(action.card)
    elif isinstance(action, actions.PhaseResource):
        pending.phased.append(action.card)
    elif isinstance(action, actions.Choose):
        pending.targets.append(action.card)
    return _after_pending(state)


def _after_pending(state: PhState) -> list[Event]:
    """Once an action is complete it happens; in a round the opportunity moves on."""
    pending = state.pending
    assert pending is not None
    if costs.stage(state, pending) != "done":
        return []
    events = costs.complete(state)
    if state.round is not None:
        events += _after_round_move(state, passed=False)
    return events


def _after_round_move(state: PhState, passed: bool) -> list[Event]:
    if not rounds.advance(state, passed):
        return []
    if state.step == "maneuver":
        if skirmish.may_attack(state):
            state.step = "attackers"
            return [Event(text="Maneuvering ends: declare attackers.")]
        return [Event(text=f"{seat_ref(state.turn)} has no warrior free to attack."), *_training(state)]
    if state.step == "skirmish":
        fight = state.skirmish()
        assert fight is not None
        events = skirmish.resolve(state, fight)
        state.current = None
        if all(s.done for s in state.skirmishes):
            return events + _training(state)
        state.step = "skirmishes"
        return events
    return end_turn(state)


def _attack(state: PhState, attack: bool) -> list[Event]:
    me = seat_ref(state.turn)
    if not attack:
        return [Event(text=f"{me} does not attack."), *_training(state)]
    state.nexus_defender = state.rng.pick(state.others(state.turn))
    rounds.open_round(state, "maneuver")
    return [
        Event(
            text=f"{me} attacks. {seat_ref(state.nexus_defender)} is chosen at random to defend the "
            "Nexus this turn. Maneuvering: an action round."
        )
    ]


def _done(state: PhState, seat: int) -> list[Event]:
    if state.step == "attackers":
        state.step = "defenders"
        state.declaring = skirmish.next_declarer(state, state.turn)
        if state.declaring is None:
            state.step = "skirmishes"
        return [Event(text=f"{seat_ref(seat)} has declared their attackers.")]
    if state.step == "defenders":
        state.declaring = skirmish.next_declarer(state, seat)
        if state.declaring is None:
            state.step = "skirmishes"
        return [Event(text=f"{seat_ref(seat)} has declared their defenders.")]
    assert state.step == "training"
    rounds.open_round(state, "closing")
    return [Event(text=f"{seat_ref(seat)} is done training: a last action round.")]


def _training(state: PhState) -> list[Event]:
    state.step = "training"
    state.skirmishes = []
    state.current = None
    state.nexus_defender = None
    return [Event(text=f"Training step: {seat_ref(state.turn)} may take actions and train warriors.")]


# ----- setup -----


def _pick(state: PhState, seat: int, card: int) -> list[Event]:
    state.picks[seat] = card
    events = [
        Event(text=f"{seat_ref(seat)} has chosen a card for their barracks."),
        Event(text=f"You put {state.side(card, flipped=True).title} into your barracks.", to=[seat]),
    ]
    if any(p is None for p in state.picks):
        return events
    for who, chosen in enumerate(state.picks):
        assert chosen is not None
        state.hands[who].remove(chosen)
        state.face[chosen] ^= 1  # enlisted with the side its player sees up
        state.barracks[who].append(chosen)
    names = "; ".join(f"{seat_ref(s)}: {state.name(state.barracks[s][0])}" for s in range(state.players))
    events.append(Event(text=f"The barracks are revealed — {names}."))
    events += _first_player(state)
    return events


def top_cost(state: PhState, seat: int) -> int:
    deck = state.decks[seat]
    return state.side(deck[-1]).cost if deck else 99


def _first_player(state: PhState) -> list[Event]:
    """The lowest training cost showing on a deck's top goes first; tied players
    cut their decks to random cards and compare again."""
    tied = list(range(state.players))
    events = []
    for _ in range(MAX_CUTS):
        low = min(top_cost(state, s) for s in tied)
        tied = [s for s in tied if top_cost(state, s) == low]
        if len(tied) == 1:
            break
        for seat in tied:
            deck = state.decks[seat]
            cut = state.rng.below(len(deck)) if deck else 0
            deck[:] = deck[cut:] + deck[:cut]
        tops = ", ".join(
            f"{seat_ref(s)} {state.name(state.decks[s][-1])} ({top_cost(state, s)})"
            for s in tied
            if state.decks[s]
        )
        events.append(Event(text=f"Tied at cost {low}: they cut their decks — {tops}."))
    first = tied[0] if len(tied) == 1 else state.rng.pick(tied)
    state.first = state.turn = first
    events.append(Event(text=f"{seat_ref(first)} shows the lowest training cost and goes first."))
    return events + start_turn(state)


# ----- turns -----


def start_turn(state: PhState) -> list[Event]:
    """Preparation: unlock, draw, enlist; then the Attack step (skipped without warriors)."""
    seat = state.turn
    mine = {*state.barracks[seat], *state.play[seat]}
    state.locked = [c for c in state.locked if c not in mine]
    state.used = []
    events = [Event(text=f"Round {state.round_no} — {seat_ref(seat)}'s turn: unlock, draw and enlist.")]
    events += effects.draw(state, seat)
    events += effects.enlist(state, seat)
    if state.play[seat]:
        state.step = "attack"
        return events
    return events + _training(state)


def end_turn(state: PhState) -> list[Event]:
    """Temporary effects end; the game ends after the last player's turn once a
    Nexus pool is empty (or a table's round limit is reached); else the turn passes left."""
    state.damage, state.mods, state.granted = {}, {}, {}
    events: list[Event] = []
    if 0 in state.nexus and not state.ending:
        state.ending = True
        events.append(
            Event(
                text="A Nexus pool is empty: play goes on until the last player of the round "
                "finishes their turn."
            )
        )
    elif not state.ending and stalled(state):
        state.ending = True
        events.append(
            Event(
                text="Nobody can ever attack, train or play an order again: play goes on until "
                "the last player of the round finishes their turn."
            )
        )
    last = state.turn == state.last_seat()
    limit = state.options.round_limit  # a table option; the rulebook's end is the empty pool
    if last and (state.ending or (limit is not None and state.round_no >= limit)):
        state.step = "over"
        return [*events, Event(text="The game is over.", kind="result")]
    state.turn = (state.turn + 1) % state.players
    if state.turn == state.first:
        state.round_no += 1
    return events + start_turn(state)


def stalled(state: PhState) -> bool:
    """Whether nothing can ever change again, so no Nexus pool can ever empty:
    no warrior in play, no card left to draw or enlist, and no order or
    training anyone could pay for, even with every resource unlocked. Only a
    played order or a trained warrior could change such a table, and neither
    can happen (RULES.md, decision 21)."""
    for seat in range(state.players):
        if state.play[seat] or state.decks[seat] or state.discards[seat]:
            return False
        barracks = state.barracks[seat]
        if any(state.side(c).cost <= len(barracks) - 1 for c in barracks):
            return False
        for card in state.hands[seat]:
            order = state.side(card, flipped=True).order
            if order is not None and _affordable(state, seat, order, len(barracks)):
                return False
    return True


def _affordable(state: PhState, seat: int, order: Ability, resources: int) -> bool:
    if order.lose and state.influence[seat][KINDS.index(order.lose)] < 1:
        return False
    return resources >= order.lock + order.phase + (1 if order.x else 0)
