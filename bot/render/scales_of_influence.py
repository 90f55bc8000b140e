"""Scales of Influence as Discord panels: the public table, "My hand" and the end screen.

Only views are rendered, so nothing a view hides (alignments, hands, drawn
tokens, bag contents before Weighing) can appear here.
"""

from __future__ import annotations

from typing import Any

from bot.render.base import DESCRIPTION_MAX, FIELD_MAX, TITLE_MAX, Panel, fit
from engines.core import Result, View, seat_ref

PHASES = (("sun", "☀️ Sun"), ("moon", "🌙 Moon"), ("reading", "🔮 Read"), ("weighing", "⚖️ Weigh"))
ALIGNMENT = {"shadow": "🌑 Shadow", "light": "🌕 Light", "harmony": "☯️ Harmony"}
OBJECTIVE = {
    "shadow": "10+ Energy on the Shadow side, and the most, at the end of a Weighing.",
    "light": "10+ Energy on the Light side, and the most, at the end of a Weighing.",
    "harmony": "Both sides of the Scale equal at 5 or more, at any moment.",
}
ELEMENTS = (
    ("spirit", "🌠 Shooting Stars"),
    ("fire", "🔥 Fire"),
    ("water", "💧 Water"),
    ("air", "🌬️ Air"),
    ("earth", "🪨 Earth"),
)


def _get(view: View, name: str) -> Any:
    return getattr(view, name, None)


def _tracker(phase: str) -> str:
    return " ▸ ".join(f"**{label}**" if key == phase else label for key, label in PHASES)


def _scale_bar(shadow: int, light: int) -> str:
    return f"🌑 Shadow **{shadow}** {'▮' * min(shadow, 15)}\n🌕 Light **{light}** {'▮' * min(light, 15)}"


def _reading(view: View) -> str:
    lines = []
    for placement in _get(view, "reading") or []:
        cards = placement.cards
        if not cards:
            lines.append(f"**{placement.slot}** — free (marker on the board)")
            continue
        top = cards[-1]
        under = f" (over {', '.join(c.short for c in cards[:-1])})" if len(cards) > 1 else ""
        holder = seat_ref(placement.holder) if placement.holder is not None else "—"
        lines.append(f"**{placement.slot}** — {top.short}{under} · marker: {holder}\n  _{top.ability}_")
    return "\n".join(lines)


def _players(view: View) -> str:
    v: Any = view
    lines = []
    for seat in range(v.players):
        marks = ("🧭" if seat == v.traveler else "") + ("🪶" if seat == v.shaman else "")
        turn = " ◀" if seat == v.awaiting else ""
        lines.append(f"{seat_ref(seat)} {marks} ⚡{v.energy[seat]} 🂠{v.hand_sizes[seat]}{turn}")
    return "\n".join(lines)


def _supplies(view: View) -> str:
    v: Any = view
    top = f" (top: {v.discard_top.short})" if v.discard_top else ""
    return (
        f"Energy source ⚡{v.source_energy}\nInfluence source 🟤{v.source_tokens} "
        f"· given today {v.tokens_given}\nTarot deck 🂠{v.deck_size} · discard {v.discard_size}{top}"
    )


def _cosmic(view: View) -> str:
    lines = []
    for event in _get(view, "cosmic") or []:
        stars = " ▸ eclipsed by ".join(
            f"{c.short} ({seat_ref(o)}){' 🚫' if i in event.blocked else ''}"
            for i, (c, o) in enumerate(zip(event.stars, event.owners, strict=True))
        )
        waiting = ", ".join(seat_ref(s) for s in event.responders) or "—"
        legend = " (🚫 blocked by the Shaman)" if event.blocked else ""
        top = event.stars[-1]
        lines.append(f"{stars}{legend}\n  _{top.short}: {top.ability}_\nStill to answer, in order: {waiting}")
    return "\n".join(lines)


def _tokens(tokens: list[int]) -> str:
    return " ".join(f"{t:+d}" for t in tokens) + f" (sum {sum(tokens):+d})" if tokens else "empty"


