"""Reading a page's HTML tables in tests: each table's id, caption and body
rows (every row's attributes and its cells' text), with the standard library's
parser only."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Row:
    attrs: dict[str, str]
    cells: list[str] = field(default_factory=list)


@dataclass
class Table:
    attrs: dict[str, str]
    caption: str = ""
    rows: list[Row] = field(default_factory=list)


class _Tables(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tables: list[Table] = []
        self._open: list[Table] = []
        self._text: list[str] | None = None
        self._in_head = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag == "table":
            self._open.append(Table(values))
        elif not self._open:
            return
        elif tag == "thead":
            self._in_head = True
        elif tag == "tr" and not self._in_head:
            self._open[-1].rows.append(Row(values))
        elif tag in ("td", "th", "caption"):
            self._text = []

    def handle_endtag(self, tag: str) -> None:
        if not self._open:
            return
        table = self._open[-1]
        if tag == "table":
            self.tables.append(self._open.pop())
        elif tag == "thead":
            self._in_head = False
        elif tag in ("td", "th", "caption") and self._text is not None:
            text = " ".join("".join(self._text).split())
            self._text = None
            if tag == "caption":
                table.caption = text
            elif not self._in_head and table.rows:
                table.rows[-1].cells.append(text)

    def handle_data(self, data: str) -> None:
        if self._text is not None:
            self._text.append(data)


def tables(html: str) -> list[Table]:
    parser = _Tables()
    parser.feed(html)
    return parser.tables


def table(html: str, table_id: str) -> Table:
    [found] = [t for t in tables(html) if t.attrs.get("id") == table_id]
    return found


def captioned(html: str, start: str) -> Table:
    [found] = [t for t in tables(html) if t.caption.startswith(start)]
    return found
