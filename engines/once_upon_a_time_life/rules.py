"""Once Upon a Time… Life on the engine contract."""

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
    rank_seats,
    seat_ref,
)
from engines.once_upon_a_time_life import actions, choices, moves, prudence, reading, views
from engines.once_upon_a_time_life.board import builtin_board
from engines.once_upon_a_time_life.cards import builtin_cards, card_spec
from engines.once_upon_a_time_life.duels import loser
from engines.once_upon_a_time_life.questions import builtin_questions
from engines.once_upon_a_time_life.state import BOX, START_PURSE, LifeOptions, LifeState
from engines.once_upon_a_time_life.tokens import KINDS

HELP = (
    "Collect 7 Hemo to win. Everyone starts with 3 Globin, 2 Leukocyte and 2 Medicine and, in turn order, "
    "chooses one of 8 pawns: it starts on the START of its body system. Before rolling you may exchange "
    "at the bank (4 Globin → 1 Hemo, "
    "2 Leukocyte → 1 Globin, 2 Medicine → 1 Globin), attack with a kept Virus card (the target pays 3 "
    "Globin) or challenge with a kept Master card to a duel of questions (4 Globin or 1 Hemo to the "
    "winner). Then roll and carry out the space: Leukocyte/Medicine +1, Virus/Bacteria cost a token or a "
    "turn, Chance/Bad Luck cards, Questions (Easy +1, Hard +2 Globin, then va banque once). Passing your "
    "own START pays 3 Globin, 2 Leukocyte and 2 Medicine. A Master card repels a Virus or avoids a duel."
)


