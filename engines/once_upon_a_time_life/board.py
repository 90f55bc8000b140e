"""The board as data: the body systems, each a START followed by its spaces,
joined clockwise into one loop, and the additional spaces off the loop."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from engines.core import load_card_data

SpaceKind = Literal["start", "leukocyte", "medicine", "virus", "bacteria", "chance", "bad_luck", "question"]
TASKS: tuple[SpaceKind, ...] = (
    "leukocyte",
    "medicine",
    "virus",
    "bacteria",
    "chance",
    "bad_luck",
    "question",
)
SPACE_NAMES: dict[str, str] = {
    "start": "START",
    "leukocyte": "Leukocyte",
    "medicine": "Medicine",
    "virus": "Virus",
    "bacteria": "Bacteria",
    "chance": "Chance",
    "bad_luck": "Bad Luck",
    "question": "Question",
}
ADDITIONAL = 4


class SystemSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9-]{1,24}$")
    name: str = Field(min_length=1, max_length=40)
    icon: str = Field(default="", max_length=4)
    spaces: list[SpaceKind] = Field(min_length=3, max_length=30)

    @model_validator(mode="after")
    def _no_start(self) -> SystemSpec:
        if "start" in self.spaces:
            raise ValueError(f"{self.id}: the START comes first by itself; list only the spaces after it")
        return self


class PlaceSpec(BaseModel):
    """An additional space, reached by cards only; ``near`` names the system
    from whose START a pawn comes back into play."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9-]{1,24}$")
    name: str = Field(min_length=1, max_length=40)
    near: str


class PawnSpec(BaseModel):
    """A pawn of the box: "Pawns are assigned by colour to specific body systems",
    so a pawn names its system, whose START it sets off from."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9-]{1,24}$")
    name: str = Field(min_length=1, max_length=24)
    mark: str = Field(default="", max_length=4)  # the colour as an emoji, for text
    colour: str = Field(pattern=r"^#[0-9a-f]{6}$")  # for pictures
    system: str


class BoardSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = "Board"
    system: list[SystemSpec] = Field(min_length=4, max_length=8)
    place: list[PlaceSpec] = Field(min_length=ADDITIONAL, max_length=ADDITIONAL)
    # "8 pawns to choose from": at least one for each of the most players a table seats.
    pawn: list[PawnSpec] = Field(min_length=4, max_length=8)
    _loop: list[tuple[SpaceKind, int]] = PrivateAttr(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self) -> BoardSpec:
        ids = [s.id for s in self.system]
        if len(set(ids)) != len(ids):
            raise ValueError("body system ids must be unique")
        for place in self.place:
            if place.near not in ids:
                raise ValueError(f"{place.id}: near = {place.near!r} is not a body system")
        for pawn in self.pawn:
            if pawn.system not in ids:
                raise ValueError(f"{pawn.id}: system = {pawn.system!r} is not a body system")
        if len({p.id for p in self.pawn}) != len(self.pawn):
            raise ValueError("pawn ids must be unique")
        present = {kind for s in self.system for kind in s.spaces}
        missing = [k for k in TASKS if k not in present]
        if missing:
            raise ValueError(f"the board has no {', '.join(missing)} space")
        return self

    def model_post_init(self, __context: Any) -> None:
        for index, system in enumerate(self.system):
            self._loop.append(("start", index))
            self._loop += [(kind, index) for kind in system.spaces]

    @property
    def size(self) -> int:
        return len(self._loop)

    def kind(self, space: int) -> SpaceKind:
        return self._loop[space][0]

    def system_of(self, space: int) -> int:
        return self._loop[space][1]

    def start(self, system: int) -> int:
        """The loop index of a system's START."""
        return sum(1 + len(s.spaces) for s in self.system[:system])

    def place_named(self, place: str) -> PlaceSpec:
        return next(p for p in self.place if p.id == place)

    def pawn_named(self, pawn: str) -> PawnSpec | None:
        return next((p for p in self.pawn if p.id == pawn), None)

    def system_index(self, system_id: str) -> int:
        return next(i for i, s in enumerate(self.system) if s.id == system_id)


@cache
def builtin_board() -> BoardSpec:
    text = (Path(__file__).parent / "board.toml").read_text(encoding="utf-8")
    return load_card_data(text, BoardSpec, what="board")
