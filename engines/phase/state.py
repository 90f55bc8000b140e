"""The state of a game of Phase, and its options.

Every physical card has an id (its index in ``PhState.cards``, which names its
design). ``face[card]`` is the side the world sees: the face up on a deck, the
outward face of a hand card (the one that was up on the deck; its player's
side is the other one), the active side in the barracks, in play and in a
discard pile. Phasing flips it. A card is always in exactly one place: a
player's deck (last = top), hand, barracks, warriors in play or discard pile.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engines.core import Rng
from engines.phase.cards import Alignment, CardSpec, DeckSpec, Faction, Flag, Side, builtin_deck

Step = Literal[
    "pick",
    "attack",
    "maneuver",
    "attackers",
    "defenders",
    "skirmishes",
    "skirmish",
    "training",
    "closing",
    "over",
]
KINDS: tuple[Alignment, Alignment] = ("good", "evil")


class PhOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    influence: int = Field(
        default=10, ge=2, le=10, description="Good and evil influence put in the Nexus per player (each)."
    )
    deck_size: int = Field(default=50, ge=15, le=100, description="Cards each player's deck holds.")
    # The rulebook's only end is an empty Nexus pool; a host may add a limit.
    round_limit: int | None = Field(
        default=None,
        ge=5,
        le=60,
        description="Rounds after which the game ends as if the Nexus had "
        "emptied (none: only an empty pool ends it).",
    )
    factions: list[Faction] = Field(
        default=[], max_length=3, description="Each seat's faction in turn order (empty: dealt at random)."
    )
    deck: DeckSpec | None = Field(default=None, description="A custom set of cards (None: the built-in set).")


class Pending(BaseModel):
    """An action being set up by one player: its cost chosen card by card, then
    its warriors. Nothing happens until it is complete (so it can be cancelled)."""

    seat: int
    kind: Literal["order", "skill", "train"]
    card: int
    x: int | None = None
    locked: list[int] = Field(default_factory=list)
    phased: list[int] = Field(default_factory=list)
    targets: list[int] = Field(default_factory=list)


class Skirmish(BaseModel):
    attacker: int
    at: int | None = None  # the attacked player; None: the Nexus
    defenders: list[int] = Field(default_factory=list)
    opposed: bool = False  # had defenders when its resolution began
    done: bool = False
    # The attacker's title as it left play: views name a fallen attacker by it,
    # since its pile may be shuffled back into its deck, sides turned at random.
    fallen: str | None = None


class Round(BaseModel):
    """A structured action round: ``seat`` has the opportunity; it ends when
    every player has passed in a row."""

    seat: int
    passes: int = 0


class Mod(BaseModel):
    a: int = 0
    d: int = 0


class PhState(BaseModel):
    players: int
    options: PhOptions
    # A table's own set; None: the built-in set, read once per process rather
    # than stored and validated again with every saved state.
    custom: DeckSpec | None = None
    rng: Rng
    cards: list[str]
    face: list[int]
    factions: list[Faction]
    decks: list[list[int]]
    hands: list[list[int]]
    barracks: list[list[int]]
    play: list[list[int]]
    discards: list[list[int]]
    locked: list[int] = Field(default_factory=list)
    damage: dict[int, int] = Field(default_factory=dict)
    mods: dict[int, Mod] = Field(default_factory=dict)
    granted: dict[int, list[Flag]] = Field(default_factory=dict)
    nexus: list[int]  # [good, evil]
    influence: list[list[int]]  # per seat: [good, evil]
    removed: list[int] = Field(default_factory=lambda: [0, 0])  # influence lost from the game
    picks: list[int | None] = Field(default_factory=list)
    turn: int = 0
    first: int = 0
    round_no: int = 1
    step: Step = "pick"
    nexus_defender: int | None = None
    skirmishes: list[Skirmish] = Field(default_factory=list)
    current: int | None = None  # index of the skirmish resolving
    declaring: int | None = None  # the seat declaring defenders
    round: Round | None = None
    pending: Pending | None = None
    # Warriors whose skill was used this turn: they may use it again (the
    # rulebook sets no limit), but bots count a second use as idle.
    used: list[int] = Field(default_factory=list)
    ending: bool = False  # a Nexus pool emptied (or the round limit came): the last turns run out

    # ----- cards -----

    def spec(self, card: int) -> CardSpec:
        return self.card_set.card(self.cards[card])

    @property
    def card_set(self) -> DeckSpec:
        return self.custom or builtin_deck()

    def side(self, card: int, flipped: bool = False) -> Side:
        """The face the world sees (``flipped``: its other side)."""
        # ``spec`` written out: a bot's search asks this millions of times a game.
        deck = self.custom or builtin_deck()
        return deck.card(self.cards[card]).sides[self.face[card] ^ int(flipped)]

    def own_side(self, card: int) -> Side:
        """The side a card's player uses: in hand, the side facing them."""
        return self.side(card, flipped=self.owner_zone(card)[1] == "hand")

    def name(self, card: int) -> str:
        return self.side(card).title

    def owner_zone(self, card: int) -> tuple[int, str]:
        for seat in range(self.players):
            for zone in ("play", "barracks", "hands", "discards", "decks"):
                if card in getattr(self, zone)[seat]:
                    return seat, zone.removesuffix("s") if zone != "barracks" else zone
        raise KeyError(card)

    def owner(self, card: int) -> int:
        return self.owner_zone(card)[0]

    # ----- warriors -----

    def flags(self, card: int) -> set[Flag]:
        return {*self.side(card).flags, *self.granted.get(card, [])}

    def attack(self, card: int) -> int:
        mod = self.mods.get(card)
        return self.side(card).attack + (mod.a if mod else 0)

    def defense(self, card: int) -> int:
        mod = self.mods.get(card)
        return self.side(card).defense + (mod.d if mod else 0)

    def is_locked(self, card: int) -> bool:
        return card in self.locked

    def skirmish(self) -> Skirmish | None:
        return self.skirmishes[self.current] if self.current is not None else None

    def in_skirmish(self) -> list[int]:
        """The warriors of the skirmish resolving now (empty outside one)."""
        fight = self.skirmish()
        if fight is None or self.step != "skirmish":
            return []
        return [fight.attacker, *fight.defenders]

    def attacking(self) -> list[int]:
        return [s.attacker for s in self.skirmishes if not s.done]

    def defending(self) -> list[int]:
        return [d for s in self.skirmishes if not s.done for d in s.defenders]

    def opposing(self, card: int) -> bool:
        """Facing enemy warriors in a skirmish."""
        for fight in self.skirmishes:
            if fight.done:
                continue
            if card == fight.attacker and fight.defenders:
                return True
            if card in fight.defenders:
                return True
        return False

    # ----- influence and the end -----

    def total(self, seat: int) -> int:
        return sum(self.influence[seat])

    def best(self, seat: int) -> int:
        return max(self.influence[seat])

    def army_attack(self, seat: int) -> int:
        return sum(self.attack(c) for c in self.play[seat])

    def last_seat(self) -> int:
        """The last player of a round: the one to the right of the first player."""
        return (self.first - 1) % self.players

    def others(self, seat: int) -> list[int]:
        return [(seat + i) % self.players for i in range(1, self.players)]
