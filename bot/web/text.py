"""A panel's or event's Discord-flavoured text as safe HTML: seat references
as names, ``**bold**``, ``*italic*`` and `` `code` `` as such, ``<t:…>`` as a ``<time>``.
Everything else is escaped, so no text of a log or a panel can make markup."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime

from markupsafe import Markup, escape

# A seat reference or a Discord timestamp; what lies between is plain text.
_TOKENS = re.compile(r"<seat:(\d+)>|<t:(\d{1,12})(?::([tTdDfFR]))?>")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<![*\w])\*(?![\s*])([^*\n]+?)(?<!\s)\*(?![*\w])")
_CODE = re.compile(r"`([^`]+)`")


def panel_text(text: str, name: Callable[[int], str]) -> Markup:
    out: list[str] = []
    last = 0
    for token in _TOKENS.finditer(text):
        out.append(str(escape(text[last : token.start()])))
        seat, ts, style = token.groups()
        if seat is not None:
            out.append(str(escape(name(int(seat)))))
        else:
            out.append(_time(int(ts), style or "f"))
        last = token.end()
    out.append(str(escape(text[last:])))
    html = "".join(out)
    html = _CODE.sub(r"<code>\1</code>", html)
    html = _BOLD.sub(r"<strong>\1</strong>", html)
    return Markup(_ITALIC.sub(r"<em>\1</em>", html))


def _time(ts: int, style: str) -> str:
    """A moment, read in UTC without scripts and in the reader's zone with them (site.js)."""
    when = datetime.fromtimestamp(min(ts, 253402300799), UTC)
    return (
        f'<time datetime="{when.isoformat()}" data-ts="{ts}" data-style="{style}">'
        f"{when.strftime('%Y-%m-%d %H:%M')} UTC</time>"
    )
