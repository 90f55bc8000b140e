"""The terminal table: one game at one keyboard, through the same table
service and storage as the Discord bot.

What belongs here: the terminal session, its screen, what it shows, its
commands and its kept tables. It may import ``bot.service``, ``bot.render``,
``bot.ops.settings``, ``engines`` and ``storage``; never ``discord`` or
``bot.app``.
"""
