"""Whether a deck and options make a game that can end, checked before it starts.

The rulebook's only end is two empty spheres, and its only ways to be rid of a
card in hand are to play it or to lay it on a timer; cleanup discards only what
was played. So a spell dearer than the most Kè a player can hold is a dead card
that stays in the hand for good, and a table whose hands fill with such cards
can never end (RULES.md decision 17). Rather than invent a rule, such options
and decks are refused with a sentence saying what to change.

What is checked is enough for the game to be able to end: every card can be
played, the starting deck gives access points (sphere 1 can be emptied), and
the starting deck with sphere 1's cards can give two in one turn (sphere 2 can
be emptied). It is on the safe side: a deck that needs a sphere 2 card to reach
two access points is refused, with the sentence saying why.
"""

from __future__ import annotations

from engines.core import IllegalAction
from engines.time_masters.cards import CardSpec, DeckSpec
from engines.time_masters.state import TmOptions


def check_playable(deck: DeckSpec, options: TmOptions) -> None:
    """Raise :class:`IllegalAction` naming what would lock a game of this deck under these options."""
    reason = why_unplayable(deck, options)
    if reason is not None:
        raise IllegalAction(reason)


def why_unplayable(deck: DeckSpec, options: TmOptions) -> str | None:
    """The sentence refusing this deck under these options, or ``None`` when every game can end."""
    ke = options.ke
    dearest = max((c for c in deck.cards if c.kind == "spell"), key=lambda c: c.cost, default=None)
    if dearest is not None and dearest.cost > ke:
        return (
            f"{dearest.name} costs {dearest.cost} Kè but a player can never hold more than {ke} "
            f"(option ke): it could never be cast, and hands full of it would never let the game end. "
            f"Set ke to at least {dearest.cost} or make the spell cheaper."
        )
    starting = deck.pile(0)
    if not any(_gives_access(c) for c in starting):
        return (
            "The starting deck (level 0 cards) has no spell: access points come from spells cast, "
            "so nobody could ever buy a card and the game could never end."
        )
    spells = sum(c.copies for c in starting if c.kind == "spell")
    room = sum(c.capacity * c.copies for c in starting if c.kind == "timer")
    if room >= spells:
        # Only a full timer is ever activated: spells on one never filled stay there for good.
        return (
            f"The starting deck's timers hold {room} spells but it has only {spells}: spells laid on "
            "a timer that is never full stay there for good, and a player could be left with none. "
            "Give the starting deck more spells than its timers hold."
        )
    if not _two_access(starting + deck.pile(1), ke):
        return (
            f"With {ke} Kè no turn can give two access points from the starting deck and sphere 1 "
            "(two spells one can pay for together, a spell giving access, or a timer one has the spells "
            "to fill): sphere 2 could never be emptied, so the game could never end. "
            "Raise ke or add such a card."
        )
    return None


def _gives_access(card: CardSpec) -> bool:
    return card.kind == "spell" or any(e.do == "access" for e in card.effects)


def _two_access(cards: list[CardSpec], ke: int) -> bool:
    """Whether some hand of these cards gives two access points in one turn at full Kè."""
    spells = [c for c in cards if c.kind == "spell"]
    copies = sum(c.copies for c in spells)
    if any(any(e.do == "access" for e in c.effects) for c in spells):
        return True  # its own access point and the one it adds
    if any(c.kind == "focus" and any(e.do == "access" for e in c.effects) for c in cards):
        return True  # a spell and the focus: the hand holds at least three cards
    smallest = min((c.capacity for c in cards if c.kind == "timer"), default=None)
    if smallest is not None and copies >= max(2, smallest):
        # Fill the timer over several turns, a rest between, and cast what it holds (and
        # another spell, for a timer of one) in one turn.
        return True
    if copies < 2:
        return False
    costs = sorted(c.cost for c in spells for _ in range(c.copies))
    # One focus in the same hand may recover Kè between the two casts.
    recovery = max((_recovers(c, ke) for c in cards if c.kind == "focus"), default=0)
    return costs[0] + costs[1] <= ke + recovery


def _recovers(card: CardSpec, ke: int) -> int:
    if any(e.do == "refresh_ke" for e in card.effects):
        return ke
    return min(ke, sum(e.n for e in card.effects if e.do == "gain_ke"))
