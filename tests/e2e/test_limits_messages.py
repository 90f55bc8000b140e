"""Each of Discord's message rules (resources/message, reference#uploading-files) on its own: content,
emptiness, embeds, allowed_mentions and files."""

from __future__ import annotations

import pytest

from tests.e2e.limits import Context
from tests.e2e.limits.common import MIB
from tests.e2e.shapes import Rule, button, embeds, field, message, row

PICTURE = {"embeds": [{"image": {"url": "attachment://board.png"}}]}
SOME_FILE = Context(files=(("board.png", 100),))


def _files(*sizes: int) -> Context:
    return Context(files=tuple((f"f{i}.txt", size) for i, size in enumerate(sizes)))


RULES = {
    # ----- content and emptiness
    "content 2000": Rule({"content": "x" * 2000}, {"content": "x" * 2001}, r"content: 2001 chars > 2000"),
    "a new message is not empty": Rule({"content": "hi"}, {}, r"empty message", kind="message"),
    "whitespace is empty": Rule({"content": "."}, {"content": "  \n "}, r"empty message", kind="message"),
    "empty lists are empty": Rule(
        message(row(button())), {"content": "", "embeds": [], "components": []}, r"empty message"
    ),
    "a file alone is a message": Rule(
        {}, {}, r"empty message", kind="message", context=SOME_FILE, bad_context=Context()
    ),
    "an edit may leave fields alone": Rule(
        {}, {"content": "x" * 2001}, r"content: 2001", kind="message_edit"
    ),
    "stickers 3": Rule({"sticker_ids": ["1"] * 3}, {"sticker_ids": ["1"] * 4}, r"4 stickers > 3"),
    "nonce 25": Rule({"content": "a", "nonce": "n" * 25}, {"content": "a", "nonce": "n" * 26}, r"nonce: 26"),
    # ----- embeds
    "embeds 10": Rule(embeds(*[{"title": "t"}] * 10), embeds(*[{"title": "t"}] * 11), r"11 embeds > 10"),
    "embed title 256": Rule(embeds({"title": "t" * 256}), embeds({"title": "t" * 257}), r"title: 257"),
    "embed description 4096": Rule(
        embeds({"description": "d" * 4096}),
        embeds({"description": "d" * 4097}),
        r"description: 4097 chars > 4096",
    ),
    "embed fields 25": Rule(
        embeds({"fields": [field()] * 25}), embeds({"fields": [field()] * 26}), r"26 fields > 25"
    ),
    "field name 256": Rule(
        embeds({"fields": [field("n" * 256)]}),
        embeds({"fields": [field("n" * 257)]}),
        r"fields\[0\]\.name: 257",
    ),
    "field name not empty": Rule(
        embeds({"fields": [field("n")]}), embeds({"fields": [field(" ")]}), r"fields\[0\]\.name: 0 chars < 1"
    ),
    "field value 1024": Rule(
        embeds({"fields": [field(value="v" * 1024)]}),
        embeds({"fields": [field(value="v" * 1025)]}),
        r"value: 1025 chars",
    ),
    "field value not empty": Rule(
        embeds({"fields": [field(value="v")]}), embeds({"fields": [field(value="")]}), r"value: 0 chars < 1"
    ),
    "footer text 2048": Rule(
        embeds({"footer": {"text": "f" * 2048}}),
        embeds({"footer": {"text": "f" * 2049}}),
        r"footer\.text: 2049",
    ),
    "footer needs text": Rule(
        embeds({"footer": {"text": "f"}}),
        embeds({"footer": {"icon_url": "https://e.org/i.png"}}),
        r"footer\.text",
    ),
    "author name 256": Rule(
        embeds({"author": {"name": "a" * 256}}), embeds({"author": {"name": "a" * 257}}), r"author\.name: 257"
    ),
    "embeds together 6000": Rule(
        embeds({"description": "d" * 3000}, {"description": "d" * 3000}),
        embeds({"description": "d" * 3000}, {"description": "d" * 2000, "fields": [field("n", "v" * 1000)]}),
        r"6001 characters across all embeds > 6000",
    ),
    "embed totals count trimmed text": Rule(
        embeds({"description": " " * 100 + "d" * 4096 + " " * 100}, {"description": "d" * 1904}),
        embeds({"description": "d" * 4096}, {"description": "d" * 1905}),
        r"6001 characters",
    ),
    "embed colour 0-0xFFFFFF": Rule(
        embeds({"color": 0xFFFFFF}), embeds({"color": 0x1000000}), r"color: 16777216"
    ),
    "embed url is http(s)": Rule(
        embeds({"title": "t", "url": "https://e.org"}),
        embeds({"title": "t", "url": "ftp://e.org"}),
        r"url: 'ftp",
    ),
    "attachment:// names a file sent": Rule(
        PICTURE,
        PICTURE,
        r"'attachment://board.png' names no attachment",
        context=SOME_FILE,
        bad_context=Context(),
    ),
    "attachment:// names a file kept": Rule(
        PICTURE,
        PICTURE,
        r"names no attachment",
        kind="message_edit",
        context=Context(kept=("board.png",)),
        bad_context=Context(kept=("other.png",)),
    ),
    # ----- allowed_mentions
    "mention types users, roles, everyone": Rule(
        {"content": "a", "allowed_mentions": {"parse": ["users", "roles", "everyone"]}},
        {"content": "a", "allowed_mentions": {"parse": ["here"]}},
        r"parse: \['here'\] not among",
    ),
    "parse users or a users list": Rule(
        {"content": "a", "allowed_mentions": {"parse": ["roles"], "users": ["1"]}},
        {"content": "a", "allowed_mentions": {"parse": ["users"], "users": ["1"]}},
        r"parse 'users' and a users list are mutually exclusive",
    ),
    "parse roles or a roles list": Rule(
        {"content": "a", "allowed_mentions": {"parse": ["roles"], "roles": []}},
        {"content": "a", "allowed_mentions": {"parse": ["roles"], "roles": ["1"]}},
        r"parse 'roles' and a roles list are mutually exclusive",
    ),
    "mentioned users 100": Rule(
        {"content": "a", "allowed_mentions": {"users": [str(i) for i in range(100)]}},
        {"content": "a", "allowed_mentions": {"users": [str(i) for i in range(101)]}},
        r"users: 101 ids > 100",
    ),
    "mentioned roles 100": Rule(
        {"content": "a", "allowed_mentions": {"roles": [str(i) for i in range(100)]}},
        {"content": "a", "allowed_mentions": {"roles": [str(i) for i in range(101)]}},
        r"roles: 101 ids > 100",
    ),
    # ----- files
    "files 10": Rule(
        {"content": "a"},
        {"content": "a"},
        r"files: 11 files > 10",
        context=_files(*[1] * 10),
        bad_context=_files(*[1] * 11),
    ),
    "a file within 10 MiB": Rule(
        {"content": "a"},
        {"content": "a"},
        r"bytes > 10485760",
        context=_files(10 * MIB),
        bad_context=_files(10 * MIB + 1),
    ),
    "a request within 25 MiB": Rule(
        {"content": "a"},
        {"content": "a"},
        r"bytes in one request > 26214400",
        context=_files(10 * MIB, 10 * MIB, 5 * MIB),
        bad_context=_files(10 * MIB, 10 * MIB, 5 * MIB + 1),
    ),
    "a file has a name": Rule(
        {"content": "a"},
        {"content": "a"},
        r"filename: 0 chars < 1",
        context=Context(files=(("a.txt", 1),)),
        bad_context=Context(files=(("", 1),)),
    ),
    # ----- threads
    "thread name 1-100": Rule({"name": "t" * 100}, {"name": "t" * 101}, r"thread\.name: 101", kind="thread"),
    "thread archive duration": Rule(
        {"name": "t", "auto_archive_duration": 1440},
        {"name": "t", "auto_archive_duration": 1000},
        r"auto_archive_duration: 1000",
        kind="thread",
    ),
}


@pytest.mark.parametrize("rule", RULES.values(), ids=RULES.keys())
def test_message_rule(rule: Rule) -> None:
    rule.check()
