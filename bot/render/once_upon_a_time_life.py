"""Once Upon a Time… Life as panels: the board with every pawn, each player's
tokens, kept cards (how many), lost turns, the open question with its answers
in the order shown, a duel in progress; "My hand" with the kept cards' text.

Only views are rendered, so a kept Master or Virus, a deck's order or the
right answer of an open question can never appear here before their time.
"""

from __future__ import annotations

from bot.render.base import DESCRIPTION_MAX, FIELD_MAX, FOOTER_MAX, NAME_MAX, Panel, add_ranking, fit
from engines.core import Result, View
from engines.once_upon_a_time_life.tokens import NAMES, Tokens
from engines.once_upon_a_time_life.views import LifeView, SeatInfo
from engines.words import plural

GLYPHS = {
    "start": "🏁",
    "leukocyte": "⚪",
    "medicine": "💊",
    "virus": "🦠",
    "bacteria": "🧫",
    "chance": "🍀",
    "bad_luck": "⛈️",
    "question": "❓",
}
PAWNS = ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣"]
LEGEND = (
    "🏁 START · ⚪ Leukocyte · 💊 Medicine · 🦠 Virus · 🧫 Bacteria · 🍀 Chance · ⛈️ Bad Luck · "
    "❓ Question · 1️⃣–4️⃣ pawns"
)
LETTERS = "ABCD"


def _view(view: View) -> LifeView:
    assert isinstance(view, LifeView), "the Once Upon a Time… Life renderer needs its own view"
    return view


def purse_text(tokens: Tokens) -> str:
    return " · ".join(f"{NAMES[k]} {tokens.of(k)}" for k in ("hemo", "globin", "leukocyte", "medicine"))


def board_lines(v: LifeView) -> list[str]:
    """One line per body system, each space a symbol, a pawn shown by its seat number."""
    here: dict[int, list[int]] = {}
    for info in v.seats:
        if info.position is not None:
            here.setdefault(info.position, []).append(info.seat)
    lines = []
    for system in v.systems:
        cells = []
        for offset, kind in enumerate(system.spaces):
            pawns = here.get(system.start + offset)
            cells.append("".join(PAWNS[s] for s in pawns) if pawns else GLYPHS.get(kind, "·"))
        lines.append(f"{system.icon} {' '.join(cells)}")
    away = [f"{PAWNS[i.seat]} {i.away}" for i in v.seats if i.away]
    if away:
        lines.append("Off the loop: " + ", ".join(away))
    return lines


def question_lines(v: LifeView) -> list[str]:
    q = v.question
    if q is None:
        return []
    what = {"space": "", "vabanque": " (va banque)", "attack": " (duel)", "counter": " (counterattack)"}
    lines = [
        f"**{q.level.capitalize()} question{what.get(q.purpose, '')} for <seat:{q.answerer}>** "
        f"({v.answer_seconds} s): {q.text}"
    ]
    lines += [f"{LETTERS[i]}: {a}" for i, a in enumerate(q.answers)]
    return lines


def _challenge(v: LifeView) -> str:
    c = v.challenge
    if c is None:
        return ""
    if c.kind == "virus":
        return f"🦠 <seat:{c.by}> attacks <seat:{c.target}> with a Virus card."
    level = (c.level or "").capitalize()
    text = f"⚔️ Master duel: <seat:{c.by}> challenges <seat:{c.target}> ({level} questions)."
    if c.dice:
        last = c.dice[-1]
        text += f" Dice: {last[0]}+{last[1]} against {last[2]}+{last[3]}."
    if c.winner is not None:
        text += f" <seat:{c.winner}> won."
    return text


def pawn_text(info: SeatInfo) -> str:
    """ "🔴 Red pawn · 🫀 Circulatory system · space 1", or that the pawn is still to choose."""
    if info.pawn is None and not info.system:
        return f"{PAWNS[info.seat]} choosing a pawn"
    where = info.away or f"space {(info.position or 0) + 1}"
    pawn = f" {info.pawn.mark} {info.pawn.name} pawn ·" if info.pawn else ""
    return f"{PAWNS[info.seat]}{pawn} {info.icon} {info.system} · {where}"


def _seat(v: LifeView, info: SeatInfo) -> tuple[str, str]:
    mark = " ▶" if v.turn == info.seat else ""
    parts = [pawn_text(info), purse_text(info.tokens)]
    if info.cards:
        parts.append(f"{plural(info.cards, 'card')} kept")
    if info.skips:
        parts.append(f"loses {plural(info.skips, 'turn')}")
    return fit(f"<seat:{info.seat}>{mark}", NAME_MAX), fit("\n".join(parts), FIELD_MAX)


class OnceUponATimeLifeRenderer:
    def table(self, view: View) -> Panel:
        v = _view(view)
        lines = [f"**{v.headline}**", *board_lines(v)]
        if v.free_pawns:
            free = " · ".join(f"{p.mark} {p.name} ({p.system.replace(' system', '')})" for p in v.free_pawns)
            lines.append(f"Pawns to choose: {free}")
        if v.last_roll is not None:
            lines.append(f"Last roll: 🎲 {v.last_roll}")
        lines += question_lines(v)
        if v.challenge is not None:
            lines.append(_challenge(v))
        if v.stage == "vabanque":
            lines.append(f"Va banque? <seat:{v.turn}> may risk the {v.earned} Globin just earned.")
        lines.append(f"First to {v.hemo_to_win} Hemo wins. Bank: {purse_text(v.bank)}")
        lines.append(
            f"Chance {v.chance_left} · Bad Luck {v.bad_luck_left} · questions left: "
            f"Easy {v.questions_left['easy']}, Hard {v.questions_left['hard']}"
        )
        lines.append(LEGEND)
        panel = Panel(title="Once Upon a Time… Life", description=fit("\n".join(lines), DESCRIPTION_MAX))
        for info in v.seats:
            panel.add(*_seat(v, info))
        return panel

    def hand(self, view: View) -> Panel:
        v = _view(view)
        cards = [f"**{c.name}** — {c.text}" for c in v.hand or []]
        text = "\n".join(cards) or "(no kept cards)"
        panel = Panel(
            title="My hand", description=fit(text, DESCRIPTION_MAX), footer=fit(v.headline, FOOTER_MAX)
        )
        if v.viewer is not None:
            me = v.seats[v.viewer]
            panel.add("My tokens", purse_text(me.tokens), inline=False)
            if me.skips:
                panel.add("Lost turns", str(me.skips))
            if v.question is not None and v.question.answerer == v.viewer:
                panel.add("My question", fit("\n".join(question_lines(v)), FIELD_MAX), inline=False)
        return panel

    def result(self, result: Result, view: View) -> Panel:
        v = _view(view)
        panel = Panel(
            title="Once Upon a Time… Life — game over", description=fit(result.summary, DESCRIPTION_MAX)
        )
        return add_ranking(panel, result, lambda s: f"<seat:{s}> ({purse_text(v.seats[s].tokens)})", "; ")


RENDERER = OnceUponATimeLifeRenderer()
