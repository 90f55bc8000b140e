"""Real-browser tests: Debian's headless Chromium (``/usr/bin/chromium``, never a
downloaded browser) driven by Playwright, against the whole web application
served on a real loopback port, on a real Redis.

Screenshots go to ``artifacts/screenshots/`` (``SCREENSHOTS`` overrides it) at a
phone's width and a desktop's, so a reviewer can look at every page kind."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
from aiohttp import web
from playwright.async_api import Browser, Page, async_playwright

from bot.web.server import application
from bot.web.site import Site
from tests.web.conftest import HOME, OTHER, clock, open_pages, site, site_games  # noqa: F401 (fixtures)

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
SHOTS = Path(os.environ.get("SCREENSHOTS", Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"))
WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}

MISSING = f"Chromium is not installed at {CHROMIUM} (apt-get install chromium; .ci/run installs it)"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without Chromium the browser tests are skipped, except in CI, where they
    fail the run: a suite skipped there would pass while hiding every breakage
    it exists to catch. (A module-level skip in a conftest would stop the whole
    run instead, not skip.)"""
    here = Path(__file__).parent
    ours = [item for item in items if here in item.path.parents]
    if not ours or Path(CHROMIUM).exists():
        return
    if os.environ.get("CI"):
        raise pytest.UsageError(f"CI is set but the browser tests cannot run: {MISSING}")
    for item in ours:
        item.add_marker(pytest.mark.skip(reason=MISSING))


@pytest.fixture
async def base_url(site: Site) -> AsyncIterator[str]:  # noqa: F811
    """The application on a free loopback port; its address."""
    await open_pages(site, HOME, OTHER)
    runner = web.AppRunner(application(site), access_log=None, shutdown_timeout=0.5)
    await runner.setup()
    server = web.TCPSite(runner, "127.0.0.1", 0)
    await server.start()
    port = server._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield launched
        finally:
            await launched.close()


@pytest.fixture
async def page(browser: Browser, base_url: str) -> AsyncIterator[Page]:
    """A desktop-sized page that fails the test on any script error or CSP violation.
    It asks for the server first, so the page closes before the server stops (an
    open event stream cut by the server's stop is no error of the page's)."""
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    opened = await context.new_page()
    problems: list[str] = []
    opened.on("pageerror", lambda error: problems.append(f"script error: {error}"))
    opened.on(
        "console",
        lambda message: problems.append(f"console: {message.text}") if message.type == "error" else None,
    )
    yield opened
    await context.close()
    assert problems == []


Shoot = Callable[[Page, str], Awaitable[None]]


@pytest.fixture
def screenshot() -> Shoot:
    """Save the page as ``<name>-phone.png`` and ``<name>-desktop.png`` (light), and
    ``<name>-phone-dark.png`` (the system's dark scheme, which the sheet follows)."""

    SHOTS.mkdir(parents=True, exist_ok=True)

    async def shoot(opened: Page, name: str) -> None:
        before = opened.viewport_size
        for width_name, (width, height) in WIDTHS.items():
            await opened.set_viewport_size({"width": width, "height": height})
            await opened.screenshot(path=str(SHOTS / f"{name}-{width_name}.png"), full_page=True)
        await opened.emulate_media(color_scheme="dark")
        width, height = WIDTHS["phone"]
        await opened.set_viewport_size({"width": width, "height": height})
        background = await opened.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background != "rgb(255, 255, 255)", "the dark scheme darkens the page"
        await opened.screenshot(path=str(SHOTS / f"{name}-phone-dark.png"), full_page=True)
        await opened.emulate_media(color_scheme="light")
        if before is not None:
            await opened.set_viewport_size(before)

    return shoot
