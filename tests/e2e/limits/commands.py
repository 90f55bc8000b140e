"""Application command registration, as Discord's "Application Commands" page states it."""

from __future__ import annotations

from typing import Any

from tests.e2e.limits.common import length
from tests.e2e.limits.interactions import check_choices
from tests.e2e.payloads import check_name

NAME_RULE = "must match ^[-_'\\p{L}\\p{N}]{1,32}$ and be lowercase"


def check_commands(payload: list[dict[str, Any]] | dict[str, Any]) -> None:
    """One command, or every command of one scope (global or a guild)."""
    commands = payload if isinstance(payload, list) else [payload]
    assert len(commands) <= 100, f"commands: {len(commands)} > 100 per scope"
    names = [(c.get("name"), c.get("type", 1)) for c in commands]
    assert len(set(names)) == len(names), f"commands: duplicate names {sorted(map(str, names))}"
    for i, command in enumerate(commands):
        check_command(command, where=f"command[{i}]" if isinstance(payload, list) else "command")


def check_command(command: dict[str, Any], where: str = "command") -> None:
    kind = command.get("type", 1)
    name = command.get("name") or ""
    if kind == 1:
        assert check_name(name), f"{where}.name {name!r}: {NAME_RULE}"
        length(f"{where}.description", command.get("description"), 100, 1)
    else:
        length(f"{where}.name", name, 32, 1)
        assert not command.get("description"), f"{where}: user/message commands have an empty description"
    _check_options(command.get("options") or [], f"{where}.options", depth=0)
    total = _char_count(command)
    assert total <= 8000, f"{where} {name!r}: {total} characters > 8000 per command"


def _check_options(options: list[dict[str, Any]], where: str, *, depth: int) -> None:
    assert len(options) <= 25, f"{where}: {len(options)} options > 25"
    subs = [o.get("type") in (1, 2) for o in options]
    assert all(subs) or not any(subs), f"{where}: subcommands cannot be mixed with plain options"
    seen_optional = False
    for i, option in enumerate(options):
        here = f"{where}[{i}]"
        kind, name = option.get("type"), option.get("name") or ""
        assert check_name(name), f"{here}.name {name!r}: {NAME_RULE}"
        length(f"{here}.description", option.get("description"), 100, 1)
        if kind == 2:
            assert depth == 0, f"{here}: subcommand groups nest only one level"
            inner = option.get("options") or []
            assert all(o.get("type") == 1 for o in inner), f"{here}: a group may only hold subcommands"
        if kind == 1:
            assert depth <= 1, f"{here}: subcommand nested too deep"
        if kind in (1, 2):
            _check_options(option.get("options") or [], f"{here}.options", depth=depth + 1)
            continue
        if option.get("required"):
            assert not seen_optional, f"{here}: required option after an optional one"
        else:
            seen_optional = True
        choices = option.get("choices") or []
        assert not (choices and option.get("autocomplete")), f"{here}: choices and autocomplete are exclusive"
        check_choices(choices, f"{here}.choices")


def _char_count(node: dict[str, Any]) -> int:
    total = len(node.get("name") or "") + len(node.get("description") or "")
    for key in ("name_localizations", "description_localizations"):
        total += sum(len(v) for v in (node.get(key) or {}).values())
    for choice in node.get("choices") or []:
        total += len(choice.get("name") or "") + len(str(choice.get("value", "")))
        total += sum(len(v) for v in (choice.get("name_localizations") or {}).values())
    return total + sum(_char_count(o) for o in node.get("options") or [])
