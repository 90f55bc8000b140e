"""Components in messages and modals, as Discord's component reference states them.

Legacy messages hold up to 5 action rows; a row holds up to 5 buttons or one select. Every
interactive component has a custom_id of 1-100 characters, and no two components of one message (or
modal) share a custom_id (Discord: 50035 COMPONENT_CUSTOM_ID_DUPLICATED) or a numeric ``id``.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.limits.common import length
from tests.e2e.options import walk_components

ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT, TEXT_DISPLAY, LABEL = 1, 2, 3, 4, 10, 18
SELECT_TYPES = {3, 5, 6, 7, 8}
V2_TYPES = {9, 10, 11, 12, 13, 14, 17}  # section, text display, thumbnail, gallery, file, separator, box
MODAL_INPUTS = {4, 19, 21, 22, 23}  # text input, file upload, radio group, checkbox group, checkbox
BUTTON_STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link", 6: "premium"}
LINK, PREMIUM = 5, 6
V2_MAX_COMPONENTS = 40


def check_unique(components: list[dict[str, Any]], where: str) -> None:
    """custom_ids and numeric ids are unique across the whole message or modal, every row."""
    seen: dict[str, str] = {}
    for comp in walk_components(components):
        for key in ("custom_id", "id"):
            value = comp.get(key)
            if value is None or (key == "id" and value == 0):  # id 0 is "none": Discord assigns one
                continue
            tag = f"{key} {value!r}"
            assert tag not in seen, (
                f"{where}: {tag} used twice in one message (Discord: COMPONENT_CUSTOM_ID_DUPLICATED)"
                if key == "custom_id"
                else f"{where}: component {tag} used twice in one message"
            )
            seen[tag] = key


def check_message_components(components: list[dict[str, Any]], where: str, *, v2: bool) -> None:
    check_unique(components, where)
    if v2:
        total = len(walk_components(components))
        assert total <= V2_MAX_COMPONENTS, f"{where}: {total} components > {V2_MAX_COMPONENTS}"
        for i, comp in enumerate(components):
            _component(comp, f"{where}[{i}]", v2=True)
        return
    assert len(components) <= 5, f"{where}: {len(components)} action rows > 5"
    for i, row in enumerate(components):
        here = f"{where}[{i}]"
        assert row.get("type") == ACTION_ROW, (
            f"{here}: type {row.get('type')} at top level needs IS_COMPONENTS_V2 (flags 1<<15); "
            "legacy messages allow only action rows (type 1)"
        )
        _row(row, here, v2=False, modal=False)


def _row(row: dict[str, Any], where: str, *, v2: bool, modal: bool) -> None:
    children = row.get("components") or []
    assert children, f"{where}: empty action row"
    types = [c.get("type") for c in children]
    if any(t in SELECT_TYPES for t in types):
        assert len(children) == 1, f"{where}: a row with a select holds only it, has {len(children)}"
    elif TEXT_INPUT in types:
        assert len(children) == 1, f"{where}: a row with a text input holds exactly 1 component"
    else:
        assert len(children) <= 5, f"{where}: {len(children)} buttons > 5 per row"
    for j, comp in enumerate(children):
        here = f"{where}.components[{j}]"
        assert comp.get("type") != ACTION_ROW, f"{here}: action rows cannot nest"
        if modal:
            assert comp.get("type") == TEXT_INPUT, f"{here}: a modal's action row holds one text input"
            check_text_input(comp, here, in_label=False)
        else:
            _component(comp, here, v2=v2)


def _component(comp: dict[str, Any], where: str, *, v2: bool) -> None:
    kind = comp.get("type")
    if kind == ACTION_ROW:
        _row(comp, where, v2=v2, modal=False)
    elif kind == BUTTON:
        check_button(comp, where)
    elif kind in SELECT_TYPES:
        check_select(comp, where, in_modal=False)
    elif kind in V2_TYPES:
        assert v2, f"{where}: component type {kind} requires IS_COMPONENTS_V2 (flags 1<<15)"
        for j, child in enumerate(comp.get("components") or []):
            _component(child, f"{where}.components[{j}]", v2=v2)
        if isinstance(comp.get("accessory"), dict):
            _component(comp["accessory"], f"{where}.accessory", v2=v2)
        if kind == TEXT_DISPLAY:
            length(f"{where}.content", comp.get("content"), 4000, 1)
    elif kind in MODAL_INPUTS or kind == LABEL:
        raise AssertionError(f"{where}: component type {kind} is only allowed in modals")
    else:
        raise AssertionError(f"{where}: unknown component type {kind!r}")


def _custom_id(comp: dict[str, Any], where: str) -> None:
    length(f"{where}.custom_id", comp.get("custom_id"), 100, 1)


def check_button(comp: dict[str, Any], where: str) -> None:
    style = comp.get("style")
    assert style in BUTTON_STYLES, f"{where}.style: {style!r} is not a button style (1-6)"
    length(f"{where}.label", comp.get("label"), 80)
    if style == PREMIUM:
        present = [k for k in ("custom_id", "label", "url", "emoji") if comp.get(k) is not None]
        assert comp.get("sku_id"), f"{where}: premium button needs sku_id"
        assert not present, f"{where}: premium button cannot have {', '.join(present)}"
        return
    assert comp.get("label") or comp.get("emoji"), f"{where}: button needs a label or an emoji"
    assert comp.get("sku_id") is None, f"{where}: only premium buttons carry sku_id"
    if style == LINK:
        assert comp.get("url"), f"{where}: link button needs url"
        assert comp.get("custom_id") is None, f"{where}: link button cannot have a custom_id"
        length(f"{where}.url", comp["url"], 512)
    else:
        assert comp.get("url") is None, f"{where}: {BUTTON_STYLES[style]} button cannot have a url"
        _custom_id(comp, where)


def check_select(comp: dict[str, Any], where: str, *, in_modal: bool) -> None:
    _custom_id(comp, where)
    length(f"{where}.placeholder", comp.get("placeholder"), 150)
    low, high = comp.get("min_values", 1), comp.get("max_values", 1)
    assert 0 <= low <= 25, f"{where}.min_values: {low} not in 0-25"
    assert 1 <= high <= 25, f"{where}.max_values: {high} not in 1-25"
    assert low <= high, f"{where}: min_values {low} > max_values {high}"
    if in_modal:
        assert not comp.get("disabled"), f"{where}: modals cannot hold disabled components"
        if comp.get("required", True):
            assert low >= 1, f"{where}: a required select needs min_values >= 1"
    if comp.get("type") == STRING_SELECT:
        options = comp.get("options") or []
        assert 1 <= len(options) <= 25, f"{where}.options: {len(options)} options, must be 1-25"
        assert high <= len(options), f"{where}.max_values: {high} > {len(options)} options"
        values = [o.get("value") for o in options]
        twice = sorted({str(v) for v in values if values.count(v) > 1})
        assert not twice, f"{where}.options: duplicate values {twice}"
        defaults = sum(1 for o in options if o.get("default"))
        assert defaults <= high, f"{where}.options: {defaults} default options > max_values {high}"
        for k, option in enumerate(options):
            length(f"{where}.options[{k}].label", option.get("label"), 100, 1)
            length(f"{where}.options[{k}].value", option.get("value"), 100, 1)
            length(f"{where}.options[{k}].description", option.get("description"), 100)
    else:
        assert "options" not in comp, f"{where}: only string selects (type 3) have options"
        defaults = len(comp.get("default_values") or [])
        assert defaults == 0 or low <= defaults <= high, (
            f"{where}.default_values: {defaults} not in min_values-max_values {low}-{high}"
        )


def check_text_input(comp: dict[str, Any], where: str, *, in_label: bool) -> None:
    _custom_id(comp, where)
    style = comp.get("style")
    assert style in (1, 2), f"{where}.style: {style!r} is not a text input style (1 short, 2 paragraph)"
    if not in_label:  # in a (deprecated) action row the input carries its own label
        length(f"{where}.label", comp.get("label"), 45, 1)
    length(f"{where}.placeholder", comp.get("placeholder"), 100)
    length(f"{where}.value", comp.get("value"), 4000)
    low, high = comp.get("min_length"), comp.get("max_length")
    if low is not None:
        assert 0 <= low <= 4000, f"{where}.min_length: {low} not in 0-4000"
    if high is not None:
        assert 1 <= high <= 4000, f"{where}.max_length: {high} not in 1-4000"
        # Not spelled out in the reference; a pre-filled value the input could not hold is a bug.
        value = comp.get("value")
        assert value is None or len(value) <= high, f"{where}.value: {len(value)} chars > max_length {high}"
    if low is not None and high is not None:
        assert low <= high, f"{where}: min_length {low} > max_length {high}"


def check_modal(body: dict[str, Any], where: str = "modal") -> None:
    _custom_id(body, where)
    length(f"{where}.title", body.get("title"), 45, 1)
    components = body.get("components") or []
    assert 1 <= len(components) <= 5, f"{where}.components: {len(components)} components, must be 1-5"
    check_unique(components, f"{where}.components")
    for i, comp in enumerate(components):
        here = f"{where}.components[{i}]"
        kind = comp.get("type")
        if kind == LABEL:
            length(f"{here}.label", comp.get("label"), 45, 1)
            length(f"{here}.description", comp.get("description"), 100)
            inner, there = comp.get("component") or {}, f"{here}.component"
            if inner.get("type") == TEXT_INPUT:
                check_text_input(inner, there, in_label=True)
            elif inner.get("type") in SELECT_TYPES:
                check_select(inner, there, in_modal=True)
            else:
                kind = inner.get("type")
                assert kind in MODAL_INPUTS, f"{there}: type {kind!r} cannot sit in a label"
                _custom_id(inner, there)
        elif kind == TEXT_DISPLAY:
            length(f"{here}.content", comp.get("content"), 4000, 1)
        else:
            assert kind == ACTION_ROW, f"{here}: modal components are rows, labels or text displays"
            _row(comp, here, v2=False, modal=True)
