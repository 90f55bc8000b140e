"""Moderator-run tournaments: formats and pairing, scoring, standings, and the
service that runs rounds on ordinary tables (platform-neutral, no discord import).

It may import ``bot.service`` (tables, ratings, policy, errors), ``engines``
and ``storage``; never ``bot.app``, ``bot.terminal`` or ``bot.ops.cli``."""
