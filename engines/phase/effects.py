"""What cards do to the table: phasing, damage, destruction, influence,
drawing and enlisting, and the keyword triggers (Elite, Phaseling, Relentless,
Trained). Every effect is done as far as it can be."""

from __future__ import annotations

from engines.core import Event, seat_ref
from engines.phase.cards import Ability, Alignment, Effect, Side
from engines.phase.state import KINDS, Mod, PhState

# Triggers nest (a Relentless draw, a Phaseling gain...), never without end: a
# trigger cannot phase or destroy its own warrior (cards.py), and this bounds
# the rest of any chain a custom set could build.
MAX_DEPTH = 8


def shuffle(state: PhState, cards: list[int]) -> None:
    """Shuffle a deck: its order and which side of each card is up ("players may
    take any number of cards from the top, flip them over, and place them back")."""
    state.rng.shuffle(cards)
    for card in cards:
        state.face[card] = state.rng.below(2)


def _refill(state: PhState, seat: int) -> bool:
    """An empty deck is formed again from the shuffled discard pile."""
    if not state.decks[seat] and state.discards[seat]:
        state.decks[seat], state.discards[seat] = state.discards[seat], []
        shuffle(state, state.decks[seat])
    return bool(state.decks[seat])


def draw(state: PhState, seat: int, n: int = 1) -> list[Event]:
    """Draw: the side that was up on the deck now faces the opponents."""
    drawn = []
    for _ in range(n):
        if not _refill(state, seat):
            break
        card = state.decks[seat].pop()
        state.hands[seat].append(card)
        drawn.append(card)
    if not drawn:
        return [Event(text=f"{seat_ref(seat)} has no card left to draw.")]
    outward = ", ".join(state.name(c) for c in drawn)
    inner = ", ".join(state.side(c, flipped=True).title for c in drawn)
    return [
        Event(text=f"{seat_ref(seat)} draws {outward} (its outward side)."),
        Event(text=f"You draw {inner} (outward: {outward}).", to=[seat]),
    ]


def enlist(state: PhState, seat: int, n: int = 1, locked: bool = False) -> list[Event]:
    """Enlist from the deck's top, never phasing: the face up stays up."""
    events = []
    for _ in range(n):
        if not _refill(state, seat):
            events.append(Event(text=f"{seat_ref(seat)} has no card left to enlist."))
            break
        card = state.decks[seat].pop()
        state.barracks[seat].append(card)
        if locked:
            state.locked.append(card)
        how = ", locked." if locked else "."
        events.append(Event(text=f"{seat_ref(seat)} enlists {state.name(card)}{how}"))
    return events


def gain(state: PhState, seat: int, kind: Alignment, n: int) -> list[Event]:
    """Gain influence from the Nexus: none of a type once the Nexus has none."""
    k = KINDS.index(kind)
    got = min(n, state.nexus[k])
    state.nexus[k] -= got
    state.influence[seat][k] += got
    if not got:
        return [Event(text=f"The Nexus has no {kind} influence left for {seat_ref(seat)}.")]
    return [Event(text=f"{seat_ref(seat)} gains {got} {kind} influence.")]


def lose(state: PhState, seat: int, kind: Alignment, n: int) -> list[Event]:
    """Lose influence: it is removed from the game."""
    k = KINDS.index(kind)
    lost = min(n, state.influence[seat][k])
    state.influence[seat][k] -= lost
    state.removed[k] += lost
    if not lost:
        return []
    return [Event(text=f"{seat_ref(seat)} loses {lost} {kind} influence.")]


def phase(state: PhState, card: int, depth: int = 0) -> list[Event]:
    """Flip a card: damage and its side's modifiers are gone. A locked card cannot phase."""
    if state.is_locked(card):
        return []
    before = state.side(card)
    state.face[card] ^= 1
    state.damage.pop(card, None)
    state.mods.pop(card, None)
    state.granted.pop(card, None)
    seat, zone = state.owner_zone(card)
    events = [Event(text=f"{before.title} phases to {state.name(card)}.")]
    if zone == "play" and before.phaseling:
        events.append(Event(text=f"Phaseling — {before.title}."))
        events += run(state, seat, before.phaseling, card, [], depth + 1)
    return events


def leave_play(state: PhState, cards: list[int], depth: int = 0) -> list[Event]:
    """Destroyed warriors go to their players' discard piles, their active sides
    up. Warriors destroyed together all leave play first; then their Relentless
    skills trigger in turn order, starting with the active player (one player's
    in the order they came into play)."""
    cards = [c for c in cards if any(c in w for w in state.play)]
    fallen = [(c, state.owner(c), state.side(c)) for c in cards]
    # Turn order from the active player, then the order they came into play (not the
    # order an effect named them in): read before any of them leaves.
    fallen.sort(key=lambda f: ((f[1] - state.turn) % state.players, state.play[f[1]].index(f[0])))
    events: list[Event] = []
    for card in cards:
        events += _discard_warrior(state, card)
    return events + _relentless(state, fallen, depth)


