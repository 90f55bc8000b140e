"""Time Masters on the engine contract."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from engines import sampling
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
    SeatRecap,
    rank_seats,
)
from engines.time_masters import ambition, choices, moves, views
from engines.time_masters.actions import (
    Activate,
    Buy,
    Cast,
    EndMain,
    EndTurn,
    Focus,
    Load,
    SetTimer,
    TmAction,
)
from engines.time_masters.cards import LEVELS, CardSpec, builtin_deck
from engines.time_masters.playable import check_playable
from engines.time_masters.state import TmOptions, TmState
from engines.words import plural

# What an unspent access point is worth to a search's cut-off score (see evaluate).
ACCESS_WORTH = 0.5
HELP = (
    "A deck-building race for knowledge. Everyone starts with the same 10 cards worth 0 points and 4 Kè. "
    "Each turn: Timer phase (a full timer must be activated — its spells are cast this turn — or delayed "
    "with a card from hand, which costs you a card at every refill until it is activated); Main phase "
    "(cast spells for Kè, play focuses to recover Kè, set timers, lay spells on timers paying their Kè "
    "now, or rest to recover all Kè); Access spheres (every spell cast is an access point: the top card "
    "of sphere N costs N, its hidden second card N+1, one card per sphere); Cleanup (discard what you "
    "played, refill to 5 minus the cards delaying your timers). The game ends after the turn that "
    "leaves a second sphere empty: most knowledge points wins, then most Kè."
)


class TimeMasters(Engine[TmState, TmAction]):
    info = GameInfo(
        key="time-masters",
        title="Time Masters",
        summary="Build a deck of knowledge: cast spells, bank them on timers, buy from the spheres.",
        min_players=2,
        max_players=4,
        options_model=TmOptions,
        presets={"standard": {}, "quick": {"hand_limit": 6}},
        help=HELP,
    )
    state_type = TmState
    action_type = TmAction

    def parse_options(self, raw: Mapping[str, Any] | None = None) -> BaseModel:
        """Options, refused when a game under them could never end (RULES.md decision 17)."""
        options = super().parse_options(raw)
        assert isinstance(options, TmOptions)
        check_playable(options.deck or builtin_deck(), options)
        return options

    def setup(self, players: int, options: BaseModel, seed: int) -> TmState:
        assert isinstance(options, TmOptions)
        self.check_players(players, options)
        spec = options.deck or builtin_deck()
        check_playable(spec, options)
        cards: list[str] = []
        spheres: list[list[int]] = []
        for level in range(1, LEVELS + 1):
            designs = [c.id for c in spec.pile(level) for _ in range(c.copies)]
            spheres.append(list(range(len(cards), len(cards) + len(designs))))
            cards += designs
        decks: list[list[int]] = []
        starting = [c.id for c in spec.pile(0) for _ in range(c.copies)]
        for _ in range(players):
            decks.append(list(range(len(cards), len(cards) + len(starting))))
            cards += starting
        state = TmState(
            players=players,
            options=options.model_copy(update={"deck": None}),
            deck_spec=spec,
            rng=Rng(seed=seed),
            cards=cards,
            spheres=spheres,
            decks=decks,
            hands=[[] for _ in range(players)],
            discards=[[] for _ in range(players)],
            timers=[[] for _ in range(players)],
            ke=[options.ke] * players,
        )
        for pile in state.spheres:
            state.rng.shuffle(pile)
        for seat in range(players):
            state.rng.shuffle(state.decks[seat])
            moves.draw(state, seat, options.hand_limit)
        # The rulebook names no first player: the table draws lots.
        state.turn = state.rng.below(players)
        moves.start_turn(state)
        return state

    def prompts(self, state: TmState) -> list[Prompt]:
        if state.phase == "over":
            return []
        text = {
            "timer": "Activate or delay your full timer",
            "main": "Cast, focus, set timers — or rest",
            "access": "Buy from the spheres, then end your turn",
        }[state.phase]
        return [Prompt(seat=state.turn, text=text)]

    def legal_actions(self, state: TmState, seat: Seat) -> list[Choice]:
        return _with_card_text(state, self.moves(state, seat))

    def moves(self, state: TmState, seat: Seat) -> list[Choice]:
        """The legal choices without their card texts (a search reads none)."""
        if state.phase == "over" or seat != state.turn:
            return []
        if state.phase == "timer":
            return choices.timer_choices(state)
        if state.phase == "main":
            return choices.main_choices(state)
        return choices.access_choices(state)

    def cards(self, options: BaseModel) -> list[CardText]:
        assert isinstance(options, TmOptions)
        deck = options.deck or builtin_deck()
        return [
            CardText(
                key=c.id,
                name=c.name,
                kind=_kind(c),
                text=c.rules_text,
                facts={"level": str(c.level), "cost": str(c.cost), "capacity": str(c.capacity)},
            )
            for c in deck.cards
        ]

    def validate(self, state: TmState, seat: Seat, action: TmAction) -> None:
        if isinstance(action, EndMain) and state.released:
            raise IllegalAction("The spells of an activated timer must all be cast this turn first.")

    def resolve(self, state: TmState, seat: Seat, action: TmAction) -> list[Event]:
        return moves.carry_out(state, seat, action)

    def default_action(self, state: TmState, seat: Seat) -> TmAction:
        """A late seat activates its timer, casts what the timer released, then ends its turn."""
        if state.phase == "timer":
            return Activate(timer=state.full_timers(seat)[0].card)
        if state.phase == "main":
            found = self.legal_actions(state, seat)
            if state.released:
                return found[0].action  # type: ignore[no-any-return]
            return EndMain()
        return EndTurn()

    def view(self, state: TmState, viewer: Seat | None) -> views.TmView:
        return views.build(state, viewer)

    def headline(self, state: TmState) -> str:
        return views.headline(state)

    def recap(self, state: TmState) -> Recap:
        """Each seat's knowledge, sphere by sphere, its Kè, and what it held."""
        seats = []
        for seat in range(state.players):
            owned = [state.spec(c) for c in state.owned(seat)]
            lines = [
                f"Sphere {level} cards ×{n}: +{level * n}"
                for level in range(LEVELS, 0, -1)
                if (n := sum(1 for c in owned if c.level == level))
            ]
            lines.append(
                f"Knowledge: {plural(state.knowledge(seat), 'point')} from "
                f"{plural(len(owned), 'card')}; Kè left: {state.ke[seat]}"
            )
            held = [state.name(c) for c in state.hands[seat]]
            held += [
                f"{state.name(s)} (on {state.name(t.card)})" for t in state.timers[seat] for s in t.spells
            ]
            seats.append(SeatRecap(seat=seat, lines=lines, held=held))
        history = [f"{plural(state.turn_no, 'turn')}; {plural(state.empty_spheres(), 'sphere')} emptied."]
        return Recap(seats=seats, history=history)

    def determinize(self, state: TmState, seat: Seat, rng: random.Random) -> TmState:
        """Deal again what ``seat`` cannot see: the order of its own deck; each
        other player's unseen cards (hand, deck, spells and delays on timers)
        among those places — what a player owns is public, where it lies is
        not; and each sphere below its face-up top card."""
        world = sampling.copy_state(state)
        world.rng = sampling.fresh_rng(rng)
        sampling.shuffle_kinds(world.cards, world.decks[seat], rng)
        for other in range(world.players):
            if other == seat:
                continue
            unseen = [*world.hands[other], *world.decks[other]]
            for timer in world.timers[other]:
                unseen += [*timer.spells, *timer.delays]
            sampling.shuffle_kinds(world.cards, unseen, rng)
        for pile in world.spheres:
            sampling.shuffle_kinds(world.cards, pile[1:], rng)
        return world

    def content_of(self, state: TmState, choice: Choice) -> str | None:
        action = choice.action
        if isinstance(action, Buy):
            pile = state.spheres[action.level - 1]
            # A face-down buy names no card to the buyer.
            return None if action.hidden or not pile else f"buy {state.name(pile[0])}"
        if isinstance(action, (Cast, Focus, Load, SetTimer)):
            # Cast or laid on a timer, a card in hand is played either way.
            return f"play {state.name(action.card)}"
        return None

    def first_player(self, state: TmState) -> Seat | None:
        # Drawn at setup; the benchmark asks before the first move is made.
        return state.turn

    def rounds_of(self, state: TmState) -> int | None:
        return state.turn_no  # counts up when the turn comes back to the first seat

    def evaluate(self, state: TmState) -> dict[Seat, float]:
        """Knowledge points, with a little weight on Kè (the tie-break) and, for
        the seat whose turn it is, half a point per access point still to spend
        (sphere N's card costs N and is worth N). Without them a search cut
        short just after a cast saw only the Kè it cost: the easy bot, which
        scores each move at once, rested every turn and never bought."""
        if state.phase == "over":
            return super().evaluate(state)
        worth = [state.knowledge(s) + state.ke[s] / 10 for s in range(state.players)]
        worth[state.turn] += ACCESS_WORTH * state.access_points
        return sampling.lead(worth, 6.0)

    def rollout_choice(self, state: TmState, seat: Seat, choices: list[Choice], rng: random.Random) -> Choice:
        """Cast for access points, recover Kè only when spent, buy the highest sphere in reach."""
        return ambition.quick_move(state, seat, choices, rng)

    def result(self, state: TmState) -> Result | None:
        if state.phase != "over":
            return None
        points = [state.knowledge(s) for s in range(state.players)]

        def key(s: int) -> tuple[int, int]:
            return (-points[s], -state.ke[s])

        ranking = rank_seats(range(state.players), key)
        return Result(
            ranking=ranking,
            scores={s: float(points[s]) for s in range(state.players)},
            summary="Most knowledge points wins; most Kè breaks ties; still tied is shared.",
        )


def _kind(spec: CardSpec) -> str:
    cost = f", {spec.cost} Kè" if spec.kind == "spell" else ""
    return f"{spec.kind.capitalize()}, level {spec.level}{cost}"


def _with_card_text(state: TmState, found: list[Choice]) -> list[Choice]:
    """The text of the card each choice names: the card played, or the face-up
    card a purchase takes (a hidden card stays unnamed)."""
    for choice in found:
        card = vars(choice.action).get("card")
        action = choice.action
        if isinstance(action, Buy) and not action.hidden and state.spheres[action.level - 1]:
            card = state.spheres[action.level - 1][0]
        if isinstance(card, int):
            spec = state.spec(card)
            choice.detail = f"{_kind(spec)}: {spec.rules_text}"
    return found


ENGINE = TimeMasters()
