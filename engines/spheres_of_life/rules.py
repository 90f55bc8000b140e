"""Spheres of Life on the engine contract."""

from __future__ import annotations

import random
from typing import Any

from pydantic import BaseModel

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
)
from engines.spheres_of_life import checks, choices, collector, hidden, moves, reading, views
from engines.spheres_of_life.actions import ChooseHero, Pick, Play, SolAction, Steal
from engines.spheres_of_life.cards import DeckSpec, builtin_deck
from engines.spheres_of_life.phases import heroes_needed, new_round
from engines.spheres_of_life.scoring import score
from engines.spheres_of_life.state import SolOptions, SolState

SEATS_PER_DECK = 7
# The key prefixes of what choices.anytime lists.
ANYTIME_KEYS = ("play:", "reorder:")
HELP = (
    "Collect Noble animals (+), shed Corrupted ones (−). Per animal: 1→1, 2→4, 3→9 points, a fourth "
    "starts again. Phases pass clockwise: Day — lay one card per player, each picks one, then draws one. "
    "Night — lay two per player, each may discard up to 2 and pick as many. Dream — each may bank one "
    "set of three (Noble +6, Corrupted +3), then must Steal (a random card), give a "
    "Forced Gift, or offer an Exchange. Ability cards (−1 each if unused) are played any time in a "
    "Dream; Apple of Life blocks one, or another player's Action. Heroes: once per game. When the "
    "deck runs out the Last Dream ends the game: most points wins, fewer cards breaks ties."
)


