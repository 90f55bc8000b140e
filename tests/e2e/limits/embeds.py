"""Embeds, as Discord's message resource states them ("Embed Limits").

Limits count characters after Discord trims leading and trailing whitespace, so a field whose name or
value is only spaces is empty, and empty field names and values are refused.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.limits.common import count, length

TEXTS = (("title", 256), ("description", 4096))
MAX_TOTAL = 6000
MAX_COLOUR = 0xFFFFFF


def _text(value: Any) -> str | None:
    return None if value is None else str(value).strip()


def check_embeds(embeds: list[dict[str, Any]], where: str, files: set[str]) -> None:
    """``files``: the attachment filenames ``attachment://`` urls may name."""
    total = 0
    for i, embed in enumerate(count(where, embeds, 10, "embeds")):
        here = f"{where}[{i}]"
        for key, limit in TEXTS:
            length(f"{here}.{key}", _text(embed.get(key)), limit)
            total += len(_text(embed.get(key)) or "")
        for j, fld in enumerate(count(f"{here}.fields", embed.get("fields"), 25, "fields")):
            length(f"{here}.fields[{j}].name", _text(fld.get("name")), 256, 1)
            length(f"{here}.fields[{j}].value", _text(fld.get("value")), 1024, 1)
            total += len(_text(fld.get("name")) or "") + len(_text(fld.get("value")) or "")
        for key, sub, limit in (("footer", "text", 2048), ("author", "name", 256)):
            if embed.get(key) is not None:
                text = _text(embed[key].get(sub))
                length(f"{here}.{key}.{sub}", text, limit, 1)
                total += len(text or "")
        colour = embed.get("color")
        assert colour is None or 0 <= colour <= MAX_COLOUR, f"{here}.color: {colour} not in 0-{MAX_COLOUR}"
        _urls(embed, here, files)
    assert total <= MAX_TOTAL, f"{where}: {total} characters across all embeds > {MAX_TOTAL}"


def _urls(embed: dict[str, Any], where: str, files: set[str]) -> None:
    links = [("url", embed.get("url")), ("author.url", (embed.get("author") or {}).get("url"))]
    media = [
        ("image.url", (embed.get("image") or {}).get("url")),
        ("thumbnail.url", (embed.get("thumbnail") or {}).get("url")),
        ("author.icon_url", (embed.get("author") or {}).get("icon_url")),
        ("footer.icon_url", (embed.get("footer") or {}).get("icon_url")),
    ]
    for name, url in links:
        if url is not None:
            assert str(url).startswith(("http://", "https://")), f"{where}.{name}: {url!r} is not http(s)"
    for name, url in media:
        if url is not None:
            check_media_url(str(url), f"{where}.{name}", files)


def check_media_url(url: str, where: str, files: set[str]) -> None:
    """http(s), or ``attachment://<name>`` of a file the message has."""
    if url.startswith("attachment://"):
        name = url[len("attachment://") :]
        assert name in files, f"{where}: {url!r} names no attachment of the message (has {sorted(files)})"
    else:
        assert url.startswith(("http://", "https://")), (
            f"{where}: {url!r} is neither http(s) nor attachment://"
        )
