"""The terminal table, played with scripted keyboards on a real Redis store."""

from __future__ import annotations

import io
import re

import pytest

from bot.service.tables import Player, TableService
from bot.terminal.table import CLEAR, TERMINAL_TIMEOUT, TerminalTable
from bot.terminal.text import BOLD_OFF, BOLD_ON, terminal_text
from engines.core import Choice, Event, Seat, seat_ref
from engines.registry import GAMES
from storage.records import SeatRecord, TableRecord, TableStatus
from storage.store import TableStore
from tests.support.minigame import HIGH_CARD, HighCard, HighCardOptions, HighCardState, Play

HANDOVER = re.compile(r"Pass the keyboard to (Player \d)")


class WhisperCard(HighCard):
    """High Card where every play whispers to the next seat, to test private events."""

    def resolve(self, state: HighCardState, seat: Seat, action: object) -> list[Event]:
        events = super().resolve(state, seat, action)  # type: ignore[arg-type]
        if isinstance(action, Play):
            target = (seat + 1) % state.players
            events.append(Event(text=f"whisper-for-seat-{target}", to=[target]))
        return events


WHISPER = WhisperCard()


class Keyboard(io.StringIO):
    """Answers each prompt the table writes: Enter at hand-overs, a menu number
    otherwise. ``script`` answers come first, one per menu prompt."""

    def __init__(self, screen: io.StringIO, script: list[str] | None = None, menu: str = "1") -> None:
        super().__init__()
        self.screen = screen
        self.script = list(script or [])
        self.menu = menu
        self.lines = 0

    def readline(self, size: int | None = -1, /) -> str:  # type: ignore[override]  # typeshed: StringIO mixes _IOBase
        self.lines += 1
        assert self.lines < 500, "the table never ended"
        last = self.screen.getvalue().rsplit("\n", 1)[-1]
        if "press Enter" in last:
            return "\n"
        return (self.script.pop(0) if self.script else self.menu) + "\n"


def table_for(
    store: TableStore,
    game: HighCard = HIGH_CARD,
    keyboard: io.StringIO | None = None,
    script: list[str] | None = None,
) -> tuple[TerminalTable, io.StringIO]:
    """A terminal table on ``store``; the keyboard answers every prompt unless given."""
    screen = io.StringIO()
    service = TableService(store, games={"high-card": game})
    stdin = keyboard if keyboard is not None else Keyboard(screen, script)
    return TerminalTable(service, stdin=stdin, stdout=screen, clear_screen=False), screen


def disjoint_seed(players: int) -> int:
    """A seed whose opening hands share no card value, so a printed hand names its owner."""
    for seed in range(1000):
        hands = HIGH_CARD.setup(players, HighCardOptions(), seed).hands
        values = [set(hand) for hand in hands]
        if sum(len(v) for v in values) == len(set().union(*values)):
            return seed
    raise AssertionError("no seed with disjoint hands")


def segments(text: str) -> list[tuple[str | None, str]]:
    """The transcript cut at each hand-over: (who has the keyboard, what was printed)."""
    parts = HANDOVER.split(text)
    found: list[tuple[str | None, str]] = [(None, parts[0])]
    found += [(parts[i], parts[i + 1]) for i in range(1, len(parts), 2)]
    return found


def shown_hands(text: str) -> list[set[int]]:
    return [{int(n) for n in m.split(", ")} for m in re.findall(r"Hand: ([\d, ]+)\n", text)]


async def test_a_whole_game_shows_each_hand_only_to_its_own_seat(store: TableStore) -> None:
    seed = disjoint_seed(3)
    hands = HIGH_CARD.setup(3, HighCardOptions(), seed).hands
    owner_of = {card: seat for seat, hand in enumerate(hands) for card in hand}
    table, screen = table_for(store, WHISPER)
    assert await table.play("high-card", seats=3, seed=seed) == 0
    text = screen.getvalue()
    parts = segments(text)
    assert parts[0][1].count("Hand:") == 0  # nothing private before the first hand-over
    seen_seats = set()
    for who, printed in parts[1:]:
        assert who is not None
        seat = int(who.split()[1]) - 1
        for hand in shown_hands(printed):
            assert {owner_of[card] for card in hand} == {seat}, f"{who} was shown another seat's hand"
            seen_seats.add(seat)
        assert set(re.findall(r"only for (Player \d)", printed)) <= {who}
        for target in re.findall(r"whisper-for-seat-(\d)", printed):
            assert int(target) == seat, f"{who} was shown a whisper meant for seat {target}"
    assert seen_seats == {0, 1, 2}
    assert len(re.findall(r"\(to you\) whisper-for-seat", text)) == 6  # every whisper reached its seat
    assert "Game over" in text and "🥇:" in text
    table_ids = re.findall(r"Table (\w+):", text)
    record = await store.get(table_ids[0])
    assert record is not None and record.status is TableStatus.FINISHED


