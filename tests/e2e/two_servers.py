"""Two servers for the trust tests (``test_two_servers.py``): server B with its own tables and
tournament, made through the bot as B's members would; a stranger from server A who knows their
ids; and every command and component kind, written once, as it names B's objects.

``COMMANDS`` and ``COMPONENTS`` must name every registered command and component that names a
table or a tournament (the test checks it against the bot's own registrations), so a new one
cannot be added without being driven against another server's objects.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.connection import AbstractConnection

from tests.e2e.entities import Channel, Guild, User
from tests.e2e.harness import DiscordHarness, InteractionResult, Request, SentMessage
from tests.e2e.tables import BotMaker, button


@dataclass
class ServerB:
    """Server B and what its members made there; ``stranger``: Manage Server in A, not in B;
    ``dee``: a plain member of both (Manage Server in A), seated at B's running table."""

    guild: Guild
    bea: User  # B's host
    bo: User  # a member of B
    mod: User  # Manage Server in B
    dee: User
    stranger: User
    lobby: str
    playing: str
    finished: str
    tournament: str
    lobby_message: SentMessage
    playing_message: SentMessage

    def ids(self) -> list[str]:
        return [self.lobby, self.playing, self.finished, self.tournament]


async def make_server_b(h: DiscordHarness, maker: BotMaker) -> ServerB:
    guild = h.create_guild("Server B")
    places = [h.create_channel(name, guild) for name in ("lobby", "play", "done")]
    bea = h.create_user("bea", guild=guild)
    bo = h.create_user("bo", guild=guild)
    mod = h.create_user("bmod", guild=guild, manage_guild=True)
    stranger = h.create_user("mallory", manage_guild=True)  # Manage Server in A alone
    dee = h.create_user("dee", manage_guild=True)
    h.add_member(guild, dee)
    service = maker.bot.service

    async def table_in(channel: Channel) -> tuple[str, SentMessage]:
        created = await h.slash(bea, "table create", {"game": "high-card"}, channel=channel)
        assert created.message is not None and not created.ephemeral, created.content
        [table] = await service.store.in_channel(channel.id)
        return table.id, created.message

    lobby, lobby_message = await table_in(places[0])
    await h.slash(bea, "table addbot", {"table": lobby}, channel=places[0])
    playing, playing_message = await table_in(places[1])
    await h.click(dee, playing_message, button(playing_message, "Join"))
    await h.slash(bea, "table start", {"table": playing}, channel=places[1])
    finished, _ = await table_in(places[2])
    await h.slash(bea, "table addbot", {"table": finished}, channel=places[2])
    await h.slash(bea, "table start", {"table": finished}, channel=places[2])
    await service.play_out(finished)
    await maker.bot.announcer.deliver(finished)
    cup_options = {"name": "B Cup", "game": "high-card", "format": "swiss"}
    cup = await h.slash(mod, "tournament create", cup_options, channel=guild.channels[0])
    assert cup.message is not None and not cup.ephemeral, cup.content
    for player in (bea, dee):
        await h.click(player, cup.message, button(cup.message, "Join"))
    [tournament] = await maker.bot.desk.tournaments.store.in_guild(guild.id)
    assert (await service.get(finished)).status.value == "finished"
    await h.settle()
    return ServerB(
        guild, bea, bo, mod, dee, stranger, lobby, playing, finished, tournament.id,
        lobby_message, playing_message,
    )  # fmt: skip


Options = Callable[[ServerB, User], dict[str, Any]]

# Every command that names a table or a tournament, with options naming B's (``who`` runs it).
COMMANDS: dict[str, Options] = {
    "table join": lambda b, who: {"table": b.lobby},
    "table leave": lambda b, who: {"table": b.playing},
    "table addbot": lambda b, who: {"table": b.lobby},
    "table start": lambda b, who: {"table": b.lobby},
    "table kick": lambda b, who: {"table": b.lobby, "seat": "2"},
    "table abandon": lambda b, who: {"table": b.playing},
    "table status": lambda b, who: {"table": b.playing},
    "table log": lambda b, who: {"table": b.finished},
    "hand": lambda b, who: {"table": b.playing},
    "play": lambda b, who: {"table": b.playing, "action": "pass"},
    "card": lambda b, who: {"table": b.playing, "name": "Play 1"},
    "clock pause": lambda b, who: {"table": b.playing},
    "clock resume": lambda b, who: {"table": b.playing},
    "clock back": lambda b, who: {"table": b.playing},
    "undo": lambda b, who: {"table": b.playing},
    "substitute offer": lambda b, who: {"table": b.playing, "seat": 2, "member": who},
    "substitute take": lambda b, who: {"table": b.playing},
    "tournament start": lambda b, who: {"tournament": b.tournament},
    "tournament add": lambda b, who: {"tournament": b.tournament, "member": who},
    "tournament drop": lambda b, who: {"tournament": b.tournament},
    "tournament disqualify": lambda b, who: {"tournament": b.tournament, "member": who},
    "tournament replace": lambda b, who: {"tournament": b.tournament, "member": who, "by": who},
    "tournament decide": lambda b, who: {"tournament": b.tournament, "how": "tie"},
    "tournament award": lambda b, who: {
        "tournament": b.tournament,
        "table": b.playing,
        "ranking": f"<@{who.id}>",
    },
    "tournament standings": lambda b, who: {"tournament": b.tournament},
    "tournament export": lambda b, who: {"tournament": b.tournament},
    "tournament cancel": lambda b, who: {"tournament": b.tournament},
}

