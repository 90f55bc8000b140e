"""Discord's limits on outgoing payloads (see /work/shared/design/discord-limits.md).

``check_payload(payload)`` raises ``AssertionError`` naming the first violated limit and where
(e.g. ``components[1].components[0].label: 81 chars > 80``). The shape is detected from the
payload (interaction callback, modal, autocomplete result, message create/edit, command
registration or a list of them) or given via ``kind=``. The harness runs it on every request.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.payloads import check_name

EPHEMERAL = 1 << 6
IS_COMPONENTS_V2 = 1 << 15
V2_TYPES = {9, 10, 11, 12, 13, 14, 17}  # section, text display, thumbnail, gallery, file, separator, box
SELECT_TYPES = {3, 5, 6, 7, 8}
COMMAND_KINDS = {"command", "commands"}
NAME_RULE = "must match ^[-_'\\p{L}\\p{N}]{1,32}$ and be lowercase"


def _length(where: str, value: Any, maximum: int, minimum: int = 0) -> None:
    if value is None:
        assert minimum == 0, f"{where}: missing (must be {minimum}-{maximum} chars)"
        return
    n = len(str(value))
    assert n <= maximum, f"{where}: {n} chars > {maximum}"
    assert n >= minimum, f"{where}: {n} chars < {minimum}"


def check_payload(payload: Any, *, kind: str | None = None) -> None:
    """Assert ``payload`` respects every Discord limit the harness knows about."""
    kind = kind or _detect(payload)
    if kind in COMMAND_KINDS:
        commands = payload if isinstance(payload, list) else [payload]
        assert len(commands) <= 100, f"commands: {len(commands)} > 100 per scope"
        names = [(c.get("name"), c.get("type", 1)) for c in commands]
        assert len(set(names)) == len(names), f"commands: duplicate names {sorted(map(str, names))}"
        for i, command in enumerate(commands):
            check_command(command, where=f"command[{i}]" if isinstance(payload, list) else "command")
    elif kind == "interaction_callback":
        check_interaction_callback(payload)
    elif kind == "modal":
        check_modal(payload)
    elif kind == "autocomplete":
        check_choices(payload.get("choices") or [], "choices")
    elif isinstance(payload, dict):
        check_message(payload)


def _detect(payload: Any) -> str:
    if isinstance(payload, list):
        return "commands"
    if not isinstance(payload, dict):
        return "other"
    if "type" in payload and "data" in payload and "content" not in payload:
        return "interaction_callback"
    if "title" in payload and "custom_id" in payload and "components" in payload:
        return "modal"
    if "name" in payload and ("description" in payload or "options" in payload):
        return "command"
    return "message"


def check_interaction_callback(payload: dict[str, Any]) -> None:
    kind, data = payload.get("type"), payload.get("data") or {}
    if kind in (4, 7):
        check_message(data, where="data")
    elif kind == 5:
        extra = set(data) - {"flags"}
        assert not extra, f"deferred response (type 5): data may only carry flags, got {sorted(extra)}"
        flags = int(data.get("flags") or 0)
        assert flags & ~EPHEMERAL == 0, f"deferred response (type 5): flags {flags} other than EPHEMERAL (64)"
    elif kind == 6:
        assert not data, f"deferred update (type 6) carries no data, got {sorted(data)}"
    elif kind == 8:
        check_choices(data.get("choices") or [], "data.choices")
    elif kind == 9:
        check_modal(data, where="data")


def check_choices(choices: list[dict[str, Any]], where: str) -> None:
    assert len(choices) <= 25, f"{where}: {len(choices)} choices > 25"
    for i, choice in enumerate(choices):
        _length(f"{where}[{i}].name", choice.get("name"), 100, 1)
        if isinstance(choice.get("value"), str):
            _length(f"{where}[{i}].value", choice["value"], 100, 1)


def check_message(body: dict[str, Any], where: str = "message") -> None:
    _length(f"{where}.content", body.get("content"), 2000)
    check_embeds(body.get("embeds") or [], f"{where}.embeds")
    flags = int(body.get("flags") or 0)
    components = body.get("components") or []
    if flags & IS_COMPONENTS_V2:
        assert not body.get("content") and not body.get("embeds"), (
            f"{where}: content/embeds are not allowed with IS_COMPONENTS_V2"
        )
        for i, comp in enumerate(components):
            _check_component(comp, f"{where}.components[{i}]", v2=True)
        return
    assert len(components) <= 5, f"{where}.components: {len(components)} action rows > 5"
    for i, row in enumerate(components):
        here = f"{where}.components[{i}]"
        assert row.get("type") == 1, (
            f"{here}: type {row.get('type')} at top level needs IS_COMPONENTS_V2 (flags 1<<15); "
            "legacy messages allow only action rows (type 1)"
        )
        _check_row(row, here, v2=False)


def _check_row(row: dict[str, Any], where: str, *, v2: bool) -> None:
    children = row.get("components") or []
    assert children, f"{where}: empty action row"
    types = [c.get("type") for c in children]
    if any(t in SELECT_TYPES for t in types):
        assert len(children) == 1, f"{where}: a row with a select holds only it, has {len(children)}"
    elif 4 in types:
        assert len(children) == 1, f"{where}: a row with a text input holds exactly 1 component"
    else:
        assert len(children) <= 5, f"{where}: {len(children)} buttons > 5 per row"
    for j, comp in enumerate(children):
        assert comp.get("type") != 1, f"{where}.components[{j}]: action rows cannot nest"
        _check_component(comp, f"{where}.components[{j}]", v2=v2)


def _check_component(comp: dict[str, Any], where: str, *, v2: bool) -> None:
    kind = comp.get("type")
    if kind == 1:
        _check_row(comp, where, v2=v2)
    elif kind == 2:
        check_button(comp, where)
    elif kind in SELECT_TYPES:
        check_select(comp, where)
    elif kind == 4:
        check_text_input(comp, where)
    elif kind in V2_TYPES:
        assert v2, f"{where}: component type {kind} requires IS_COMPONENTS_V2 (flags 1<<15)"
        for j, child in enumerate(comp.get("components") or []):
            _check_component(child, f"{where}.components[{j}]", v2=v2)
        if isinstance(comp.get("accessory"), dict):
            _check_component(comp["accessory"], f"{where}.accessory", v2=v2)
        if kind == 10:
            _length(f"{where}.content", comp.get("content"), 4000, 1)
    else:
        raise AssertionError(f"{where}: unknown component type {kind!r}")


def _custom_id(comp: dict[str, Any], where: str) -> None:
    _length(f"{where}.custom_id", comp.get("custom_id"), 100, 1)


def check_button(comp: dict[str, Any], where: str) -> None:
    _length(f"{where}.label", comp.get("label"), 80)
    style = comp.get("style")
    if style == 5:
        assert comp.get("url") and "custom_id" not in comp, f"{where}: link button needs url and no custom_id"
    elif style == 6:
        assert comp.get("sku_id"), f"{where}: premium button needs sku_id"
    else:
        _custom_id(comp, where)
        assert comp.get("label") or comp.get("emoji"), f"{where}: button needs a label or an emoji"


def check_select(comp: dict[str, Any], where: str) -> None:
    _custom_id(comp, where)
    _length(f"{where}.placeholder", comp.get("placeholder"), 150)
    low, high = comp.get("min_values", 1), comp.get("max_values", 1)
    assert 0 <= low <= 25, f"{where}.min_values: {low} not in 0-25"
    assert 1 <= high <= 25, f"{where}.max_values: {high} not in 1-25"
    assert low <= high, f"{where}: min_values {low} > max_values {high}"
    if comp.get("type") == 3:
        options = comp.get("options") or []
        assert 1 <= len(options) <= 25, f"{where}.options: {len(options)} options, must be 1-25"
        assert high <= len(options), f"{where}.max_values: {high} > {len(options)} options"
        values = [o.get("value") for o in options]
        assert len(set(values)) == len(values), f"{where}.options: duplicate values"
        for k, option in enumerate(options):
            _length(f"{where}.options[{k}].label", option.get("label"), 100, 1)
            _length(f"{where}.options[{k}].value", option.get("value"), 100, 1)
            _length(f"{where}.options[{k}].description", option.get("description"), 100)


def check_text_input(comp: dict[str, Any], where: str) -> None:
    _custom_id(comp, where)
    _length(f"{where}.label", comp.get("label"), 45)
    _length(f"{where}.placeholder", comp.get("placeholder"), 100)
    _length(f"{where}.value", comp.get("value"), 4000)
    for key, low in (("min_length", 0), ("max_length", 1)):
        if comp.get(key) is not None:
            assert low <= comp[key] <= 4000, f"{where}.{key}: {comp[key]} not in {low}-4000"


def check_modal(body: dict[str, Any], where: str = "modal") -> None:
    _custom_id(body, where)
    _length(f"{where}.title", body.get("title"), 45, 1)
    components = body.get("components") or []
    assert 1 <= len(components) <= 5, f"{where}.components: {len(components)} components, must be 1-5"
    for i, comp in enumerate(components):
        here = f"{where}.components[{i}]"
        if comp.get("type") == 18:  # label wrapping one input
            _length(f"{here}.label", comp.get("label"), 45, 1)
            _check_component(comp.get("component") or {}, f"{here}.component", v2=False)
        elif comp.get("type") == 10:
            _length(f"{here}.content", comp.get("content"), 4000, 1)
        else:
            assert comp.get("type") == 1, f"{here}: modal components are rows, labels or text displays"
            _check_row(comp, here, v2=False)


def check_embeds(embeds: list[dict[str, Any]], where: str) -> None:
    assert len(embeds) <= 10, f"{where}: {len(embeds)} embeds > 10"
    total = 0
    for i, embed in enumerate(embeds):
        here = f"{where}[{i}]"
        texts = [("title", 256), ("description", 4096)]
        for key, limit in texts:
            _length(f"{here}.{key}", embed.get(key), limit)
            total += len(embed.get(key) or "")
        fields = embed.get("fields") or []
        assert len(fields) <= 25, f"{here}.fields: {len(fields)} fields > 25"
        for j, fld in enumerate(fields):
            _length(f"{here}.fields[{j}].name", fld.get("name"), 256, 1)
            _length(f"{here}.fields[{j}].value", fld.get("value"), 1024, 1)
            total += len(fld.get("name") or "") + len(fld.get("value") or "")
        for key, sub, limit in (("footer", "text", 2048), ("author", "name", 256)):
            text = (embed.get(key) or {}).get(sub)
            _length(f"{here}.{key}.{sub}", text, limit)
            total += len(text or "")
    assert total <= 6000, f"{where}: {total} characters across all embeds > 6000"


def check_command(command: dict[str, Any], where: str = "command") -> None:
    kind = command.get("type", 1)
    name = command.get("name") or ""
    if kind == 1:
        assert check_name(name), f"{where}.name {name!r}: {NAME_RULE}"
        _length(f"{where}.description", command.get("description"), 100, 1)
    else:
        _length(f"{where}.name", name, 32, 1)
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
        _length(f"{here}.description", option.get("description"), 100, 1)
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
