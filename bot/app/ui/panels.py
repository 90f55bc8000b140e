"""The table's buttons: the public message's for its stage, and the act panel
(a seat's private view and its legal choices as buttons, or as menus a level
deep when there are many), all restart-proof items from
:mod:`bot.app.ui.components`."""

from __future__ import annotations

import discord

from bot.app.ui.components import CardTextButton, ChoiceButton, MenuSelect, NavButton, TableButton
from bot.app.ui.embeds import fit, hand_embed
from bot.render.cardtext import option_details, shared_detail
from bot.render.menu import MenuOption, level, narrow
from bot.service.tables import TableService
from storage.records import TableRecord, TableStatus


def table_view(record: TableRecord, watch: str | None = None) -> discord.ui.View | None:
    """The public message's buttons for this stage of the table; ``watch``: the
    address of its web page, for a Watch link (on a row of its own: the lobby's
    row is full)."""
    verbs = {
        TableStatus.LOBBY: ["join", "leave", "bot", "start", "kick"],
        TableStatus.PLAYING: ["hand", "act"],
    }
    if record.status not in verbs and watch is None:
        return None
    view = discord.ui.View(timeout=None)
    for verb in verbs.get(record.status, []):
        view.add_item(TableButton(verb, record.id, record.version))
    if watch is not None:
        view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, label="Watch", url=watch, row=1))
    return view


def act_panel(
    service: TableService, record: TableRecord, user_id: int, path: list[int] | None = None, note: str = ""
) -> tuple[discord.Embed, discord.ui.View]:
    """The ephemeral act panel: my view and my legal choices as components."""
    path = path or []
    choices = service.choices(record, user_id)
    options = level(choices, path)
    if not choices:
        note = "\n".join(filter(None, [note, "Nothing for you to do right now."]))
    view = discord.ui.View(timeout=None)
    if not path and options and len(options) <= 20 and all(o.choice for o in options):
        for option in options:
            assert option.choice is not None
            label = service.text(record, option.label)
            style = (
                discord.ButtonStyle.secondary if option.choice.key == "pass" else discord.ButtonStyle.primary
            )
            view.add_item(ChoiceButton(record.id, record.version, option.choice.key, fit(label, 80), style))
    else:
        shared = service.text(record, shared_detail(choices, path, options))
        _selects(service, view, record, path, options, option_details(choices, path, options), shared)
    view.add_item(NavButton(record.id, record.version, [], "refresh"))
    if path:
        view.add_item(NavButton(record.id, record.version, path[:-1], "back"))
    if any(c.detail for c in narrow(choices, path)):
        view.add_item(CardTextButton(record.id, record.version, path))
    return hand_embed(service, record, user_id, note), view


def _selects(
    service: TableService,
    view: discord.ui.View,
    record: TableRecord,
    path: list[int],
    options: list[MenuOption],
    details: dict[int, str] | None = None,
    shared: str = "",
) -> None:
    for part in range(min(4, (len(options) + 24) // 25)):
        chunk = options[part * 25 : (part + 1) * 25]
        select_options = [
            _select_option(
                service.text(record, o.label),
                o.index,
                service.text(record, (details or {}).get(o.index, "")),
            )
            for o in chunk
        ]
        placeholder = "Choose…" if not path else "Then choose…"
        if shared:  # the card text all options share, once for the menu
            placeholder = fit(f"{placeholder} {shared}", 150)
        view.add_item(MenuSelect(record.id, record.version, path, part, select_options, placeholder))


def _select_option(label: str, index: int, detail: str = "") -> discord.SelectOption:
    """An option naming the whole move: what passes Discord's 100-character
    label goes on in the description below it; else the description holds the
    text of the card the option names."""
    if len(label) <= 100:
        described = fit(detail, 100) or None
        return discord.SelectOption(label=label or "…", value=str(index), description=described)
    rest = fit("…" + label[99:], 100)
    return discord.SelectOption(label=fit(label, 100), value=str(index), description=rest)