async def test_invalid_input_gets_a_short_answer_and_the_same_menu_again(store: TableStore) -> None:
    table, screen = table_for(store, script=["abc", "9", "0", "", "2"])
    assert await table.play("high-card", seats=2, bots=1, seed=4) == 0
    text = screen.getvalue()
    assert text.count("Please type a number from 1 to 3 or q to leave (h: more keys).") == 4
    first_play = re.search(r"Player 1 plays (\d)\.", text)
    menu = re.search(r"  2\. Play (\d)\n", text)
    assert first_play and menu and first_play.group(1) == menu.group(1)  # "2" picked the second card


async def test_bots_fill_the_other_seats_and_play_by_themselves(store: TableStore) -> None:
    table, screen = table_for(store)
    assert await table.play("high-card", seats=4, bots=3, seed=8) == 0
    text = screen.getvalue()
    assert "Player 1, Bot 1, Bot 2, Bot 3." in text
    assert "Pass the keyboard" not in text  # one person: nobody to hide a hand from
    for bot in ("Bot 1", "Bot 2", "Bot 3"):
        assert f"{bot} plays" in text
    assert "only for Bot" not in text
    assert "Game over" in text


async def test_end_of_input_leaves_and_keeps_the_table(store: TableStore) -> None:
    table, screen = table_for(store, keyboard=io.StringIO(""))
    assert await table.play("high-card", seats=2, bots=1) == 0
    table_id = re.findall(r"Table (\w+):", screen.getvalue())[0]
    assert f"You left table {table_id}; it is kept." in screen.getvalue()
    record = await store.get(table_id)
    assert record is not None and record.status is TableStatus.PLAYING
    assert record.turn_timeout == TERMINAL_TIMEOUT


async def test_ctrl_c_at_a_prompt_leaves_with_code_130(store: TableStore) -> None:
    class CtrlC(io.StringIO):
        def readline(self, size: int | None = -1, /) -> str:  # type: ignore[override]  # typeshed: StringIO mixes _IOBase
            raise KeyboardInterrupt

    table, screen = table_for(store, keyboard=CtrlC())
    assert await table.play("high-card", seats=2, bots=1) == 130
    assert "Leave the table?" in screen.getvalue() and "it is kept" in screen.getvalue()


@pytest.mark.parametrize(
    ("seats", "bots", "options", "message"),
    [
        (9, 0, {}, "High Card seats 2–6 players, so --seats 9 is not possible."),
        (2, 2, {}, "Leave at least one seat for a person"),
        (None, -1, {}, "--bots cannot be negative."),
        (2, 0, {"preset": "huge"}, "Unknown variant 'huge'. Variants: quick."),
        (2, 0, {"rounds": 7}, "Bad option — rounds"),
    ],
)
async def test_bad_table_settings_are_refused_before_any_table_exists(
    store: TableStore, seats: int | None, bots: int, options: dict[str, object], message: str
) -> None:
    table, screen = table_for(store)
    assert await table.play("high-card", seats=seats, bots=bots, options=options) == 2
    assert message in screen.getvalue()
    assert await store.redis.keys("gt:{table:*") == []


async def test_the_variant_and_seed_reach_the_table(store: TableStore) -> None:
    table, screen = table_for(store)
    assert await table.play("high-card", bots=1, seed=11, options={"preset": "quick"}) == 0
    record = await store.get(re.findall(r"Table (\w+):", screen.getvalue())[0])
    assert record is not None and record.options == {"rounds": 1} and record.seed == 11


def _record() -> TableRecord:
    return TableRecord(
        id="t", game="high-card", host_id=1, seats=[SeatRecord(user_id=1, name="Ann")],
        created_at=0, updated_at=0, seed=0, turn_timeout=1,
    )  # fmt: skip


def _choice(key: str, *steps: str) -> Choice:
    return Choice(key=key, label=" ".join(steps), steps=list(steps), action=key)


