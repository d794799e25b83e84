"""What a multi-agent solver returns: the paths, their costs, the bound and why it
stopped."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from pathcraft.mapf._problem import Problem, lower_bound

__all__ = ["STATUSES", "MAPFResult", "path_cost", "trimmed"]

#: The statuses a result can have ("solved" is the only truthy one).
STATUSES = ("solved", "no solution", "time limit", "node limit", "iteration limit")


def trimmed(path: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """A node path without its trailing waits at the last node (at least one entry).

    >>> trimmed([3, 4, 4, 5, 5, 5]).tolist()
    [3, 4, 4, 5]
    """
    arr: npt.NDArray[np.int32] = np.array(path, dtype=np.int32)
    if arr.size == 0:
        return arr
    moved = np.flatnonzero(arr != arr[-1])
    return arr[: (int(moved[-1]) + 2 if moved.size else 1)]


def path_cost(path: npt.ArrayLike) -> int:
    """An agent's cost: the step after which it never leaves its last node again.

    >>> path_cost([3, 4, 4, 5, 5, 5]), path_cost([7])
    (3, 0)
    """
    return len(trimmed(path)) - 1


class MAPFResult:
    """The answer of a multi-agent solver. Truthy iff ``status == "solved"``.

    Attributes
    ----------
    paths : list of list of places
        One per agent: its place at each time step, ``t = 0`` its start, the last
        entry its goal (trailing waits at the goal trimmed); empty when not solved.
    node_paths : list of numpy.ndarray of int32
        The same as node ids.
    solver : str
    sum_of_costs, makespan : int
        The sum and the largest of the agents' costs (the step after which each never
        leaves its goal); -1 when not solved.
    lower_bound : int
        The sum of the agents' individual shortest-path steps.
    time_s : float
        Seconds the solver ran.
    status : str
        One of :data:`STATUSES`.
    reason : str
        Human words: why it stopped (empty when solved).
    optimal : bool
        Proven optimal for the sum of costs.
    stats : dict
        Solver counters (expansions, conflicts, iterations...).

    Examples
    --------
    >>> from pathcraft import Grid
    >>> from pathcraft.mapf import MAPFResult, Problem
    >>> problem = Problem(Grid.from_ascii("...", diagonal="never"), [(0, 0)], [(0, 2)])
    >>> result = MAPFResult.from_node_paths(problem, [[0, 1, 2, 2]], solver="hand")
    >>> bool(result), result.paths, result.sum_of_costs, result.lower_bound
    (True, [[(0, 0), (0, 1), (0, 2)]], 2, 2)
    >>> failed = MAPFResult.failed(problem, "time limit", "10 s spent", solver="hand")
    >>> bool(failed), failed.status, failed.sum_of_costs
    (False, 'time limit', -1)
    """

    __slots__ = (
        "lower_bound",
        "makespan",
        "node_paths",
        "optimal",
        "paths",
        "reason",
        "solver",
        "stats",
        "status",
        "sum_of_costs",
        "time_s",
    )

    def __init__(
        self,
        *,
        paths: list[list[Hashable]],
        node_paths: list[npt.NDArray[np.int32]],
        solver: str,
        sum_of_costs: int,
        makespan: int,
        lower_bound: int,
        time_s: float,
        status: str,
        reason: str = "",
        optimal: bool = False,
        stats: dict[str, Any] | None = None,
    ) -> None:
        if status not in STATUSES:
            listed = ", ".join(repr(s) for s in STATUSES)
            raise ValueError(f"status must be one of {listed}; got {status!r}")
        self.paths = paths
        self.node_paths = node_paths
        self.solver = solver
        self.sum_of_costs = sum_of_costs
        self.makespan = makespan
        self.lower_bound = lower_bound
        self.time_s = time_s
        self.status = status
        self.reason = reason
        self.optimal = optimal
        self.stats = {} if stats is None else stats

    @classmethod
    def from_node_paths(
        cls,
        problem: Problem,
        node_paths: Sequence[npt.ArrayLike],
        *,
        solver: str,
        time_s: float = 0.0,
        optimal: bool = False,
        stats: dict[str, Any] | None = None,
        bound: int | None = None,
    ) -> MAPFResult:
        """A solved result from one node path per agent (trailing waits are trimmed;
        costs and the bound are computed here; ``bound`` skips computing it again).

        Examples
        --------
        Node ids are the problem's (here the open cells in row-major order):

        >>> from pathcraft import Grid
        >>> from pathcraft.mapf import MAPFResult, Problem
        >>> problem = Problem(Grid.from_ascii("...\\n...", diagonal="never"),
        ...                   [(0, 0), (1, 2)], [(0, 2), (1, 1)])
        >>> result = MAPFResult.from_node_paths(problem, [[0, 0, 1, 2, 2], [5, 4]],
        ...                                     solver="by hand")
        >>> result.paths
        [[(0, 0), (0, 0), (0, 1), (0, 2)], [(1, 2), (1, 1)]]
        >>> result.sum_of_costs, result.makespan, result.lower_bound, result.status
        (4, 3, 3, 'solved')
        """
        if len(node_paths) != problem.n_agents:
            raise ValueError(
                f"node_paths must have one path per agent ({problem.n_agents}); "
                f"got {len(node_paths)}"
            )
        nodes = [trimmed(p) for p in node_paths]
        costs = [len(p) - 1 for p in nodes]
        places = problem.places
        return cls(
            paths=[[places[v] for v in p.tolist()] for p in nodes],
            node_paths=nodes,
            solver=solver,
            sum_of_costs=int(sum(costs)),
            makespan=int(max(costs, default=0)),
            lower_bound=lower_bound(problem) if bound is None else bound,
            time_s=time_s,
            status="solved",
            optimal=optimal,
            stats=stats,
        )

    @classmethod
    def failed(
        cls,
        problem: Problem,
        status: str,
        reason: str,
        *,
        solver: str,
        time_s: float = 0.0,
        stats: dict[str, Any] | None = None,
    ) -> MAPFResult:
        """A falsy result: no paths, the status and the reason in words.

        Examples
        --------
        >>> from pathcraft import Grid
        >>> from pathcraft.mapf import MAPFResult, Problem
        >>> problem = Problem(Grid.from_ascii("...", diagonal="never"), [(0, 0)], [(0, 2)])
        >>> result = MAPFResult.failed(problem, "time limit", "1 s spent", solver="cbs")
        >>> bool(result), result.status, result.reason, result.paths, result.lower_bound
        (False, 'time limit', '1 s spent', [], 2)
        >>> MAPFResult.failed(problem, "solved", "", solver="cbs")
        Traceback (most recent call last):
        ...
        ValueError: a failed result cannot have status 'solved'
        """
        if status == "solved":
            raise ValueError("a failed result cannot have status 'solved'")
        try:
            bound = lower_bound(problem)
        except ValueError:
            bound = -1
        return cls(
            paths=[],
            node_paths=[],
            solver=solver,
            sum_of_costs=-1,
            makespan=-1,
            lower_bound=bound,
            time_s=time_s,
            status=status,
            reason=reason,
            stats=stats,
        )

    def __bool__(self) -> bool:
        return self.status == "solved"

    @property
    def found(self) -> bool:
        """Whether the problem was solved (the same as ``bool(result)``)."""
        return self.status == "solved"

    def __repr__(self) -> str:
        if self:
            ratio = self.sum_of_costs / self.lower_bound if self.lower_bound > 0 else 1.0
            return (
                f"MAPFResult({self.solver!r}, {len(self.paths)} agents, sum of costs "
                f"{self.sum_of_costs} ({ratio:.3f}x bound {self.lower_bound}), makespan "
                f"{self.makespan}, {self.time_s:.3f} s{', optimal' if self.optimal else ''})"
            )
        return f"MAPFResult({self.solver!r}, {self.status}: {self.reason})"
