"""Whole decks inside options and states, validated once per distinct deck.

A custom deck rides in a table's options and in its game state, so it is read
back on every click and every render. Validating thousands of cards each time
would block the bot, so a deck field (:data:`Deck`-style, built with
:func:`kept`) is stored as compact JSON text, and a text already validated is
answered from a small cache of validated decks: the text's digest is all it
costs. A deck never changes once made (its models are frozen and shared
between state copies), so sharing one validated deck is safe. A deck given as
plain data (a server's TOML file, a state saved before decks were stored as
text) is validated as usual.

A deck whose cards carry ids can build on :class:`CardIndex`, which finds a
card by id in one dict lookup (rules look cards up on every legal-move query).
"""

from __future__ import annotations

import hashlib
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, Protocol, Self, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    PlainSerializer,
    PrivateAttr,
    ValidatorFunctionWrapHandler,
    model_validator,
)

KEPT = 32  # distinct decks kept: tables in play rarely use more


class CardData(BaseModel):
    """Base of a whole deck's model: frozen, and it remembers its stored text."""

    model_config = ConfigDict(frozen=True)

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Self:
        # A deck never changes during a game: every state copy may share it
        # (the engine deep-copies the state on every move).
        return self

    def stored(self) -> str:
        """The deck as compact JSON text (made once per deck, then read back from the cache)."""
        known = _texts.get(id(self))
        if known is not None and known[0]() is self:
            return known[1]
        text = self.model_dump_json()
        _remember(type(self), text, self)
        return text


class Identified(Protocol):
    @property
    def id(self) -> str: ...


C = TypeVar("C", bound=Identified)


class CardIndex(CardData, Generic[C]):
    """A deck of cards with unique ids, each found by id in one dict lookup."""

    if TYPE_CHECKING:
        # Each deck declares its own ``cards`` field, with its own limits (declared
        # here, pydantic would also move the field first in every dump).
        cards: list[C]
    _index: dict[str, C] = PrivateAttr(default_factory=dict)

    @model_validator(mode="after")
    def _unique_ids(self) -> Self:
        ids = [c.id for c in self.cards]
        doubles = sorted({i for i in ids if ids.count(i) > 1})
        if doubles:
            raise ValueError(f"card ids must be unique; repeated: {', '.join(doubles)}")
        return self

    def model_post_init(self, __context: Any) -> None:
        self._index = {c.id: c for c in self.cards}

    def card(self, card: str) -> C:
        # Straight to the private dict: pydantic's attribute hook is slow on this hot path.
        private = self.__pydantic_private__ or {}
        found: C = private["_index"][card]
        return found


D = TypeVar("D", bound=CardData)
_lock = threading.Lock()
# The most recently used validated decks, by model and digest of their text.
_validated: OrderedDict[tuple[type, bytes], CardData] = OrderedDict()
# Each live deck's text, by id (kept beside the deck, not in it, so that equal
# decks stay equal whether or not they were ever stored).
_texts: dict[int, tuple[weakref.ref[CardData], str]] = {}


def read_once(model: type[D]) -> Callable[[Any, ValidatorFunctionWrapHandler], Any]:
    """A wrap-validator: deck text → the validated deck, from the cache when it
    was seen (without running any of the deck's validators again)."""

    def read(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        if not isinstance(value, str):
            return handler(value)  # plain data or a deck: the model validates it as usual
        key = _key(model, value)
        with _lock:
            found = _validated.get(key)
            if found is not None:
                _validated.move_to_end(key)
                return found
        deck = model.model_validate_json(value)
        _remember(model, value, deck)
        return deck

    return read


def _key(model: type, text: str) -> tuple[type, bytes]:
    return model, hashlib.blake2b(text.encode(), digest_size=20).digest()


def _remember(model: type, text: str, deck: CardData) -> None:
    ident = id(deck)
    with _lock:
        _texts[ident] = (weakref.ref(deck, lambda _: _texts.pop(ident, None)), text)
        _validated[_key(model, text)] = deck
        while len(_validated) > KEPT:
            _validated.popitem(last=False)


def _store(deck: CardData) -> str:
    return deck.stored()


# Serialise a deck field as its text in JSON (saved states and options).
AS_TEXT = PlainSerializer(_store, return_type=str, when_used="json")
