"""The flow of a round: Heroes, first player, then Day → Night → Dream until the
Last Dream. Each function mutates the state and returns the events it caused."""

from __future__ import annotations

from engines.core import Event, seat_ref
from engines.spheres_of_life.scoring import score
from engines.spheres_of_life.state import Dream, SolState

HAND_START = 3
BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}


def order_from(state: SolState, first: int) -> list[int]:
    return [(first + i) % state.players for i in range(state.players)]


def names(state: SolState, cards: list[int]) -> str:
    return ", ".join(state.name(c) for c in cards) or "nothing"


def draw(state: SolState, seat: int, n: int) -> tuple[list[int], list[Event]]:
    """Up to ``n`` cards from the top of the Main Deck into ``seat``'s hand."""
    drawn = [state.deck.pop() for _ in range(min(n, len(state.deck)))]
    state.hands[seat].extend(drawn)
    if not drawn:
        return drawn, []
    word = "a card" if len(drawn) == 1 else f"{len(drawn)} cards"
    return drawn, [
        Event(text=f"{seat_ref(seat)} draws {word}."),
        Event(text=f"You draw {names(state, drawn)}.", to=[seat]),
    ]


# ----- a round begins -----


def new_round(state: SolState) -> list[Event]:
    main: list[int] = []
    heroes: list[int] = []
    for card, kind in enumerate(state.cards):
        (heroes if state.deck_spec.group(kind) == "hero" else main).append(card)
    state.rng.shuffle(main)
    n = state.players
    state.deck, state.table, state.discard, state.in_play = main, [], [], []
    state.hands, state.banked = [[] for _ in range(n)], [[] for _ in range(n)]
    state.heroes, state.heroes_used = [[] for _ in range(n)], [[] for _ in range(n)]
    state.hero_pool, state.hero_picks = heroes, [[] for _ in range(n)]
    state.locked, state.dream, state.pending, state.days_done = [False] * n, None, None, 0
    state.next_phase, state.seen = None, []
    events = [Event(text=f"Round {state.round_no} begins.")] if state.options.rounds > 1 else []
    # A custom deck with too few Heroes for the table is played without them.
    if state.options.heroes_each and len(state.hero_pool) >= state.players * state.options.heroes_each:
        state.stage = "heroes"
        return [*events, Event(text="Everyone chooses a Hero in secret.")]
    return events + deal(state)


def heroes_needed(state: SolState, seat: int) -> int:
    return state.options.heroes_each - len(state.heroes[seat]) - len(state.hero_picks[seat])


def reveal_heroes(state: SolState) -> list[Event]:
    """All picks are in: give each Hero to its claimant (a random one if contested)."""
    events: list[Event] = []
    for kind in sorted({k for picks in state.hero_picks for k in picks}):
        claimants = [s for s in range(state.players) if kind in state.hero_picks[s]]
        copies = [c for c in state.hero_pool if state.kind(c) == kind]
        if len(claimants) > len(copies):
            state.rng.shuffle(claimants)
            losers = claimants[len(copies) :]
            claimants = sorted(claimants[: len(copies)])
            events.append(
                Event(
                    text=f"{state.deck_spec.name_of(kind)} was chosen by several players: "
                    f"{', '.join(map(seat_ref, sorted(losers)))} must choose again."
                )
            )
        for seat, card in zip(claimants, copies, strict=False):
            state.hero_pool.remove(card)
            state.heroes[seat].append(card)
            events.append(Event(text=f"{seat_ref(seat)} takes the Hero {state.name(card)}."))
    state.hero_picks = [[] for _ in range(state.players)]
    if any(heroes_needed(state, s) for s in range(state.players)):
        return events
    return events + deal(state)


def deal(state: SolState) -> list[Event]:
    events: list[Event] = []
    for seat in range(state.players):
        dealt = [state.deck.pop() for _ in range(HAND_START)]
        state.hands[seat].extend(dealt)
        events.append(Event(text=f"You are dealt {names(state, dealt)}.", to=[seat]))
    return events + choose_first(state)


def windmaster(state: SolState) -> int | None:
    for seat, cards in enumerate(state.heroes):
        for card in cards:
            power = state.deck_spec.power(state.kind(card))
            if power is not None and power.passive:
                return seat
    return None


def choose_first(state: SolState) -> list[Event]:
    holder = windmaster(state)
    if holder is not None:
        state.leader, state.leader_holds = holder, 2
        return [
            Event(text=f"{seat_ref(holder)} holds the Windmaster and begins the first three phases."),
            *start_day(state),
        ]
    if state.options.first_player == "random":
        state.leader, state.leader_holds = state.rng.below(state.players), 0
        return [Event(text=f"Lots are drawn: {seat_ref(state.leader)} goes first."), *start_day(state)]
    state.stage, state.rps_players = "rps", list(range(state.players))
    state.rps = [None] * state.players
    return [Event(text="Rock, paper, scissors decides who goes first: everyone throws in secret.")]