class ScalesOfInfluenceRenderer:
    def table(self, view: View) -> Panel:
        v: Any = view
        shaman = (
            "none yet"
            if v.shaman is None
            else f"{seat_ref(v.shaman)}{' (used today)' if v.shaman_used else ''}"
        )
        lines = [_tracker(v.phase), f"🧭 Traveler {seat_ref(v.traveler)} · 🪶 Shaman {shaman}"]
        if v.final_day:
            lines.append("⏳ **Final day**")
        if v.awaiting is not None:
            lines.append(f"▶ {seat_ref(v.awaiting)}: {v.awaiting_text}")
        panel = Panel(
            title=fit(f"⚖️ Scales of Influence — Day {v.day}", TITLE_MAX),
            description=fit("\n".join(lines), DESCRIPTION_MAX),
        )
        if v.cosmic:
            panel.add("🌠 Cosmic Event — the table is paused", fit(_cosmic(view), FIELD_MAX), inline=False)
        if v.prevention is not None:
            waiting = ", ".join(seat_ref(s) for s in v.prevention) or "—"
            choosing = f"Still to choose (Shaman / Star / pass): {waiting}"
            panel.add("⚠️ Prevent the end", fit(choosing, FIELD_MAX), False)
        panel.add("🔮 Reading", fit(_reading(view), FIELD_MAX), inline=False)
        panel.add("⚖️ Scale", _scale_bar(v.scale["shadow"], v.scale["light"]))
        panel.add("Players", fit(_players(view), FIELD_MAX))
        panel.add("Supplies", _supplies(view), inline=False)
        if v.revealed_bags is not None:
            bags = v.revealed_bags
            bags = f"🌑 Shadow: {_tokens(bags['shadow'])}\n🌕 Light: {_tokens(bags['light'])}"
            panel.add("Influence revealed", bags, inline=False)
        if v.lingering:
            panel.add("Kept for the next day", fit(", ".join(c.short for c in v.lingering), FIELD_MAX), False)
        panel.footer = "With a Harmony player" if v.harmony_in_game else "Shadow vs Light (no Harmony)"
        return panel

    def hand(self, view: View) -> Panel:
        v: Any = view
        if v.alignment is None or v.viewer is None:
            return Panel(title="🂠 My hand", description="Only seated players have a hand.")
        alignment = v.alignment
        lines = [
            f"You are **{ALIGNMENT[alignment]}** — {OBJECTIVE[alignment]}",
            f"⚡ Energy: {v.energy[v.viewer]}",
        ]
        if v.drawn_tokens:
            lines.append("🟤 Influence drawn: " + " and ".join(f"{t:+d}" for t in v.drawn_tokens))
        panel = Panel(title="🂠 My hand", description=fit("\n".join(lines), DESCRIPTION_MAX))
        cards = v.hand or []
        for element, label in ELEMENTS:
            mine = sorted((c for c in cards if c.element == element), key=lambda c: c.rank)
            if mine:
                text = "\n".join(f"{c.short} — {c.ability}" for c in mine)
                panel.add(f"{label} ({len(mine)})", fit(text, FIELD_MAX), inline=False)
        if not cards:
            panel.add("Cards", "No cards in hand.", inline=False)
        return panel

    def result(self, result: Result, view: View) -> Panel:
        v: Any = view
        winners = ", ".join(seat_ref(s) for s in result.winners)
        panel = Panel(
            title="Scales of Influence — game over",
            description=fit(result.summary, DESCRIPTION_MAX),
        )
        if v.winner == "draw":
            panel.add("Result", "Shadow and Light share the Scale.", inline=False)
        else:
            side = ALIGNMENT.get(v.winner or "", "")
            panel.add("Winners", fit(f"{side}: {winners}", FIELD_MAX), inline=False)
        alignments = v.alignments or []
        reveal = "\n".join(f"{seat_ref(s)} — {ALIGNMENT[a]}" for s, a in enumerate(alignments))
        panel.add("Alignments revealed", fit(reveal, FIELD_MAX) or "—", inline=False)
        panel.add("⚖️ Final Scale", _scale_bar(v.scale["shadow"], v.scale["light"]))
        return panel


RENDERER = ScalesOfInfluenceRenderer()
