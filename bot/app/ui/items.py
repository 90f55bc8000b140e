"""Every restart-proof item the bot answers, gathered so the application
registers them all and tells a click no item will answer (the custom_id
templates are listed in :mod:`bot.app.ui.components`)."""

from __future__ import annotations

from bot.app.ui.components import CardTextButton, ChoiceButton, MenuSelect, NavButton, SeatSelect, TableButton
from bot.app.ui.table_pages import PageButton
from bot.app.ui.undo_vote import UndoButton

DYNAMIC_ITEMS = (TableButton, ChoiceButton, MenuSelect, NavButton, SeatSelect, CardTextButton, UndoButton)
# Not a table's: a page of a list is drawn fresh at every press, so it carries no version.
OTHER_ITEMS = (PageButton,)


def is_ours(custom_id: str) -> bool:
    """Whether a custom_id matches one of the templates above (else no item will answer it)."""
    return any(
        item.__discord_ui_compiled_template__.fullmatch(custom_id)  # type: ignore[attr-defined]
        for item in (*DYNAMIC_ITEMS, *OTHER_ITEMS)
    )
