"""What a player has legitimately seen of another player's hand.

A regular Steal takes a random card. Only a card the thief has been shown (by
Blessed Cherry, or by a card that looks at the whole hand, such as the Druid)
may be stolen by name, as the rulebook's Blessed Cherry answer explains. That
knowledge lasts while the card stays in that hand and its owner keeps the
order: reordering one's hand (which the Druid forbids) shuffles it away.
"""

from __future__ import annotations

from engines.spheres_of_life.state import Seen, SolState


def remember(state: SolState, looker: int, owner: int, cards: list[int]) -> None:
    """``looker`` has just been shown ``cards`` in ``owner``'s hand."""
    if looker == owner:
        return
    known = {(s.looker, s.owner, s.card) for s in state.seen}
    state.seen += [Seen(looker=looker, owner=owner, card=c) for c in cards if (looker, owner, c) not in known]


def seen_in(state: SolState, looker: int, owner: int) -> list[int]:
    """The cards of ``owner``'s hand that ``looker`` knows, in hand order."""
    known = {s.card for s in state.seen if s.looker == looker and s.owner == owner}
    return [c for c in state.hands[owner] if c in known]


def forget_hand(state: SolState, owner: int, keep: int | None = None) -> None:
    """``owner``'s hand was reordered or swapped away: nobody knows where its cards are
    (but ``keep``, the player who rearranged it)."""
    state.seen = [s for s in state.seen if s.owner != owner or s.looker == keep]


def prune(state: SolState) -> None:
    """Forget cards that have left the hand they were seen in. Run after every move,
    so a card that leaves and later comes back is not known again."""
    if state.seen:
        state.seen = [s for s in state.seen if s.card in state.hands[s.owner]]
