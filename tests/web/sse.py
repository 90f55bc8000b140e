"""Reading a page's event stream in tests: the next ``update`` event's HTML."""

from __future__ import annotations

import asyncio
from typing import Any


async def next_update(response: Any, within: float = 5.0) -> str:
    """The data of the next ``update`` event on ``response`` (an open event stream)."""
    async with asyncio.timeout(within):
        while True:
            block = (await response.content.readuntil(b"\n\n")).decode()
            if block.startswith("event: update\n"):
                lines = [line for line in block.rstrip("\n").split("\n") if line.startswith("data: ")]
                return "\n".join(line[len("data: ") :] for line in lines)


def live_part(page: str) -> str:
    """The page's ``#live`` part, as the template holds it."""
    start = page.index('<div id="live">\n') + len('<div id="live">\n')
    return page[start : page.rindex("\n</div>\n</main>")]
