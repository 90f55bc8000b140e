"""A player's page in one server: their ratings there (μ − 3σ, provisional
marked as ``/rating`` marks it), their finished games there, rated or not,
newest first with links to the replays, and nothing of another server."""

from __future__ import annotations

import re
from typing import Any

from bot.service.ratings import PROVISIONAL_GAMES, ordinal
from bot.service.tables import Player
from bot.tournaments.table_ends import Results
from bot.web import replays
from bot.web.site import Site
from storage import keys
from storage.records import TableStatus
from tests.support.clock import Clock
from tests.web.conftest import HOME, OTHER
from tests.web.games import finished, play, start
from tests.web.test_replay_page import visible

ANN, BOB = Player(900001, "Ann Example"), Player(900002, "Bob Example")
CID = Player(900003, "Cid")
PAIR = (ANN, BOB)


def player_url(user_id: int, guild: int = HOME) -> str:
    return f"/g/{guild}/players/{user_id}"


async def game_over(
    site: Site,
    clock: Clock,
    game: str,
    guild: int,
    seed: int = 1,
    *,
    rated: bool = False,
    players: tuple[Player, ...] = PAIR,
) -> str:
    """A table played to its end, its end told as the bot tells it (from the table's outbox)."""
    clock.now += 3600
    table_id = await finished(site.service, game, guild, rated=rated, seed=seed, players=players)
    await Results(site.ratings, site.tournaments).table_ended(await site.service.get(table_id))
    return table_id


async def rated_game(site: Site, clock: Clock, game: str, guild: int, seed: int = 1) -> str:
    """A rated table played to its end, listed and rated."""
    return await game_over(site, clock, game, guild, seed, rated=True)


def row(page: str, title: str) -> str:
    found = re.search(rf"<tr><th scope=\"row\">{re.escape(title)}</th>.*?</tr>", page, re.S)
    assert found is not None, title
    return found[0]


async def test_ratings_per_game_with_the_provisional_mark(client: Any, site: Site, clock: Clock) -> None:
    for seed in range(PROVISIONAL_GAMES):
        await rated_game(site, clock, "spheres-of-life", HOME, seed)
    await rated_game(site, clock, "time-masters", HOME)
    page = await client.get(player_url(ANN.user_id))
    assert page.status == 200
    body = await page.text()
    assert "<h1>Ann Example</h1>" in body
    settled = await site.ratings.rating(HOME, "spheres-of-life", ANN.user_id)
    fresh = await site.ratings.rating(HOME, "time-masters", ANN.user_id)
    assert settled is not None and fresh is not None
    assert not settled.provisional and fresh.provisional
    spheres, masters = row(body, "Spheres of Life"), row(body, "Time Masters")
    assert f"{ordinal(settled.rating):.1f}" in spheres and "provisional" not in spheres
    assert f">{PROVISIONAL_GAMES}<" in spheres and f"#{settled.rank}" in spheres
    assert f"{ordinal(fresh.rating):.1f}" in masters and "provisional" in masters
    assert str(ANN.user_id) not in body and str(BOB.user_id) not in body


async def test_recent_games_are_this_servers_newest_first_each_linking_its_replay(
    client: Any, site: Site, clock: Clock
) -> None:
    first = await rated_game(site, clock, "spheres-of-life", HOME)
    second = await rated_game(site, clock, "time-masters", HOME)
    elsewhere = await rated_game(site, clock, "once-upon-a-time-life", OTHER)
    body = await (await client.get(player_url(ANN.user_id))).text()
    assert body.index(f"Replay of table {second}") < body.index(f"Replay of table {first}")
    assert elsewhere not in body and "Once Upon a Time" not in visible(body)
    for table_id in (first, second):
        link = f'href="/g/{HOME}/t/{table_id}/replay"'
        assert link in body
        assert (await client.get(f"/g/{HOME}/t/{table_id}/replay")).status == 200
    assert "Bob Example" in visible(body)  # who they played
    there = await (await client.get(player_url(ANN.user_id, OTHER))).text()
    assert elsewhere in there and first not in there and second not in there
    assert "Spheres of Life" not in visible(there)


async def test_a_table_no_longer_kept_is_listed_without_a_link(client: Any, site: Site, clock: Clock) -> None:
    kept = await rated_game(site, clock, "spheres-of-life", HOME)
    gone = await rated_game(site, clock, "spheres-of-life", HOME, seed=2)
    await site.service.store.redis.delete(keys.table(gone))
    body = await (await client.get(player_url(BOB.user_id))).text()
    assert f'href="/g/{HOME}/t/{kept}/replay"' in body
    assert f"/t/{gone}/replay" not in body and "no longer kept" in body


async def test_a_player_at_a_table_now_gets_a_page_with_their_seat_name(client: Any, site: Site) -> None:
    table_id = await start(site.service, "spheres-of-life", HOME, players=PAIR)
    await play(site.service, table_id, moves=2)
    body = await (await client.get(player_url(BOB.user_id))).text()
    assert "<h1>Bob Example</h1>" in body and "No rated games in this server yet." in body
    assert f'href="/g/{HOME}/t/{table_id}"' in body
    # The same player has no page where they play nothing.
    assert (await client.get(player_url(BOB.user_id, OTHER))).status == 404


