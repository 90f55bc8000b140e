"""The tournament page: registration, each round's tables with their states and
links, the standings exactly as the bot computes them (tie-breaks and all), the
bracket of an elimination, its live updates, and its refusals (one 404)."""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import Mapping
from typing import Any

import pytest
from redis.asyncio import Redis

from bot.service.tables import Player
from bot.tournaments.formats import advancing
from bot.tournaments.standings import standings
from bot.web.site import Site
from bot.web.tournament_page import Watch
from engines.words import and_list
from storage.tournaments import Format, Phase, Tournament
from tests.support.clock import Clock
from tests.web.conftest import HOME, OTHER
from tests.web.html_tables import captioned, table
from tests.web.tournaments import (
    FIRST_USER,
    GAMES_HERE,
    finish_round,
    finish_table,
    next_round,
    open_cup,
    play_to_the_end,
    start,
)


@pytest.fixture
def site_games() -> Mapping[str, Any]:
    """High Card (a short game) among the games, for the tournaments' tables."""
    return GAMES_HERE


def address(t: Tournament) -> str:
    return f"/g/{t.guild_id}/tournaments/{t.id}"


async def read(client: Any, t: Tournament) -> str:
    response = await client.get(address(t))
    assert response.status == 200
    return str(await response.text())


def names(t: Tournament, users: list[int]) -> list[str]:
    by_id = {e.user_id: e.name for e in t.entrants}
    return [by_id[u] for u in users]


def expected_standings(t: Tournament) -> list[list[str]]:
    """The standings as the service computes them, written as the page (and the
    standings message) writes every figure."""
    rows = []
    for line in standings(t):
        row = [str(line.place), line.name, f"{line.points:g}", f"{line.opponents:g}", f"{line.game_score:g}"]
        row.append(str(line.played))
        if t.format is Format.ELIMINATION:
            row.append(str(line.reached))
        rows.append(row)
    return rows


def round_rows(page: str, number: int) -> list[Any]:
    return captioned(page, f"Round {number}").rows


def no_user_ids(page: str, t: Tournament) -> None:
    for entrant in t.entrants:
        assert str(entrant.user_id) not in page, "no user id is printed"


async def test_registration_shows_the_entrants_check_in_and_cap(client: Any, site: Site) -> None:
    t = await open_cup(site, Format.SWISS, 5, cap=8, check_in=True)
    for entrant in t.entrants[:2]:
        await site.tournaments.check_in(t.id, entrant.user_id)
    page = await read(client, t)
    assert "<h1>Spring Cup</h1>" in page
    assert "Players (5/8)" in page and "Registration open" in page and "High Card" in page
    rows = table(page, "players").rows
    assert [r.cells[1:] for r in rows] == [
        [e.name, "In", "Yes" if i < 2 else "Not yet"] for i, e in enumerate(t.entrants)
    ]
    assert 'id="standings"' not in page and "Rounds</h2>" not in page, "nothing is played yet"
    events = f'data-events="{address(t)}/events?at='
    assert events in page and 'data-target="live"' in page and 'id="live"' in page
    no_user_ids(page, t)


async def test_a_swiss_from_its_first_table_to_its_final_standings(client: Any, site: Site) -> None:
    t = await start(site, (await open_cup(site, Format.SWISS, 6)).id)
    assert t.current is not None and len(t.current.tables) == 3
    page = await read(client, t)
    rows = round_rows(page, 1)
    assert [r.cells[0] for r in rows] == ["Table 1", "Table 2", "Table 3"]
    assert [r.cells[2] for r in rows] == ["In play"] * 3
    for row, seated in zip(rows, t.current.tables, strict=True):
        assert seated.table_id is not None and row.attrs["data-table"] == seated.table_id
        assert row.cells[1] == ", ".join(names(t, seated.players))
        assert f'href="/g/{HOME}/t/{seated.table_id}"' in page
        headline = (await site.service.get(seated.table_id)).headline
        assert headline and row.cells[3] == headline, "a table in play shows its public headline"
    # One table ends: it shows its result, the others play on.
    first = t.current.tables[0]
    assert first.table_id is not None
    t = await finish_table(site, first.table_id)
    page = await read(client, t)
    rows = round_rows(page, 1)
    score = t.rounds[0].tables[0].score
    assert score is not None
    winners = names(t, score.ranking[0])
    said = "A draw" if len(winners) == 2 else f"Won by {and_list(winners)}"
    assert rows[0].cells[2:] == ["Finished", said]
    assert [r.cells[2] for r in rows[1:]] == ["In play"] * 2
    assert table(page, "standings").rows and "Standings after round 0" in page
    # The round ends: the standings after it are the service's own.
    t = await next_round(site, await finish_round(site, t))
    page = await read(client, t)
    assert "Standings after round 1" in page
    assert [r.cells for r in table(page, "standings").rows] == expected_standings(t)
    assert [r.cells[2] for r in round_rows(page, 2)] == ["In play"] * 3
    assert all(r.cells[2] == "Finished" for r in round_rows(page, 1))
    # To the end: final standings, tie-breaks named, every round's tables finished.
    t = await play_to_the_end(site, t)
    assert t.phase is Phase.FINISHED and len(t.rounds) == 3
    page = await read(client, t)
    standing = table(page, "standings")
    assert standing.caption == "Final standings"
    assert "Ranked by points; tie-breaks: opponents&#39; points, game score, head to head." in page
    assert [r.cells for r in standing.rows] == expected_standings(t)
    assert len({(r.cells[2], r.cells[3]) for r in standing.rows}) > 1, "the tie-breaks tell players apart"
    for number in (1, 2, 3):
        assert all(r.cells[2] == "Finished" for r in round_rows(page, number))
    assert "Bracket" not in page
    no_user_ids(page, t)


