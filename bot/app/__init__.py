"""The Discord application: the client, its cogs (slash commands), its ui
(views, embeds, flows) and the announcer that posts a table's news.

What belongs here: everything that speaks ``discord``. It may import
``bot.service``, ``bot.tournaments``, ``bot.render``, ``bot.ops.settings`` /
``metrics`` / ``health``, ``engines`` and ``storage``. Cogs and ui depend on
:class:`bot.app.hosting.TableHost` (what they use of the bot), never on the
application class in :mod:`bot.app.application`, which alone imports them all.
"""
