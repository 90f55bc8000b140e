"""The browser sees the home page with its stylesheet and script, under the strict CSP."""

from __future__ import annotations

from playwright.async_api import Page

from tests.browser.conftest import Shoot


async def test_the_home_page_loads_its_sheet_and_script_under_the_csp(
    page: Page, base_url: str, screenshot: Shoot
) -> None:
    await page.goto(base_url + "/")
    assert await page.inner_text("h1") == "gametable"
    # The stylesheet applied: the main column is limited in width.
    assert await page.eval_on_selector("main", "m => getComputedStyle(m).maxWidth") != "none"
    await page.keyboard.press("Tab")
    assert await page.evaluate("document.activeElement.className") == "skip"
    await screenshot(page, "home")
