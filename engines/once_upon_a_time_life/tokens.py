"""Tokens: a purse of the four kinds, the bank, and paying a debt by the
conversion card (2 Leukocyte → 1 Globin, 2 Medicine → 1 Globin, 4 Globin →
1 Hemo), giving everything when even that falls short."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import BaseModel

TokenKind = Literal["hemo", "globin", "leukocyte", "medicine"]
KINDS: tuple[TokenKind, ...] = ("hemo", "globin", "leukocyte", "medicine")
NAMES = {"hemo": "Hemo", "globin": "Globin", "leukocyte": "Leukocyte", "medicine": "Medicine"}
# The exchanges of the conversion card: what is given, how many, for what.
EXCHANGES: dict[TokenKind, tuple[int, TokenKind]] = {
    "globin": (4, "hemo"), "leukocyte": (2, "globin"), "medicine": (2, "globin"),
}
# A token's worth in Globin by the conversion card: the ranking of those who
# did not reach the magic seven (RULES.md).
WORTH: dict[TokenKind, float] = {"hemo": 4.0, "globin": 1.0, "leukocyte": 0.5, "medicine": 0.5}


class Tokens(BaseModel):
    hemo: int = 0
    globin: int = 0
    leukocyte: int = 0
    medicine: int = 0

    def of(self, kind: TokenKind) -> int:
        value: int = getattr(self, kind)
        return value

    def add(self, kind: TokenKind, n: int) -> None:
        setattr(self, kind, self.of(kind) + n)

    def worth(self) -> float:
        return sum(WORTH[k] * self.of(k) for k in KINDS)


def tokens_text(counts: Mapping[TokenKind, int]) -> str:
    """"2 Globin and 1 Leukocyte"; "nothing" when empty."""
    parts = [f"{n} {NAMES[k]}" for k, n in counts.items() if n]
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def move(source: Tokens, target: Tokens, kind: TokenKind, n: int) -> int:
    """Move up to ``n`` tokens of ``kind``; returns how many moved."""
    moved = max(0, min(n, source.of(kind)))
    source.add(kind, -moved)
    target.add(kind, moved)
    return moved


def exchange(purse: Tokens, bank: Tokens, give: TokenKind) -> bool:
    """One exchange of the conversion card at the bank, if the purse and the bank allow it."""
    cost, gets = EXCHANGES[give]
    if purse.of(give) < cost or bank.of(gets) < 1:
        return False
    move(purse, bank, give, cost)
    move(bank, purse, gets, 1)
    return True


def raise_globin(purse: Tokens, bank: Tokens, needed: int) -> None:
    """Convert Leukocyte and Medicine pairs into Globin until ``needed`` is reached or no pair is left."""
    while purse.globin < needed and (exchange(purse, bank, "leukocyte") or exchange(purse, bank, "medicine")):
        pass


def settle(
    purse: Tokens, bank: Tokens, to: Tokens, kind: TokenKind, n: int, keep_hemo: bool
) -> dict[TokenKind, int]:
    """Pay ``n`` tokens of ``kind`` into ``to``, converting by the card where the
    purse lacks them; if still short, the whole purse goes (but its Hemo when
    ``keep_hemo``). Returns what was paid."""
    if kind == "globin":
        raise_globin(purse, bank, n)
    elif kind == "hemo" and purse.hemo < n:
        raise_globin(purse, bank, 4)
        exchange(purse, bank, "globin")
    if purse.of(kind) >= n:
        move(purse, to, kind, n)
        return {kind: n}
    paid: dict[TokenKind, int] = {}
    for each in KINDS:
        if each == "hemo" and keep_hemo:
            continue
        moved = move(purse, to, each, purse.of(each))
        if moved:
            paid[each] = moved
    return paid