def reveal_rps(state: SolState) -> list[Event]:
    thrown = {s: state.rps[s] for s in state.rps_players}
    shown = ", ".join(f"{seat_ref(s)} {shape}" for s, shape in thrown.items())
    shapes = set(thrown.values())
    state.rps = [None] * state.players
    if len(shapes) == 2:
        best = next(s for s in shapes if s is not None and BEATS[s] in shapes)
        state.rps_players = [s for s, shape in thrown.items() if shape == best]
    if len(state.rps_players) == 1:
        state.leader, state.leader_holds = state.rps_players[0], 0
        state.rps_players = []
        return [Event(text=f"{shown}: {seat_ref(state.leader)} wins and goes first."), *start_day(state)]
    tied = ", ".join(map(seat_ref, state.rps_players))
    return [Event(text=f"{shown}: a tie between {tied}; they throw again.")]


# ----- Day, Night, Dream -----


def start_day(state: SolState) -> list[Event]:
    state.stage, state.queue, state.count = "day", order_from(state, state.leader), 0
    need = state.players * state.options.pace_factor
    laid = [state.deck.pop() for _ in range(min(need, len(state.deck)))]
    state.table = laid
    last = " It is the last Day: the Main Deck is empty." if not state.deck else ""
    return [
        Event(
            text=f"Day begins ({seat_ref(state.leader)} holds the Day card). "
            f"On the table: {names(state, laid)}.{last}"
        )
    ]


def finish_day(state: SolState) -> list[Event]:
    events: list[Event] = []
    for seat in order_from(state, state.leader):
        events += draw(state, seat, state.options.pace_factor)[1]
    state.days_done += 1
    return events + end_phase(state)


def start_night(state: SolState) -> list[Event]:
    state.stage, state.queue = "night", order_from(state, state.leader)
    state.count, state.discarded, state.picking = 0, 0, False
    need = 2 * state.players * state.options.pace_factor
    state.table = [state.deck.pop() for _ in range(min(need, len(state.deck)))]
    return [
        Event(
            text=f"Night falls ({seat_ref(state.leader)} holds the Night card). "
            f"On the table: {names(state, state.table)}."
        )
    ]


def night_limit(state: SolState) -> int:
    return 2 * state.options.pace_factor


def end_night_turn(state: SolState) -> None:
    state.queue.pop(0)
    state.count, state.discarded, state.picking = 0, 0, False


def finish_night(state: SolState) -> list[Event]:
    left = state.table
    state.discard.extend(left)
    state.table = []
    events = [Event(text=f"The cards left on the table are discarded: {names(state, left)}.")] if left else []
    return events + end_phase(state)


def start_dream(state: SolState, last: bool) -> list[Event]:
    state.stage = "dream"
    state.dream = Dream(to_act=order_from(state, state.leader), last=last)
    title = "The Last Dream" if last else "Dream"
    return [Event(text=f"{title} begins ({seat_ref(state.leader)} holds the Dream card).")]


def end_phase(state: SolState) -> list[Event]:
    """Pass the Phase cards on and begin what comes next."""
    was, last = state.stage, state.dream is not None and state.dream.last
    state.locked = [False] * state.players
    state.dream, state.queue = None, []
    if was == "dream" and last:
        return end_round(state)
    if state.leader_holds:
        state.leader_holds -= 1
    else:
        state.leader = (state.leader + 1) % state.players
    if not state.deck:
        return start_dream(state, last=True)
    following = state.next_phase or {"day": "night", "night": "dream", "dream": "day"}[was]
    state.next_phase = None
    if following == "day":
        return start_day(state)
    return start_night(state) if following == "night" else start_dream(state, last=False)


def end_round(state: SolState) -> list[Event]:
    points = [score(state, s) for s in range(state.players)]
    for seat in range(state.players):
        state.match_scores[seat] += points[seat]
        state.match_cards[seat] += len(state.hands[seat])
    shown = ", ".join(f"{seat_ref(s)} {p}" for s, p in enumerate(points))
    events = [Event(text=f"The Last Dream is over. Points: {shown}.")]
    if state.round_no >= state.options.rounds:
        state.stage = "over"
        return events
    state.round_no += 1
    return events + new_round(state)


def check_balance(state: SolState) -> list[Event]:
    """Restore the Balance: after the second Day, a hand worth exactly 0 wins."""
    if state.options.goal != "balance" or state.days_done < 2 or state.stage == "over":
        return []
    zero = [s for s in range(state.players) if score(state, s) == 0]
    if not zero:
        return []
    state.balance_winners, state.stage = zero, "over"
    return [Event(text=f"{', '.join(map(seat_ref, zero))} restored the Balance: exactly 0 points!")]
