"""How the harness's Discord answers the bot's HTTP requests.

``DiscordAnswers`` is the part of ``DiscordHarness`` that stands in for Discord's HTTP API: injected
faults (``fail``, ``close_dms``), the recorder (``HTTPClient.request`` and ``AsyncWebhookAdapter.request``
end up in ``_handle``, which runs ``limits.check_payload``), the interaction lifecycle
(``_token_check``), Discord's refusals (``_refuse``: the bot gets Discord's error, the test a
violation) and plausible JSON answers per route (messages with fresh snowflakes, DM/thread channels,
callback responses, ...), with Discord's ways: an edit cannot change EPHEMERAL, a flag a message
cannot carry is ignored, a followup right after a deferred reply fills the loading message.
"""

from __future__ import annotations

import asyncio
import copy
import fnmatch
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

import discord

from tests.e2e.entities import PRIVATE_THREAD, PUBLIC_THREAD, Member, User
from tests.e2e.limits import Context, check_payload
from tests.e2e.message_answers import MessageAnswers
from tests.e2e.records import (
    LOADING,
    ROUTE_KINDS,
    FakeResponse,
    Fault,
    InteractionRecord,
    RecordedFile,
    Request,
    SentMessage,
)


class DiscordAnswers(MessageAnswers):
    """Discord's HTTP API for ``DiscordHarness``: records every request, applies faults, answers."""

    # State owned (and initialised) by ``DiscordHarness``.
    requests: list[Request]
    messages: dict[int, SentMessage]
    interactions: dict[int, InteractionRecord]
    commands: dict[int | None, list[dict[str, Any]]]
    violations: list[str]
    faults: list[Fault]
    _command_ids: dict[str, int]
    _background: set[asyncio.Task[None]]

    if TYPE_CHECKING:

        async def _deliver_pending(self) -> None: ...

    skew: float = 0.0  # how far Discord's clock runs ahead of the event loop's (``advance``)

    def now(self) -> float:
        """Discord's clock, for the 3-second and 15-minute rules of an interaction's token."""
        return asyncio.get_running_loop().time() + self.skew

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass on Discord's clock (no real waiting)."""
        self.skew += seconds

    # ------------------------------------------------------------------ faults
    def fail(
        self,
        match: str | Callable[[Request], bool],
        *,
        status: int = 400,
        code: int = 0,
        message: str = "injected by test",
        times: int | None = None,
    ) -> Fault:
        """Make matching requests fail. ``match``: ``"POST /channels/*/messages"`` (fnmatch on the
        path), a request kind (``"dm_message"``, ``"followup"``, ...) or a predicate on ``Request``."""
        if isinstance(match, str):
            method, _, pattern = match.partition(" ")
            text = match
            if pattern:

                def pred(r: Request) -> bool:
                    return method in ("*", r.method) and fnmatch.fnmatch(r.path, pattern)
            else:

                def pred(r: Request) -> bool:
                    dm = text == "dm_message" and r.kind == "message_create" and r.dm_user_id is not None
                    return dm or r.kind == text

            match = pred
        fault = Fault(match, status, code, message, times)
        self.faults.append(fault)
        return fault

    def close_dms(self, user: User | Member) -> Fault:
        """The user's DMs are closed: sending them a message fails with 403 / 50007."""
        uid = user.id
        return self.fail(
            lambda r: r.kind == "message_create" and r.dm_user_id == uid,
            status=403,
            code=50007,
            message="Cannot send messages to this user",
        )

    # ------------------------------------------------------------------ recorder
    async def _http_request(self, route: Any, *, files: Any = None, form: Any = None, **kwargs: Any) -> Any:
        return await self._handle("http", route, kwargs.get("json"), form, files, kwargs.get("params"))

    async def _get_from_cdn(self, url: str) -> bytes:
        await asyncio.sleep(0)
        if url.split("?", 1)[0] not in self.cdn:
            raise discord.NotFound(FakeResponse(404), {"code": 0, "message": "404: Not Found"})
        return self.cdn[url.split("?", 1)[0]]

    async def _handle(self, via: str, route: Any, body: Any, form: Any, files: Any, params: Any) -> Any:
        await asyncio.sleep(0)  # a network round trip is a suspension point
        for part in form or ():
            if part.get("name") == "payload_json":
                body = json.loads(part["value"])
        path = route.url.split("?", 1)[0][len(route.BASE) :]
        req = Request(
            seq=len(self.requests),
            method=route.method,
            path=path,
            route=route.path,
            json=copy.deepcopy(body),
            query=dict(params or {}),
            via=via,
            files=[RecordedFile.of(f) for f in files or ()],
        )
        self._classify(req)
        self.requests.append(req)
        if isinstance(body, dict | list):
            try:
                check_payload(body, kind=req.limits_kind, context=self._context(req))
            except AssertionError as exc:
                self._refuse(req, 400, 50035, f"Invalid Form Body: {exc}")
        for fault in list(self.faults):
            if fault.match(req):
                if fault.times is not None:
                    fault.times -= 1
                    if fault.times <= 0:
                        self.faults.remove(fault)
                self._raise(req, fault.status, fault.code, fault.message)
        req.response = self._respond(req)
        return copy.deepcopy(req.response)

    def _context(self, req: Request) -> Context:
        """What the rules need beyond the payload: files, kept attachments, the interaction."""
        rec = self.interactions.get(req.interaction_id or 0)
        kept: tuple[str, ...] = ()
        if req.limits_kind == "message_edit":
            target = rec.original_id if rec is not None and req.kind == "original_edit" else req.message_id
            msg = self.messages.get(target or 0)
            listed = (req.json or {}).get("attachments")
            ids = None if listed is None else {str(a.get("id")) for a in listed}
            attachments = msg.data.get("attachments") or [] if msg is not None else []
            kept = tuple(a["filename"] for a in attachments if ids is None or str(a.get("id")) in ids)
        return Context(
            files=tuple((f.filename, len(f.data)) for f in req.files),
            kept=kept,
            interaction_type=rec.type if rec is not None and req.kind == "interaction_response" else None,
            on_message=rec is not None and rec.message_id is not None,
        )

    def _refuse(self, req: Request, status: int, code: int, message: str) -> NoReturn:
        """Discord refuses the request: the bot gets the error it would get, and the test fails
        (``violations``) unless it takes the refusal as expected (``take_problems``)."""
        self.violations.append(f"{req.method} {req.path}: {message}")
        self._raise(req, status, code, message)

    @staticmethod
    def _raise(req: Request, status: int, code: int, message: str) -> NoReturn:
        req.error = (status, code)
        data = {"code": code, "message": message}
        exc = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
        raise exc(FakeResponse(status), data)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ Discord's answers
    def _classify(self, req: Request) -> None:
        parts, tpl = req.path.strip("/").split("/"), req.route.strip("/").split("/")
        req.args = {t[1:-1]: p for t, p in zip(tpl, parts, strict=False) if t.startswith("{")}
        key, a = f"{req.method} {req.route}", req.args
        req.kind = ROUTE_KINDS.get(key, "other")
        if req.via == "webhook" and "webhook_token" in a:
            rec = next((r for r in self.interactions.values() if r.token == a["webhook_token"]), None)
            req.interaction_id = rec.id if rec else None
            req.channel_id = rec.channel.id if rec else None
        if "channel_id" in a:
            req.channel_id = int(a["channel_id"])
        channel = self.channels.get(req.channel_id or 0)
        if channel is not None and channel.recipient is not None:
            req.dm_user_id = channel.recipient.id
        if "message_id" in a and a["message_id"].isdigit():
            req.message_id = int(a["message_id"])

    def _respond(self, req: Request) -> Any:
        kind, body, a = req.kind, req.json if isinstance(req.json, dict) else {}, req.args
        rec = self.interactions.get(req.interaction_id or 0)
        if req.via == "webhook" and kind != "other":
            rec = self._token_check(req, rec)
        if kind == "interaction_response":
            return self._callback(req, rec, body)  # type: ignore[arg-type]
        if kind == "followup":
            assert rec is not None
            original = self.messages.get(rec.original_id or 0)
            if (
                rec.responded_with == 5
                and original is not None
                and not original.deleted
                and original.flags & LOADING
            ):
                # Discord: a followup right after a deferred reply edits the loading message, keeping
                # its visibility (the followup's own EPHEMERAL flag is ignored).
                req.message_id = original.id
                return self._edit(req, original, body)
            return self._new_message(req, rec.channel, body, rec).data
        if kind.startswith(("original", "webhook_message", "message_")) and kind != "message_create":
            if kind.startswith("original"):
                req.message_id = rec.original_id  # type: ignore[union-attr]
            msg = self.messages.get(req.message_id or 0)
            if msg is None or msg.deleted:
                self._raise(req, 404, 10008, "Unknown Message")
            if kind.endswith("delete"):
                msg.deleted = True
                return None
            if kind.endswith("edit"):
                return self._edit(req, msg, body)
            return msg.data
        if kind == "message_create":
            channel = self.channels.get(req.channel_id or 0)
            if channel is None:
                self._raise(req, 404, 10003, "Unknown Channel")
            return self._new_message(req, channel, body, None).data
        if kind == "dm_channel":
            user = self.users.get(int(body["recipient_id"]))
            if user is None:
                self._raise(req, 404, 10013, "Unknown User")
            return self.dm_channel(user).payload()  # type: ignore[arg-type]
        if kind == "thread_create":
            parent = self.channels[int(a["channel_id"])]
            private = body.get("type", PUBLIC_THREAD if "message_id" in a else PRIVATE_THREAD) == 12
            thread = self.create_thread(
                parent,
                body.get("name", "thread"),
                private=private,
                thread_id=int(a["message_id"]) if "message_id" in a else None,
            )
            task = asyncio.get_running_loop().create_task(self._deliver_pending())  # THREAD_CREATE follows
            self._background.add(task)
            task.add_done_callback(self._background.discard)
            return thread.payload()
        if kind == "commands":
            scope = int(a["guild_id"]) if "guild_id" in a else None
            stored = self.commands.setdefault(scope, [])
            if req.method == "GET":
                return stored
            new = [
                {
                    **c,
                    "id": str(self._command_id(c["name"])),
                    "version": "1",
                    "application_id": str(self.application_id),
                }
                for c in (req.json if req.method == "PUT" else [req.json])
            ]
            names = {c["name"] for c in new}
            stored[:] = new if req.method == "PUT" else [c for c in stored if c["name"] not in names] + new
            return stored if req.method == "PUT" else new[0]
        if kind == "me":
            return {**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0}
        if kind == "app_info":
            return {
                "id": str(self.application_id),
                "name": self.bot_user.name,
                "icon": None,
                "description": "",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "flags": 0,
                "owner": self.owner.payload(),
                "team": None,
                "verify_key": "0" * 64,
                "summary": "",
            }
        if kind == "channel_get":
            channel = self.channels.get(req.channel_id or 0)
            return channel.payload() if channel else self._raise(req, 404, 10003, "Unknown Channel")
        if req.method != "GET":
            # Nothing the bot sends may pass unchecked: a new route needs its rules in tests/e2e/limits.
            self._refuse(req, 400, 0, f"the harness does not know {req.method} {req.route} and its rules")
        return None

    def _command_id(self, name: str) -> int:
        return self._command_ids.setdefault(name, self.ids.next())
