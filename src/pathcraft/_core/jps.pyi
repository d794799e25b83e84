from collections.abc import Sequence
from typing import TypeAlias, TypedDict

import numpy as np
import numpy.typing as npt
from typing_extensions import Unpack

from pathcraft._core.grid_search import Workspace
from pathcraft._core.machine import Flat, Floats, KernelSettings, Machine, PathAnswer

Lines: TypeAlias = Sequence[npt.NDArray[np.uint64]]

class JpsArgs(TypedDict):
    """The keyword arguments of :class:`JpsSearch` (and of :func:`jps` and
    :func:`jps_costs`, which pass them on)."""

    diagonal: int
    unit: float
    settings: KernelSettings
    block: bool

class JpsSearch(Machine):
    def __init__(
        self, padded: Floats, ws: Workspace, start: int, goal: int, lines: Lines,
        **args: Unpack[JpsArgs],
    ) -> None: ...  # fmt: skip
    def answer(self) -> PathAnswer: ...
    def finish(self) -> PathAnswer: ...

def jps(
    padded: Floats, ws: Workspace, start: int, goal: int, lines: Lines, **args: Unpack[JpsArgs]
) -> PathAnswer: ...
def jps_costs(
    padded: Floats, ws: Workspace, starts: Flat, goals: Flat, lines: Lines, costs: Floats,
    **args: Unpack[JpsArgs],
) -> None: ...  # fmt: skip