# custom_id (and the values picked, for a select) of every component kind naming a B object.
Component = Callable[[ServerB, int, int], tuple[str, list[str] | None]]


def _on(template: str, values: list[str] | None = None) -> Component:
    """A component of B's: ``template`` names B's objects and the versions of its lobby
    (``{lv}``) and running table (``{pv}``)."""

    def make(b: ServerB, lv: int, pv: int) -> tuple[str, list[str] | None]:
        named = {"lobby": b.lobby, "playing": b.playing, "tournament": b.tournament}
        return template.format(**named, lv=lv, pv=pv), values

    return make


COMPONENTS: dict[str, list[Component]] = {
    "TableButton": [
        *(_on(f"gt:v1:{verb}:{{lobby}}:{{lv}}") for verb in ("join", "leave", "bot", "start", "kick")),
        _on("gt:v1:hand:{playing}:{pv}"),
        _on("gt:v1:act:{playing}:{pv}"),
    ],
    "ChoiceButton": [_on("gt:v1:do:{playing}:{pv}:play:1")],
    "MenuSelect": [_on("gt:v1:menu:{playing}:{pv}::0", ["0"])],
    "NavButton": [_on("gt:v1:nav:{playing}:{pv}::refresh")],
    "CardTextButton": [_on("gt:v1:text:{playing}:{pv}:")],
    "SeatSelect": [_on("gt:v1:unseat:{lobby}:{lv}", ["1"])],
    "UndoButton": [_on("gt:v1:undo:{playing}:{pv}:yes"), _on("gt:v1:undo:{playing}:{pv}:no")],
    "TournamentButton": [_on(f"gt:v1:tour:{verb}:{{tournament}}:3") for verb in ("join", "leave", "checkin")],
}


def unknown(object_id: str) -> str:
    """An id of the same length that names nothing (the answer must not tell the two apart)."""
    return "x" * len(object_id)


def unnamed(value: Any, b: ServerB) -> Any:
    """``value`` with every B id in it replaced by :func:`unknown`'s."""
    if not isinstance(value, str):
        return value
    for object_id in b.ids():
        value = value.replace(object_id, unknown(object_id))
    return value


async def redis_snapshot(redis: Redis) -> dict[bytes, bytes | None]:
    """Every key and its serialised value (TTLs aside)."""
    return {key: await redis.dump(key) async for key in redis.scan_iter(count=1000)}


@contextlib.contextmanager
def redis_commands() -> Iterator[list[tuple[str, ...]]]:
    """Every command the bot sends Redis meanwhile, pipelined or not, its arguments as text: a
    refusal of B's id must make the very round trips an unknown id's makes (no read skipped
    for a table this process holds, none added for one that exists)."""
    sent: list[tuple[str, ...]] = []
    pack = AbstractConnection.pack_command

    def recording(self: AbstractConnection, *args: Any) -> list[bytes]:
        sent.append(tuple(a.decode(errors="replace") if isinstance(a, bytes) else str(a) for a in args))
        return pack(self, *args)

    AbstractConnection.pack_command = recording  # type: ignore[method-assign]
    try:
        yield sent
    finally:
        AbstractConnection.pack_command = pack  # type: ignore[method-assign]


def round_trips(sent: list[tuple[str, ...]], b: ServerB) -> list[tuple[str, ...]]:
    """The commands, B's ids masked as :func:`unknown`'s."""
    return [tuple(unnamed(arg, b) for arg in command) for command in sent]


def answer(result: InteractionResult, b: ServerB) -> tuple[Any, ...]:
    """What the user was shown, ids masked: response kind, visibility, text, embeds, components."""
    message = result.message
    return (
        result.response_type,
        result.ephemeral,
        unnamed(result.content, b),
        unnamed(repr(message.embeds if message else None), b),
        unnamed(repr(message.components if message else None), b),
    )


PRIVATE_ANSWERS = {"interaction_response", "followup", "original_edit", "original_get", "original_delete"}


def posted(result: InteractionResult) -> list[str]:
    """Everything the bot sent beyond a private answer to the user: a message in any channel or
    thread, a DM, an edit of a public message, a thread."""
    found = []
    for request in result.requests:
        if request.kind not in PRIVATE_ANSWERS:
            found.append(f"{request.method} {request.path}")
        elif request.kind == "interaction_response" and request.response_type not in (4, 5, 8):
            found.append(f"interaction response of type {request.response_type}")
        elif (
            request.method in ("POST", "PATCH")
            and request.kind != "original_edit"
            and not (request.ephemeral or request.response_type in (5, 8))
        ):
            found.append(f"a public {request.kind}")
    if result.message is not None and not result.message.ephemeral:
        found.append("a public answer")
    return found


def ghost(h: DiscordHarness, channel: Channel, custom_id: str, values: list[str] | None) -> SentMessage:
    """A message in ``channel`` carrying only this component: a copied custom_id, or a forged one."""
    if values is None:
        component: dict[str, Any] = {"type": 2, "style": 1, "label": "?", "custom_id": custom_id}
    else:
        options = [{"label": v, "value": v} for v in values]
        component = {"type": 3, "custom_id": custom_id, "options": options, "min_values": 1,
                     "max_values": len(values)}  # fmt: skip
    request = Request(len(h.requests), "GHOST", "", "", {}, {}, "test", [])
    body = {"components": [{"type": 1, "components": [component]}]}
    return h._new_message(request, channel, body, None)
