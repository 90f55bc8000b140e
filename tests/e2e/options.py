"""What users send in interactions: typed and nested slash command options with ``resolved`` data,
entity select values, component trees and modal submissions (part of the harness's payloads).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

import discord

from tests.e2e.entities import DEFAULT_PERMISSIONS, Channel, Guild, Member, Role, Upload, User


def check_name(name: str) -> bool:
    """Discord's slash command / option name rule ``^[-_'\\p{L}\\p{N}]{1,32}$``, lowercase."""
    return (
        1 <= len(name) <= 32
        and all(ch in "-_'" or unicodedata.category(ch)[0] in "LN" for ch in name)
        and name == name.lower()
    )


def resolved_channel(channel: Channel, perms: discord.Permissions) -> dict[str, Any]:
    data = {
        "id": str(channel.id),
        "name": channel.name,
        "type": channel.type,
        "permissions": str(perms.value),
        "parent_id": None if channel.parent_id is None else str(channel.parent_id),
    }
    if channel.is_thread:
        data["thread_metadata"] = channel.payload()["thread_metadata"]
    return data


def build_options(
    definitions: list[dict[str, Any]],
    values: dict[str, Any],
    guild: Guild | None,
    resolved: dict[str, dict[str, Any]],
    *,
    focused: str | None = None,
    command: str = "",
) -> list[dict[str, Any]]:
    """Typed option list for the leaf command, filling ``resolved`` like Discord does."""
    by_name = {d["name"]: d for d in definitions}
    unknown = set(values) - set(by_name)
    assert not unknown, f"/{command}: unknown option(s) {sorted(unknown)}; known: {sorted(by_name)}"
    if focused is None:
        missing = [d["name"] for d in definitions if d.get("required") and d["name"] not in values]
        assert not missing, f"/{command}: required option(s) missing: {missing}"
    else:
        assert focused in by_name, f"/{command}: cannot focus unknown option {focused!r}"
        values = {**values, focused: values.get(focused, "")}
    out = []
    for name, value in values.items():
        kind = by_name[name]["type"]
        typed = _typed(kind, value, guild, resolved, autocomplete=focused is not None)
        option: dict[str, Any] = {"name": name, "type": kind, "value": typed}
        choices = by_name[name].get("choices")
        if choices and focused is None:
            allowed = [c["value"] for c in choices]
            assert option["value"] in allowed, f"/{command}: {name}={value!r} is not one of {allowed}"
        if name == focused:
            option["focused"] = True
        out.append(option)
    return out


def _typed(
    kind: int, value: Any, guild: Guild | None, resolved: dict[str, dict[str, Any]], *, autocomplete: bool
) -> Any:
    if kind == 3 or (autocomplete and isinstance(value, str)):
        return str(value)
    if kind == 4:
        return int(value)
    if kind == 10:
        return float(value)
    if kind == 5:
        return bool(value)
    if kind in (6, 9) and isinstance(value, User | Member):
        user = value.user if isinstance(value, Member) else value
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        member = guild.members.get(user.id) if guild is not None else None
        if member is not None:
            resolved.setdefault("members", {})[str(user.id)] = member.payload(
                with_user=False, with_permissions=True
            )
        return str(user.id)
    if kind in (8, 9) and isinstance(value, Role):
        resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        return str(value.id)
    if kind == 11 and isinstance(value, Upload):
        resolved.setdefault("attachments", {})[str(value.id)] = value.payload()
        return str(value.id)
    if kind == 7 and isinstance(value, Channel):
        resolved.setdefault("channels", {})[str(value.id)] = resolved_channel(value, DEFAULT_PERMISSIONS)
        return str(value.id)
    raise AssertionError(f"cannot build an option of type {kind} from {value!r}")


Options = list[dict[str, Any]]


def nest_options(
    command_def: dict[str, Any], path: list[str]
) -> tuple[Callable[[Options], Options], Options]:
    """Walk ``path`` (subcommand group / subcommand names) down the registration payload.

    Returns ``(wrap, leaf_definitions)`` where ``wrap(leaf_options)`` builds the nested option
    list Discord sends: ``[{"type": 2, "name": group, "options": [{"type": 1, ...}]}]``.
    """
    chain: list[dict[str, Any]] = []
    node = command_def
    for part in path:
        subs = {o["name"]: o for o in node.get("options", []) if o["type"] in (1, 2)}
        assert part in subs, f"/{command_def['name']}: no subcommand {part!r}; have {sorted(subs)}"
        node = subs[part]
        chain.append(node)
    assert not any(o["type"] in (1, 2) for o in node.get("options", [])), (
        f"/{command_def['name']} {' '.join(path)}: not a leaf command; pick a subcommand"
    )

    def wrap(leaf: list[dict[str, Any]]) -> list[dict[str, Any]]:
        options = leaf
        for sub in reversed(chain):
            options = [{"type": sub["type"], "name": sub["name"], "options": options}]
        return options

    return wrap, list(node.get("options", []))


def walk_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component in a tree (rows, v2 sections/containers, labels) in order."""
    out: list[dict[str, Any]] = []
    for comp in components or []:
        out.append(comp)
        out.extend(walk_components(comp.get("components") or []))
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                out.extend(walk_components([comp[key]]))
    return out


def modal_submission(modal: dict[str, Any] | None, fields: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``data.components`` of a MODAL_SUBMIT, mirroring the layout of the modal that was shown."""
    if modal is None:  # a modal from another process: plain action rows
        return [
            {"type": 1, "components": [{"type": 4, "custom_id": k, "value": str(v)}]}
            for k, v in fields.items()
        ]
    inputs = {c["custom_id"]: c for c in walk_components(modal["components"]) if c.get("custom_id")}
    unknown = set(fields) - set(inputs)
    assert not unknown, f"modal {modal['custom_id']!r}: no field(s) {sorted(unknown)}; has {sorted(inputs)}"

    def answer(comp: dict[str, Any]) -> dict[str, Any]:
        cid = comp["custom_id"]
        if comp["type"] == 4:
            value = str(fields.get(cid, comp.get("value") or ""))
            limit = min(4000, comp.get("max_length") or 4000)
            assert len(value) <= limit, f"modal field {cid!r}: {len(value)} chars > max {limit}"
            assert not (comp.get("required", True) and not value), f"modal field {cid!r} is required"
            return {"type": 4, "custom_id": cid, "value": value}
        values = fields.get(cid, [])
        return {"type": comp["type"], "custom_id": cid, "values": [str(v) for v in values]}

    out = []
    for top in modal["components"]:
        if top["type"] == 1:
            out.append({"type": 1, "components": [answer(c) for c in top["components"]]})
        elif top["type"] == 18:
            out.append({"type": 18, "component": answer(top["component"])})
    return out
