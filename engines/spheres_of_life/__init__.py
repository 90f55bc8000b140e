"""Spheres of Life — the card game of Noble and Corrupted animals, Heroes and Dreams.

Implements the rulebook and FAQ in ``/shared/rules/spheres-of-life.txt`` (Standard
"Become the Strongest Hero", the pace "key changes", the Purist Way, Restore the
Balance, multiple decks, matches of several rounds). Where the rulebook is silent
or ambiguous, the decisions are listed in ``RULES.md`` with the tests covering
them. Departures: a Steal takes a face-down card by position (the FAQ's reason
for Blessed Cherry), Heroes lie face up in front of their owner rather than in
the hand, and all cards beyond those the rulebook names are this project's
design (see ``cards.toml``).
"""

from engines.spheres_of_life.cards import DeckSpec, parse_deck
from engines.spheres_of_life.rules import ENGINE, SpheresOfLife
from engines.spheres_of_life.state import SolOptions, SolState

__all__ = ["ENGINE", "DeckSpec", "SolOptions", "SolState", "SpheresOfLife", "parse_deck"]
