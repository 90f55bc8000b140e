"""Discord-flavoured panel text as safe HTML, for every page that shows a
panel or a log line.

The text is escaped first; only then does the little markdown Discord knows
(``**bold**``, ``*italic*``/``_italic_``, ``__underline__``, ``~~struck~~``,
`` `code` ``) become tags. ``<seat:N>`` references and ``<t:N:STYLE>``
timestamps are set aside before the escaping and put back last, so a name is
escaped and never read as markdown (a player called ``**x**`` stays
``**x**``), and a time becomes a ``<time>`` that ``static/site.js`` shows in
the reader's own time zone (UTC without scripts)."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime

from markupsafe import Markup, escape

# Set-aside pieces stand in the text as a private-use character and their index;
# any such character already in the text is dropped, so none can be forged.
_OPEN, _CLOSE = "\ue000", "\ue001"
_PRIVATE = re.compile(f"[{_OPEN}{_CLOSE}]")
_HELD = re.compile(f"{_OPEN}(\\d+){_CLOSE}")
_TOKEN = re.compile(r"<t:(-?\d{1,12})(?::([tTdDfFR]))?>|<seat:(\d{1,6})>")
_ESCAPED = re.compile(r"\\([*_`~|>\\])")
_CODE = re.compile(r"`([^`\n]+)`")
_SPANS = (
    (re.compile(r"~~(?=\S)(.+?)(?<=\S)~~", re.S), "del"),
    (re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*", re.S), "strong"),
    (re.compile(r"__(?=\S)(.+?)(?<=\S)__", re.S), "u"),
    (re.compile(r"\*(?=[^\s*])(.+?)(?<=[^\s*])\*", re.S), "em"),
    # As in Discord, underscores inside a word (snake_case) are no emphasis.
    (re.compile(r"(?<![\w_])_(?=[^\s_])(.+?)(?<=[^\s_])_(?![\w_])", re.S), "em"),
)
# What each Discord style shows, in UTC. "R" (relative) would go stale in a
# page read later, so without scripts it shows the full time as "f" does.
_STYLES = {
    "t": "%H:%M UTC",
    "T": "%H:%M:%S UTC",
    "d": "%Y-%m-%d",
    "D": "%-d %B %Y",
    "f": "%-d %B %Y %H:%M UTC",
    "F": "%A, %-d %B %Y %H:%M UTC",
    "R": "%-d %B %Y %H:%M UTC",
}
# Year 1 to 9999, which datetime can hold.
_EARLIEST, _LATEST = -62135596800, 253402300799


def time_html(ts: int, style: str = "f") -> Markup:
    """A ``<time>`` for the Unix time ``ts`` in the Discord ``style``."""
    when = datetime.fromtimestamp(ts, UTC)
    iso = when.strftime("%Y-%m-%dT%H:%M:%SZ")
    shown = when.strftime(_STYLES.get(style, _STYLES["f"]))
    return Markup('<time datetime="{}" data-ts="{}" data-style="{}">{}</time>').format(iso, ts, style, shown)


def web_name(name: str) -> str:
    """A seat's name as stored for Discord (markdown escaped with backslashes) as
    plain text: the web escapes it as HTML instead."""
    return _ESCAPED.sub(r"\1", name)


def to_html(text: str, name: Callable[[int], str]) -> Markup:
    """``text`` (a panel's or a log line's) as HTML; ``name(seat)`` names a seat
    reference (plain text: it is escaped here)."""
    held: list[str] = []

    def hold(html: str) -> str:
        held.append(html)
        return f"{_OPEN}{len(held) - 1}{_CLOSE}"

    def token(match: re.Match[str]) -> str:
        ts, style, seat = match.groups()
        if seat is not None:
            return hold(str(escape(name(int(seat)))))
        if not _EARLIEST <= int(ts) <= _LATEST:
            return hold(str(escape(match.group(0))))
        return hold(str(time_html(int(ts), style or "f")))

    out = _TOKEN.sub(token, _PRIVATE.sub("", text))
    out = str(escape(out))
    # A backslash keeps a markdown character as itself, as in Discord.
    out = _ESCAPED.sub(lambda m: hold(m.group(1)), out)
    # Code is held whole, so no markdown applies inside it.
    out = _CODE.sub(lambda m: hold(f"<code>{m.group(1)}</code>"), out)
    for pattern, tag in _SPANS:
        out = pattern.sub(rf"<{tag}>\1</{tag}>", out)
    return Markup(_restore(out, held))


def _restore(text: str, held: list[str]) -> str:
    """Put the set-aside pieces back (a piece may hold earlier ones: a code span)."""
    while _HELD.search(text):
        text = _HELD.sub(lambda m: held[int(m.group(1))], text)
    return text