async def test_refusals_are_the_one_404(client: Any, site: Site, clock: Clock) -> None:
    await rated_game(site, clock, "spheres-of-life", OTHER)
    answers = []
    for path in (
        player_url(ANN.user_id),  # plays only in another server
        player_url(ANN.user_id, guild=7003),  # pages off
        player_url(123456),  # nobody
        f"/g/{HOME}/players/abc",
        f"/g/{HOME}/players/0",
        f"/g/{HOME}/players/{'9' * 30}",
        f"/g/{HOME}/players/-5",
    ):
        response = await client.get(path)
        assert response.status == 404, path
        answers.append(await response.text())
    assert len(set(answers)) == 1


async def test_the_replay_links_rated_players_to_their_pages(client: Any, site: Site, clock: Clock) -> None:
    replays.forget()
    rated = await rated_game(site, clock, "spheres-of-life", HOME)
    unrated = await finished(site.service, "spheres-of-life", HOME, players=(Player(900003, "Cid"), ANN))
    body = await (await client.get(f"/g/{HOME}/t/{rated}/replay")).text()
    assert f'<a href="/g/{HOME}/players/{ANN.user_id}">Ann Example</a>' in body
    assert f'<a href="/g/{HOME}/players/{BOB.user_id}">Bob Example</a>' in body
    other = await (await client.get(f"/g/{HOME}/t/{unrated}/replay")).text()
    # Cid has no page in this server (nothing rated, and this table's end not told yet); Ann has one.
    assert "/players/900003" not in other and f"/players/{ANN.user_id}" in other
    await Results(site.ratings, site.tournaments).table_ended(await site.service.get(unrated))
    told = await (await client.get(f"/g/{HOME}/t/{unrated}/replay")).text()
    assert f'<a href="/g/{HOME}/players/900003">Cid</a>' in told
    assert (await client.get(player_url(900003))).status == 200


def recent_row(page: str, table_id: str) -> str:
    """The recent games' row of ``table_id``."""
    rows = [r for r in page.split("<tr>") if f"table {table_id}" in r and r.startswith('<th scope="row">')]
    assert len(rows) == 1, table_id
    return rows[0].split("</tr>")[0]


async def test_unrated_games_are_listed_with_their_replays_and_a_rated_one_once(
    client: Any, site: Site, clock: Clock
) -> None:
    cid = Player(900003, "Cid Example")
    first = await game_over(site, clock, "time-masters", HOME, players=(ANN, cid))
    rated = await rated_game(site, clock, "spheres-of-life", HOME)
    last = await game_over(site, clock, "spheres-of-life", HOME, seed=3, players=(cid, ANN, BOB))
    elsewhere = await game_over(site, clock, "phase", OTHER, players=(ANN, cid))
    body = await (await client.get(player_url(ANN.user_id))).text()
    assert body.count(f"Replay of table {rated}") == 1
    order = [body.index(f"Replay of table {t}") for t in (last, rated, first)]
    assert order == sorted(order), "newest first"
    for table_id in (first, rated, last):
        assert f'href="/g/{HOME}/t/{table_id}/replay"' in body
    assert ">rated<" in recent_row(body, rated) and ">unrated<" in recent_row(body, first)
    assert "Cid Example, Bob Example" in recent_row(body, last)
    record = await site.service.get(last)
    result = site.service.result(record)
    assert result is not None
    place = 1 + next(i for i, group in enumerate(result.ranking) if 1 in group)
    assert f"{('1st', '2nd', '3rd')[place - 1]} of 3" in recent_row(body, last)
    assert elsewhere not in body
    # Someone with only unrated games here has a page of their own, named as they sat.
    page = await client.get(player_url(cid.user_id))
    assert page.status == 200
    text = await page.text()
    assert "<h1>Cid Example</h1>" in text and "No rated games in this server yet." in text
    assert first in text and last in text and rated not in text and elsewhere not in text


async def test_an_unrated_game_no_longer_kept_stays_listed_without_a_link(
    client: Any, site: Site, clock: Clock
) -> None:
    gone = await game_over(site, clock, "spheres-of-life", HOME)
    await site.service.store.redis.delete(keys.table(gone))
    assert await site.service.store.get(gone) is None
    body = await (await client.get(player_url(ANN.user_id))).text()
    assert f"/t/{gone}/replay" not in body and "no longer kept" in recent_row(body, gone)


async def test_a_player_who_left_a_rated_table_has_it_on_their_page_rated_as_resigned(
    client: Any, site: Site, clock: Clock
) -> None:
    table_id = await start(site.service, "time-masters", HOME, rated=True, players=(ANN, BOB, CID))
    await site.service.leave(table_id, CID.user_id)
    # Played out, the bot's seat too (on a loaded machine a bot may be left to move).
    record = (await site.service.play_out(table_id)).table
    assert record.status is TableStatus.FINISHED and record.seat_of(CID.user_id) is None
    await Results(site.ratings, site.tournaments).table_ended(record)
    body = await (await client.get(player_url(CID.user_id))).text()
    row = recent_row(body, table_id)
    assert ">rated<" in row and "3rd of 3" in row, row
