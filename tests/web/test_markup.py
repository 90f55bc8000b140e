"""Discord-flavoured panel text as safe HTML: escaped first, markdown after,
names and times put in last (a name is never read as markdown)."""

from __future__ import annotations

import pytest

from bot.web.markup import time_html, to_html, web_name

NAMES = ["<script>alert(1)</script>", "**Bob**", "snake_case_", "A & B"]


def name(seat: int) -> str:
    return NAMES[seat] if seat < len(NAMES) else f"Seat {seat + 1}"


@pytest.mark.parametrize(
    ("text", "html"),
    [
        ("**Game over.**", "<strong>Game over.</strong>"),
        ("*one* and _two_", "<em>one</em> and <em>two</em>"),
        ("a snake_case_word stays", "a snake_case_word stays"),
        ("~~gone~~ __under__", "<del>gone</del> <u>under</u>"),
        ("`**not bold**`", "<code>**not bold**</code>"),
        ("2 * 3 * 4", "2 * 3 * 4"),
        (r"\*kept\*", "*kept*"),
        ("<b>x</b> & 'y'", "&lt;b&gt;x&lt;/b&gt; &amp; &#39;y&#39;"),
        ("🏁 line one\nline two", "🏁 line one\nline two"),
        ("<seat:9> waits", "Seat 10 waits"),
    ],
)
def test_markdown_becomes_tags_and_the_rest_is_escaped(text: str, html: str) -> None:
    assert to_html(text, name) == html


def test_hostile_names_are_escaped_and_never_read_as_markdown() -> None:
    html = to_html("<seat:0> beats <seat:1>, **<seat:2>** and *<seat:3>*", name)
    assert html == (
        "&lt;script&gt;alert(1)&lt;/script&gt; beats **Bob**, "
        "<strong>snake_case_</strong> and <em>A &amp; B</em>"
    )


def test_a_forged_placeholder_cannot_pull_in_a_name_or_a_tag() -> None:
    assert to_html("\ue0000\ue001 <seat:0>", lambda _: "<i>") == "0 &lt;i&gt;"


def test_discord_timestamps_become_times_in_utc_for_the_browser_to_localise() -> None:
    html = to_html("Due <t:1700000000:R>, from <t:1700000000> at <t:1700000000:t>", name)
    assert html == (
        'Due <time datetime="2023-11-14T22:13:20Z" data-ts="1700000000" data-style="R">'
        "14 November 2023 22:13 UTC</time>, from "
        '<time datetime="2023-11-14T22:13:20Z" data-ts="1700000000" data-style="f">'
        "14 November 2023 22:13 UTC</time> at "
        '<time datetime="2023-11-14T22:13:20Z" data-ts="1700000000" data-style="t">22:13 UTC</time>'
    )
    assert time_html(0, "D").endswith(">1 January 1970</time>")


def test_a_time_out_of_range_stays_text() -> None:
    assert to_html("<t:999999999999:R>", name) == "&lt;t:999999999999:R&gt;"


def test_names_as_discord_stores_them_read_plainly_on_the_web() -> None:
    assert web_name(r"ann\_b \*star\*") == "ann_b *star*"
