"""Card text in the presentation layer: menu descriptions, the card text view,
the hand and table panels, /card's lookup and the recap panel."""

from __future__ import annotations

from typing import Any

from bot.app.ui.embeds import to_embed
from bot.render import renderer_for
from bot.render.cardtext import choice_texts, find_card, option_details, shared_detail
from bot.render.menu import level
from bot.render.recap import recap_panel
from engines.core import CardText, Choice, Recap, Result, SeatRecap
from engines.playout import playout
from engines.registry import GAMES
from engines.scales_of_influence.state import Cosmic
from storage.records import LogEntry, SeatRecord, TableRecord

SOL: Any = GAMES["spheres-of-life"]
SOI: Any = GAMES["scales-of-influence"]


def _choice(key: str, steps: list[str], detail: str = "") -> Choice:
    return Choice(key=key, label=" ".join(steps), steps=steps, action=key, detail=detail)


def test_a_step_on_the_way_shows_the_text_its_choices_share() -> None:
    choices = [
        _choice("a1", ["Play", "Wildfire", "Past"], "Fire: add 2 Energy to a side."),
        _choice("a2", ["Play", "Wildfire", "Future"], "Fire: add 2 Energy to a side."),
        _choice("b1", ["Play", "Dew", "Past"], "Water: put a token in a bag."),
        _choice("s1", ["Steal", "Card 1"]),
    ]
    assert option_details(choices, [], level(choices, [])) == {}  # "Play" covers two different cards
    cards = level(choices, [0])
    assert option_details(choices, [0], cards) == {
        0: "Fire: add 2 Energy to a side.",
        1: "Water: put a token in a bag.",
    }
    assert choice_texts(choices) == [
        ("Play Wildfire Past", "Fire: add 2 Energy to a side."),
        ("Play Dew Past", "Water: put a token in a bag."),
    ]


def test_card_lookup_takes_a_key_a_name_or_one_match() -> None:
    cards = [CardText(key=k, name=n, kind="Card", text="") for k, n in (("a", "Ember"), ("b", "Ember Storm"))]
    assert find_card(cards, "b") is cards[1]
    assert find_card(cards, "ember") is cards[0]
    assert find_card(cards, "storm") is cards[1]
    assert find_card(cards, "em") is None  # two cards match: ask again
    assert find_card(cards, "") is None


def test_my_hand_says_what_my_abilities_and_heroes_do() -> None:
    state, _ = playout(SOL, 3, seed=2)
    for seat in range(3):
        view = SOL.view(state, seat)
        powers = [c for c in view.hand + view.seats[seat].heroes if c.text]
        panel = renderer_for("spheres-of-life").hand(view)
        shown = {f.name: f.value for f in panel.fields}
        if powers:
            assert all(f"**{c.name}** — {c.text}" in shown["What my cards do"] for c in powers)
        else:
            assert "What my cards do" not in shown


def test_a_shooting_star_on_the_table_shows_its_text() -> None:
    state = SOI.setup(4, SOI.parse_options({}), 5)
    star = next(i for i, c in enumerate(state.tarot.cards) if c.name == "The Chariot")
    state.stack.append(Cosmic(stars=[star], owners=[1], responders=[2, 3, 0]))
    panel = renderer_for("scales-of-influence").table(SOI.view(state, None))
    assert "🌠7 The Chariot: Move 2 Energy from one side of the Scale to the other." in str(panel)


def _record(seats: int) -> TableRecord:
    return TableRecord(
        id="t1",
        game="g",
        host_id=1,
        seats=[SeatRecord(user_id=i, name=f"p{i}") for i in range(seats)],
        created_at=0,
        updated_at=0,
        seed=1,
        turn_timeout=1,
    )


def test_the_recap_ranks_explains_and_counts() -> None:
    moves = [LogEntry(version=2, at=200, kind=k) for k in ("act", "act", "bot", "timeout")]
    log = [LogEntry(version=1, at=100, kind="start"), *moves, LogEntry(version=3, at=11020, kind="end")]
    result = Result(ranking=[[1], [0]], scores={0: 3, 1: 9}, summary="Most points wins.")
    recap = Recap(seats=[SeatRecap(seat=0, lines=["Total: +3"], held=["Noble Owl"])], history=["Day 1"])
    panel = recap_panel("A Game", _record(2), result, recap, log)
    assert panel.description.splitlines() == [
        "🥇 <seat:1> — 9 points",
        "🥈 <seat:0> — 3 points",
        "Most points wins.",
        "Played in 3 h 2 min, 4 moves (1 by bots, 1 by timeouts).",
    ]
    fields = {f.name: f.value for f in panel.fields}
    assert fields == {"<seat:0>": "Total: +3\nHeld: Noble Owl", "<seat:1>": "—", "How it went": "Day 1"}
    teams = Result(ranking=[[0], [1]], scores={0: 1, 1: 0}, teams={"Shadow": [0], "Light": [1]})
    assert "points" not in recap_panel("A Game", _record(2), teams, Recap(), log).description