def bracket_column(page: str, index: int) -> tuple[list[str], list[str]]:
    """The names in a bracket column, and those marked as having gone on (or won)."""
    section = page.split(f'<section aria-labelledby="bracket-{index}">')[1].split("</section>")[0]
    everyone = re.findall(r'<li(?: class="through")?>([^<]+?)(?: <span|</li>)', section)
    through = re.findall(
        r'<li class="through">([^<]+?) <span class="badge good">(?:went on|won|bye)', section
    )
    return [html.unescape(n) for n in everyone], [html.unescape(n) for n in through]


async def test_an_elimination_shows_its_bracket_as_it_goes(client: Any, site: Site) -> None:
    t = await start(site, (await open_cup(site, Format.ELIMINATION, 8)).id)
    page = await read(client, t)
    everyone, through = bracket_column(page, 1)
    assert sorted(everyone) == sorted(e.name for e in t.entrants) and through == []
    t = await finish_round(site, t)
    page = await read(client, t)
    # The round is over, the next not yet planned: who goes on is who the format will seat.
    expected = [n for table in t.rounds[0].tables for n in names(t, advancing(t, table))]
    assert bracket_column(page, 1)[1] == expected
    t = await next_round(site, t)
    seated = {u for table in t.rounds[1].tables for u in table.players}
    assert set(names(t, list(seated))) == set(expected)
    t = await play_to_the_end(site, t)
    page = await read(client, t)
    assert [len(r.tables) for r in t.rounds] == [4, 2, 1] and t.rounds[-1].final
    assert re.findall(r'<h3 id="bracket-\d">([^<]+)</h3>', page) == ["Round 1", "Round 2", "Final"]
    final = t.rounds[-1].tables[0].score
    assert final is not None
    winners = names(t, final.ranking[0])
    assert bracket_column(page, 3)[1] == winners
    assert page.count('<span class="badge good">won</span>') == len(winners)
    assert "Reached round" in page and "Ranked by the final&#39;s result, then the round reached" in page
    assert [r.cells for r in table(page, "standings").rows] == expected_standings(t)
    assert table(page, "standings").rows[0].cells[1] in winners
    no_user_ids(page, t)


async def next_update(response: Any, within: float = 5.0) -> str:
    """The data of the stream's next ``update`` event."""

    async def one() -> str:
        name, data = "", []
        while True:
            line = (await response.content.readline()).decode().rstrip("\n")
            if line.startswith("event: "):
                name = line[len("event: ") :]
            elif line.startswith("data: "):
                data.append(line[len("data: ") :])
            elif line == "" and name:
                if name == "update":
                    return "\n".join(data)
                name, data = "", []

    return await asyncio.wait_for(one(), within)


def events_of(page: str) -> str:
    found = re.search(r'data-events="([^"]+)"', page)
    assert found is not None
    return html.unescape(found[1])


async def test_the_stream_sends_the_page_again_when_a_table_of_the_round_ends(
    client: Any, site: Site
) -> None:
    t = await start(site, (await open_cup(site, Format.SWISS, 4)).id)
    page = await read(client, t)
    response = await client.get(events_of(page))
    assert response.status == 200 and response.headers["Content-Type"] == "text/event-stream"
    assert await response.content.readline() == b"retry: 2000\n"
    with pytest.raises(asyncio.TimeoutError):
        await next_update(response, within=0.6)  # nothing moved: nothing is sent
    assert t.current is not None and t.current.tables[0].table_id is not None
    await finish_table(site, t.current.tables[0].table_id)
    update = await next_update(response)
    assert "Finished" in update and 'id="standings"' in update and "<h1>" not in update
    assert update.count("In play") >= 1
    response.close()


async def test_a_page_older_than_the_stream_gets_the_latest_at_once(client: Any, site: Site) -> None:
    t = await start(site, (await open_cup(site, Format.SWISS, 4)).id)
    events = events_of(await read(client, t))
    assert t.current is not None and t.current.tables[0].table_id is not None
    await finish_table(site, t.current.tables[0].table_id)  # after the page, before its stream
    response = await client.get(events)
    assert "Finished" in await next_update(response)
    response.close()


