"""The web face: pages served by the bot process itself (aiohttp, Jinja2
templates) for a server that turned them on with ``/settings web on`` —
a live table, a finished game's replay, a tournament, a player.

What belongs here: everything that speaks HTTP and HTML. It may import
``bot.service``, ``bot.tournaments``, ``bot.render``, ``bot.ops`` tools,
``engines`` and ``storage``; never ``discord``, ``bot.app`` or
``bot.terminal``. Every page is built from public views and public log
entries only (see :mod:`bot.web.site`)."""
