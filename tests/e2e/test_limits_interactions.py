"""Each of Discord's rules for interaction callbacks (interactions/receiving-and-responding) and
command registration (interactions/application-commands) on its own."""

from __future__ import annotations

import pytest

from tests.e2e.limits import Context
from tests.e2e.limits.common import NO_CONTEXT
from tests.e2e.shapes import Rule, big, choices, command, modal, string, sub, text

COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = (Context(interaction_type=t) for t in (2, 3, 4, 5))
ON_MESSAGE = {t: Context(interaction_type=t, on_message=True) for t in (3, 5)}
SAY = {"type": 4, "data": {"content": "hi"}}
UPDATE = {"type": 7, "data": {"content": "hi"}}
CALLBACK = "interaction_callback"


def _answer(kind: int) -> dict[str, object]:
    return {"type": kind}


def answer(good: object, bad: object, refusal: str, context: Context = NO_CONTEXT) -> Rule:
    """A rule for an interaction callback (the payload of POST /interactions/.../callback)."""
    return Rule(good, bad, refusal, kind=CALLBACK, context=context)


RULES = {
    # ----- which callback answers which interaction
    "callback type exists": answer(SAY, {"type": 3}, r"type: 3 is not an interaction callback type"),
    "no premium-required answer": answer(SAY, {"type": 10}, r"type 10 \(PREMIUM_REQUIRED\): not available"),
    "no activity launch": answer(SAY, {"type": 12}, r"type 12 \(LAUNCH_ACTIVITY\): not available"),
    "a command is not updated": answer(
        SAY, UPDATE, r"type 7 \(UPDATE_MESSAGE\) cannot answer a APPLICATION_COMMAND", context=COMMAND
    ),
    "a command gets no deferred update": answer(
        {"type": 5}, _answer(6), r"type 6 \(DEFERRED_UPDATE_MESSAGE\) cannot answer", context=COMMAND
    ),
    "a command gets no choices": answer(
        SAY, {"type": 8, "data": {"choices": []}}, r"cannot answer a APPLICATION_COMMAND", context=COMMAND
    ),
    "a component may be updated": answer(
        UPDATE, {"type": 8, "data": {}}, r"allowed: \[4, 5, 6, 7, 9\]", context=ON_MESSAGE[3]
    ),
    "autocomplete gets only choices": answer(
        {"type": 8, "data": {"choices": []}},
        SAY,
        r"cannot answer a AUTOCOMPLETE interaction",
        context=AUTOCOMPLETE,
    ),
    "no modal answers a modal": answer(
        SAY, modal(text()), r"type 9 \(MODAL\) cannot answer a MODAL_SUBMIT", context=MODAL_SUBMIT
    ),
    "a modal from a message may update it": answer(
        UPDATE, {"type": 9, "data": {}}, r"cannot answer a MODAL_SUBMIT", context=ON_MESSAGE[5]
    ),
    "a modal from a command has no message to update": answer(
        SAY, UPDATE, r"this MODAL_SUBMIT has no message to update", context=MODAL_SUBMIT
    ),
    "only a message response carries files": answer(
        SAY,
        {"type": 5},
        r"type 5 .* only a message response can carry files",
        context=Context(files=(("a", 1),)),
    ),
    # ----- what each callback carries
    "a reply is not empty": answer(SAY, {"type": 4, "data": {"content": " "}}, r"data: empty message"),
    "a reply follows the message rules": answer(
        SAY, {"type": 4, "data": {"content": "x" * 2001}}, r"data\.content: 2001"
    ),
    "an update may keep the content": answer(
        {"type": 7, "data": {}},
        {"type": 7, "data": {"embeds": [{}] * 11}},
        r"11 embeds > 10",
        context=ON_MESSAGE[3],
    ),
    "deferred flags only EPHEMERAL": answer(
        {"type": 5, "data": {"flags": 64}},
        {"type": 5, "data": {"flags": 64 | 4096}},
        r"flags 4160 other than",
    ),
    "deferred carries only flags": answer(
        {"type": 5, "data": {"flags": 64}}, {"type": 5, "data": {"content": "wait"}}, r"may only carry flags"
    ),
    "deferred update carries no data": answer(
        _answer(6),
        {"type": 6, "data": {"content": "x"}},
        r"DEFERRED_UPDATE_MESSAGE \(type 6\) carries no data",
    ),
    # ----- autocomplete
    "autocomplete 25 choices": answer(
        {"type": 8, "data": {"choices": choices(25)}},
        {"type": 8, "data": {"choices": choices(26)}},
        r"26 choices > 25",
    ),
    "choice name 1-100": answer(
        {"type": 8, "data": {"choices": [{"name": "n" * 100, "value": "v"}]}},
        {"type": 8, "data": {"choices": [{"name": "", "value": "v"}]}},
        r"choices\[0\]\.name: 0 chars < 1",
    ),
    "choice name 100": answer(
        {"type": 8, "data": {"choices": [{"name": "n" * 100, "value": "v"}]}},
        {"type": 8, "data": {"choices": [{"name": "n" * 101, "value": "v"}]}},
        r"choices\[0\]\.name: 101",
    ),
    "choice value 100": answer(
        {"type": 8, "data": {"choices": [{"name": "n", "value": "v" * 100}]}},
        {"type": 8, "data": {"choices": [{"name": "n", "value": "v" * 101}]}},
        r"choices\[0\]\.value: 101",
    ),
    "choice value string or number": answer(
        {"type": 8, "data": {"choices": [{"name": "n", "value": 3}]}},
        {"type": 8, "data": {"choices": [{"name": "n"}]}},
        r"value: None is not a string or number",
    ),
    # ----- command registration
    "command name charset": Rule(
        command(name="table-création_2"), command(name="table create"), r"name 'table create': must match"
    ),
    "command name lowercase": Rule(command(name="table"), command(name="Table"), r"name 'Table': must match"),
    "command name 32": Rule(command(name="t" * 32), command(name="t" * 33), r"must match"),
    "command description 1-100": Rule(
        command(description="d" * 100), command(description=""), r"description: 0 chars < 1"
    ),
    "command options 25": Rule(
        command(options=[string(f"o{i}") for i in range(25)]),
        command(options=[string(f"o{i}") for i in range(26)]),
        r"26 options > 25",
    ),
    "option choices 25": Rule(
        command(options=[string(choices=choices(25))]),
        command(options=[string(choices=choices(26))]),
        r"26 choices > 25",
    ),
    "required options first": Rule(
        command(options=[string("a", required=True), string("b")]),
        command(options=[string("a"), string("b", required=True)]),
        r"required option after an optional one",
    ),
    "choices or autocomplete": Rule(
        command(options=[string(choices=choices(2))]),
        command(options=[string(choices=choices(2), autocomplete=True)]),
        r"choices and autocomplete are exclusive",
    ),
    "one level of subcommand groups": Rule(
        command(options=[sub(2, "admin", [sub(1, "reset", [])])]),
        command(options=[sub(2, "admin", [sub(2, "deeper", [])])]),
        r"a group may only hold subcommands",
    ),
    "command 8000 chars": Rule(big(1), big(2), r"characters > 8000 per command"),
    "100 commands": Rule(
        [command(name=f"c{i}") for i in range(100)], [command(name=f"c{i}") for i in range(101)], r"101 > 100"
    ),
    "command names unique": Rule(
        [command(name="a"), command(name="b")], [command(name="a"), command(name="a")], r"duplicate names"
    ),
}


@pytest.mark.parametrize("rule", RULES.values(), ids=RULES.keys())
def test_interaction_rule(rule: Rule) -> None:
    rule.check()
