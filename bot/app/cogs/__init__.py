"""The slash commands, one cog per subject, and the options several share
(``options``). Thin: parse the interaction, call the flows or a service,
answer. They may import ``bot.app.ui``, ``bot.app.hosting`` (the bot as they
see it), the service, tournaments and storage; never ``bot.app.application``."""
