"""Discord markdown, made readable at a terminal.

Engines and renderers write for Discord: ``**bold**``, ``*italic*``,
``_italic_``, ``__underline__``, ``~~strike~~``, ``||spoiler||``, ``` `code` ```,
``> quotes``, ``# headers``, ``[links](url)``, and names escaped with
``discord.utils.escape_markdown`` (``ann\\_b``). A terminal shows bold as bold
(when it is one) and the rest as the plain words, with every escaped character
as itself.
"""

from __future__ import annotations

import re

BOLD_ON, BOLD_OFF = "\x1b[1m", "\x1b[22m"

_ESCAPED = re.compile(r"\\([^A-Za-z0-9\s])")
# Escaped characters wait in the Unicode private use area while markdown is read.
_HELD = 0xF0000
_HELD_CHAR = re.compile("[\U000f0000-\U000f00ff]")
_CODE = re.compile(r"```(?:[\w+-]*\n)?(.*?)```|`([^`\n]+)`", re.DOTALL)
_BOLD = re.compile(r"(\*\*\*?)(?=\S)(.+?)(?<=\S)\1", re.DOTALL)  # ***bold italic*** too
_WRAPPED = [
    re.compile(r"__(?=\S)(.+?)(?<=\S)__", re.DOTALL),  # underline
    re.compile(r"~~(?=\S)(.+?)(?<=\S)~~", re.DOTALL),
    re.compile(r"\|\|(.+?)\|\|", re.DOTALL),  # spoiler: shown, the screen is private already
    re.compile(r"(?<![\w*])\*(?=\S)([^*\n]*?\S)\*(?![\w*])"),
    re.compile(r"(?<![\w\\])_(?=\S)([^_\n]*?\S)_(?!\w)"),
]
_LINK = re.compile(r"\[([^\]\n]+)\]\((<?https?://[^)\s]+>?)\)")
_LINE_MARK = re.compile(r"^(?:>>> |> |#{1,3} |-# )", re.MULTILINE)


def terminal_text(text: str, *, bold: bool = False) -> str:
    """``text`` without Discord's markup; bold as ANSI bold when ``bold``."""
    text = _ESCAPED.sub(lambda m: _hold(m.group(1)), text)
    text = _CODE.sub(lambda m: "".join(_hold(c) for c in (m.group(1) or m.group(2) or "")), text)
    text = _BOLD.sub(lambda m: f"{BOLD_ON}{m.group(2)}{BOLD_OFF}" if bold else m.group(2), text)
    for pattern in _WRAPPED:
        text = pattern.sub(r"\1", text)
    text = _LINK.sub(lambda m: f"{m.group(1)} ({m.group(2).strip('<>')})", text)
    text = _LINE_MARK.sub("", text)
    return _HELD_CHAR.sub(lambda m: chr(ord(m.group(0)) - _HELD), text)


def _hold(char: str) -> str:
    code = ord(char)
    return chr(_HELD + code) if code < 0x100 else char
