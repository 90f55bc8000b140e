"""Who is posting a tournament table's message: several processes may seat the
same round at once (each one's tick sees it due), and each table is posted by
one of them. A claim lapses on its own, so a process that dies while posting
holds up the table only for a while."""

from __future__ import annotations

import secrets

from redis.asyncio import Redis

from storage import keys
from storage.outbox import RELEASE

POST_LEASE_MS = 120_000


def post_key(table_id: str) -> str:
    return f"{keys.table(table_id)}:posting"


class PostClaims:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._release = redis.register_script(RELEASE)  # any token-held lease

    async def claim(self, table_id: str, ms: int = POST_LEASE_MS) -> str | None:
        """Take the table's posting for this process (a token), or ``None`` while another has it."""
        token = secrets.token_hex(8)
        return token if await self.redis.set(post_key(table_id), token, nx=True, px=ms) else None

    async def release(self, table_id: str, token: str) -> None:
        await self._release(keys=[post_key(table_id)], args=[token])
