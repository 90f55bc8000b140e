"""Small payload builders for the tests of Discord's rules (``tests/e2e/test_limits_*.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from tests.e2e.limits import Context, check_payload
from tests.e2e.limits.common import NO_CONTEXT

Payload = dict[str, Any]


def row(*components: Payload) -> Payload:
    return {"type": 1, "components": list(components)}


def button(label: str | None = "Go", custom_id: str | None = "b", **extra: Any) -> Payload:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id, **extra}


def buttons(n: int, prefix: str = "b") -> list[Payload]:
    return [button(custom_id=f"{prefix}{i}") for i in range(n)]


def link(**extra: Any) -> Payload:
    return {"type": 2, "style": 5, "label": "Rules", "url": "https://example.org/rules", **extra}


def select(n: int = 3, custom_id: str = "s", **extra: Any) -> Payload:
    options = [{"label": f"o{i}", "value": f"v{i}"} for i in range(n)]
    return {"type": 3, "custom_id": custom_id, "options": options, **extra}


def option(**extra: Any) -> Payload:
    return {"label": "L", "value": "v", **extra}


def message(*rows: Payload, **extra: Any) -> Payload:
    return {"components": list(rows), **extra}


def rows(n: int) -> Payload:
    return message(*[row(button(custom_id=f"r{i}")) for i in range(n)])


def modal(*components: Payload, title: str = "Title", **extra: Any) -> Payload:
    return {"type": 9, "data": {"custom_id": "m", "title": title, "components": list(components), **extra}}


def text(custom_id: str = "t", **extra: Any) -> Payload:
    """A text input in an action row (the older modal layout discord.py still sends)."""
    return row({"type": 4, "custom_id": custom_id, "label": "L", "style": 1, **extra})


def labelled(component: Payload, label: str = "Name", **extra: Any) -> Payload:
    return {"type": 18, "label": label, "component": component, **extra}


def embeds(*items: Payload) -> Payload:
    return {"embeds": list(items)}


def field(name: str = "n", value: str = "v") -> Payload:
    return {"name": name, "value": value}


def command(**extra: Any) -> Payload:
    return {"type": 1, "name": "table", "description": "Run a table", "options": [], **extra}


def string(name: str = "name", **extra: Any) -> Payload:
    return {"type": 3, "name": name, "description": "d", **extra}


def choices(n: int, name: str = "c", value: str = "v") -> list[Payload]:
    return [{"name": f"{name}{i}", "value": f"{value}{i}"} for i in range(n)]


def sub(kind: int, name: str, options: list[Payload]) -> Payload:
    return {"type": kind, "name": name, "description": "d", "options": options}


def big(n_options: int) -> Payload:
    choice = [{"name": "n" * 100, "value": "v" * 60} for _ in range(25)]
    return command(options=[string(f"o{i}", choices=choice) for i in range(n_options)])


@dataclass(frozen=True)
class Rule:
    """One of Discord's rules: ``good`` passes, ``bad`` is refused with a message matching ``refusal``."""

    good: Any
    bad: Any
    refusal: str
    kind: str | None = None
    context: Context = NO_CONTEXT
    bad_context: Context | None = None  # when the payload is the same and only the context differs

    def check(self) -> None:
        check_payload(self.good, kind=self.kind, context=self.context)
        with pytest.raises(AssertionError, match=self.refusal):
            check_payload(self.bad, kind=self.kind, context=self.bad_context or self.context)
