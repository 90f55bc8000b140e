"""Table lists: each user's, channel's and guild's tables, read a page at a time.

A list is two keys in one Redis Cluster slot (hash tag ``{user:ID}``,
``{channel:ID}``, ``{guild:ID}``): a sorted set of table ids in the list's
order, and a hash of what a list line shows about each (its *entry*), so one
script reads a page — ids and lines — in one round trip, whatever the list's
length. A third key of the same slot remembers recent removals.

Entries are hints, as every index: a command re-reads the table it is used on.
They are written beside each save (not inside its script: another slot), so two
saves of one table may land out of order; each entry carries its table's
version and the script keeps the newest. A removal leaves a short-lived mark
with its version, so a late write of an older version cannot bring the table
back; marks older than :data:`MARK_SECONDS` are forgotten a few at a time.

The sets that earlier versions kept under the old key names (see
:func:`legacy_key`) are turned into lists the first time a list is read, or by
``rebuild_indexes``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript
from redis.exceptions import NoScriptError

from storage import keys
from storage.records import TableRecord, TableStatus

# A write delayed longer than this is not expected: a removal's mark can go.
MARK_SECONDS = 3600.0
# The user's list: tables where it is their move first (by their time left), then the rest.
_THEIRS_AFTER = 1e11
_NO_DEADLINE = 9e10

# One list entry: keys order, lines, marks; then table id, version, score,
# line ('' removes), now, MARK_SECONDS. A function, so that a standalone
# Redis's save script can enter the lists itself (see storage.store).
ENTER_FUNCTION = """
local function enter(order, lines, marks, id, version, place, line, now, keep)
  local old = redis.call('HGET', lines, id)
  if old then
    local seen = tonumber(string.match(old, '^(%d+)|'))
    if seen and seen > tonumber(version) then return 0 end
  end
  if line == '' then
    redis.call('ZREM', order, id)
    redis.call('HSET', lines, id, version .. '|')
    redis.call('ZADD', marks, now, id)
  else
    redis.call('ZADD', order, place, id)
    redis.call('HSET', lines, id, version .. '|' .. line)
    redis.call('ZREM', marks, id)
  end
  local before = tonumber(now) - tonumber(keep)
  local gone = redis.call('ZRANGEBYSCORE', marks, '-inf', before, 'LIMIT', 0, 16)
  for _, old_id in ipairs(gone) do
    redis.call('ZREM', marks, old_id)
    if redis.call('ZSCORE', order, old_id) == false then redis.call('HDEL', lines, old_id) end
  end
  return 1
end
"""
# KEYS: order, lines, marks. ARGV: table id, version, score, line ('' removes), now, MARK_SECONDS.
ENTER = (
    ENTER_FUNCTION
    + """
