"""The table service: the platform-neutral rooms behind every table.

What belongs here: tables and their changes (lobby, playing, sweeping, clocks,
undo and undo requests, seating, absence and away, pausing), finding and
reading tables, the policy of who may do what, ratings and news,
the table log and replays, the bots' moves, the shuffle, the errors the
service answers with.

It may import ``engines``, ``storage`` and ``bot.ops``' settings, logs and
metrics, and nothing of ``discord``, ``bot.tournaments`` (which runs on this
service), ``bot.app``, ``bot.terminal`` or ``bot.ops.cli``: the Discord
application and the terminal table are two faces of this one service.
"""