async def test_every_refusal_is_the_same_404(client: Any, site: Site) -> None:
    home = await open_cup(site, Format.SWISS, 2)
    other = await open_cup(site, Format.SWISS, 2, guild_id=OTHER)
    off = await open_cup(site, Format.SWISS, 2, guild_id=7003)  # a server whose pages are off
    paths = [
        f"/g/{HOME}/tournaments/{other.id}",
        f"/g/{OTHER}/tournaments/{home.id}",
        f"/g/{HOME}/tournaments/nosuch",
        f"/g/{HOME}/tournaments/{'x' * 40}",
        f"/g/{HOME}/tournaments/a%2Eb",
        f"/g/{HOME}/tournaments/%E2%9C%93",
        f"/g/7003/tournaments/{off.id}",
        f"/g/x{HOME}/tournaments/{home.id}",
    ]
    answers = set()
    for path in paths + [p + "/events" for p in paths]:
        response = await client.get(path)
        assert response.status == 404, path
        answers.add(await response.text())
    assert len(answers) == 1
    assert (await client.get(address(home))).status == 200
    shouted = f"/g/{HOME}/tournaments/{home.id.upper()}"  # as a reader may type it
    assert (await client.get(shouted)).status == 200


async def test_a_big_field_costs_two_reads_whatever_its_size(client: Any, site: Site, redis: Redis) -> None:
    """The record and one pipeline of the current round's tables: no read per entrant."""
    t = await start(site, (await open_cup(site, Format.SWISS, 64, table_size=4)).id)
    assert t.current is not None and len(t.current.tables) == 16
    await redis.config_resetstat()
    page = await read(client, t)
    stats = await redis.info("commandstats")
    calls = {name: s["calls"] for name, s in stats.items() if name not in ("cmdstat_config", "cmdstat_info")}
    # The gate's settings, the record, and one version per table of the round (one pipeline).
    assert sum(calls.values()) <= 16 + 4, calls
    assert len(table(page, "players").rows) == 64


async def test_the_fingerprint_moves_with_the_record_and_with_every_table_of_the_round(site: Site) -> None:
    t = await start(site, (await open_cup(site, Format.SWISS, 4)).id)
    watch = Watch(site, t)
    before = await watch.fingerprint()
    assert await watch.fingerprint() == before, "nothing moved"
    assert t.current is not None and t.current.tables[1].table_id is not None
    await site.service.attach(
        t.current.tables[1].table_id, message_id=99
    )  # a table's write, not the record's
    assert (await site.tournaments.get(t.id)).version == t.version
    moved = await watch.fingerprint()
    assert moved != before
    await site.tournaments.attach(t.id, standings_message_id=98)  # the record's write
    assert await watch.fingerprint() != moved


async def test_a_table_ended_but_not_yet_counted_shows_as_finished(client: Any, site: Site) -> None:
    t = await start(site, (await open_cup(site, Format.SWISS, 4)).id)
    assert t.current is not None and t.current.tables[0].table_id is not None
    table_id = t.current.tables[0].table_id
    await site.service.play_out(table_id)  # its end is still in the table's outbox
    rows = round_rows(await read(client, t), 1)
    assert rows[0].cells[2:] == ["Finished", "Being counted"]
    t = await finish_table(site, table_id)
    assert round_rows(await read(client, t), 1)[0].cells[3].startswith(("Won by", "A draw"))


async def test_byes_drops_a_deadline_and_names_are_shown_as_text(
    client: Any, site: Site, clock: Clock
) -> None:
    t = await open_cup(site, Format.SWISS, 4, round_time=3600.0)
    await site.tournaments.join(t.id, Player(FIRST_USER + 99, "<b>Eve</b> & co"))
    t = await start(site, t.id)
    assert t.current is not None and len(t.current.byes) == 1
    page = await read(client, t)
    bye = names(t, t.current.byes)[0]
    assert f"Byes: {html.escape(bye, quote=True)} (1 point each)." in page
    deadline = int(clock() + 3600)
    assert f'data-ts="{deadline}" data-style="R">' in page and "The round ends <time datetime=" in page
    assert "<b>Eve</b>" not in page and "&lt;b&gt;Eve&lt;/b&gt; &amp; co" in page, "a name is text"
    dropped = t.current.tables[0].players[0]
    t = await site.tournaments.drop(t.id, dropped)
    page = await read(client, t)
    [row] = [r for r in table(page, "standings").rows if r.cells[1].startswith(names(t, [dropped])[0])]
    assert row.cells[1].endswith(" dropped")
    assert any(r.cells[2] == "Dropped" for r in table(page, "players").rows)
    t = await site.tournaments.cancel(t.id)
    assert "Cancelled" in await read(client, t)