return enter(KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6])
"""
)

# KEYS: order, lines. ARGV: first rank, last rank, a score. Returns the list's length, how
# many entries score below the score given (a user's moves), then id, line pairs.
PAGE = """
local ids = redis.call('ZRANGE', KEYS[1], ARGV[1], ARGV[2])
local out = {redis.call('ZCARD', KEYS[1]), redis.call('ZCOUNT', KEYS[1], '-inf', '(' .. ARGV[3])}
if #ids > 0 then
  local lines = redis.call('HMGET', KEYS[2], unpack(ids))
  for i, id in ipairs(ids) do
    out[#out + 1] = id
    out[#out + 1] = lines[i] or false
  end
end
return out
"""

# KEYS: order, lines. ARGV: first rank, last rank, how many matches at most, then
# needles: a line matches when it holds any of them (every line when none is
# given; see :func:`needles`). Returns the list's length, how many matches, the
# matches' id, line pairs, then (from rank 0) the list's first entries, as many.
# A line that is missing is a match too, so the caller can write it again.
FIND = """
local ids = redis.call('ZRANGE', KEYS[1], ARGV[1], ARGV[2])
local want = tonumber(ARGV[3])
local out = {redis.call('ZCARD', KEYS[1]), 0}
local firsts = {}
if #ids > 0 then
  local lines = redis.call('HMGET', KEYS[2], unpack(ids))
  for i, id in ipairs(ids) do
    local line = lines[i]
    if ARGV[1] == '0' and i <= want then
      firsts[#firsts + 1] = id
      firsts[#firsts + 1] = line or false
    end
    if out[2] < want then
      local hit = #ARGV < 4 or not line
      for n = 4, #ARGV do
        if hit then break end
        hit = string.find(line, ARGV[n], 1, true) ~= nil
      end
      if hit then
        out[2] = out[2] + 1
        out[#out + 1] = id
        out[#out + 1] = line or false
      end
    end
  end
end
for _, value in ipairs(firsts) do out[#out + 1] = value end
return out
"""


class Entry(BaseModel):
    """What a list line shows about a table, as of ``version``."""

    id: str
    version: int
    game: str
    status: TableStatus
    seats: int
    guild_id: int | None = None
    channel_id: int | None = None
    thread_id: int | None = None
    message_id: int | None = None
    updated_at: float
    deadline: float | None = None
    paused: bool = False
    headline: str = ""
    # In a user's list: whether the table waits for their move, and when their time runs out.
    your_move: bool = False
    your_due: float | None = None

    @property
    def due(self) -> float | None:
        """When the user's time (on their move) or else the table's next deadline runs out."""
        return self.your_due if self.your_move else self.deadline

    @property
    def link(self) -> str | None:
        if self.guild_id is None or self.channel_id is None or self.message_id is None:
            return None
        return f"https://discord.com/channels/{self.guild_id}/{self.channel_id}/{self.message_id}"


@dataclass(frozen=True)
class Page:
    entries: list[Entry]
    start: int  # the rank of the first entry
    total: int  # entries in the whole list (a hint: some may be stale)
    your_moves: int = 0  # in a user's list: tables waiting for their move

    @property
    def more(self) -> bool:
        return self.start + len(self.entries) < self.total


def scopes(record: TableRecord) -> list[str]:
    """The lists a table belongs in while it is active: those of the people
    seated at it (a host who left it is not), its channel and thread, its guild."""
    found = [f"user:{uid}" for uid in dict.fromkeys(record.user_ids)]
    for channel in dict.fromkeys(c for c in (record.channel_id, record.thread_id) if c is not None):
        found.append(f"channel:{channel}")
    if record.guild_id is not None:
        found.append(f"guild:{record.guild_id}")
    return found


def traced_scopes(salvaged: dict[str, Any]) -> list[str]:
    """The lists a damaged table can still be traced to (see :func:`storage.records.salvage`)."""
    found = [f"user:{uid}" for uid in dict.fromkeys([*salvaged.get("user_ids", []), salvaged.get("host_id")])]
    channels = [salvaged[name] for name in ("channel_id", "thread_id") if name in salvaged]
    found += [f"channel:{channel}" for channel in dict.fromkeys(channels)]
    if "guild_id" in salvaged:
        found.append(f"guild:{salvaged['guild_id']}")
    return [scope for scope in found if scope != "user:None"]


def list_keys(scope: str) -> list[str]:
    """The list's order, lines and removal marks: one slot (see :func:`keys.listing`)."""
    return [keys.listing(scope, part) for part in ("order", "lines", "marks")]


def legacy_key(scope: str) -> str:
    """The set of table ids an earlier version kept for the list."""
    kind, _, number = scope.partition(":")
    return {"user": keys.user, "channel": keys.channel, "guild": keys.guild}[kind](int(number))


def entry_of(record: TableRecord, scope: str) -> Entry:
    return _for_scope(record, scope, _shared_entry(record))


def _shared_entry(record: TableRecord) -> Entry:
    """The line every list shows of the table, but a user's list on their move."""
    return Entry(
        id=record.id,
        version=record.version,
        game=record.game,
        status=record.status,
        seats=len(record.seats),
        guild_id=record.guild_id,
        channel_id=record.channel_id,
        thread_id=record.thread_id,
        message_id=record.message_id,
        updated_at=record.updated_at,
        deadline=record.deadline,
        paused=record.clocks.paused_at is not None,
        headline=record.headline,
    )


def _for_scope(record: TableRecord, scope: str, shared: Entry) -> Entry:
    if scope.startswith("user:"):
        seat = record.seat_of(int(scope[5:]))
        # The clocks run exactly for the seats the game waits for (see bot.service.clocks).
        if record.status is TableStatus.PLAYING and seat is not None and seat in record.clocks.due:
            return shared.model_copy(update={"your_move": True, "your_due": record.clocks.due[seat]})
    return shared


def writes_of(record: TableRecord, now: float) -> list[Write]:
    """The table's entry in each list it belongs in while active; out of them
    once over. Every save makes these, so a line shown in several lists (all
    but a user's on their move) is built and written out once."""
    shared = _shared_entry(record) if record.status.active else None
    line = shared.model_dump_json() if shared is not None else None
    writes = []
    for scope in scopes(record):
        entry = None if shared is None else _for_scope(record, scope, shared)
        writes.append(enter(scope, record.id, record.version, entry, now, line if entry is shared else None))
    return writes


def score(entry: Entry, scope: str) -> float:
    """A user's list: their moves first, soonest due first, then the rest by
    time left; a channel's or guild's: the latest activity first."""
    if not scope.startswith("user:"):
        return -entry.updated_at
    due = entry.due if entry.due is not None else _NO_DEADLINE
    return due if entry.your_move else _THEIRS_AFTER + due


def moves_below(scope: str) -> str:
    """The score under which a list's entries are its user's moves (see :func:`score`)."""
    return repr(_THEIRS_AFTER) if scope.startswith("user:") else "-inf"


def enter(
    scope: str, table_id: str, version: int, entry: Entry | None, now: float, line: str | None = None
) -> Write:
    """KEYS and ARGV of :data:`ENTER`: the table's line in ``scope`` (``None``:
    out of the list); ``line``: the entry's JSON, when already written out."""
    if entry is None:
        place, line = "0", ""
    else:
        place, line = repr(score(entry, scope)), line if line is not None else entry.model_dump_json()
    return list_keys(scope), [table_id, str(version), place, line, repr(now), repr(MARK_SECONDS)]


Write = tuple[list[str], list[str]]  # one ENTER call: its keys and arguments


async def write(
    redis: Redis, script: AsyncScript, writes: Sequence[Write], more: Callable[[Any], None] | None = None
) -> None:
    """Run list writes, and the plain commands ``more`` queues on a pipeline:
    all in one pipeline, or on a cluster (whose pipelines refuse scripts) the
    scripts and that pipeline side by side. ``script`` is ``redis``'s registered
    :data:`ENTER`."""
    if not writes and more is None:
        return
    if isinstance(redis, RedisCluster):
        pipe = redis.pipeline(transaction=False)
        if more is not None:
            more(pipe)
        await asyncio.gather(pipe.execute(), *(script(keys=k, args=a) for k, a in writes))
        return
    for attempt in (1, 2):
        # EVALSHA, not the script object: a pipeline holding scripts first asks whether they exist.
        pipe = redis.pipeline(transaction=False)
        for names, args in writes:
            pipe.evalsha(script.sha, len(names), *names, *args)
        if more is not None:
            more(pipe)
        replies = await pipe.execute(raise_on_error=False)
        if attempt == 1 and any(isinstance(reply, NoScriptError) for reply in replies):
            await redis.script_load(ENTER)  # Redis restarted since: nothing of it ran
            continue
        if failed := [reply for reply in replies if isinstance(reply, Exception)]:
            raise failed[0]
        return


def parse_page(reply: list[Any], start: int) -> tuple[Page, list[str]]:
    """The page a :data:`PAGE` reply holds, and the ids whose line is missing or unreadable."""
    total, your_moves = int(reply[0]), int(reply[1])
    broken: list[str] = []
    entries = _read_lines(list(zip(reply[2::2], reply[3::2], strict=True)), broken)
    return Page(entries, start, total, your_moves), broken


def _read_lines(pairs: list[tuple[Any, Any]], broken: list[str]) -> list[Entry]:
    """The entries of a reply's (id, line) pairs; the ids whose line is missing
    or unreadable go to ``broken``."""
    entries = []
    for raw_id, raw_line in pairs:
        table_id = _text(raw_id)
        entry = _entry(_text(raw_line)) if raw_line else None
        if entry is None or entry.id != table_id:
            broken.append(table_id)
        else:
            entries.append(entry)
    return entries


@dataclass(frozen=True)
class Found:
    """What :data:`FIND` read of a list: its length, the entries that matched
    (at most as many as asked) and its first entries; ``broken`` names the
    matches and first entries whose line is missing or cannot be read."""

    total: int
    matches: list[Entry]
    first: list[Entry]
    broken: list[str]


def needles(
    *, channel: int | None = None, status: TableStatus | None = None, guild: int | None = None
) -> list[str]:
    """What :data:`FIND` looks for in a line: the table's channel or thread is
    ``channel``, or its status is ``status``, or its server is ``guild``. A line is its entry's JSON, whose
    strings escape every quote, so ``"name":value,`` can only be the field
    itself (each field named here is followed by another one)."""
    found = []
    if channel is not None:
        found += [f'"channel_id":{channel},', f'"thread_id":{channel},']
    if status is not None:
        found.append(f'"status":{json.dumps(status.value)},')
    if guild is not None:
        found.append(f'"guild_id":{guild},')
    return found


def parse_found(reply: list[Any]) -> Found:
    """The :class:`Found` a :data:`FIND` reply holds."""
    total, matched = int(reply[0]), int(reply[1])
    pairs = list(zip(reply[2::2], reply[3::2], strict=True))
    broken: list[str] = []
    matches, first = _read_lines(pairs[:matched], broken), _read_lines(pairs[matched:], broken)
    return Found(total, matches, first, list(dict.fromkeys(broken)))


def _entry(stored: str) -> Entry | None:
    _, _, line = stored.partition("|")
    if not line:
        return None
    try:
        return Entry.model_validate(json.loads(line))
    except ValueError:
        return None


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
