"""Time Masters — the deck-building game of spells, focuses and timers.

Implements the rulebook in ``/shared/rules/time-masters.txt``. Where it is
silent (when Kè is paid for a spell laid on a timer, what resting means, the
first player, the most Kè one may hold) the decisions are in ``RULES.md`` with
the tests covering them. Every card is this project's design (``cards.toml``).
"""

from engines.time_masters.cards import DeckSpec, parse_deck
from engines.time_masters.rules import ENGINE, TimeMasters
from engines.time_masters.state import TmOptions, TmState

__all__ = ["ENGINE", "DeckSpec", "TimeMasters", "TmOptions", "TmState", "parse_deck"]
