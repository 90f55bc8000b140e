"""How the harness's Discord answers what makes or changes a message: a new
message (its flags as Discord keeps them, its files on the CDN), an edit, an
interaction's callback, and the lifecycle Discord enforces on an interaction's
token. Part of :class:`tests.e2e.responses.DiscordAnswers`."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, NoReturn

from tests.e2e.entities import Channel
from tests.e2e.limits import is_empty
from tests.e2e.limits.interactions import RESPONSE_FLAGS
from tests.e2e.limits.messages import CREATE_FLAGS
from tests.e2e.records import LOADING, InteractionRecord, Request, SentMessage, apply_edit, message_payload
from tests.e2e.world import World

INITIAL_RESPONSE_SECONDS = 3.0  # then the token is invalidated
TOKEN_SECONDS = 15 * 60  # followups and edits of the original


class MessageAnswers(World):
    """Messages as Discord makes and changes them (state owned by ``DiscordHarness``)."""

    messages: dict[int, SentMessage]

    if TYPE_CHECKING:

        def now(self) -> float: ...

        def _refuse(self, req: Request, status: int, code: int, message: str) -> NoReturn: ...

    def _new_message(
        self,
        req: Request,
        channel: Channel,
        body: dict[str, Any],
        rec: InteractionRecord | None,
        extra_flags: int = 0,
    ) -> SentMessage:
        mid = self.ids.next()
        meta = (
            None
            if rec is None
            else {
                "id": str(rec.id),
                "type": rec.type,
                "user": rec.user.payload(),
                "authorizing_integration_owners": {},
            }
        )
        # Flags a message cannot be created with are ignored by Discord (EPHEMERAL in a channel too).
        settable = RESPONSE_FLAGS if rec is not None else CREATE_FLAGS
        data = message_payload(
            mid,
            channel,
            self.bot_user,
            {**body, "flags": int(body.get("flags") or 0) & settable | extra_flags},
            message_type=20 if rec and rec.type == 2 else 0,
            interaction=meta,
            webhook_id=self.application_id if rec else None,
            files=tuple(req.files),
        )
        for attachment, file in zip(data["attachments"], req.files, strict=False):
            self.cdn[attachment["url"]] = file.data
        msg = SentMessage(data, req.seq, rec.id if rec else None, dm_user_id=req.dm_user_id)
        if msg.ephemeral and rec is not None:
            msg.visible_to = rec.user.id
        self.messages[mid] = msg
        req.message_id = mid
        return msg

    def _token_check(self, req: Request, rec: InteractionRecord | None) -> InteractionRecord:
        """The interaction lifecycle Discord enforces on an interaction's token."""
        if rec is None:
            code = 10062 if req.kind == "interaction_response" else 10015
            self._refuse(req, 404, code, "Unknown interaction (a token Discord never issued)")
        age = self.now() - rec.created
        if req.kind == "interaction_response":
            if rec.responded_with is not None:
                self._refuse(req, 400, 40060, "Interaction has already been acknowledged (second response)")
            if age > INITIAL_RESPONSE_SECONDS:
                self._refuse(req, 404, 10062, f"Unknown interaction (initial response after {age:.1f}s > 3s)")
            return rec
        if rec.responded_with is None:
            self._refuse(req, 404, 10015, f"Unknown Webhook ({req.kind} before the initial response)")
        if age > TOKEN_SECONDS:
            self._refuse(req, 401, 50027, f"Invalid Webhook Token ({age / 60:.0f} minutes > 15)")
        return rec

    def _edit(self, req: Request, msg: SentMessage, body: dict[str, Any]) -> dict[str, Any]:
        """Apply an edit as Discord does; an edit that would leave the message empty is refused."""
        edited = copy.deepcopy(msg.data)
        apply_edit(edited, body, req.files, self.cdn)
        edited["flags"] = int(edited.get("flags") or 0) & ~LOADING
        if is_empty(edited, files=len(req.files)):
            self._refuse(req, 400, 50006, "Cannot send an empty message (the edit leaves nothing to show)")
        msg.data.clear()
        msg.data.update(edited)
        msg.seq = req.seq
        return msg.data

    def _callback(self, req: Request, rec: InteractionRecord, body: dict[str, Any]) -> dict[str, Any]:
        kind, data = body["type"], body.get("data") or {}
        rec.responded_with, message = kind, None
        if kind in (4, 5):
            message = self._new_message(
                req,
                rec.channel,
                data if kind == 4 else {"flags": data.get("flags")},
                rec,
                LOADING if kind == 5 else 0,
            )
            rec.original_id = message.id
        elif kind in (6, 7) and rec.message_id is not None:
            rec.original_id = req.message_id = rec.message_id
            message = self.messages[rec.message_id]
            if kind == 7:
                self._edit(req, message, data)
        elif kind == 8:
            rec.choices = data.get("choices", [])
        elif kind == 9:
            rec.modal = data
        out: dict[str, Any] = {
            "interaction": {
                "id": str(rec.id),
                "type": rec.type,
                "response_message_id": str(message.id) if message else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(message and message.ephemeral),
            }
        }
        out["resource"] = {"type": kind, **({"message": message.data} if message and kind != 6 else {})}
        return out