def test_the_recap_counts_in_the_games_own_unit_and_number() -> None:
    log = [
        LogEntry(version=1, at=100, kind="start"),
        LogEntry(version=2, at=130, kind="act"),
        LogEntry(version=3, at=160, kind="end"),
    ]
    one = Result(ranking=[[0], [1]], scores={0: 1, 1: 0})
    assert recap_panel("A Game", _record(2), one, Recap(), log).description.splitlines()[:3] == [
        "🥇 <seat:0> — 1 point",
        "🥈 <seat:1> — 0 points",
        "Played in 1 min, 1 move.",
    ]
    tokens = Result(ranking=[[1], [0]], scores={0: 33, 1: 12}, score_unit="Globin in tokens")
    lines = recap_panel("A Game", _record(2), tokens, Recap(), log).description.splitlines()
    assert lines[:2] == ["🥇 <seat:1> — 12 Globin in tokens", "🥈 <seat:0> — 33 Globin in tokens"]
    unranked = Result(ranking=[[1], [0]], scores={0: 3, 1: 9}, score_unit="")
    assert recap_panel("A Game", _record(2), unranked, Recap(), log).description.splitlines()[:2] == [
        "🥇 <seat:1>",
        "🥈 <seat:0>",
    ]


def test_a_big_tables_recap_keeps_every_player_within_discords_limits() -> None:
    seats = 12
    recap = Recap(
        seats=[
            SeatRecap(seat=s, lines=[f"Noble Animal {i} ×1: +1" for i in range(30)], held=["Owl"] * 40)
            for s in range(seats)
        ],
        history=[f"Day {d}: something happened" for d in range(60)],
    )
    result = Result(ranking=[list(range(seats))], scores={s: 1.0 for s in range(seats)}, summary="A draw.")
    panel = recap_panel("Spheres of Life", _record(seats), result, recap, [])
    embed = to_embed(panel, lambda text: text.replace("<seat:", "a rather long display name, forty chars <"))
    assert len(embed) <= 6000
    names = [f.name for f in embed.fields]
    assert names == [f"a rather long display name, forty chars <{s}>" for s in range(seats)] + ["How it went"]
    assert all(f.value and f.value.startswith("Noble Animal 0 ×1: +1") for f in embed.fields[:seats])


def test_a_long_rules_section_is_cut_into_pages_within_discords_limits() -> None:
    from bot.app.cogs.reading import _pages, _section_messages
    from engines.core import RulesSection

    assert _pages("aaaaaaaaaa\nbbb\ncc", 4) == ["aaaa", "aaaa", "aa", "bbb", "cc"]
    assert _pages("ab\ncd\nef", 5) == ["ab\ncd", "ef"]
    text = "\n".join(f"Ruling {i}: " + "x" * (50 + i * 37 % 400) for i in range(120))
    messages = _section_messages(SOL, RulesSection(key="long", title="Long", text=text, decision=True))
    embeds = [e for message in messages for e in message]
    assert len(embeds) > 2 and all(len(e.description or "") <= 4096 for e in embeds)
    assert all(sum(len(e) for e in message) <= 6000 and len(message) <= 10 for message in messages)
    assert "\n".join(e.description or "" for e in embeds) == text
    assert embeds[0].title == f"Spheres of Life — Ruling: Long (1/{len(embeds)})"


def test_a_verb_never_wears_the_text_of_the_one_card_under_it() -> None:
    noble = "Noble animal: 1, 2, 3 in hand score 1, 4, 9."
    choices = [
        _choice("g1", ["Forced Gift", "Fox", "<seat:1>"], noble),
        _choice("g2", ["Forced Gift", "Fox", "<seat:2>"], noble),
        _choice("h1", ["Send Healer", "<seat:1>"], "Healer (good, cost 1, 0/3) · Order — heal."),
        _choice("h2", ["Send Healer", "<seat:2>"], "Healer (good, cost 1, 0/3) · Order — heal."),
    ]
    top = level(choices, [])
    assert option_details(choices, [], top) == {1: "Healer (good, cost 1, 0/3) · Order — heal."}
    assert option_details(choices, [0], level(choices, [0])) == {0: noble}  # under "Fox", its own
    seats = level(choices, [0, 0])
    assert shared_detail(choices, [0, 0], seats) == noble  # said once, above the seats
    assert option_details(choices, [0, 0], seats) == {}  # and not under the first seat
    assert shared_detail(choices, [], top) == ""
