"""What the Python front doors share about the compiled kernels: the option codes and
one workspace per thread and kernel (what a kernel's outcome means is
:data:`pathcraft.result.KERNEL_REASONS`)."""

from __future__ import annotations

import threading
from typing import Any

__all__ = ["IN_PROGRESS_CODE", "MODES", "TIES", "thread_workspace"]

#: Search modes and their kernel codes.
MODES: dict[str, int] = {"astar": 0, "greedy": 1, "dijkstra": 2}
#: Tie-breaking rules and their kernel codes (``TIE_*`` in ``_core/heap.pxd``).
TIES: dict[str, int] = {"g": 0, "fifo": 1, "random": 2}
# Why a search ended without its goal, by the status every kernel reports:
# pathcraft.result.KERNEL_REASONS, read by the one result builder.

#: What a kernel's step machine reports while its search goes on (``ST_IN_PROGRESS``).
IN_PROGRESS_CODE = 5

_local = threading.local()


def thread_workspace(kind: Any, size: int) -> Any:
    """This thread's workspace of class ``kind`` (a kernel's ``Workspace``), grown to
    hold at least ``size`` cells or nodes. Workspaces are never shared between
    threads, so searches on one grid or graph run in parallel."""
    cache: dict[Any, Any] = _local.__dict__.setdefault("workspaces", {})
    ws = cache.get(kind)
    if ws is None or ws.capacity < size:
        ws = kind(size)
        cache[kind] = ws
    return ws
