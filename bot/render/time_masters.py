"""Time Masters as panels: the spheres, every player's Kè, cards and timers
(how full, never what lies on them), and "My hand" with each card's text.

Only views are rendered, so a hand, a timer's spells or a sphere's hidden
card can never appear here for anyone but their owner.
"""

from __future__ import annotations

from bot.render.base import (
    DESCRIPTION_MAX,
    FIELD_MAX,
    FOOTER_MAX,
    MAX_FIELDS,
    NAME_MAX,
    Panel,
    add_ranking,
    fit,
)
from engines.core import Result, View
from engines.time_masters.views import CardFace, SeatInfo, TmView
from engines.words import plural

KIND = {"spell": "✦", "focus": "◎", "timer": "⧗"}


def _view(view: View) -> TmView:
    assert isinstance(view, TmView), "the Time Masters renderer needs a Time Masters view"
    return view


def card_line(card: CardFace) -> str:
    """A card as a player reads it: kind, name, points, cost or capacity, text."""
    extra = f" · {card.cost} Kè" if card.kind == "spell" else ""
    extra += f" · holds {card.capacity}" if card.kind == "timer" else ""
    return f"{KIND.get(card.kind, '•')} **{card.name}** ({card.level} pt{extra}) — {card.text}"


def _names(cards: list[CardFace]) -> str:
    return ", ".join(c.name for c in cards) or "—"


def _seat(view: TmView, info: SeatInfo) -> tuple[str, str]:
    mark = " ▶" if view.turn == info.seat else ""
    parts = [
        f"Kè {info.ke}/{view.ke_limit}",
        f"hand {info.hand_size}",
        f"deck {info.deck_size}",
        f"discard {info.discard_size}",
        f"{plural(info.visible_knowledge, 'point')} in sight",
    ]
    timers = [
        f"{t.timer.name} {t.loaded}/{t.capacity}" + (f" (+{t.delays} delaying)" if t.delays else "")
        for t in info.timers
    ]
    if timers:
        parts.append("timers: " + ", ".join(timers))
    if info.discard_top:
        parts.append("discard top: " + info.discard_top[-1].name)
    return fit(f"<seat:{info.seat}>{mark}", NAME_MAX), fit(" · ".join(parts), FIELD_MAX)


def _spheres(view: TmView) -> str:
    lines = []
    for sphere in view.spheres:
        top = f"**{sphere.top.name}** ({sphere.top.kind})" if sphere.top else "*empty*"
        lines.append(f"Sphere {sphere.level}: {top} · {plural(sphere.size, 'card')}")
    return "\n".join(lines)


class TimeMastersRenderer:
    def table(self, view: View) -> Panel:
        v = _view(view)
        lines = [f"**{v.headline}**", _spheres(v)]
        if v.phase != "over":
            bought = ", ".join(map(str, v.bought_from))
            lines.append(
                f"Access points: {v.access_points}" + (f" · bought from sphere {bought}" if bought else "")
            )
        if v.played:
            lines.append("Played this turn: " + _names(v.played))
        if v.released:
            lines.append("Released from a timer, to cast this turn: " + _names(v.released))
        if v.empty_spheres:
            lines.append(
                f"Empty spheres: {v.empty_spheres}/2 — the game ends after the turn that empties a second."
            )
        panel = Panel(title="Time Masters", description=fit("\n".join(lines), DESCRIPTION_MAX))
        for info in v.seats[: MAX_FIELDS - 1]:
            panel.add(*_seat(v, info))
        return panel

    def hand(self, view: View) -> Panel:
        v = _view(view)
        affordable = set(v.affordable or [])
        lines = [card_line(c) + ("" if c.uid in affordable else " *(not enough Kè)*") for c in v.hand or []]
        panel = Panel(
            title="My hand",
            description=fit("\n".join(lines) or "(no cards)", DESCRIPTION_MAX),
            footer=fit(v.headline, FOOTER_MAX),
        )
        me = v.seats[v.viewer] if v.viewer is not None else None
        if me is not None:
            panel.add("Kè", f"{me.ke}/{v.ke_limit}")
            panel.add("Knowledge", f"{plural(v.knowledge or 0, 'point')} on all my cards")
            if me.delaying:
                refill = v.hand_limit - me.delaying
                panel.add("Refill", f"to {refill} ({plural(me.delaying, 'card')} delaying timers)")
            for timer in me.timers:
                name = f"Timer {timer.timer.name} ({timer.loaded}/{timer.capacity})"
                panel.add(name, fit(_names(timer.spells or []), FIELD_MAX))
        return panel

    def result(self, result: Result, view: View) -> Panel:
        v = _view(view)
        panel = Panel(title="Time Masters — game over", description=fit(result.summary, DESCRIPTION_MAX))

        def entry(s: int) -> str:
            return f"<seat:{s}> ({plural(result.scores.get(s, 0), 'point')}, {v.seats[s].ke} Kè)"

        return add_ranking(panel, result, entry)


RENDERER = TimeMastersRenderer()
