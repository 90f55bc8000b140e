"""A verifiable shuffle: a table publishes a hash of its seed when the game
starts and the seed itself when it ends, with a hash of the final state, so
anyone can replay the public log (``gametable replay``) and check that the
cards were not arranged after the fact.

The hash covers the table id as well as the seed, so two tables never share
one, and the seed is 128 random bits, so it cannot be found by trying seeds. A
seed chosen by hand (a test, ``gametable play --seed``) is short enough to be
found from its hash, which would give away every hidden card: such a table
publishes no seal.
"""

from __future__ import annotations

import hashlib

from engines.core import Event
from storage.records import TableRecord

SEALED_BITS = 64


def sealable(seed: int) -> bool:
    """Whether the seed is long enough that its hash keeps it secret."""
    return seed.bit_length() > SEALED_BITS


def seal(table_id: str, seed: int) -> str:
    """The published commitment to a table's seed."""
    return hashlib.sha256(f"gametable:{table_id}:{seed}".encode()).hexdigest()


def state_hash(state_json: str) -> str:
    return hashlib.sha256(state_json.encode()).hexdigest()


def sealed(record: TableRecord) -> Event:
    if not sealable(record.seed):
        return Event(text="This table's seed was chosen by hand, so its shuffle is not sealed.", kind="seal")
    return Event(
        text=f"🔒 The shuffle is sealed: sha256 `{seal(record.id, record.seed)}`. "
        "The seed is published when the game ends, so anyone can check it.",
        kind="seal",
    )


def unsealed(record: TableRecord, final_state: str) -> Event:
    # A table of no server is a terminal's: its log is written by `gametable log`.
    terminal = record.guild_id is None and record.channel_id is None
    get_log = f"gametable log {record.id}" if terminal else f"/table log table:{record.id}"
    return Event(
        text=f"🔓 The seed was `{record.seed}`; the final state's sha256 is `{state_hash(final_state)}`. "
        f"To check the game: `{get_log}`, then `gametable replay log-{record.id}.jsonl`.",
        kind="seal",
    )
