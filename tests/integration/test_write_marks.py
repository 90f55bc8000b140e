"""The marks that tell one save from another (``storage.saving._NONCES``): a
save whose reply was lost is recognised by its mark among the table's last
writes, so no two saves may share one, in one process or across a fork."""

from __future__ import annotations

import multiprocessing

from storage.saving import _NONCES


def _child_mark(queue: multiprocessing.Queue[str]) -> None:
    queue.put(next(_NONCES))


def test_marks_differ_in_a_process_and_in_a_forked_child() -> None:
    first, second = next(_NONCES), next(_NONCES)
    assert first != second and first.split(".")[0] == second.split(".")[0]
    fork = multiprocessing.get_context("fork")
    queue: multiprocessing.Queue[str] = fork.Queue()
    child = fork.Process(target=_child_mark, args=(queue,))
    child.start()
    theirs = queue.get(timeout=10)
    child.join(10)
    ours = next(_NONCES)
    # The child starts its count afresh, under a prefix of its own.
    assert theirs.split(".")[0] != ours.split(".")[0]
    assert theirs != ours