def test_many_choices_are_walked_step_by_step_with_a_way_back(store: TableStore) -> None:
    choices = [_choice(f"steal:{s}:{c}", "Steal", f"<seat:{s}>", f"Card {c}") for s in (0, 1) for c in (1, 2)]
    choices.append(_choice("pass", "Pass"))
    screen = io.StringIO()
    keyboard = io.StringIO("1\n2\n0\n1\n2\n")  # Steal › Seat 2 › back › Ann › Card 2
    table = TerminalTable(
        TableService(store, games={"high-card": HIGH_CARD}), stdin=keyboard, stdout=screen, flat_menu=2
    )
    picked = table._choose(_record(), choices)
    assert picked.key == "steal:0:2"
    text = screen.getvalue()
    assert "1. Steal … (4 choices)\n  2. Pass\n" in text
    assert "  1. Ann … (2 choices)\n" in text and "  0. Back\n" in text  # seat refs shown by name


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        ("🦸 **Heroes**", "🦸 Heroes"),
        ("*Night*", "Night"),
        ("2 * 3 * 4", "2 * 3 * 4"),
        ("`x`", "x"),
        ("**Past** — Tower\n  _Gain 2 Energy_", "Past — Tower\n  Gain 2 Energy"),
        ("> Shadow wins\n>>> all of it", "Shadow wins\nall of it"),
        ("ann\\_b and \\*bob\\*", "ann_b and *bob*"),  # names escaped by escape_markdown
        ("snake_case stays", "snake_case stays"),
        ("__u__ ~~s~~ ||spoiler||", "u s spoiler"),
        ("`a_b*c`", "a_b*c"),
        ("# Title\n-# small", "Title\nsmall"),
    ],
)
def test_discord_markdown_is_not_shown_raw_at_the_terminal(written: str, shown: str) -> None:
    assert terminal_text(written) == shown


def test_bold_is_ansi_bold_on_a_terminal_and_plain_elsewhere() -> None:
    assert terminal_text("**Final day** and ***both***", bold=True) == (
        f"{BOLD_ON}Final day{BOLD_OFF} and {BOLD_ON}both{BOLD_OFF}"
    )
    assert terminal_text("**Final day**", bold=False) == "Final day"


class MarkdownCard(HighCard):
    """High Card whose plays are told in Discord markdown, escaped name and all."""

    def resolve(self, state: HighCardState, seat: Seat, action: object) -> list[Event]:
        events = super().resolve(state, seat, action)  # type: ignore[arg-type]
        if isinstance(action, Play):
            events.append(Event(text=f"> **{seat_ref(seat)}** plays _boldly_ as \\*star\\_1\\*"))
        return events


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


async def test_engine_markdown_reaches_a_tty_as_bold_and_plain_words(store: TableStore) -> None:
    screen = Tty()
    service = TableService(store, games={"high-card": MarkdownCard()})
    table = TerminalTable(service, stdin=Keyboard(screen), stdout=screen)
    assert await table.play("high-card", bots=1, seed=3) == 0
    assert f"{BOLD_ON}Player 1{BOLD_OFF} plays boldly as *star_1*\n" in screen.getvalue()
    assert "**" not in screen.getvalue() and "\\" not in screen.getvalue()


async def test_each_hand_over_clears_the_scrollback_too(store: TableStore) -> None:
    screen = io.StringIO()
    service = TableService(store, games={"high-card": HIGH_CARD})
    table = TerminalTable(service, stdin=Keyboard(screen), stdout=screen, clear_screen=True)
    assert await table.play("high-card", seats=2, seed=disjoint_seed(2)) == 0
    text = screen.getvalue()
    handovers = [m.start() for m in HANDOVER.finditer(text)]
    assert len(handovers) > 2
    for earlier, later in zip([0, *handovers], handovers, strict=False):
        # The last clear before each hand-over wipes screen and scrollback alike.
        between = text[earlier:later]
        assert between.rfind("\x1b[2J") == between.rfind(CLEAR) >= 0
    assert CLEAR == "\x1b[2J\x1b[H\x1b[3J"
    # Two people share this screen: the last hand is cleared away before the result and recap.
    assert CLEAR in text[handovers[-1] : text.index("Game over")]
    assert "Recap — High Card" in text[text.rindex(CLEAR) :]


def test_an_entry_that_stands_for_one_move_names_the_whole_move(store: TableStore) -> None:
    rain = Choice(key="play:7:me", label="Cleansing Rain", steps=["Play ability", "Cleansing Rain"], action=7)
    bank = Choice(key="bank:fox", label="Bank a set of Foxes", steps=["Bank a set", "Foxes"], action=1)
    steals = [_choice(f"steal:1:{c}", "Steal", "<seat:0>", f"Card {c}") for c in (1, 2, 3)]
    for flat_menu in (2, 9):  # walked step by step, and all in one list
        screen = io.StringIO()
        service = TableService(store, games={"high-card": HIGH_CARD})
        table = TerminalTable(service, stdin=io.StringIO("1\n"), stdout=screen, flat_menu=flat_menu)
        assert table._choose(_record(), [rain, bank, *steals]).key == "play:7:me"  # one key, one move
        text = screen.getvalue()
        assert "  1. Play ability: Cleansing Rain\n  2. Bank a set of Foxes\n" in text
        assert "Play ability\n" not in text and "Bank a set\n" not in text


