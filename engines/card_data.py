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

A deck that ships with its game (see :func:`ship`) is stored as a reference,
``@`` and the digest of its text, rather than as the text itself: it made up
four fifths of a state's JSON (7 of 8.6 KB in Spheres of Life, 12 of 13 KB in
Scales of Influence), written out, sent and stored again on every move. The
reference names the deck's content, not its name, so a deck edited in a later
release cannot silently replace the one a game was dealt from (a test pins each
shipped deck's reference). A digest that is seen only as full text (a state saved
before references) still finds the shipped deck, and is stored as its reference
from then on. :func:`decks_in_full` writes every deck out as text, for the state
hashes that anyone may check with another copy of the program.

A deck whose cards carry ids can build on :class:`CardIndex`, which finds a
card by id in one dict lookup (rules look cards up on every legal-move query).
"""

from __future__ import annotations

import hashlib
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
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


# What marks a shipped deck's reference (a deck's text is a JSON object: "{...").
SHIPPED = "@"
# The decks that ship with the games, by model and digest of their text, and
# each one's reference by id (a shipped deck is never freed, so its id stays its own).
_shipped: dict[tuple[type, bytes], CardData] = {}
_references: dict[int, str] = {}
_in_full: ContextVar[bool] = ContextVar("decks_in_full", default=False)


def read_once(
    model: type[D], shipped: Callable[[], D] | None = None
) -> Callable[[Any, ValidatorFunctionWrapHandler], Any]:
    """A wrap-validator: deck text → the validated deck, from the cache when it
    was seen (without running any of the deck's validators again); a shipped
    deck's reference → that deck. ``shipped`` makes the game's own deck (and
    ships it), so a process that has not dealt one yet still knows it."""

    def read(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        own = shipped() if shipped is not None else None  # known, and shipped, from here on
        if not isinstance(value, str):
            # Plain data or a deck: the model validates it as usual. Data that is
            # the shipped deck (a state saved before references) is that deck.
            deck = handler(value)
            return own if own is not None and deck == own else deck
        if value.startswith(SHIPPED):
            return _shipped_deck(model, value)
        key = _key(model, value)
        with _lock:
            found = _shipped.get(key)
            if found is not None:
                return found
            found = _validated.get(key)
            if found is not None:
                _validated.move_to_end(key)
                return found
        deck = model.model_validate_json(value)
        _remember(model, value, deck)
        return deck

    return read


def ship(deck: D) -> D:
    """Register ``deck`` as one that ships with its game: states refer to it
    by reference. Returns the deck, so a game's ``builtin_deck`` can end with it."""
    key = _key(type(deck), deck.stored())
    with _lock:
        known = _shipped.setdefault(key, deck)
        _references[id(known)] = SHIPPED + key[1].hex()
    return known  # type: ignore[return-value]  # the same model: the key holds it


def reference(text: str) -> str:
    """What a state holds instead of a shipped deck's ``text``."""
    return SHIPPED + _digest(text).hex()


@contextmanager
def decks_in_full() -> Iterator[None]:
    """Within it, states write every deck out as its text, shipped decks included."""
    token = _in_full.set(True)
    try:
        yield
    finally:
        _in_full.reset(token)


def _shipped_deck(model: type, ref: str) -> CardData:
    try:
        key = model, bytes.fromhex(ref[len(SHIPPED) :])
    except ValueError:
        key = None
    found = _shipped.get(key) if key is not None else None
    if found is None:
        raise ValueError(f"it refers to a deck this release does not ship ({ref[:48]})")
    return found


def _key(model: type, text: str) -> tuple[type, bytes]:
    return model, _digest(text)


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode(), digest_size=20).digest()


def _remember(model: type, text: str, deck: CardData) -> None:
    ident = id(deck)
    with _lock:
        _texts[ident] = (weakref.ref(deck, lambda _: _texts.pop(ident, None)), text)
        _validated[_key(model, text)] = deck
        while len(_validated) > KEPT:
            _validated.popitem(last=False)


def _reference_of(deck: CardData) -> str | None:
    """The reference a state stores for ``deck``: a shipped one's, unless within :func:`decks_in_full`."""
    return None if _in_full.get() else _references.get(id(deck))


def _store(deck: CardData) -> str:
    return _reference_of(deck) or deck.stored()


def _data(deck: CardData) -> Any:
    return _reference_of(deck) or deck.model_dump(mode="json")


# Serialise a deck field as its text in JSON (saved states and options), a
# shipped deck as its reference.
AS_TEXT = PlainSerializer(_store, return_type=str, when_used="json")
# The same for a deck field that states always held as plain JSON data: a
# shipped deck as its reference, any other (or within decks_in_full) as before.
AS_DATA = PlainSerializer(_data, return_type=Any, when_used="json")
