"""The addresses of the web pages, for the links the bot posts and the pages'
own links. Every page lives under its server (``/g/<guild>/…``): a page is
found only in the server its object belongs to."""

from __future__ import annotations


def _base(public_url: str) -> str:
    return public_url.rstrip("/")


def table(public_url: str, guild_id: int, table_id: str) -> str:
    return f"{_base(public_url)}/g/{guild_id}/t/{table_id}"


def replay(public_url: str, guild_id: int, table_id: str, move: int | None = None) -> str:
    at = "" if move is None else f"?move={move}"
    return f"{_base(public_url)}/g/{guild_id}/t/{table_id}/replay{at}"


def tournament(public_url: str, guild_id: int, tournament_id: str) -> str:
    return f"{_base(public_url)}/g/{guild_id}/tournaments/{tournament_id}"


def player(public_url: str, guild_id: int, user_id: int) -> str:
    return f"{_base(public_url)}/g/{guild_id}/players/{user_id}"