class SpheresOfLife(Engine[SolState, SolAction]):
    info = GameInfo(
        key="spheres-of-life",
        title="Spheres of Life",
        summary="Collect Noble animals, dodge Corrupted ones, and steal through the Dreams.",
        min_players=2,
        max_players=SEATS_PER_DECK,
        options_model=SolOptions,
        presets={
            "standard": {},
            "pace": {"pace": True},
            "purist": {"purist": True},
            "balance": {"goal": "balance"},
            "big-table": {"decks": 2},
            "match": {"rounds": 3},
        },
        help=HELP,
    )
    state_type = SolState
    action_type = SolAction

    def seat_range(self, options: BaseModel) -> tuple[int, int]:
        assert isinstance(options, SolOptions)
        spec = options.deck or builtin_deck()
        decks = options.decks or 1  # unset: by the table, within one deck's seats
        # Counted, not dealt: a lobby is drawn often and a custom deck may be large.
        heroes = (
            0
            if options.purist
            else sum(h.copies for deck in range(decks) for h in spec.heroes if deck == 0 or not h.passive)
        )
        abilities = 0 if options.purist else sum(a.copies for a in spec.abilities)
        main = decks * (sum(a.copies for a in spec.animals) + abilities)
        high = SEATS_PER_DECK * decks
        if options.heroes_each and heroes >= 2 * options.heroes_each:
            high = min(high, heroes // options.heroes_each)
        high = min(high, main // 4)
        return 2, max(high, 2)

    def setup(self, players: int, options: BaseModel, seed: int) -> SolState:
        assert isinstance(options, SolOptions)
        self.check_players(players, options)
        spec = options.deck or builtin_deck()
        left_out = options.left_out(players)
        # The state keeps the decks it was dealt from, also when the table chose them.
        options = options.model_copy(
            update={"deck": None, "decks": options.decks_for(players), "trim": bool(left_out)}
        )
        state = SolState(
            players=players,
            options=options,
            deck_spec=spec,
            rng=Rng(seed=seed),
            cards=self._cards(spec, options, left_out),
            hands=[],
            banked=[],
            heroes=[],
            heroes_used=[],
            hero_picks=[],
            rps=[None] * players,
            locked=[False] * players,
            match_scores=[0] * players,
            match_cards=[0] * players,
        )
        new_round(state)
        return state

    @staticmethod
    def _cards(spec: DeckSpec, options: SolOptions, left_out: tuple[str, ...]) -> list[str]:
        cards: list[str] = []
        for deck in range(options.decks or 1):  # setup has settled the count
            cards += [a.id for a in spec.animals for _ in range(a.copies)]
            if options.purist:
                continue
            cards += [a.id for a in spec.abilities for _ in range(a.copies)]
            # Only one Windmaster may be in a game: the other decks' copies stay in the box.
            cards += [h.id for h in spec.heroes for _ in range(h.copies) if deck == 0 or not h.passive]
        for kind in left_out:
            cards.remove(kind)
        return cards

    # ----- who acts -----

    def _awaited(self, state: SolState) -> tuple[list[Prompt], int | None]:
        """The awaited prompts and the seat whose turn it is (if any)."""
        if state.stage == "over":
            return [], None
        if state.stage == "heroes":
            return [
                Prompt(seat=s, kind="secret", text="Choose your Hero in secret")
                for s in range(state.players)
                if heroes_needed(state, s) > 0
            ], None
        if state.stage == "rps":
            return [
                Prompt(seat=s, kind="secret", text="Rock, paper or scissors?")
                for s in state.rps_players
                if state.rps[s] is None
            ], None
        pending = state.pending
        if pending is not None and pending.window:
            return [
                Prompt(seat=s, kind="response", text="Block with an Apple of Life, or pass")
                for s in pending.window
            ], None
        if pending is not None:
            return [Prompt(seat=pending.owner, text=f"Resolve {state.name(pending.card)}")], pending.owner
        dream = state.dream
        if dream is not None and dream.action is not None:
            return [
                Prompt(seat=s, kind="response", text="Block this Action with an Apple of Life, or pass")
                for s in dream.action.window
            ], None
        if dream is not None and dream.exchange is not None and not dream.exchange.refused:
            return [
                Prompt(seat=s, kind="response", text="Accept or decline the exchange")
                for s in dream.exchange.waiting
            ], None
        seat = dream.to_act[0] if dream is not None else state.queue[0]
        return [Prompt(seat=seat, text=self._turn_text(state))], seat

    @staticmethod
    def _turn_text(state: SolState) -> str:
        if state.stage == "day":
            return "Pick a card from the table"
        if state.stage == "night":
            return "Pick cards from the table" if state.picking else "Discard cards, then pick as many"
        dream = state.dream
        if dream is not None and dream.exchange is not None:
            return "Nobody accepted: Steal or give a Forced Gift"
        return "Take your Dream Action (bank a set first if you like)"

    @staticmethod
    def _open_to_all(state: SolState, awaited: list[Prompt]) -> bool:
        """Whether the other seats may play cards or reorder now (a turn, nothing resolving)."""
        dream = state.dream
        return (
            bool(awaited)
            and state.pending is None
            and awaited[0].kind == "turn"
            and (dream is None or (dream.exchange is None and dream.action is None))
        )

    def prompts(self, state: SolState) -> list[Prompt]:
        awaited, current = self._awaited(state)
        if self._open_to_all(state, awaited):
            awaited += [
                Prompt(seat=s, kind="anytime", text="Play an Ability or Hero, or reorder your hand")
                for s in range(state.players)
                if s != current
            ]
        return awaited

    def _prompt_kind(self, state: SolState, seat: Seat) -> str | None:
        awaited, _ = self._awaited(state)
        mine = next((p.kind for p in awaited if p.seat == seat), None)
        return mine or ("anytime" if self._open_to_all(state, awaited) else None)

    def legal_actions(self, state: SolState, seat: Seat) -> list[Choice]:
        return reading.add_details(state, self.moves(state, seat))

    def moves(self, state: SolState, seat: Seat) -> list[Choice]:
        """The legal choices without their card texts (a search reads none)."""
        kind = self._prompt_kind(state, seat)
        return self._choices(state, seat, kind) if kind is not None else []

    def choice(self, state: SolState, seat: Seat, key: str) -> Choice:
        kind = self._prompt_kind(state, seat)
        for option in self._choices(state, seat, kind, key) if kind is not None else []:
            if option.key == key:
                return reading.add_details(state, [option])[0]  # the card text of this one only
        raise IllegalAction("That move is not possible right now.")

    def _choices(self, state: SolState, seat: Seat, kind: str, key: str | None = None) -> list[Choice]:
        """The seat's choices; given a ``key``, possibly only those of its family
        (a card played out of turn or a reorder, else the turn's own moves)."""
        if state.stage == "heroes":
            return choices.hero_choices(state, seat)
        if state.stage == "rps":
            return choices.rps_choices(state, seat)
        if state.pending is not None:
            return (
                choices.block_answers(state, seat)
                if state.pending.window
                else choices.effect_choices(state, seat)
            )
        if kind == "response":
            if state.dream is not None and state.dream.action is not None:
                return choices.block_answers(state, seat)
            return choices.exchange_answers(state, seat)
        # Any seat's plays and reorders (keys "play:…", "reorder:…") are many and
        # costly to list; a move of the turn itself never has such a key.
        anytime = key is None or key.startswith(ANYTIME_KEYS)
        found = choices.anytime(state, seat) if anytime else []
        if kind == "turn" and (key is None or not anytime):
            found = self._turn_choices(state, seat) + found
        return found

    @staticmethod
    def _turn_choices(state: SolState, seat: Seat) -> list[Choice]:
        if state.stage == "day":
            return choices.table_picks(state)
        if state.stage == "night":
            return choices.night_choices(state, seat)
        return choices.dream_choices(state, seat)

    # ----- moves -----

    def validate(self, state: SolState, seat: Seat, action: SolAction) -> None:
        checks.check(state, seat, action)

    def resolve(self, state: SolState, seat: Seat, action: SolAction) -> list[Event]:
        return moves.carry_out(state, seat, action)

    def default_action(self, state: SolState, seat: Seat) -> SolAction:
        found = self.legal_actions(state, seat)
        if not found:
            return super().default_action(state, seat)
        for preferred in ("pass", "decline", "done", "cancel"):
            for choice in found:
                if choice.key == preferred:
                    return choice.action  # type: ignore[no-any-return]
        quiet = [c for c in found if c.key.split(":")[0] not in ("play", "reorder", "bank", "offer")]
        steals = sorted(
            (c for c in quiet if isinstance(c.action, Steal)),
            key=lambda c: ((c.action.target - seat) % state.players, c.action.card is not None),
        )
        return (steals or quiet or found)[0].action  # type: ignore[no-any-return]

    # ----- seeing and ending -----

    def view(self, state: SolState, viewer: Seat | None) -> views.SolView:
        awaited, current = self._awaited(state)
        return views.build(state, viewer, [p.seat for p in awaited], current)

    def headline(self, state: SolState) -> str:
        return views.headline(state, self._awaited(state)[1])

    def cards(self, options: BaseModel) -> list[CardText]:
        assert isinstance(options, SolOptions)
        spec = options.deck or builtin_deck()
        return [
            CardText(key=key, name=name, kind=kind, text=reading.card_text(spec, key), facts=facts)
            for key, name, kind, facts in reading.cards_of(spec)
        ]

    def recap(self, state: SolState) -> Recap:
        return reading.recap(state)

    def determinize(self, state: SolState, seat: Seat, rng: random.Random) -> SolState:
        return hidden.determinize(state, seat, rng)

    def content_of(self, state: SolState, choice: Choice) -> str | None:
        action = choice.action
        if isinstance(action, ChooseHero):
            return f"hero {action.hero}"
        if isinstance(action, (Pick, Play)):
            return f"{action.type} {state.name(action.card)}"
        return None

    def first_player(self, state: SolState) -> Seat | None:
        # Settled when the first Day begins (Heroes and the first-player draw come before it).
        return None if state.stage in ("heroes", "rps") else state.leader

    def rounds_of(self, state: SolState) -> int | None:
        return state.days_done  # Days: the match's unit of play (a Night follows each)

    def evaluate(self, state: SolState) -> dict[Seat, float]:
        if state.stage == "over":
            return super().evaluate(state)
        return hidden.evaluate(state)

    def rollout_choice(
        self, state: SolState, seat: Seat, choices: list[Choice], rng: random.Random
    ) -> Choice:
        """Gather Noble sets, shed what counts against the hand, steal from the player ahead."""
        return collector.quick_move(state, seat, choices, rng)

    def result(self, state: SolState) -> Result | None:
        if state.stage != "over":
            return None
        n = state.players
        cards = [len(h) for h in state.hands]
        if state.options.rounds > 1:
            totals, cards = list(state.match_scores), list(state.match_cards)
            key: Any = lambda s: (-totals[s], cards[s])  # noqa: E731
            summary = "Most match points wins; fewer cards left in hand breaks ties."
        elif state.options.goal == "balance":
            totals = [score(state, s) for s in range(n)]
            won = state.balance_winners or []
            key = lambda s: (s not in won, abs(totals[s]), cards[s])  # noqa: E731
            summary = "Closest to 0 points wins (exactly 0 after the second Day ends the game)."
        else:
            totals = [score(state, s) for s in range(n)]
            key = lambda s: (-totals[s], cards[s])  # noqa: E731
            summary = "Most points wins; fewer cards in hand breaks ties; still tied is a draw."
        ranking = rank_seats(range(n), key)
        return Result(ranking=ranking, scores={s: float(totals[s]) for s in range(n)}, summary=summary)


ENGINE = SpheresOfLife()
