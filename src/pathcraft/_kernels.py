"""What the Python front doors share about the compiled kernels: their codes, read from
the one place the compiled core exports them (:mod:`pathcraft._core.machine`, made from
``_core/codes.pxd`` and ``_core/heap.pxd``), and one workspace per thread and kernel
(what a kernel's outcome means is :data:`pathcraft.result.KERNEL_REASONS`)."""

from __future__ import annotations

import threading
from typing import Any

from pathcraft._core import machine as _machine

__all__ = [
    "EXHAUSTED",
    "FOUND",
    "IN_PROGRESS",
    "MAX_COST",
    "MAX_EXPANSIONS",
    "MODES",
    "TIES",
    "UNREACHABLE",
    "KernelSettings",
    "thread_workspace",
]

#: The outcomes a kernel reports (its ``status``): the goal was found; no path exists;
#: it gave up at ``max_expansions`` or ``max_cost``; no goal was asked for and every
#: reachable place was settled; a step machine whose search goes on.
FOUND: int = _machine.FOUND
UNREACHABLE: int = _machine.UNREACHABLE
MAX_EXPANSIONS: int = _machine.MAX_EXPANSIONS
MAX_COST: int = _machine.MAX_COST
EXHAUSTED: int = _machine.EXHAUSTED
IN_PROGRESS: int = _machine.IN_PROGRESS
#: Search modes and their kernel codes (``MODE_*`` in ``_core/codes.pxd``).
MODES: dict[str, int] = _machine.MODES
#: Tie-breaking rules and their kernel codes (``TIE_*`` in ``_core/heap.pxd``).
TIES: dict[str, int] = _machine.TIES
#: The one settings object of every compiled search (``settings=`` of its kernel
#: entries), built by :meth:`pathcraft._options.SearchOptions.kernel_settings`.
KernelSettings = _machine.KernelSettings

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
