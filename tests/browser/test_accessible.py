"""Every page kind in a real browser, checked for what a screen reader and a
keyboard need: the language, one h1 and headings in order, alt text on every
picture, a label on every field, a name on every link and button, and Tab
reaching the controls in the order they are read."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from playwright.async_api import Page

from bot.web import replays
from bot.web.site import Site
from storage.tournaments import Format
from tests.support.clock import Clock
from tests.web.conftest import HOME
from tests.web.games import PEOPLE, finished, play, start
from tests.web.tournaments import GAMES_HERE, open_cup, play_to_the_end
from tests.web.tournaments import start as start_cup

# What the page offers a reader who cannot see it, read in the page itself.
AUDIT = """() => {
  const problems = [];
  if (document.documentElement.lang !== "en") problems.push("no lang");
  const h1 = document.querySelectorAll("h1").length;
  if (h1 !== 1) problems.push(`${h1} h1`);
  let level = 0;
  for (const h of document.querySelectorAll("h1, h2, h3, h4, h5, h6")) {
    const next = Number(h.tagName[1]);
    if (next > level + 1) problems.push(`${h.tagName} "${h.textContent.trim()}" after h${level}`);
    level = next;
  }
  for (const img of document.querySelectorAll("img"))
    if (!img.getAttribute("alt")) problems.push(`img ${img.src} without alt`);
  for (const field of document.querySelectorAll("input:not([type=hidden]), select, textarea")) {
    const labelled = field.labels?.length
      || field.getAttribute("aria-label") || field.getAttribute("aria-labelledby");
    if (!labelled) problems.push(`field ${field.name || field.id} without a label`);
  }
  for (const control of document.querySelectorAll("a[href], button"))
    if (!(control.textContent.trim() || control.getAttribute("aria-label")
          || control.querySelector("img[alt]")))
      problems.push(`${control.tagName} ${control.outerHTML.slice(0, 60)} without a name`);
  for (const table of document.querySelectorAll("table"))
    if (!table.querySelector("caption")
        && !table.getAttribute("aria-label") && !table.getAttribute("aria-labelledby"))
      problems.push("a table without a caption");
  return problems;
}"""
# The visible controls, in the order a reader meets them.
CONTROLS = """() => [...document.querySelectorAll("a[href], button, input, select, summary, [tabindex='0']")]
  .filter(el => el.checkVisibility() && !el.disabled && el.tabIndex >= 0)
  .map(el => el.outerHTML.slice(0, 80))"""
FOCUSED = "() => document.activeElement ? document.activeElement.outerHTML.slice(0, 80) : ''"


@pytest.fixture
def site_games() -> Mapping[str, Any]:
    """High Card (a short game) among the games, for the tournaments' tables."""
    return GAMES_HERE


async def audited(page: Page, url: str) -> None:
    await page.goto(url)
    assert await page.evaluate(AUDIT) == [], url
    controls: list[Any] = await page.evaluate(CONTROLS)
    assert controls, url
    reached = []
    for _ in range(min(12, len(controls))):
        await page.keyboard.press("Tab")
        reached.append(await page.evaluate(FOCUSED))
    # The skip link first, then the page's own controls in reading order.
    assert reached[0].startswith('<a class="skip"'), reached[0]
    assert reached[1:] == controls[1 : len(reached)], url


async def test_every_page_kind_is_readable_by_screen_and_keyboard(
    page: Page, base_url: str, site: Site, clock: Clock
) -> None:
    replays.forget()
    live = await start(site.service, "time-masters", HOME)
    await play(site.service, live, 3, moves=4)
    done = await finished(site.service, "time-masters", HOME)
    cup = await play_to_the_end(site, await start_cup(site, (await open_cup(site, Format.SWISS, 4)).id))
    for path in (
        "/",
        f"/g/{HOME}/t/{live}",
        f"/g/{HOME}/t/{done}",
        f"/g/{HOME}/t/{done}/replay?move=3",
        f"/g/{HOME}/tournaments/{cup.id}",
        f"/g/{HOME}/players/{PEOPLE[0].user_id}",
    ):
        await audited(page, base_url + path)
    replays.forget()
