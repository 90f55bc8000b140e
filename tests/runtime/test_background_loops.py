"""The bot's background loops (the deadline sweeper, the outbox drainer) stop
when their task is cancelled, even when the cancellation itself was lost on the
way (Python 3.11's ``asyncio.wait_for`` returns a command's result instead of
raising when both arrive together)."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from bot.app.application import stop_if_cancelled


async def _loop(rounds: list[int], *, checked: bool, stop: asyncio.Event | None = None) -> None:
    while stop is None or not stop.is_set():
        rounds.append(1)
        # Lost, as inside wait_for when the awaited command completes at that moment.
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(0.01)
        if checked:
            stop_if_cancelled()


async def test_a_loop_whose_cancellation_was_lost_ends_at_its_next_round() -> None:
    rounds: list[int] = []
    task = asyncio.create_task(_loop(rounds, checked=True))
    await asyncio.sleep(0.03)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(task, 5)
    assert task.cancelled()


async def test_without_the_check_such_a_loop_runs_on() -> None:
    """What the check is for: the same loop without it outlives its cancellation."""
    rounds: list[int] = []
    stop = asyncio.Event()
    task = asyncio.create_task(_loop(rounds, checked=False, stop=stop))
    await asyncio.sleep(0.03)
    task.cancel()
    done, _ = await asyncio.wait([task], timeout=0.1)
    assert not done and len(rounds) > 3
    stop.set()
    await asyncio.wait_for(task, 5)
