"""How a serving process's garbage collector runs.

A bot process holds a large heap that lives as long as it does (every module,
the engines' card data, the tables it wrote last), and every act allocates
thousands of short-lived containers (a record parsed, a game state loaded, JSON
written out) that die by reference counting, not by the collector. With
CPython's default thresholds (700, 10, 10) the youngest generation is
collected every few hundred allocations and the middle one every few
thousand: ``gametable bench`` measured 12% of the CPU per act spent there at
50 acts in flight, finding almost nothing to free.

So a serving process moves what its start-up made out of the collector's
sight (``gc.freeze``) and collects the young generation less often (the
older ones keep CPython's ratios of 10). Reference cycles are still freed,
only later: a cycle waits at most until the next young collection, so at most
``YOUNG`` dead containers (a few megabytes at worst) wait with it.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

YOUNG = 20_000
MIDDLE = 10
OLD = 10


@contextlib.contextmanager
def serving() -> Iterator[None]:
    """Tune the collector for what runs inside, and put it back after (a
    benchmark run inside a test process leaves it as it found it). Enter once
    the process has imported what it serves with."""
    before = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, MIDDLE, OLD)
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()
