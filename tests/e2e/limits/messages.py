"""Messages (create, edit, followups, interaction responses), as Discord's message resource and its
"Uploading Files" section state them: content, emptiness, flags, allowed_mentions, files."""

from __future__ import annotations

from typing import Any

from tests.e2e.limits.common import MIB, NO_CONTEXT, Context, count, length
from tests.e2e.limits.components import check_message_components
from tests.e2e.limits.embeds import check_embeds, check_media_url
from tests.e2e.options import walk_components

IS_COMPONENTS_V2 = 1 << 15
SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, IS_VOICE_MESSAGE = 1 << 2, 1 << 12, 1 << 13
CREATE_FLAGS = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_VOICE_MESSAGE | IS_COMPONENTS_V2
MENTION_TYPES = ("users", "roles", "everyone")
# Each file may weigh up to the upload limit: 10 MiB by default, more only on boosted servers or for
# Nitro users, which the bot cannot count on. A request as a whole may not exceed 25 MiB.
MAX_FILE, MAX_REQUEST, MAX_FILES = 10 * MIB, 25 * MIB, 10


def is_empty(message: dict[str, Any], *, files: int = 0) -> bool:
    """Nothing to show: Discord refuses to send it (50006 "Cannot send an empty message")."""
    shown = ("embeds", "components", "sticker_ids", "attachments", "poll", "shared_client_theme")
    text = str(message.get("content") or "").strip()
    return not text and not files and not any(message.get(k) for k in shown)


def check_message(
    body: dict[str, Any], where: str = "message", *, create: bool = True, context: Context = NO_CONTEXT
) -> None:
    """``create``: a new message (must not be empty); otherwise an edit, where absent fields stay."""
    length(f"{where}.content", body.get("content"), 2000)
    length(f"{where}.nonce", body.get("nonce"), 25)
    count(f"{where}.sticker_ids", body.get("sticker_ids"), 3, "stickers")
    if create:
        assert not is_empty(body, files=len(context.files)), (
            f"{where}: empty message - needs content, embeds, components, stickers, files or a poll"
        )
    files = check_files(context, where)
    flags = int(body.get("flags") or 0)
    v2 = bool(flags & IS_COMPONENTS_V2)
    if v2:
        used = [k for k in ("content", "embeds", "sticker_ids", "poll") if body.get(k)]
        assert not used, f"{where}: {', '.join(used)} not allowed with IS_COMPONENTS_V2"
    check_embeds(body.get("embeds") or [], f"{where}.embeds", files)
    components = body.get("components") or []
    check_message_components(components, f"{where}.components", v2=v2)
    for comp in walk_components(components):  # v2 media and file components
        for key in ("media", "file"):
            url = (comp.get(key) or {}).get("url") if isinstance(comp.get(key), dict) else None
            if url is not None:
                check_media_url(str(url), f"{where}.components: {key}.url", files)
    check_allowed_mentions(body.get("allowed_mentions"), f"{where}.allowed_mentions")


def check_files(context: Context, where: str) -> set[str]:
    """Uploaded files: at most 10, each named and within the upload limit. Returns every filename
    the message can refer to (new uploads and the attachments it keeps)."""
    files = count(f"{where}.files", context.files, MAX_FILES, "files")
    for i, (name, size) in enumerate(files):
        length(f"{where}.files[{i}].filename", name, 1024, 1)
        assert size <= MAX_FILE, f"{where}.files[{i}] {name!r}: {size} bytes > {MAX_FILE} (10 MiB limit)"
    total = sum(size for _, size in files)
    assert total <= MAX_REQUEST, f"{where}.files: {total} bytes in one request > {MAX_REQUEST} (25 MiB)"
    return {name for name, _ in files} | set(context.kept)


def check_allowed_mentions(mentions: dict[str, Any] | None, where: str) -> None:
    if mentions is None:
        return
    parse = mentions.get("parse") or []
    unknown = [p for p in parse if p not in MENTION_TYPES]
    assert not unknown, f"{where}.parse: {unknown} not among {list(MENTION_TYPES)}"
    for key in ("users", "roles"):
        ids = count(f"{where}.{key}", mentions.get(key), 100, "ids")
        # "parse" and an explicit list of the same kind are mutually exclusive (a falsy list is fine).
        assert not (ids and key in parse), f"{where}: parse {key!r} and a {key} list are mutually exclusive"
