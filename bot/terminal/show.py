"""What the terminal table prints of a panel: all of it, or only what changed;
and two reading aids, a cost being paid and any card by its name.

A seat deciding again and again (Phase: paying a cost card by card, an action
round) would otherwise get the whole table and hand before every decision —
a hundred lines that push the table off a small terminal. So after the first
showing, a panel is printed as what changed since it was last on this screen:
the lines of its description and fields that are new, and those gone. The
whole panel comes back on request (``t``) and after every hand-over, since the
screen was cleared or handed to someone else.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.render import Panel
from bot.terminal.screen import printable
from engines.core import CardText

Say = Callable[[str], None]
Text = Callable[[str], str]
INDENT = "    "  # the lines of a field's value after its first
CARDS_LISTED = 10  # cards named when ``c NAME`` matches several
# "Phase Black Sun to pay for Ash Priest": what is paid, without what for (said above it).


@dataclass
class Shown:
    """The panels last printed on this screen, by what they show."""

    panels: dict[str, Panel] = field(default_factory=dict)

    def forget(self) -> None:
        """The screen was cleared or handed over: show every panel whole next time."""
        self.panels.clear()

    def show(
        self, key: str, panel: Panel, say: Say, text: Text, *, whole: bool = False, label: str = ""
    ) -> bool:
        """Print ``panel`` whole or as its changes, its description's under
        ``label`` (the hand's, say, apart from the table's); True if anything was printed."""
        before = None if whole else self.panels.get(key)
        self.panels[key] = panel
        if before is None:
            print_panel(panel, say, text)
            return True
        return print_changes(before, panel, say, text, label)


def print_panel(panel: Panel, say: Say, text: Text) -> None:
    if panel.title:
        say(text(panel.title))
    if panel.description:
        say(text(panel.description))
    for item in panel.fields:
        say(field_text(text(item.name), text(item.value)))
    if panel.footer:
        say(text(panel.footer))


def field_text(name: str, value: str) -> str:
    """``  Name: first line`` with the value's further lines indented under it,
    so a seat's several lines read as that seat's."""
    first, *rest = value.split("\n") or [""]
    return "\n".join([f"  {name}: {first}", *(f"{INDENT}{line}" for line in rest)])


def print_changes(before: Panel, after: Panel, say: Say, text: Text, label: str = "") -> bool:
    """The lines of ``after`` that ``before`` did not have, block by block
    (the description, then each field), and those it lost. Fields are paired
    by place while their number stays (a name may carry a mark that moves,
    such as whose turn it is), else by name."""
    printed = False
    blocks = [(label, before.description, after.description)]
    if len(before.fields) == len(after.fields):
        pairs = zip(before.fields, after.fields, strict=True)
        blocks += [(new.name, old.value, new.value) for old, new in pairs]
    else:
        old_fields = {f.name: f.value for f in before.fields}
        blocks += [(f.name, old_fields.get(f.name, ""), f.value) for f in after.fields]
        names = {f.name for f in after.fields}
        blocks += [(f.name, f.value, "") for f in before.fields if f.name not in names]
    for name, old, new in blocks:
        lines = changed_lines(old, new)
        if not lines:
            continue
        if name:
            say(f"  {text(name)}:")
        for line in lines:
            say(f"{INDENT}{text(line)}")
        printed = True
    return printed


def changed_lines(old: str, new: str) -> list[str]:
    """The lines new or changed in ``new``, and those only removed marked
    ``(gone)``; a line changed in place is shown as it is now, once."""
    old_lines = old.split("\n") if old else []
    new_lines = new.split("\n") if new else []
    found: list[str] = []
    matcher = difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False)
    for op, a_start, a_end, b_start, b_end in matcher.get_opcodes():
        if op in ("replace", "insert"):
            found += [line for line in new_lines[b_start:b_end] if line.strip()]
        elif op == "delete":
            found += [f"(gone) {line.strip()}" for line in old_lines[a_start:a_end] if line.strip()]
    return found


def card_named(cards: list[CardText], name: str) -> CardText | str:
    """The one card ``name`` means (its key or name, or a part of one name), or what to say instead."""
    wanted = name.strip().lower()
    exact = [c for c in cards if wanted in (c.key.lower(), c.name.lower())]
    found = exact or [c for c in cards if wanted and wanted in c.name.lower()]
    if len(found) == 1:
        return found[0]
    if not found:
        return f"No card's name holds {printable(name)!r}. Type c and a part of a card's name."
    names = sorted({c.name for c in found})
    more = " …" if len(names) > CARDS_LISTED else ""
    return f"Which one? {', '.join(names[:CARDS_LISTED])}{more}"
