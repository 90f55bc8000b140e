"""Each of Discord's component rules (components/reference) on its own: a good payload passes, a bad
one is refused with a message naming the rule."""

from __future__ import annotations

import pytest

from tests.e2e.shapes import (
    Rule,
    button,
    buttons,
    labelled,
    link,
    message,
    modal,
    option,
    row,
    rows,
    select,
    text,
)

V2 = 1 << 15
USER_SELECT = {"type": 5, "custom_id": "u"}

RULES = {
    "action rows 5": Rule(rows(5), rows(6), r"6 action rows > 5"),
    "action row not empty": Rule(message(row(button())), message(row()), r"empty action row"),
    "buttons per row 5": Rule(message(row(*buttons(5))), message(row(*buttons(6))), r"6 buttons > 5 per row"),
    "a select alone in its row": Rule(
        message(row(select())), message(row(select(), button())), r"a row with a select holds only it"
    ),
    "top level only action rows": Rule(
        message(row(button())), message(button()), r"type 2 at top level needs IS_COMPONENTS_V2"
    ),
    "action rows do not nest": Rule(
        message(row(button())), message(row(row(button()))), r"action rows cannot nest"
    ),
    "custom_id max 100": Rule(
        message(row(button(custom_id="c" * 100))),
        message(row(button(custom_id="c" * 101))),
        r"custom_id: 101",
    ),
    "custom_id min 1": Rule(
        message(row(button(custom_id="c"))), message(row(button(custom_id=""))), r"custom_id: 0 chars < 1"
    ),
    "custom_id unique in a row": Rule(
        message(row(button(custom_id="a"), button(custom_id="b"))),
        message(row(button(custom_id="a"), button(custom_id="a"))),
        r"custom_id 'a' used twice in one message \(Discord: COMPONENT_CUSTOM_ID_DUPLICATED\)",
    ),
    "custom_id unique across rows": Rule(
        message(row(select(custom_id="gt:nav")), row(button(custom_id="gt:back"))),
        message(row(select(custom_id="gt:nav")), row(button(custom_id="gt:nav"))),
        r"custom_id 'gt:nav' used twice",
    ),
    "custom_id unique beside link buttons": Rule(
        message(row(button(custom_id="a"), link(), link())),
        message(row(button(custom_id="a"), link(), button(custom_id="a"))),
        r"custom_id 'a' used twice",
    ),
    "numeric id unique": Rule(
        message(row(button(id=1, custom_id="a"), button(id=2, custom_id="b"))),
        message(row(button(id=1, custom_id="a"), button(id=1, custom_id="b"))),
        r"component id 1 used twice",
    ),
    "numeric id 0 means none": Rule(
        message(row(button(id=0, custom_id="a"), button(id=0, custom_id="b"))),
        message(row(button(id=3, custom_id="a")), row(button(id=3, custom_id="b"))),
        r"component id 3 used twice",
    ),
    "button label 80": Rule(
        message(row(button("l" * 80))), message(row(button("l" * 81))), r"label: 81 chars > 80"
    ),
    "button needs a label or an emoji": Rule(
        message(row(button(None, emoji={"name": "🎲"}))),
        message(row(button(None))),
        r"button needs a label or an emoji",
    ),
    "button style 1-6": Rule(
        message(row(button(style=4))), message(row(button(style=7))), r"style: 7 is not a button style"
    ),
    "link button needs url": Rule(
        message(row(link())), message(row(link(url=None))), r"link button needs url"
    ),
    "link button has no custom_id": Rule(
        message(row(link())), message(row(link(custom_id="x"))), r"link button cannot have a custom_id"
    ),
    "link url 512": Rule(
        message(row(link(url="https://e.org/" + "u" * 498))),
        message(row(link(url="https://e.org/" + "u" * 499))),
        r"url: 513 chars > 512",
    ),
    "other buttons have no url": Rule(
        message(row(button())), message(row(button(url="https://e.org"))), r"primary button cannot have a url"
    ),
    "other buttons need a custom_id": Rule(
        message(row(button())), message(row(button(custom_id=None))), r"custom_id: missing"
    ),
    "premium button needs sku_id": Rule(
        message(row({"type": 2, "style": 6, "sku_id": "1"})),
        message(row({"type": 2, "style": 6})),
        r"premium button needs sku_id",
    ),
    "premium button has no label": Rule(
        message(row({"type": 2, "style": 6, "sku_id": "1"})),
        message(row({"type": 2, "style": 6, "sku_id": "1", "label": "Buy"})),
        r"premium button cannot have label",
    ),
    "select options at most 25": Rule(
        message(row(select(25))), message(row(select(26))), r"26 options, must be 1-25"
    ),
    "select options at least 1": Rule(
        message(row(select(1))), message(row(select(0))), r"0 options, must be 1-25"
    ),
    "select option values unique": Rule(
        message(row(select(0, options=[option(value="a"), option(value="b")]))),
        message(row(select(0, options=[option(value="a"), option(value="a")]))),
        r"duplicate values \['a'\]",
    ),
    "select option label 1-100": Rule(
        message(row(select(0, options=[option(label="l" * 100)]))),
        message(row(select(0, options=[option(label="")]))),
        r"options\[0\]\.label: 0 chars < 1",
    ),
    "select option label 100": Rule(
        message(row(select(0, options=[option(label="l" * 100)]))),
        message(row(select(0, options=[option(label="l" * 101)]))),
        r"options\[0\]\.label: 101",
    ),
    "select option value 100": Rule(
        message(row(select(0, options=[option(value="v" * 100)]))),
        message(row(select(0, options=[option(value="v" * 101)]))),
        r"options\[0\]\.value: 101",
    ),
    "select option description 100": Rule(
        message(row(select(0, options=[option(description="d" * 100)]))),
        message(row(select(0, options=[option(description="d" * 101)]))),
        r"options\[0\]\.description: 101",
    ),
    "select placeholder 150": Rule(
        message(row(select(placeholder="p" * 150))),
        message(row(select(placeholder="p" * 151))),
        r"placeholder: 151",
    ),
    "select min_values 0-25": Rule(
        message(row(select(25, min_values=25, max_values=25))),
        message(row(select(25, min_values=26, max_values=25))),
        r"min_values: 26 not in 0-25",
    ),
    "select max_values 1-25": Rule(
        message(row(select(25, max_values=25))),
        message(row(select(25, max_values=0))),
        r"max_values: 0 not in 1-25",
    ),
    "select min_values <= max_values": Rule(
        message(row(select(3, min_values=2, max_values=2))),
        message(row(select(3, min_values=3, max_values=2))),
        r"min_values 3 > max_values 2",
    ),
    "select max_values <= options": Rule(
        message(row(select(3, max_values=3))),
        message(row(select(3, max_values=4))),
        r"max_values: 4 > 3 options",
    ),
    "select defaults <= max_values": Rule(
        message(row(select(0, options=[option(value="a", default=True), option(value="b")]))),
        message(row(select(0, options=[option(value="a", default=True), option(value="b", default=True)]))),
        r"2 default options > max_values 1",
    ),
    "entity select default_values in range": Rule(
        message(row({**USER_SELECT, "default_values": [{"id": "1", "type": "user"}]})),
        message(
            row({**USER_SELECT, "default_values": [{"id": "1", "type": "user"}, {"id": "2", "type": "user"}]})
        ),
        r"default_values: 2 not in min_values-max_values 1-1",
    ),
    "text inputs only in modals": Rule(
        message(row(button())), message(text()), r"type 4 is only allowed in modals"
    ),
    "components v2 need the flag": Rule(
        {"flags": V2, "components": [{"type": 17, "components": [{"type": 10, "content": "hi"}]}]},
        {"components": [{"type": 17, "components": [{"type": 10, "content": "hi"}]}]},
        r"needs IS_COMPONENTS_V2",
    ),
    "components v2 carry no content": Rule(
        {"flags": V2, "components": [{"type": 10, "content": "hi"}]},
        {"flags": V2, "content": "hi", "components": [{"type": 10, "content": "hi"}]},
        r"content not allowed with IS_COMPONENTS_V2",
    ),
    "components v2 at most 40": Rule(
        {"flags": V2, "components": [{"type": 10, "content": "hi"}] * 40},
        {"flags": V2, "components": [{"type": 10, "content": "hi"}] * 41},
        r"41 components > 40",
    ),
    # ----- modals
    "modal title 1-45": Rule(modal(text(), title="t" * 45), modal(text(), title=""), r"title: 0 chars < 1"),
    "modal title 45": Rule(modal(text(), title="t" * 45), modal(text(), title="t" * 46), r"title: 46 chars"),
    "modal custom_id": Rule(modal(text()), modal(text(), custom_id=""), r"data\.custom_id: 0 chars < 1"),
    "modal components at most 5": Rule(
        modal(*[text(f"t{i}") for i in range(5)]),
        modal(*[text(f"t{i}") for i in range(6)]),
        r"6 components, must be 1-5",
    ),
    "modal components at least 1": Rule(modal(text()), modal(), r"0 components, must be 1-5"),
    "modal custom_ids unique": Rule(
        modal(text("a"), text("b")), modal(text("a"), text("a")), r"custom_id 'a' used twice"
    ),
    "modal holds no buttons": Rule(
        modal(text()), modal(row(button())), r"a modal's action row holds one text input"
    ),
    "text input label 1-45 in a row": Rule(
        modal(text(label="l" * 45)), modal(text(label="l" * 46)), r"label: 46 chars > 45"
    ),
    "text input needs a label in a row": Rule(
        modal(text(label="L")), modal(text(label=None)), r"label: missing"
    ),
    "text input style 1-2": Rule(
        modal(text(style=2)), modal(text(style=3)), r"style: 3 is not a text input style"
    ),
    "text input value 4000": Rule(
        modal(text(value="v" * 4000)), modal(text(value="v" * 4001)), r"value: 4001 chars > 4000"
    ),
    "text input placeholder 100": Rule(
        modal(text(placeholder="p" * 100)), modal(text(placeholder="p" * 101)), r"placeholder: 101"
    ),
    "text input min_length 0-4000": Rule(
        modal(text(min_length=0)), modal(text(min_length=4001)), r"min_length: 4001 not in 0-4000"
    ),
    "text input max_length 1-4000": Rule(
        modal(text(max_length=1)), modal(text(max_length=0)), r"max_length: 0 not in 1-4000"
    ),
    "text input min_length <= max_length": Rule(
        modal(text(min_length=5, max_length=5)),
        modal(text(min_length=6, max_length=5)),
        r"min_length 6 > max_length 5",
    ),
    "text input value within max_length": Rule(
        modal(text(value="abc", max_length=3)),
        modal(text(value="abcd", max_length=3)),
        r"4 chars > max_length 3",
    ),
    "label text 1-45": Rule(
        modal(labelled({"type": 4, "custom_id": "t", "style": 1}, "l" * 45)),
        modal(labelled({"type": 4, "custom_id": "t", "style": 1}, "l" * 46)),
        r"label: 46 chars > 45",
    ),
    "label description 100": Rule(
        modal(labelled({"type": 4, "custom_id": "t", "style": 1}, description="d" * 100)),
        modal(labelled({"type": 4, "custom_id": "t", "style": 1}, description="d" * 101)),
        r"description: 101 chars > 100",
    ),
    "no disabled select in a modal": Rule(
        modal(labelled(select())), modal(labelled(select(disabled=True))), r"modals cannot hold disabled"
    ),
    "a required modal select needs min_values 1": Rule(
        modal(labelled(select(min_values=1))), modal(labelled(select(min_values=0))), r"min_values >= 1"
    ),
}


@pytest.mark.parametrize("rule", RULES.values(), ids=RULES.keys())
def test_component_rule(rule: Rule) -> None:
    rule.check()
