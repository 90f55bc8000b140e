"""Tokens: a purse of the four kinds, the bank, and paying a debt by the
conversion card (2 Leukocyte → 1 Globin, 2 Medicine → 1 Globin, 4 Globin =
1 Hemo), giving everything when even that falls short."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Literal

from pydantic import BaseModel

from engines.words import and_list

TokenKind = Literal["hemo", "globin", "leukocyte", "medicine"]
KINDS: tuple[TokenKind, ...] = ("hemo", "globin", "leukocyte", "medicine")
NAMES = {"hemo": "Hemo", "globin": "Globin", "leukocyte": "Leukocyte", "medicine": "Medicine"}
# The exchanges of the conversion card: what is given, how many, for what.
EXCHANGES: dict[TokenKind, tuple[int, TokenKind]] = {
    "globin": (4, "hemo"),
    "leukocyte": (2, "globin"),
    "medicine": (2, "globin"),
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
    """ "2 Globin and 1 Leukocyte"; "nothing" when empty."""
    parts = [f"{n} {NAMES[k]}" for k, n in counts.items() if n]
    if not parts:
        return "nothing"
    return and_list(parts)


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


class Paid(BaseModel):
    """What a debt took: the tokens handed over, and the exchanges made at the bank first."""

    tokens: dict[TokenKind, int]
    exchanged: list[str]
    everything: bool = False


def raise_globin(purse: Tokens, bank: Tokens, needed: int, exchanged: list[str]) -> None:
    """Convert Leukocyte and Medicine pairs into Globin until ``needed`` is reached or no pair is left."""
    pairs: tuple[TokenKind, ...] = ("leukocyte", "medicine")
    while purse.globin < needed:
        for kind in pairs:
            if exchange(purse, bank, kind):
                exchanged.append(f"2 {NAMES[kind]} for 1 Globin")
                break
        else:
            return


def break_hemo(purse: Tokens, bank: Tokens, exchanged: list[str]) -> bool:
    """The conversion card read the other way: 1 Hemo changed at the bank for 4 Globin."""
    cost, _ = EXCHANGES["globin"]
    if purse.hemo < 1 or bank.globin < cost:
        return False
    move(purse, bank, "hemo", 1)
    move(bank, purse, "globin", cost)
    exchanged.append(f"1 Hemo for {cost} Globin")
    return True


def exchanges_text(exchanged: list[str]) -> str:
    """ "2 Leukocyte for 1 Globin twice and 1 Hemo for 4 Globin", in the order made."""
    counts = Counter(exchanged)
    parts = [f"{what} {_TIMES.get(n, f'{n} times')}".rstrip() for what, n in counts.items()]
    return and_list(parts)


_TIMES = {1: "", 2: "twice"}


def settle(purse: Tokens, bank: Tokens, to: Tokens, kind: TokenKind, n: int, break_hemo_too: bool) -> Paid:
    """Pay ``n`` tokens of ``kind`` into ``to``, exchanging by the conversion card
    what the purse lacks, so that exactly the debt's worth is paid (RULES.md
    decision 19). Leukocyte and Medicine pairs are changed first; a duel's
    loser (``break_hemo_too``) then changes a Hemo into 4 Globin. Still short,
    the whole purse goes (but its Hemo when a Hemo may not be changed)."""
    exchanged: list[str] = []
    cost, _ = EXCHANGES["globin"]
    if kind == "globin":
        raise_globin(purse, bank, n, exchanged)
        if purse.globin < n and break_hemo_too and not break_hemo(purse, bank, exchanged) and purse.hemo:
            # A bank without 4 Globin to change it: the Hemo is the debt's worth by the card.
            move(purse, to, "hemo", 1)
            return Paid(tokens={"hemo": 1}, exchanged=exchanged)
    elif kind == "hemo" and purse.hemo < n:
        raise_globin(purse, bank, cost * n, exchanged)
        if purse.globin >= cost * n:
            if not exchange(purse, bank, "globin"):
                # A bank without a Hemo to give: its worth by the card, in Globin.
                move(purse, to, "globin", cost * n)
                return Paid(tokens={"globin": cost * n}, exchanged=exchanged)
            exchanged.append(f"{cost} Globin for 1 Hemo")
    if purse.of(kind) >= n:
        move(purse, to, kind, n)
        return Paid(tokens={kind: n}, exchanged=exchanged)
    paid: dict[TokenKind, int] = {}
    for each in KINDS:
        if each == "hemo" and not break_hemo_too:
            continue
        moved = move(purse, to, each, purse.of(each))
        if moved:
            paid[each] = moved
    return Paid(tokens=paid, exchanged=exchanged, everything=True)
