"""Stepping through a finished game's replay in a real browser: the controls,
the jump form, the arrow keys and autoplay, each keeping the address in step;
then the player page the seat names link to."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.async_api import Browser, Page, expect

from bot.tournaments.table_ends import Results
from bot.web import replays
from bot.web.site import Site
from tests.browser.conftest import Shoot
from tests.support.clock import Clock
from tests.web.conftest import HOME
from tests.web.games import ANN, finished


@pytest.fixture(autouse=True)
def fresh_replays() -> Iterator[None]:
    replays.forget()
    yield
    replays.forget()


async def shown_move(page: Page) -> int:
    return int(await page.get_attribute("#replay-said", "data-move") or "-1")


async def at_move(page: Page, move: int) -> None:
    await expect(page.locator("#replay-said")).to_have_attribute("data-move", str(move))
    await expect(page).to_have_url(re.compile(rf"[?&]move={move}(&|$)"))
    await expect(page.locator(f"#move-{move}")).to_have_class(re.compile("current"))


@pytest.mark.parametrize("game", ["time-masters", "spheres-of-life"])
async def test_stepping_through_a_replay(
    page: Page, base_url: str, site: Site, clock: Clock, screenshot: Shoot, game: str
) -> None:
    clock.now = 1_780_000_000.0  # a date of this century in the screenshots
    table_id = await finished(site.service, game, HOME, rated=True)
    record = await site.service.get(table_id)
    await Results(site.ratings, site.tournaments).table_ended(record)  # rated and listed, as the bot does
    await page.goto(f"{base_url}/g/{HOME}/t/{table_id}/replay")
    assert (await page.inner_text("h1")).startswith("Replay:")
    last = int(await page.get_attribute("#replay-said", "data-last") or "0")
    assert last > 10
    # A mark on the window: gone if a step reloaded the page instead of loading in place.
    await page.evaluate("window.stayed = true")

    await page.get_by_role("link", name="Next ›").click()
    await at_move(page, 1)
    await page.get_by_role("link", name="Next ›").click()
    await at_move(page, 2)
    await page.get_by_role("link", name="‹ Back").click()
    await at_move(page, 1)
    assert await page.evaluate("window.stayed === true"), "the steps load in place"

    await page.fill("#replay-move", "7")
    await page.get_by_role("button", name="Go").click()
    await at_move(page, 7)
    await page.fill("#replay-move", str(last + 100))  # clamped to the end
    await page.press("#replay-move", "Enter")
    await at_move(page, last)
    await expect(page.get_by_role("link", name="Next ›")).to_have_attribute("aria-disabled", "true")
    await expect(page.get_by_role("link", name="Next ›")).not_to_have_attribute("href", re.compile("."))

    await page.locator("h1").click()  # out of the number box: the arrows step the game
    await page.keyboard.press("ArrowLeft")
    await at_move(page, last - 1)
    await page.get_by_role("link", name="« First").click()
    await at_move(page, 0)
    await page.keyboard.press("ArrowRight")
    await at_move(page, 1)
    await page.keyboard.press("ArrowRight")
    await at_move(page, 2)
    await page.go_back()
    await at_move(page, 1)

    await page.get_by_role("button", name="Play", exact=True).click()
    await expect(page.get_by_role("button", name="Pause", exact=True)).to_be_focused()
    await expect(page.locator("#replay-said")).to_have_attribute("data-move", "3", timeout=5000)
    await page.get_by_role("button", name="Pause", exact=True).click()
    paused = await shown_move(page)
    assert paused >= 3
    await page.wait_for_timeout(1500)
    assert await shown_move(page) == paused, "paused stays put"
    await expect(page).to_have_url(re.compile(rf"[?&]move={paused}(&|$)"))
    assert await page.evaluate("window.stayed === true")
    await screenshot(page, f"replay-{game}")

    # The seat names lead to the players' pages.
    await page.locator(f"a[href='/g/{HOME}/players/{ANN.user_id}']").click()
    await expect(page.locator("h1")).to_have_text(ANN.name)
    title = site.service.engine(game).info.title
    await expect(page.locator("table.data").first).to_contain_text(title)
    await expect(page.locator(f"a[href='/g/{HOME}/t/{table_id}/replay']")).to_be_visible()
    await screenshot(page, "player")


async def test_the_replay_works_without_its_script(browser: Browser, base_url: str, site: Site) -> None:
    table_id = await finished(site.service, "once-upon-a-time-life", HOME)
    context = await browser.new_context(java_script_enabled=False)
    page = await context.new_page()
    await page.goto(f"{base_url}/g/{HOME}/t/{table_id}/replay")
    assert await page.locator(".replay-play").count() == 0, "no Play button without the script"
    await page.get_by_role("link", name="Next ›").click()
    await page.wait_for_url(re.compile(r"move=1$"))
    await page.fill("#replay-move", "5")
    await page.get_by_role("button", name="Go").click()
    await page.wait_for_url(re.compile(r"move=5$"))
    assert await shown_move(page) == 5
    await context.close()
