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
"""

from __future__ import annotations

import hashlib
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, PlainSerializer, ValidatorFunctionWrapHandler

KEPT = 32  # distinct decks kept: tables in play rarely use more


class CardData(BaseModel):
    """Base of a whole deck's model: frozen, and it remembers its stored text."""

    model_config = ConfigDict(frozen=True)

    def stored(self) -> str:
        """The deck as compact JSON text (made once per deck, then read back from the cache)."""
        known = _texts.get(id(self))
        if known is not None and known[0]() is self:
            return known[1]
        text = self.model_dump_json()
        _remember(type(self), text, self)
        return text


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
