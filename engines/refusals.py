"""Refusing bad options, actions and card files with one plain sentence that
says where and what is wrong (pydantic's errors, put in words)."""

from __future__ import annotations

import tomllib
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from engines.contract import IllegalAction, quote

_WORDS = {
    "missing": "is missing",
    "int_parsing": "must be a whole number",
    "int_type": "must be a whole number",
    "int_from_float": "must be a whole number",
    "float_parsing": "must be a number",
    "float_type": "must be a number",
    "bool_parsing": "must be true or false",
    "bool_type": "must be true or false",
    "string_type": "must be text",
    "list_type": "must be a list",
    "dict_type": "must be a table of settings",
    "model_type": "must be a table of settings",
    "model_attributes_type": "must be a table of settings",
    "too_short": "has too few entries",
    "too_long": "has too many entries",
    "string_too_short": "is too short",
    "string_too_long": "is too long",
    "recursion_loop": "is nested too deeply",
}
_LIMITS = {
    "greater_than_equal": ("ge", "must be at least"),
    "less_than_equal": ("le", "must be at most"),
    "greater_than": ("gt", "must be more than"),
    "less_than": ("lt", "must be less than"),
}


def first_error(error: ValidationError, model: type[BaseModel] | None = None, noun: str = "option") -> str:
    """The first problem of a failed validation as a short phrase in our own words —
    never pydantic's ("Extra inputs are not permitted") — naming the valid keys
    where a key was wrong, with every piece of user input clipped."""
    first = error.errors()[0]
    loc = tuple(p for p in first.get("loc", ()) if p != "__root__")
    kind, ctx = first["type"], first.get("ctx") or {}
    where = ".".join(str(p) for p in loc)
    where = quote(where, 60)[1:-1] if where else ""
    if kind == "extra_forbidden":
        fields = ", ".join(_fields_at(model, loc[:-1]))
        name = quote(loc[-1] if loc else "")
        if len(loc) <= 1:
            return f"there is no {noun} {name}; the {noun}s are {fields}" if fields else f"no {noun} {name}"
        inside = quote(".".join(str(p) for p in loc[:-1]), 40)[1:-1]
        return f"there is no {name} in {inside}" + (f"; valid there: {fields}" if fields else "")
    if kind in ("value_error", "assertion_error"):
        # Our own validators' sentences; they may quote card names from a file.
        text = str(ctx.get("error", first["msg"])).removeprefix("Value error, ")
        text = text if len(text) <= 200 else text[:199] + "…"
        return f"{where}: {text}" if where else text
    if kind in ("literal_error", "enum"):
        phrase = f"must be {str(ctx.get('expected', 'one of the listed values'))[:200]}"
    elif kind in _LIMITS:
        key, words = _LIMITS[kind]
        phrase = f"{words} {ctx.get(key)}"
    else:
        phrase = _WORDS.get(kind, "is not valid")
    return f"{where} {phrase}" if where else f"the value {phrase}"


def _fields_at(model: type[BaseModel] | None, loc: tuple[Any, ...]) -> list[str]:
    """The field names of the model found by walking ``loc`` down from ``model``."""
    for part in loc:
        if model is None:
            return []
        if isinstance(part, int):
            continue
        field = model.model_fields.get(str(part))
        model = _model_in(field.annotation) if field is not None else None
    return list(model.model_fields) if model is not None else []


def _model_in(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for inner in getattr(annotation, "__args__", ()):
        found = _model_in(inner)
        if found is not None:
            return found
    return None


M = TypeVar("M", bound=BaseModel)


def load_card_data(toml_text: str, model: type[M], what: str = "deck") -> M:
    """Card content (a game's deck file, built-in or a server's own) from TOML
    text, validated by ``model``; a bad file is refused with one sentence that
    says where and what is wrong."""
    try:
        data = tomllib.loads(toml_text)
        return model.model_validate(data)
    except tomllib.TOMLDecodeError as error:
        raise IllegalAction(f"The {what} file is not valid TOML ({quote(error, 120)[1:-1]}).") from None
    except ValidationError as error:
        raise IllegalAction(f"The {what} file is not valid — {first_error(error, model, 'key')}.") from None
    except RecursionError:
        raise IllegalAction(f"The {what} file is nested too deeply.") from None