class OnceUponATimeLife(Engine[LifeState, actions.LifeAction]):
    info = GameInfo(
        key="once-upon-a-time-life",
        title="Once Upon a Time… Life",
        summary="Race around the human body: answer questions, fight viruses, collect 7 Hemo.",
        min_players=2,
        max_players=4,
        options_model=LifeOptions,
        presets={"standard": {}, "quick": {"hemo": 3}},
        help=HELP,
    )
    state_type = LifeState
    action_type = actions.LifeAction

    def setup(self, players: int, options: BaseModel, seed: int) -> LifeState:
        assert isinstance(options, LifeOptions)
        self.check_players(players, options)
        board, cards = builtin_board(), builtin_cards()
        chance = [c.id for c in cards.chance for _ in range(c.copies)]
        bad_luck = [c.id for c in cards.bad_luck for _ in range(c.copies)]
        questions = options.deck or builtin_questions()
        bank = BOX.model_copy()
        for kind in KINDS:
            bank.add(kind, -START_PURSE.of(kind) * players)
        state = LifeState(
            players=players,
            options=options.model_copy(update={"deck": None}),
            custom_questions=options.deck,
            rng=Rng(seed=seed),
            chance_cards=chance,
            bad_luck_cards=bad_luck,
            chance=list(range(len(chance))),
            bad_luck=list(range(len(bad_luck))),
            easy_pile=list(range(len(questions.easy))),
            hard_pile=list(range(len(questions.hard))),
            bank=bank,
            purses=[START_PURSE.model_copy() for _ in range(players)],
            hands=[[] for _ in range(players)],
            pawns=[None] * players,
            # Placeholders until each player chooses a pawn (stage "pawn"), which sets both.
            systems=[0] * players,
            position=[board.start(0)] * players,
            away=[None] * players,
            skips=[0] * players,
            stage="pawn",
        )
        for pile in (state.chance, state.bad_luck, state.easy_pile, state.hard_pile):
            state.rng.shuffle(pile)
        # "The youngest starts": on Discord the table draws lots (or seat 1 starts).
        # "They choose a pawn they want to play": the first player first, then in turn order.
        state.turn = state.rng.below(players) if options.random_first else 0
        return state

    def prompts(self, state: LifeState) -> list[Prompt]:
        if state.stage == "over":
            return []
        if state.stage == "answer":
            assert state.question is not None
            return [
                Prompt(
                    seat=state.question.answerer,
                    kind="secret",
                    timeout=state.options.answer_seconds,
                    text=f"Answer the {state.question.level.capitalize()} question",
                )
            ]
        if state.stage == "respond":
            assert state.challenge is not None
            what = "the duel" if state.challenge.kind == "duel" else "the Virus attack"
            return [
                Prompt(seat=state.challenge.target, kind="response", text=f"Take up {what} or show a Master")
            ]
        if state.stage == "spoils":
            assert state.challenge is not None and state.challenge.winner is not None
            return [Prompt(seat=state.challenge.winner, text="Take 4 Globin or 1 Hemo from the loser")]
        text = {
            "pawn": "Choose the pawn you play",
            "act": "Exchange, attack, duel — or roll the die",
            "defend": "Choose the token to give up",
            "pick": "Choose an Easy or a Hard question",
            "vabanque": "Va banque, or keep what you earned",
        }
        return [Prompt(seat=state.turn, text=text[state.stage])]

    def legal_actions(self, state: LifeState, seat: Seat) -> list[Choice]:
        return reading.add_details(self.moves(state, seat))

    def moves(self, state: LifeState, seat: Seat) -> list[Choice]:
        """The legal choices without the kept cards' texts (a search reads none)."""
        if all(p.seat != seat for p in self.prompts(state)):
            return []
        stage = state.stage
        if stage == "pawn":
            return choices.pawns(state)
        if stage == "act":
            return choices.before_roll(state)
        if stage == "defend":
            return choices.defend(state)
        if stage == "pick":
            return choices.pick(state)
        if stage == "answer":
            return choices.answer(state)
        if stage == "vabanque":
            return choices.vabanque(state)
        if stage == "respond":
            return choices.respond(state, seat)
        return choices.spoils(state)

    def cards(self, options: BaseModel) -> list[CardText]:
        """The Chance and Bad Luck cards (questions are not cards to look up: that would answer them)."""
        return reading.card_texts()

    def recap(self, state: LifeState) -> Recap:
        return reading.recap(state)

    def validate(self, state: LifeState, seat: Seat, action: actions.LifeAction) -> None:
        if isinstance(action, actions.Respond) and action.master and not state.held(seat, "master"):
            raise IllegalAction("You hold no Master card.")
        if isinstance(action, actions.ChoosePawn) and action.pawn not in {p.id for p in state.free_pawns()}:
            taken = state.board.pawn_named(action.pawn)
            raise IllegalAction(
                f"The {taken.name} pawn is taken: choose another." if taken else "The box has no such pawn."
            )

    def resolve(self, state: LifeState, seat: Seat, action: actions.LifeAction) -> list[Event]:
        events = moves.carry_out(state, seat, action)
        for other in [state.turn, *state.others(state.turn)]:
            if state.winner is None and state.purses[other].hemo >= state.options.hemo:
                state.winner, state.stage = other, "over"
                state.question = state.challenge = None
                events.append(
                    Event(
                        text=f"{seat_ref(other)} collects {state.options.hemo} Hemo and wins!", kind="result"
                    )
                )
        return events

    def default_action(self, state: LifeState, seat: Seat) -> actions.LifeAction:
        """A late seat takes a free pawn of a body system nobody plays yet, rolls,
        gives up the token it has more of, takes an Easy question, gives no
        answer, keeps its earnings, shows a Master if it holds one (the safe
        choice) and takes a Hemo where the loser has one."""
        stage = state.stage
        if stage == "pawn":
            return actions.ChoosePawn(pawn=choices.spread_pawn(state).id)
        if stage == "defend":
            found = self.legal_actions(state, seat)
            return found[0].action  # type: ignore[no-any-return]
        if stage == "pick":
            return actions.PickQuestion(level="easy")
        if stage == "answer":
            return actions.Answer()
        if stage == "vabanque":
            return actions.VaBanque()
        if stage == "respond":
            return actions.Respond(master=bool(state.held(seat, "master")))
        if stage == "spoils":
            assert state.challenge is not None
            beaten = state.purses[loser(state.challenge)]
            return actions.Spoils(take="hemo" if beaten.hemo else "globin")
        return actions.Roll()

    def view(self, state: LifeState, viewer: Seat | None) -> views.LifeView:
        return views.build(state, viewer)

    def headline(self, state: LifeState) -> str:
        return views.headline(state)

    def result(self, state: LifeState) -> Result | None:
        if state.stage != "over" or state.winner is None:
            return None
        winner = state.winner

        def key(s: int) -> tuple[int, float]:
            return (-state.purses[s].hemo, -state.purses[s].worth())

        ranking = [[winner], *rank_seats([s for s in range(state.players) if s != winner], key)]
        return Result(
            ranking=ranking,
            scores={s: state.purses[s].worth() for s in range(state.players)},
            score_unit="Globin in tokens",
            summary=f"{seat_ref(winner)} collects {state.options.hemo} Hemo and wins; the others "
            "are ranked by Hemo, then by the worth of all their tokens in Globin.",
        )

    # ----- for bots (a bot seat answers right with the table's odds per deck) -----

    def determinize(self, state: LifeState, seat: Seat, rng: random.Random) -> LifeState:
        """Deal again what ``seat`` cannot see: the other players' kept cards
        (drawn from the Master and Virus cards it has not seen) and the order of
        every deck and question pile. The open question stays: its answers are
        shown, and whether a bot knows the right one is :meth:`bot_policy`'s odds."""
        world = sampling.copy_state(state)
        world.rng = sampling.fresh_rng(rng)
        others = [s for s in range(world.players) if s != seat]
        unseen = sorted([*world.chance, *(c for s in others for c in world.hands[s])])
        keepable = [c for c in unseen if card_spec(world.chance_cards[c]).keep]
        rng.shuffle(keepable)
        for other in others:
            size = len(world.hands[other])
            world.hands[other], keepable = sorted(keepable[:size]), keepable[size:]
        held = {c for s in others for c in world.hands[s]}
        world.chance = [c for c in unseen if c not in held]
        for pile in (world.chance, world.bad_luck, world.easy_pile, world.hard_pile):
            sampling.redeal([pile], rng)
        return world

    def content_of(self, state: LifeState, choice: Choice) -> str | None:
        action = choice.action
        if isinstance(action, (actions.PickQuestion, actions.VaBanque)) and action.level is not None:
            return f"{action.type} {action.level} question"
        if isinstance(action, actions.Spoils):
            return f"take {action.take}"
        verb = choice.key.split(":")[0]  # a Master's duel, a Virus attack
        return verb if verb in ("duel", "virus") else None

    def first_player(self, state: LifeState) -> Seat | None:
        # Drawn at setup; the benchmark asks before the first move is made.
        return state.turn

    def rounds_of(self, state: LifeState) -> int | None:
        return state.turn_no  # counts up when the turn comes back to the first seat

    def evaluate(self, state: LifeState) -> dict[Seat, float]:
        """The worth of each purse in Globin, a Hemo counted above the four Globin
        it costs: it is what wins and ranks first, and no Virus takes it."""
        if state.stage == "over":
            return super().evaluate(state)
        return sampling.lead([p.worth() + p.hemo for p in state.purses], 8.0)

    def rollout_choice(
        self, state: LifeState, seat: Seat, choices: list[Choice], rng: random.Random
    ) -> Choice:
        """Hemo as soon as it can be had, defences kept, questions by the table's odds."""
        return prudence.quick_move(state, seat, choices, rng)

    def bot_policy(self, state: LifeState, seat: Seat, level: str, rng: random.Random) -> Choice | None:
        """A bot answers its question right with the table's odds for that deck
        (at every level: the odds are the table's setting); else it searches."""
        if self.answer_odds(state, seat) is None:
            return None
        return self.bot_choice(state, seat, rng)

    def answer_odds(self, state: LifeState, seat: Seat) -> float | None:
        """How likely a bot in ``seat`` answers the open question right; None when it answers none."""
        if state.stage != "answer" or state.question is None or state.question.answerer != seat:
            return None
        return state.options.bot_easy if state.question.level == "easy" else state.options.bot_hard

    def bot_choice(self, state: LifeState, seat: Seat, rng: random.Random) -> Choice:
        """A bot's move: an answer right with :meth:`answer_odds`, otherwise a random legal choice."""
        found = self.legal_actions(state, seat)
        odds = self.answer_odds(state, seat)
        if odds is None or state.question is None:
            return rng.choice(found)
        right = state.question.correct
        if rng.random() < odds:
            return found[right]
        return rng.choice([c for i, c in enumerate(found[:4]) if i != right])


ENGINE = OnceUponATimeLife()
