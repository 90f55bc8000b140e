"""Spheres of Life panels: the public table, "My hand" and the final ranking."""

from __future__ import annotations

from bot.render.base import (
    DESCRIPTION_MAX,
    FIELD_MAX,
    FOOTER_MAX,
    MAX_FIELDS,
    NAME_MAX,
    TITLE_MAX,
    Panel,
    add_ranking,
    fit,
)
from engines.core import Result, View
from engines.spheres_of_life.views import CardFace, SolView
from engines.words import plural

ICONS = {"noble": "✨", "corrupted": "💀", "ability": "🔮", "hero": "🦸"}
PHASE_ICONS = {"day": "☀️", "night": "🌙", "dream": "💤", "heroes": "🦸", "rps": "✊", "over": "🏁"}


def _card(card: CardFace) -> str:
    return f"{ICONS.get(card.group, '🃏')} {card.name}"


def _cards(cards: list[CardFace]) -> str:
    return ", ".join(_card(c) for c in cards) or "—"


def _view(view: View) -> SolView:
    assert isinstance(view, SolView), "the Spheres of Life renderer needs a Spheres of Life view"
    return view


def _seat_line(view: SolView, seat: int) -> tuple[str, str]:
    info = view.seats[seat]
    marks = "".join(
        mark
        for on, mark in (
            (view.leader == seat, " 🃏"),
            (view.current == seat, " ▶"),
            (seat in view.waiting and view.current != seat, " ⏳"),
            (info.locked, " 🔒"),
        )
        if on
    )
    parts = [f"✋ {plural(info.hand_size, 'card')}"]
    if info.banked:
        parts.append("🏦 " + ", ".join(info.banked))
    if info.heroes:
        parts.append("🦸 " + ", ".join(h.name for h in info.heroes))
    if info.heroes_used:
        parts.append("used: " + ", ".join(h.name for h in info.heroes_used))
    if view.rounds > 1:
        parts.append(f"match {info.match_points}")
    return fit(f"<seat:{seat}>{marks}", NAME_MAX), fit(" · ".join(parts), FIELD_MAX)


class SpheresOfLifeRenderer:
    def table(self, view: View) -> Panel:
        v = _view(view)
        lines = [f"{PHASE_ICONS.get(v.stage, '')} **{v.headline}**", f"*{v.variant}*"]
        if v.leader is not None:
            lines.append(f"🃏 Phase cards: <seat:{v.leader}>")
        lines.append(
            f"🂠 Main Deck: {v.deck_size} · 🗑️ Discard: {v.discard_size}"
            + (f" (top: {v.discard_top[-1].name})" if v.discard_top else "")
        )
        if v.table:
            lines.append(f"🪵 Table: {_cards(v.table)}")
        if v.to_act:
            lines.append("Still to act: " + ", ".join(f"<seat:{s}>" for s in v.to_act))
        lines += [f"⚡ {text}" for text in (v.pending, v.exchange) if text]
        lines += [f"🛡️ {text}" for text in v.shields]
        if v.waiting and v.current is None:
            lines.append("Waiting for: " + ", ".join(f"<seat:{s}>" for s in v.waiting))
        panel = Panel(
            title=fit("Spheres of Life", TITLE_MAX), description=fit("\n".join(lines), DESCRIPTION_MAX)
        )
        for seat in range(len(v.seats))[: MAX_FIELDS - 1]:
            panel.add(*_seat_line(v, seat))
        return panel

    def hand(self, view: View) -> Panel:
        v = _view(view)
        hand = v.hand or []
        lines = [f"{i}. {_card(c)}" for i, c in enumerate(hand, start=1)] or ["(no cards)"]
        panel = Panel(
            title="My hand",
            description=fit("\n".join(lines), DESCRIPTION_MAX),
            footer=fit(v.headline, FOOTER_MAX),
        )
        if v.hand_points:
            points = "\n".join(f"{name}: {p:+d}" for name, p in v.hand_points.items())
            panel.add("Points in hand", fit(points, FIELD_MAX))
        if v.score is not None:
            panel.add("Score now", f"{v.score:+d} (banked sets included)")
        me = v.seats[v.viewer] if v.viewer is not None and v.viewer < len(v.seats) else None
        if me is not None and (me.heroes or me.heroes_used):
            panel.add(
                "My Heroes",
                fit(
                    ", ".join([h.name for h in me.heroes] + [f"{h.name} (used)" for h in me.heroes_used]),
                    FIELD_MAX,
                ),
            )
        powers = [*hand, *(me.heroes if me is not None else [])]
        texts = dict.fromkeys(f"**{c.name}** — {c.text}" for c in powers if c.text)
        extras = (
            ("What my cards do", "\n".join(texts) if texts else None),
            ("Looking at", _cards(v.looking_at) if v.looking_at else None),
            ("My offer", _card(v.my_offer) if v.my_offer else None),
            ("My secret Hero picks", ", ".join(v.my_hero_picks) if v.my_hero_picks else None),
            ("My throw", v.my_throw),
        )
        for name, value in extras:
            if value:
                panel.add(name, fit(value, FIELD_MAX), inline=False)
        return panel

    def result(self, result: Result, view: View) -> Panel:
        v = _view(view)
        panel = Panel(title="Spheres of Life — game over", description=fit(result.summary, DESCRIPTION_MAX))

        def entry(s: int) -> str:
            points, cards = plural(result.scores.get(s, 0), "point"), plural(v.seats[s].hand_size, "card")
            return f"<seat:{s}> ({points}, {cards})"

        return add_ranking(panel, result, entry)


RENDERER = SpheresOfLifeRenderer()
