"""The state of a game of Spheres of Life, and its options.

Every physical card has an id (its index in ``SolState.cards``, which names its
kind); a card is always in exactly one place: the Main Deck, the table, a hand,
a banked set, the discard pile, the unchosen Hero pool, a player's Heroes (ready
or used), or ``in_play`` while an Ability resolves.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engines.core import Rng
from engines.spheres_of_life.cards import Deck

# With the `decks` option unset, one deck serves up to this many players and
# more are shuffled together beyond (the deal's table below; RULES.md, Balance).
ONE_DECK_UP_TO = 4
FOUR = ("whirlwind", "dusk", "sunrise", "closed-door")


class Deal(NamedTuple):
    """How the built-in deck is dealt when the table leaves the decks to us: the decks
    shuffled together and the Ability cards left in the box, by the table's size.
    The house content, not a rule (RULES.md, Balance): the deal has changed as the
    balance benchmark found places of the turn order short-changed, and a stored
    table keeps the deal it was made with, so its log replays as it was played."""

    decks: Mapping[int, int]
    left_out: Mapping[int, tuple[str, ...]]


# Read-only: a deal is what stored tables were dealt by, so nothing may edit one in place.
_BY_DECK = {players: 1 if players <= ONE_DECK_UP_TO else 2 for players in range(2, 8)}
# From deal 3: three decks at seven players.
_THREE_AT_SEVEN = MappingProxyType({**_BY_DECK, 7: 3})
DEALS: Mapping[int, Deal] = MappingProxyType(
    {
        1: Deal(decks=MappingProxyType(_BY_DECK), left_out=MappingProxyType({})),
        2: Deal(decks=MappingProxyType(_BY_DECK), left_out=MappingProxyType({2: FOUR, 4: FOUR})),
        # The Main Deck otherwise ran out at the same place of the turn order in
        # nearly every game, so one place acted last in the Last Dream.
        3: Deal(
            decks=_THREE_AT_SEVEN,
            left_out=MappingProxyType({2: FOUR, 4: FOUR, 6: FOUR}),
        ),
        # The whole deck again: the lean the four cards answered came of bots
        # that never played out of turn, and with bots that do the whole deck
        # is the fairer at two, four and six players.
        4: Deal(decks=_THREE_AT_SEVEN, left_out=MappingProxyType({})),
    }
)
DEAL = max(DEALS)
Stage = Literal["heroes", "rps", "day", "night", "dream", "over"]
Shape = Literal["rock", "paper", "scissors"]


class SolOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    goal: Literal["strongest", "balance"] = Field(
        default="strongest",
        description="strongest: most points wins; balance: Restore the Balance "
        "(first to exactly 0 after two Days).",
    )
    pace: bool = Field(
        default=False, description="The rulebook's key changes: two Heroes each, Day and Night ×3."
    )
    purist: bool = Field(default=False, description="The Purist Way: no Ability or Hero cards.")
    decks: int | None = Field(
        default=None,
        ge=1,
        le=3,
        description="Decks shuffled together (7 more seats per deck); none: by the table, "
        f"one deck up to {ONE_DECK_UP_TO} players, two at five and six, three at seven.",
    )
    first_player: Literal["rps", "random"] = Field(
        default="rps", description="rps: rock-paper-scissors decides; random: the table draws lots."
    )
    rounds: int = Field(default=1, ge=1, le=5, description="Rounds in the match; points add up.")
    deck: Deck | None = Field(default=None, description="A custom deck (None: the built-in deck).")
    trim: bool = Field(
        default=True,
        description="Tables made with deal 2 or 3 only: with the built-in deck and the decks by the "
        "table, leave 4 Ability cards out (deal 2: at two and four players; deal 3: also at six). "
        "Deal 4 deals them all.",
    )
    deal: int = Field(
        default=DEAL,
        ge=1,
        le=DEAL,
        description="The house deal's edition (set by the table: it keeps the one it was made with).",
    )

    @model_validator(mode="before")
    @classmethod
    def _stored_before_deals(cls, data: object) -> object:
        # A stored table names every option (decks among them, null when left
        # to the table). One stored before `trim` existed was dealt the whole
        # deck; one stored before `deal` existed, with `trim`, the second deal.
        # Their logs must replay with the deck they were dealt. A host who names
        # the decks (never null) is dealt them whole whatever the deal.
        if isinstance(data, dict) and "decks" in data and data["decks"] is None and "deal" not in data:
            if "trim" in data:
                return {**data, "deal": 2}
            return {**data, "deal": 1, "trim": False}
        return data

    @model_validator(mode="after")
    def _one_goal_per_match(self) -> SolOptions:
        if self.goal == "balance" and self.rounds > 1:
            raise ValueError("Restore the Balance is played as a single round")
        return self

    def decks_for(self, players: int) -> int:
        """The decks shuffled together at a table of ``players``: the option's, or
        by the table (RULES.md, Balance: so the Day order comes round)."""
        if self.decks is not None:
            return self.decks
        return DEALS[self.deal].decks.get(players, 1)

    def left_out(self, players: int) -> tuple[str, ...]:
        """The Ability cards left in the box at a table of ``players`` (none once
        the table has chosen its decks, a deck of its own, or no Ability cards)."""
        if not self.trim or self.decks is not None or self.deck is not None or self.purist:
            return ()
        return DEALS[self.deal].left_out.get(players, ())

    @property
    def heroes_each(self) -> int:
        return 0 if self.purist else (2 if self.pace else 1)

    @property
    def pace_factor(self) -> int:
        return 3 if self.pace else 1


class Exchange(BaseModel):
    """An open offer "my card for your ``wanted``" waiting for answers."""

    proposer: int
    card: int
    wanted: str
    waiting: list[int]
    refused: bool = False


class Pending(BaseModel):
    """An Ability or Hero being played: its Block window, then its steps."""

    owner: int
    card: int
    hero: bool
    target: int | None = None
    window: list[int] = Field(default_factory=list)
    blocks: int = 0
    blockers: list[int] = Field(default_factory=list)
    step: int = 0
    started: bool = False
    chosen: list[int] = Field(default_factory=list)
    pool: list[int] = Field(default_factory=list)
    slots: list[int] = Field(default_factory=list)
    placed: list[int] = Field(default_factory=list)
    count: int = 0
    stop: bool = False


class Announced(BaseModel):
    """A Dream Action about to take place, waiting for its Block window.

    ``card``: a Steal's seen card (None: a random one), a Forced Gift's card, or
    the proposer's card in an Exchange; ``target`` is the victim, the receiver or
    the player who accepted the Exchange."""

    actor: int
    kind: Literal["steal", "gift", "exchange"]
    target: int
    card: int | None = None
    window: list[int] = Field(default_factory=list)
    blocks: int = 0


class Seen(BaseModel):
    """A card ``looker`` has been shown in ``owner``'s hand (Blessed Cherry, a look at
    the whole hand): known while it stays there and the owner does not reorder."""

    looker: int
    owner: int
    card: int


class Dream(BaseModel):
    to_act: list[int]
    last: bool = False
    banked: list[int] = Field(default_factory=list)
    steal_shield: list[int] = Field(default_factory=list)
    gift_shield: list[int] = Field(default_factory=list)
    offer: int | None = None
    exchange: Exchange | None = None
    action: Announced | None = None


class SolState(BaseModel):
    players: int
    options: SolOptions
    deck_spec: Deck
    rng: Rng
    cards: list[str]
    stage: Stage = "heroes"
    round_no: int = 1
    deck: list[int] = Field(default_factory=list)
    table: list[int] = Field(default_factory=list)
    hands: list[list[int]]
    banked: list[list[int]]
    discard: list[int] = Field(default_factory=list)
    hero_pool: list[int] = Field(default_factory=list)
    heroes: list[list[int]]
    heroes_used: list[list[int]]
    in_play: list[int] = Field(default_factory=list)
    hero_picks: list[list[str]]
    rps_players: list[int] = Field(default_factory=list)
    rps: list[Shape | None]
    leader: int = 0
    leader_holds: int = 0
    queue: list[int] = Field(default_factory=list)
    count: int = 0
    discarded: int = 0
    picking: bool = False
    next_phase: Literal["day", "night"] | None = None
    days_done: int = 0
    locked: list[bool]
    seen: list[Seen] = Field(default_factory=list)
    dream: Dream | None = None
    pending: Pending | None = None
    match_scores: list[int]
    match_cards: list[int]
    balance_winners: list[int] | None = None

    def kind(self, card: int) -> str:
        return self.cards[card]

    def wantable(self) -> list[str]:
        """The animal and Ability kinds dealt into this game, in the deck's order: what an Exchange
        may ask for. Cards left in the box (the Purist Way's Abilities, a trimmed deck's four) are
        not among them, since no one can hold them."""
        dealt = set(self.cards)
        spec = self.deck_spec
        kinds = [a.id for a in spec.animals] + [a.id for a in spec.abilities]
        return [k for k in kinds if k in dealt]

    def name(self, card: int) -> str:
        return self.deck_spec.name_of(self.cards[card])
