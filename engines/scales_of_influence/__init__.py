"""Scales of Influence — hidden Shadow, Light and Harmony alignments tip a Scale.

Implements ``shared/rules/scales-of-influence.txt`` (all of it: Sun, Moon,
Reading, Weighing, Cosmic Events, the Shaman, the "prevent the end" round, the
deck and Traveler endings and the Shadow vs Light variant). Where the rulebook
is silent this package decides, and ``RULES.md`` lists every such decision with
its test. The rulebook names only three card abilities (Deception, The Fighter,
The Light); the other 74 are this project's own design (see ``cards.toml``).
"""

from engines.scales_of_influence.cards import DeckSpec, parse_deck
from engines.scales_of_influence.rules import ScalesOfInfluence, SoiOptions

ENGINE = ScalesOfInfluence()

__all__ = ["ENGINE", "DeckSpec", "ScalesOfInfluence", "SoiOptions", "parse_deck"]
