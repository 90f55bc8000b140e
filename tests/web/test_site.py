"""The gate every page passes: a server's pages answer only once it has turned
them on, and every miss is the same 404; every answer carries the strict
Content-Security-Policy."""

from __future__ import annotations

from typing import Any

from bot.web.headers import CSP
from bot.web.site import Site
from tests.web.conftest import HOME


async def test_the_home_page_answers_with_the_security_headers(client: Any) -> None:
    response = await client.get("/")
    assert response.status == 200
    assert response.headers["Content-Security-Policy"] == CSP
    assert "script-src 'self'" in CSP and "unsafe-inline" not in CSP
    assert "<h1>gametable</h1>" in await response.text()


async def test_every_miss_is_the_same_404(client: Any, site: Site) -> None:
    answers = []
    for path in (f"/g/{HOME}/t/nosuch", "/g/123/t/nosuch", "/g/abc/t/x", "/nowhere", f"/g/{HOME}/nowhere"):
        response = await client.get(path)
        assert response.status == 404, path
        assert response.headers["Content-Security-Policy"] == CSP
        answers.append(await response.text())
    assert len(set(answers)) == 1


async def test_the_stylesheet_and_script_are_served_from_the_one_origin(client: Any) -> None:
    for path in ("/static/site.css", "/static/site.js"):
        response = await client.get(path)
        assert response.status == 200, path