async def test_leaving_is_asked_first_and_no_keeps_playing(store: TableStore) -> None:
    table, screen = table_for(store, script=["q", "n", "quit", "", "1"])
    assert await table.play("high-card", seats=2, bots=1, seed=4) == 0
    text = screen.getvalue()
    table_id = re.findall(r"Table (\w+):", text)[0]
    question = f"Leave the table? Your game is kept; resume it with gametable play --resume {table_id} [y/N] "
    assert text.count(question) == 2  # "n" and Enter both stay
    assert "Game over" in text


async def test_a_left_table_is_listed_and_resumed_to_the_end(store: TableStore) -> None:
    table, screen = table_for(store, script=["1", "q", "y"])
    assert await table.play("high-card", seats=3, bots=1, seed=5) == 0
    table_id = re.findall(r"Table (\w+):", screen.getvalue())[0]
    assert (await store.get(table_id)).status is TableStatus.PLAYING  # type: ignore[union-attr]
    service = TableService(store, games={"high-card": HIGH_CARD})
    discord_table = await service.create("high-card", Player(1, "Ann"), channel_id=42)  # not this terminal's
    await service.join(discord_table.id, Player(2, "Bob"))
    await service.start(discord_table.id, 1)

    listing, listed = table_for(store)
    assert await listing.list_tables() == 0
    assert re.findall(
        rf"^{table_id}  High Card — Player 1, Player 2, Bot 1 — last move ", listed.getvalue(), re.M
    )
    assert discord_table.id not in listed.getvalue()

    again, resumed = table_for(store)
    assert await again.resume(table_id) == 0
    assert "Game over" in resumed.getvalue()
    assert (await store.get(table_id)).status is TableStatus.FINISHED  # type: ignore[union-attr]
    empty, nothing = table_for(store)
    assert await empty.list_tables() == 0 and "No unfinished tables here." in nothing.getvalue()
    for refused, message in (
        (table_id, "is finished"),
        (discord_table.id, "played on Discord"),
        ("nope", "no table"),
    ):
        other, said = table_for(store)
        assert await other.resume(refused) == 2 and message in said.getvalue()


async def test_a_start_the_game_refuses_leaves_no_lobby_behind(store: TableStore) -> None:
    screen = io.StringIO()
    service = TableService(store, games=GAMES)
    table = TerminalTable(service, stdin=Keyboard(screen), stdout=screen, clear_screen=False)
    options = {"preset": "shadow-vs-light"}
    assert await table.play("scales-of-influence", seats=5, bots=4, options=options) == 2
    assert "Shadow vs Light needs an even number of players (4 or 6)." in screen.getvalue()
    assert await store.redis.keys("gt:{table:*") == []
    assert await store.of_user(1) == []


async def test_the_game_over_line_is_printed_once(store: TableStore) -> None:
    table, screen = table_for(store)
    assert await table.play("high-card", seats=2, bots=1, seed=4) == 0
    assert screen.getvalue().count("Highest total wins.") == 1
    assert screen.getvalue().count("Game over") == 1


async def test_storage_going_away_mid_game_is_one_sentence_and_the_table_is_kept(store: TableStore) -> None:
    # The service raises only its own errors; the terminal must answer them too,
    # not end on a traceback: a move whose outcome is unknown is told and the table
    # read again, and a store that stays away ends the session with a resume hint.
    from bot.service.errors import OutcomeUnknown, StorageUnavailable

    table, screen = table_for(store)
    acts = 0
    real_act = table.service.act

    async def failing_act(*args: object, **kwargs: object) -> object:
        nonlocal acts
        acts += 1
        if acts == 1:
            raise OutcomeUnknown()
        raise StorageUnavailable()

    table.service.act = failing_act  # type: ignore[method-assign]
    assert await table.play("high-card", seats=2, bots=1, seed=4) == 1
    text = screen.getvalue()
    assert "cannot be told yet whether it counted" in text
    assert "storage is not answering" in text
    table_id = table.screen.table_id
    assert f"gametable play --resume {table_id}" in text
    assert "Traceback" not in text
    table.service.act = real_act  # type: ignore[method-assign]
    assert (await table.service.get(table_id)).status is TableStatus.PLAYING
