"""Moderator-run tournaments: formats and pairing, scoring, standings, and the
service that runs rounds on ordinary tables (platform-neutral, no discord import)."""
