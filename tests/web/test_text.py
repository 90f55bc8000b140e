"""Panel and log text as HTML: names in, Discord marks as markup, nothing of
the text (a seat name included) able to make markup of its own."""

from __future__ import annotations

from bot.web.text import panel_text


def name(seat: int) -> str:
    return ["<img src=x onerror=alert(1)>", "Bob"][seat]


def test_seat_references_become_escaped_names() -> None:
    html = str(panel_text("<seat:0> gives a card to <seat:1>.", name))
    assert html == "&lt;img src=x onerror=alert(1)&gt; gives a card to Bob."


def test_discord_marks_become_markup_and_the_rest_stays_text() -> None:
    html = str(panel_text("**Turn 2** — *Become the Hero* · `sha` <b>2 * 3</b>", name))
    assert html == (
        "<strong>Turn 2</strong> — <em>Become the Hero</em> · <code>sha</code> &lt;b&gt;2 * 3&lt;/b&gt;"
    )


def test_a_timestamp_is_a_time_the_script_can_localise() -> None:
    html = str(panel_text("due <t:1780000000:R>", name))
    assert html == (
        'due <time datetime="2026-05-28T20:26:40+00:00" data-ts="1780000000" data-style="R">'
        "2026-05-28 20:26 UTC</time>"
    )
