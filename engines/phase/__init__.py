"""Phase — the game of double-sided warriors.

Implements the rulebook in ``/shared/rules/phase.txt``. Where it is silent the
decisions are in ``RULES.md`` with the tests covering them. Cards marked
``origin = "rulebook"`` in ``cards.toml`` are reconstructed from the
rulebook's sample turn; the rest are this project's design.
"""

from engines.phase.cards import DeckSpec, parse_deck
from engines.phase.rules import ENGINE, Phase
from engines.phase.state import PhOptions, PhState

__all__ = ["ENGINE", "DeckSpec", "PhOptions", "PhState", "Phase", "parse_deck"]