def _discard_warrior(state: PhState, card: int) -> list[Event]:
    seat = state.owner(card)
    side = state.side(card)
    state.play[seat].remove(card)
    state.discards[seat].append(card)
    for table in (state.damage, state.mods, state.granted):
        table.pop(card, None)
    if card in state.locked:
        state.locked.remove(card)
    for fight in state.skirmishes:
        if card in fight.defenders:
            fight.defenders.remove(card)
        if fight.attacker == card:
            fight.fallen = side.title
    return [Event(text=f"{side.title} ({seat_ref(seat)}) is destroyed.")]


def _relentless(state: PhState, fallen: list[tuple[int, int, Side]], depth: int) -> list[Event]:
    events: list[Event] = []
    for _card, seat, side in fallen:
        if side.relentless:
            events.append(Event(text=f"Relentless — {side.title}."))
            events += run(state, seat, side.relentless, None, [], depth + 1)
    return events


def check_destroyed(state: PhState, depth: int = 0) -> list[Event]:
    """Destroy every warrior whose damage reached its defense, or whose defense is
    0 or less: all of them together (:func:`leave_play`)."""
    events: list[Event] = []
    for _ in range(MAX_DEPTH):
        doomed = [
            c
            for seat in range(state.players)
            for c in state.play[seat]
            if state.defense(c) <= 0 or state.damage.get(c, 0) >= state.defense(c)
        ]
        if not doomed:
            break
        events += leave_play(state, doomed, depth)
    return events


def _on_warrior(state: PhState, effect: Effect, card: int, seat: int, depth: int) -> list[Event]:
    if not any(card in warriors for warriors in state.play):
        return []
    name = state.name(card)
    if effect.do == "modify":
        a = effect.opposed_a if effect.opposed_a is not None and state.opposing(card) else effect.a
        mod = state.mods.setdefault(card, Mod())
        mod.a += a
        mod.d += effect.d
        return [Event(text=f"{name} gets {a:+d}/{effect.d:+d} ({state.attack(card)}/{state.defense(card)}).")]
    if effect.do == "damage":
        state.damage[card] = state.damage.get(card, 0) + effect.n
        return [Event(text=f"{name} takes {effect.n} damage.")]
    if effect.do == "phase":
        return phase(state, card, depth)
    if effect.do == "lock":
        if card not in state.locked:
            state.locked.append(card)
        return [Event(text=f"{name} is locked.")]
    if effect.do == "ready":
        if card in state.locked:
            state.locked.remove(card)
        return [Event(text=f"{name} is unlocked.")]
    assert effect.do == "grant" and effect.flag is not None
    state.granted.setdefault(card, []).append(effect.flag)
    return [Event(text=f"{name} gains {effect.flag.capitalize()} until the end of the turn.")]


def _on_player(state: PhState, effect: Effect, seat: int) -> list[Event]:
    if effect.do == "gain":
        assert effect.kind is not None
        return gain(state, seat, effect.kind, effect.n)
    if effect.do == "lose":
        assert effect.kind is not None
        return lose(state, seat, effect.kind, effect.n)
    if effect.do == "draw":
        return draw(state, seat, effect.n)
    return enlist(state, seat, effect.n, effect.locked)


def run(
    state: PhState, seat: int, effects: list[Effect], source: int | None, chosen: list[int], depth: int = 0
) -> list[Event]:
    """Carry out ``effects`` for ``seat``; ``source`` is the warrior whose skill or
    trigger it is, ``chosen`` the warriors chosen for the action."""
    if depth > MAX_DEPTH:
        return []
    events: list[Event] = []
    for effect in effects:
        if effect.do == "destroy":  # the warriors it names are destroyed together
            named = chosen if effect.target == "chosen" else [source] if source is not None else []
            events += leave_play(state, named, depth)
        elif effect.target in ("chosen", "self"):
            for card in chosen if effect.target == "chosen" else [source] if source is not None else []:
                events += _on_warrior(state, effect, card, seat, depth)
        else:
            for whom in [seat] if effect.target == "you" else state.others(seat):
                events += _on_player(state, effect, whom)
    return events + check_destroyed(state, depth)


def elite(state: PhState, chosen: list[tuple[int, Side]], depth: int = 0) -> list[Event]:
    """Each warrior chosen for an order triggers the Elite skill of the side it
    was chosen with ("Elite skills trigger every time that warrior is chosen for
    an order"), after the order's effects, while it is still in play."""
    events: list[Event] = []
    for card, side in chosen:
        if any(card in w for w in state.play):
            events.append(Event(text=f"Elite — {side.title}."))
            events += run(state, state.owner(card), side.elite, card, [], depth + 1)
    return events


def resolve_ability(
    state: PhState, seat: int, ability: Ability, source: int | None, chosen: list[int], is_order: bool
) -> list[Event]:
    # The sides the warriors were chosen with, before the order phases any of them.
    elites = [(card, state.side(card)) for card in chosen if is_order and state.side(card).elite]
    events = run(state, seat, ability.effects, source, chosen)
    return events + elite(state, elites)
