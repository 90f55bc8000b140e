"""Phase's cards as data: double-sided cards, each side a whole card of its own
(title, alignment, training cost, attack, defense, order, skill and keyword
triggers), validated by pydantic.

Every effect is a list of :class:`Effect` from a small vocabulary that
``effects.py`` carries out. Some primitives and keywords overrule a basic rule
("card effects always overrule basic rules"): ``ready`` unlocks a card before
its player's turn, ``turncoat`` lets a warrior oppose its own alignment.
A table may load its own deck file with the same schema (:func:`parse_deck`).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from engines.card_data import CardIndex
from engines.core import load_card_data

Alignment = Literal["good", "evil"]
Faction = Literal["fengarian", "keeper", "sun-dominion"]
FACTIONS: tuple[Faction, ...] = ("fengarian", "keeper", "sun-dominion")
FACTION_NAMES = {"fengarian": "Fengarian", "keeper": "Keeper", "sun-dominion": "Sun Dominion"}
Origin = Literal["rulebook", "project"]
Primitive = Literal[
    "modify", "damage", "phase", "destroy", "lock", "ready", "grant", "gain", "lose", "draw", "enlist"
]
Target = Literal["chosen", "self", "you", "opponents"]
Whom = Literal["any", "own", "enemy", "attacking", "defending"]
Flag = Literal["swift", "ally", "turncoat"]
CardId = str

# Which primitives act on a warrior, and which on a player.
ON_WARRIOR: frozenset[str] = frozenset({"modify", "damage", "phase", "destroy", "lock", "ready", "grant"})
ON_PLAYER: frozenset[str] = frozenset({"gain", "lose", "draw", "enlist"})
FLAG_TEXT = {"swift": "Swift", "ally": "Ally", "turncoat": "Turncoat"}


class Effect(BaseModel):
    """One step of an effect. ``target``: ``chosen`` (the warrior(s) the player
    chooses for the action), ``self`` (the warrior bearing the skill), ``you``
    (the card's player), ``opponents`` (every other player)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    do: Primitive
    target: Target = "chosen"
    a: int = Field(default=0, ge=-9, le=9, description="modify: attack change")
    d: int = Field(default=0, ge=-9, le=9, description="modify: defense change")
    opposed_a: int | None = Field(
        default=None, ge=-9, le=9, description="modify: attack instead when opposed"
    )
    n: int = Field(default=1, ge=1, le=9, description="damage, gain, lose, draw, enlist: how many")
    kind: Alignment | None = Field(default=None, description="gain, lose: which influence")
    flag: Flag | None = Field(default=None, description="grant: the keyword given until the end of turn")
    locked: bool = Field(default=False, description="enlist: the card comes in locked")

    @model_validator(mode="after")
    def _coherent(self) -> Effect:
        if self.do in ON_WARRIOR and self.target not in ("chosen", "self"):
            raise ValueError(f"{self.do} acts on a warrior: target must be chosen or self")
        if self.do in ON_PLAYER and self.target not in ("you", "opponents"):
            raise ValueError(f"{self.do} acts on players: target must be you or opponents")
        if self.do in ("gain", "lose") and self.kind is None:
            raise ValueError(f"{self.do} needs kind (good or evil)")
        if self.do == "grant" and self.flag is None:
            raise ValueError("grant needs flag (swift, ally or turncoat)")
        return self

    def text(self, x: bool = False) -> str:
        who = {
            "chosen": "the chosen warrior" + ("s" if x else ""),
            "self": "this warrior",
            "you": "you",
            "opponents": "each opponent",
        }[self.target]
        if self.do == "modify":
            words = f"{who} gets {self.a:+d}/{self.d:+d}"
            if self.opposed_a is not None:
                words += f" ({self.opposed_a:+d}/{self.d:+d} instead if it is opposing a warrior)"
            return words
        n, plural = self.n, "" if self.n == 1 else "s"
        return {
            "damage": f"deal {n} damage to {who}",
            "phase": f"phase {who}",
            "destroy": f"destroy {who}",
            "lock": f"lock {who}",
            "ready": f"unlock {who}",
            "grant": f"{who} gains {FLAG_TEXT.get(self.flag or '', '')} until the end of the turn",
            "gain": f"{who} gain{'s' if self.target == 'opponents' else ''} {n} {self.kind} influence",
            "lose": f"{who} lose{'s' if self.target == 'opponents' else ''} {n} {self.kind} influence",
            "draw": f"{who} draw{'s' if self.target == 'opponents' else ''} {n} card{plural}",
            "enlist": f"{who} enlist{'s' if self.target == 'opponents' else ''} {n} card{plural}"
            + (", locked" if self.locked else ""),
        }[self.do]


class Ability(BaseModel):
    """An order (played from hand) or a skill (used by a warrior in play): a cost
    paid first — locks, then phases, then influence — then its effects.
    ``choose`` warriors are chosen for the ``chosen`` effects (``x``: as many as
    resources were locked for the X lock cost)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    lock: int = Field(default=0, ge=0, le=6)
    phase: int = Field(default=0, ge=0, le=6)
    x: bool = Field(default=False, description="lock X resources to choose X warriors")
    lose: Alignment | None = Field(default=None, description="a cost: lose 1 influence of this kind")
    choose: int = Field(default=0, ge=0, le=3)
    whom: Whom = "any"
    effects: list[Effect] = Field(min_length=1, max_length=4)

    @model_validator(mode="after")
    def _coherent(self) -> Ability:
        chosen = any(e.target == "chosen" for e in self.effects)
        if chosen and not (self.choose or self.x):
            raise ValueError("an ability with chosen effects must choose a warrior (choose or x)")
        if (self.choose or self.x) and not chosen:
            raise ValueError("an ability that chooses warriors needs an effect on the chosen ones")
        if self.x and (self.lock or self.choose):
            raise ValueError("an X ability locks X resources and chooses X warriors: no lock or choose")
        return self

    def cost_text(self) -> str:
        parts = []
        if self.x:
            parts.append("lock X")
        if self.lock:
            parts.append(f"lock {self.lock}")
        if self.phase:
            parts.append(f"phase {self.phase}")
        if self.lose:
            parts.append(f"lose 1 {self.lose} influence")
        return ", ".join(parts)

    def text(self) -> str:
        cost = self.cost_text()
        whom = "" if self.whom == "any" else f"{self.whom} "
        plural = "s" if self.choose > 1 else ""
        pick = f"choose {self.choose} {whom}warrior{plural}" if self.choose else ""
        pick = "choose X warriors" if self.x else pick
        steps = "; ".join(e.text(self.x) for e in self.effects)
        body = f"{pick}: {steps}" if pick else steps
        return f"{cost}: {body}." if cost else f"{body[0].upper()}{body[1:]}."


class Side(BaseModel):
    """One face of a card."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    title: str = Field(min_length=1, max_length=28)
    alignment: Alignment
    cost: int = Field(ge=0, le=6, description="training cost: other resources phased to train it")
    attack: int = Field(ge=0, le=9)
    defense: int = Field(ge=1, le=9)
    flags: list[Flag] = Field(default_factory=list, max_length=3)
    order: Ability | None = None
    skill: Ability | None = None
    elite: list[Effect] = Field(default_factory=list, max_length=3)
    phaseling: list[Effect] = Field(default_factory=list, max_length=3)
    relentless: list[Effect] = Field(default_factory=list, max_length=3)
    trained: list[Effect] = Field(default_factory=list, max_length=3)
    _text: str = PrivateAttr(default="")

    @model_validator(mode="after")
    def _triggers(self) -> Side:
        for name in ("elite", "phaseling", "relentless", "trained"):
            for effect in getattr(self, name):
                if effect.target == "chosen":
                    raise ValueError(
                        f"{self.title}: a {name} trigger chooses nothing (target self, you or opponents)"
                    )
                if effect.target == "self" and effect.do in ("phase", "destroy"):
                    # A warrior that phases or destroys itself from its own trigger would
                    # trigger again without end.
                    raise ValueError(f"{self.title}: a {name} trigger may not phase or destroy its warrior")
        return self

    def keyword_text(self) -> list[str]:
        lines = [FLAG_TEXT[f] for f in self.flags]
        for name in ("elite", "phaseling", "relentless", "trained"):
            effects: list[Effect] = getattr(self, name)
            if effects:
                steps = "; ".join(e.text() for e in effects)
                lines.append(f"{name.capitalize()}: {steps}.")
        return lines

    def model_post_init(self, __context: Any) -> None:
        # Written once, when the card is read: menus ask for it many times per move.
        self._text = self._words()

    def text(self) -> str:
        """The whole face in words: stats, keywords, skill and order."""
        return self._text

    def _words(self) -> str:
        parts = [f"{self.title} ({self.alignment}, cost {self.cost}, {self.attack}/{self.defense})"]
        parts += self.keyword_text()
        if self.skill:
            parts.append(f"Skill — {self.skill.text()}")
        if self.order:
            parts.append(f"Order — {self.order.text()}")
        return " · ".join(parts)


class CardSpec(BaseModel):
    """A double-sided card: one good side and one evil side."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: CardId = Field(pattern=r"^[a-z0-9-]{1,24}$")
    faction: Faction
    copies: int = Field(default=1, ge=1, le=30)
    origin: Origin = "project"
    sides: list[Side] = Field(min_length=2, max_length=2)

    @model_validator(mode="after")
    def _one_good_one_evil(self) -> CardSpec:
        # The glossary's "cost difference between the good and evil sides of a card".
        if {s.alignment for s in self.sides} != {"good", "evil"}:
            raise ValueError(f"{self.id}: a card has one good side and one evil side")
        return self


class DeckSpec(CardIndex[CardSpec]):
    """A whole set: each faction's cards (copies add up to the faction's pool)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = "Custom deck"
    cards: list[CardSpec] = Field(min_length=1, max_length=300)

    @model_validator(mode="after")
    def _consistent(self) -> DeckSpec:
        # Repeated ids are refused first, by CardIndex.
        for faction in FACTIONS:
            if 0 < self.pool_size(faction) < 12:
                raise ValueError(f"the {FACTION_NAMES[faction]} faction needs at least 12 cards (copies)")
        if len(self.factions()) < 2:
            raise ValueError("a set needs at least two factions of 12 or more cards")
        return self

    def pool_size(self, faction: str) -> int:
        return sum(c.copies for c in self.cards if c.faction == faction)

    def factions(self) -> list[Faction]:
        return [f for f in FACTIONS if self.pool_size(f)]

    def pool(self, faction: str) -> list[CardId]:
        """Every physical card of a faction (its design ids, copies repeated)."""
        return [c.id for c in self.cards if c.faction == faction for _ in range(c.copies)]


def parse_deck(toml_text: str) -> DeckSpec:
    """A set from TOML text; :class:`IllegalAction` explains what is wrong."""
    return load_card_data(toml_text, DeckSpec)


@cache
def builtin_deck() -> DeckSpec:
    return parse_deck((Path(__file__).parent / "cards.toml").read_text(encoding="utf-8"))
