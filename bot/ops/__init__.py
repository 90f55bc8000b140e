"""The operator's side: the ``gametable`` command line, settings, logs,
metrics, the health endpoint and the garbage collector's tuning.

What belongs here: what starts, configures and watches a running bot. The
command line (:mod:`bot.ops.cli`) is the top floor and may import anything in
``bot``; the other modules here import nothing of ``bot`` outside ``bot.ops``,
so every other floor may use settings, logs and metrics.
"""
