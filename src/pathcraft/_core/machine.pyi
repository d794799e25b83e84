# The kernel boundary's vocabulary, written once for every kernel stub: the codes, the
# one settings object, the shapes of the arguments and answers of the search entries.
from typing import Any, TypeAlias, TypeVar

import numpy as np
import numpy.typing as npt

# The codes of codes.pxd and heap.pxd (exported by this module only).
FOUND: int
UNREACHABLE: int
MAX_EXPANSIONS: int
MAX_COST: int
EXHAUSTED: int
IN_PROGRESS: int
MODES: dict[str, int]
TIES: dict[str, int]
SETTINGS: tuple[str, ...]

#: Flat place indices (padded cells, nodes), or places as rows (``(n, k)`` cells).
Flat: TypeAlias = npt.NDArray[np.intp]
Floats: TypeAlias = npt.NDArray[np.float64]

_Data = TypeVar("_Data")
_Ws = TypeVar("_Ws")

#: A search's positional arguments: ``(data, ws, sources, goal, goal_set)`` (the data:
#: a padded cost array, or a world's tables), for ``*query: Unpack[Query[D, W]]``.
Query: TypeAlias = tuple[_Data, _Ws, Flat, int, Flat | None]
#: A costs-only batch's: ``(data, ws, starts, goals, costs)``, ``costs`` written.
Pairs: TypeAlias = tuple[_Data, _Ws, Flat, Flat, Floats]

#: A search's answer over places: ``(status, path, cost, expanded, generated,
#: rec_places, rec_g)``, the ``rec_*`` None unless recording.
CellAnswer: TypeAlias = tuple[int, Flat, float, int, int, Flat | None, Floats | None]
#: The same with a second array after the path (jump points; a graph path's edges).
PathAnswer: TypeAlias = tuple[int, Flat, Flat, float, int, int, Flat | None, Floats | None]

class KernelSettings:
    def __init__(
        self,
        *,
        mode: int,
        tie: int,
        weight: float,
        max_expansions: int,
        max_cost: float,
        partial: bool,
        record: bool,
        seed: int,
    ) -> None: ...
    def as_dict(self) -> dict[str, Any]: ...

class BaseWorkspace:
    @property
    def capacity(self) -> int: ...
    @property
    def nbytes(self) -> int: ...
    @property
    def resident_bytes(self) -> int: ...
    def __init__(self, capacity: int) -> None: ...
    def keep_pages_small(self) -> None: ...
    def _set_generation(self, gen: int) -> None: ...

class Machine:
    @property
    def status(self) -> int: ...
    @property
    def expanded(self) -> int: ...
    def step(self, budget: int = -1) -> int: ...
    def finish(self) -> Any: ...
    @property
    def elapsed(self) -> float: ...

class CellSearch(Machine):
    def answer(self) -> CellAnswer: ...
    def best_so_far(self) -> Any: ...
    def finish(self) -> CellAnswer: ...
