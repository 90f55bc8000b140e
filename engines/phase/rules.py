"""Phase on the engine contract."""

from __future__ import annotations

import random

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
from engines.phase import choices, effects, guesses, moves, tactics, views
from engines.phase.actions import Attack, Cancel, Done, Order, Pass, PhAction, Pick, Skill, Train
from engines.phase.cards import FACTION_NAMES, builtin_deck
from engines.phase.state import PhOptions, PhState
from engines.words import plural

HELP = (
    "Double-sided warriors fight for the Nexus's good and evil influence. Cards have two sides; phasing "
    "flips one (and clears its damage). Your turn: unlock, draw and enlist a card into your barracks; "
    "attack with your warriors (a random opponent may defend the Nexus; defenders never oppose their own "
    "alignment; each skirmish has an action round; Swift strikes first; an unopposed attacker takes "
    "influence of its alignment from the Nexus, or makes the attacked player lose it); then train "
    "resources into warriors by phasing as many other resources as their cost. Orders are played from "
    "hand, skills from warriors; costs phase or lock resources. When a Nexus pool empties the round is "
    "finished: most influence of one kind wins, then most in total, then most attack in play."
)


class Phase(Engine[PhState, PhAction]):
    info = GameInfo(
        key="phase",
        title="Phase",
        summary="Double-sided warriors: phase your cards, storm the Nexus, gather good and evil influence.",
        min_players=2,
        max_players=3,
        options_model=PhOptions,
        presets={"standard": {}, "short": {"influence": 3, "deck_size": 20, "round_limit": 5}},
        help=HELP,
    )
    state_type = PhState
    action_type = PhAction

    def setup(self, players: int, options: BaseModel, seed: int) -> PhState:
        assert isinstance(options, PhOptions)
        self.check_players(players, options)
        spec = options.deck or builtin_deck()
        rng = Rng(seed=seed)
        available = spec.factions()
        if options.factions:
            if len(options.factions) != players:
                raise IllegalAction(f"Name one faction per player ({players}), or none to deal them by lot.")
            missing = [f for f in options.factions if f not in available]
            if missing:
                raise IllegalAction(f"This set has no {missing[0]} cards.")
            factions = list(options.factions)
        else:
            dealt = list(available)
            rng.shuffle(dealt)
            factions = [dealt[s % len(dealt)] for s in range(players)]
        cards: list[str] = []
        decks: list[list[int]] = []
        for faction in factions:
            # A player's deck: deck_size cards taken at random from their faction's pool.
            pool = spec.pool(faction)
            rng.shuffle(pool)
            chosen = pool[: options.deck_size]
            decks.append(list(range(len(cards), len(cards) + len(chosen))))
            cards += chosen
        state = PhState(
            players=players,
            options=options.model_copy(update={"deck": None}),
            custom=options.deck,
            rng=rng,
            cards=cards,
            face=[0] * len(cards),
            factions=factions,
            decks=decks,
            hands=[[] for _ in range(players)],
            barracks=[[] for _ in range(players)],
            play=[[] for _ in range(players)],
            discards=[[] for _ in range(players)],
            nexus=[options.influence * players] * 2,
            influence=[[0, 0] for _ in range(players)],
            picks=[None] * players,
        )
        for seat in range(players):
            effects.shuffle(state, state.decks[seat])
            effects.draw(state, seat, 3)
        return state

    def prompts(self, state: PhState) -> list[Prompt]:
        if state.step == "over":
            return []
        if state.step == "pick":
            return [
                Prompt(seat=s, kind="secret", text="Choose a card from your hand for your barracks.")
                for s in range(state.players)
                if state.picks[s] is None
            ]
        seat = views.to_act(state)
        assert seat is not None
        if state.pending is not None:
            return [Prompt(seat=seat, text="Pay the cost card by card, then choose the warriors.")]
        if state.round is not None:
            text = f"{views.STEPS[state.step]}: take one action or pass."
            return [Prompt(seat=seat, kind="response", text=text)]
        return [Prompt(seat=seat, text=views.STEPS[state.step])]

    def legal_actions(self, state: PhState, seat: Seat) -> list[Choice]:
        return self._choices(state, seat, words=True)

    def moves(self, state: PhState, seat: Seat) -> list[Choice]:
        """The legal choices without their words: no names, no card texts."""
        return self._choices(state, seat, words=False)

    @staticmethod
    def _choices(state: PhState, seat: Seat, words: bool) -> list[Choice]:
        return choices.seat_choices(state, seat, words) if 0 <= seat < state.players else []

    def validate(self, state: PhState, seat: Seat, action: PhAction) -> None:
        if isinstance(action, Pick) and state.step == "pick" and state.picks[seat] is not None:
            raise IllegalAction("You have already chosen your card.")

    def resolve(self, state: PhState, seat: Seat, action: PhAction) -> list[Event]:
        return moves.carry_out(state, seat, action)

    def default_action(self, state: PhState, seat: Seat) -> PhAction:
        """A late seat passes, cancels, declares nothing more and does not attack."""
        found = self.legal_actions(state, seat)
        for safe in (Pass(), Cancel(), Attack(attack=False), Done()):
            if any(c.action == safe for c in found):
                return safe
        if not found:
            raise IllegalAction("You have nothing to do right now.")
        return found[0].action  # type: ignore[no-any-return]

    def view(self, state: PhState, viewer: Seat | None) -> views.PhView:
        return views.build(state, viewer)

    def headline(self, state: PhState) -> str:
        return views.headline(state)

    def cards(self, options: BaseModel) -> list[CardText]:
        """Every card of the set these options play with, both sides, for /card."""
        assert isinstance(options, PhOptions)
        found = []
        for spec in (options.deck or builtin_deck()).cards:
            good, evil = sorted(spec.sides, key=lambda s: s.alignment != "good")
            found.append(
                CardText(
                    key=spec.id,
                    name=f"{spec.sides[0].title} / {spec.sides[1].title}",
                    kind=f"{FACTION_NAMES[spec.faction]} card",
                    text=f"{spec.sides[0].text()}\n↺ {spec.sides[1].text()}",
                    facts={
                        "faction": FACTION_NAMES[spec.faction],
                        "good side": good.title,
                        "evil side": evil.title,
                        "cost difference": str(abs(good.cost - evil.cost)),
                        "copies": str(spec.copies),
                        "from": "the rulebook" if spec.origin == "rulebook" else "this project",
                    },
                )
            )
        return found

    def recap(self, state: PhState) -> Recap:
        """Each seat's influence by kind, its total and its attack in play, and what it held."""
        seats = []
        for seat in range(state.players):
            good, evil = state.influence[seat]
            lines = [
                f"Good influence: {good}",
                f"Evil influence: {evil}",
                f"Most of a single kind: {state.best(seat)}; in total: {state.total(seat)}",
                f"Attack of warriors in play: {state.army_attack(seat)}",
            ]
            held = [
                f"{state.side(c, flipped=True).title} (in hand, outward side {state.name(c)})"
                for c in state.hands[seat]
            ]
            held += [f"{state.name(c)} (in play)" for c in state.play[seat]]
            held += [f"{state.name(c)} (barracks)" for c in state.barracks[seat]]
            seats.append(SeatRecap(seat=seat, lines=lines, held=held))
        limit = state.options.round_limit
        limited = limit is not None and state.round_no >= limit
        how = (
            "a Nexus pool emptied"
            if 0 in state.nexus
            else f"the table's round limit ({limit}) was reached"
            if limited
            else "nobody could attack, train or play an order any more"
        )
        history = [
            f"{plural(state.round_no, 'round')}; the game ended because {how}.",
            f"Left in the Nexus: {state.nexus[0]} good, {state.nexus[1]} evil; "
            f"lost from the game: {state.removed[0]} good, {state.removed[1]} evil.",
        ]
        return Recap(seats=seats, history=history)

    def determinize(self, state: PhState, seat: Seat, rng: random.Random) -> PhState:
        return guesses.guess(state, seat, rng)

    def content_of(self, state: PhState, choice: Choice) -> str | None:
        action = choice.action
        if isinstance(action, (Pick, Order, Skill, Train)):
            return f"{action.type} {state.name(action.card)}"
        return None

    def first_player(self, state: PhState) -> Seat | None:
        return None if state.step == "pick" else state.first

    def rounds_of(self, state: PhState) -> int | None:
        return state.round_no

    def evaluate(self, state: PhState) -> dict[Seat, float]:
        """The winner's measure: influence of one kind, then in total; a little
        for the warriors in play, which take the influence still to come."""
        if state.step == "over":
            return super().evaluate(state)
        return sampling.lead(
            [state.best(s) + state.total(s) / 10 + state.army_attack(s) / 8 for s in range(state.players)],
            4.0,
        )

    def rollout_choice(self, state: PhState, seat: Seat, choices: list[Choice], rng: random.Random) -> Choice:
        """Train, strike where influence is taken, oppose what would take it, pass the rest."""
        return tactics.quick_move(state, seat, choices, rng)

    def counts_in_rollout(self, choice: Choice) -> bool:
        """Only the moves that change the board count toward a bot's rollout
        depth; a pass, a declaration finished, a cost card paid do not."""
        return tactics.counts(choice.action)

    def result(self, state: PhState) -> Result | None:
        if state.step != "over":
            return None

        def key(s: int) -> tuple[int, int, int]:
            return (-state.best(s), -state.total(s), -state.army_attack(s))

        ranking = rank_seats(range(state.players), key)
        return Result(
            ranking=ranking,
            scores={s: float(state.best(s)) for s in range(state.players)},
            summary="Most influence of a single kind wins; ties: most influence in total, then "
            "most attack among warriors in play; still tied, all tied players win.",
        )


ENGINE = Phase()
