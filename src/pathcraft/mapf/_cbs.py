"""Conflict-based search: CBS, optimal for the sum of costs, and ECBS, bounded by ``w``.

CBS (Sharon et al. 2015) searches a tree of constraint sets: each node plans every agent
alone under its constraints, picks one conflict between two agents' paths and splits
into two children, each forbidding one of the two agents the conflicting place (or
move) at that time. Three standard improvements are on by default:

- **prioritised conflicts** (Boyarski et al. 2015): cardinal conflicts (both agents'
  MDDs are one node wide there, so both children cost more) are split first, then
  semi-cardinal ones, using the agents' MDDs;
- **bypass**: a child that keeps the parent's cost with fewer conflicts gives its path to
  the parent instead of being added to the tree;
- the **CG heuristic** (Felner et al. 2018): the minimum vertex cover of the graph of
  agents with a cardinal conflict, added to each node's cost (admissible).

ECBS (Barer et al. 2014) makes both levels focal searches: the low level returns a path
within ``w`` of the agent's lower bound, preferring few conflicts, and the high level
expands, among the nodes whose cost is within ``w`` of the least lower bound, the one
with the fewest conflicting pairs. Its sum of costs is at most ``w`` times the optimum.

The rules of :mod:`pathcraft.mapf` apply (waits cost one step, agents stay at their
goals, vertex and swap conflicts, following conflicts if the problem asks).
"""

from __future__ import annotations

import heapq
import math
import numbers
import time
from dataclasses import dataclass, field
from typing import Any

from pathcraft._options import check_flag
from pathcraft._validation import check_limit
from pathcraft.mapf._cbs_low import AgentConstraints, LimitReached, mdd, plan
from pathcraft.mapf._conflicts import PER_PAIR, cardinality, constrain, min_vertex_cover, split
from pathcraft.mapf._prioritized import unreachable
from pathcraft.mapf._problem import Problem
from pathcraft.mapf._result import MAPFResult
from pathcraft.mapf._table import Conflict, Path, PathTable

__all__ = ["cbs", "ecbs"]

#: Slack on the focal bounds ``cost <= w * bound``, for the rounding of ``w``.
EPSILON = 1e-9


@dataclass
class _Node:
    """A node of the constraint tree."""

    constraints: list[AgentConstraints]
    paths: list[Path]
    bounds: list[int]
    conflicts: list[Conflict] = field(default_factory=list)
    h: int = 0
    mdds: dict[int, list[set[int]]] = field(default_factory=dict)

    @property
    def cost(self) -> int:
        return sum(len(p) - 1 for p in self.paths)

    @property
    def pairs(self) -> int:
        return len({(c[1], c[2]) for c in self.conflicts})


class _Search:
    """What both CBS and ECBS share: the problem's tables, the limits, the counters."""

    def __init__(self, problem: Problem, w: float, time_limit: float, node_limit: int | None):
        self.problem = problem
        self.w = w
        indptr, indices = problem.indptr.tolist(), problem.indices.tolist()
        self.steps = [[v, *indices[indptr[v]:indptr[v + 1]]] for v in range(problem.n_nodes)]
        self.h = [problem.distances(a).tolist() for a in range(problem.n_agents)]
        self.starts = problem.starts.tolist()
        self.goals = problem.goals.tolist()
        self.following = bool(problem.following)
        self.started = time.perf_counter()
        self.deadline = self.started + time_limit if math.isfinite(time_limit) else None
        self.node_limit = node_limit
        self.low_level = [0]
        self.table = PathTable(problem.n_agents)
        self.stats: dict[str, Any] = {
            "expansions": 0, "generated": 0, "low_level_calls": 0, "bypasses": 0,
        }

    def replan(self, agent: int, constraints: AgentConstraints) -> tuple[Path, int] | None:
        """The agent's path around the others in the table (which must not hold it)."""
        self.stats["low_level_calls"] += 1
        return plan(
            self.steps, self.h[agent], self.starts[agent], self.goals[agent],
            constraints, self.table, self.w, self.deadline, self.low_level,
        )

    def root(self) -> _Node | None:
        k = self.problem.n_agents
        paths: list[Path] = []
        bounds = []
        conflicts: list[Conflict] = []
        empty = AgentConstraints()
        for a in range(k):
            found = self.replan(a, empty)
            if found is None:
                return None
            paths.append(found[0])
            bounds.append(found[1])
            conflicts += self.table.conflicts_of(a, found[0], self.following, PER_PAIR)
            self.table.add(a, found[0])
        conflicts.sort(key=lambda c: c[4])
        return _Node([empty] * k, paths, bounds, conflicts)

    def child(
        self, node: _Node, agent: int, constraint: tuple[str, tuple[int, ...]]
    ) -> _Node | None:
        constraints = list(node.constraints)
        constraints[agent] = constrain(constraints[agent], constraint)
        self.table.sync(node.paths)
        self.table.remove(agent)
        found = self.replan(agent, constraints[agent])
        if found is None:
            return None
        paths, bounds = list(node.paths), list(node.bounds)
        paths[agent], bounds[agent] = found
        conflicts = [c for c in node.conflicts if c[1] != agent and c[2] != agent]
        conflicts += self.table.conflicts_of(agent, found[0], self.following, PER_PAIR)
        conflicts.sort(key=lambda c: c[4])
        out = _Node(constraints, paths, bounds, conflicts)
        out.mdds = {a: m for a, m in node.mdds.items() if a != agent}
        self.stats["generated"] += 1
        return out

    def check_limits(self) -> str | None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            return "time limit"
        if self.node_limit is not None and self.stats["expansions"] >= self.node_limit:
            return "node limit"
        return None

    def finish(self, node: _Node | None, status: str, name: str, optimal: bool = False,
               reason: str = "") -> MAPFResult:
        elapsed = time.perf_counter() - self.started
        self.stats["low_level_expansions"] = self.low_level[0]
        self.stats["time_s"] = elapsed
        if node is not None and status == "solved":
            return MAPFResult.from_node_paths(
                self.problem, node.paths, solver=name, time_s=elapsed, optimal=optimal,
                stats=self.stats,
            )
        if not reason:
            if status == "time limit":
                reason = f"no conflict-free node within {elapsed:.3g} s"
            elif status == "node limit":
                reason = f"no conflict-free node within {self.node_limit} expansions"
            else:
                reason = "every branch of the constraint tree is infeasible"
        return MAPFResult.failed(self.problem, status, reason, solver=name, time_s=elapsed,
                                 stats=self.stats)


def _check(problem: Any, node_limit: Any, time_limit: Any) -> float:
    if not isinstance(problem, Problem):
        raise TypeError(
            f"problem must be a pathcraft.mapf.Problem; got {type(problem).__name__} "
            "(mapf.solve(world, starts, goals, solver=...) builds one from a world)"
        )
    check_limit("node_limit", node_limit, integer=True)
    # The same rule as mapf.solve's check (which imports this module, so not from there).
    if isinstance(time_limit, bool) or not isinstance(time_limit, numbers.Real):
        raise TypeError(f"time_limit must be a number of seconds > 0; got {time_limit!r}")
    if not float(time_limit) > 0:
        raise ValueError(f"time_limit must be a number of seconds > 0; got {time_limit!r}")
    return float(time_limit)


# --------------------------------------------------------------------------------- CBS


def _classify(search: _Search, node: _Node, prioritize: bool, heuristic: bool) -> Conflict:
    """The conflict to split (cardinal first when ``prioritize``), and node.h."""
    if not (prioritize or heuristic):
        return node.conflicts[0]

    def layers(a: int) -> list[set[int]]:
        got = node.mdds.get(a)
        if got is None:
            got = mdd(search.steps, search.h[a], search.starts[a], search.goals[a],
                      len(node.paths[a]) - 1, node.constraints[a])
            node.mdds[a] = got
        return got

    best, best_kind = node.conflicts[0], -1
    cardinal_pairs: set[tuple[int, int]] = set()
    for c in node.conflicts:
        kind = cardinality(c, layers(c[1]), layers(c[2]))
        if kind == 2:
            cardinal_pairs.add((min(c[1], c[2]), max(c[1], c[2])))
        if kind > best_kind:
            best, best_kind = c, kind
            if kind == 2 and not heuristic:
                break
    if heuristic:
        node.h = min_vertex_cover(cardinal_pairs)
    return best if prioritize else node.conflicts[0]


def cbs(
    problem: Problem,
    *,
    time_limit: float = 10.0,
    node_limit: int | None = None,
    prioritize: bool = True,
    bypass: bool = True,
    heuristic: bool = True,
) -> MAPFResult:
    """Conflict-based search: a solution of least sum of costs.

    Parameters
    ----------
    problem : Problem
        The agents' starts and goals on a world (grid cells are ``(row, col)``).
    time_limit : float
        Seconds (> 0; ``math.inf`` for none).
    node_limit : int or None
        Most constraint-tree nodes to expand.
    prioritize, bypass, heuristic : bool
        The improvements: split cardinal conflicts first (MDDs), adopt a child's path
        of equal cost and fewer conflicts, add the cardinal-conflict-graph heuristic.

    Returns
    -------
    MAPFResult
        Solved with ``optimal=True``, or falsy with status ``"no solution"`` (proven:
        an agent cannot reach its goal, or every branch of the tree is infeasible),
        ``"time limit"`` or ``"node limit"``. ``stats`` counts ``expansions`` (tree
        nodes), ``generated``, ``low_level_calls``, ``low_level_expansions`` and
        ``bypasses``. CBS cannot prove every unsolvable instance unsolvable: some end
        at a limit.

    Raises
    ------
    TypeError
        ``problem`` is not a :class:`Problem`.
    ValueError
        A bad ``time_limit`` or ``node_limit``.

    Examples
    --------
    Two agents swap ends of a corridor with one side pocket (one waits in it):

    >>> from pathcraft import Grid
    >>> from pathcraft.mapf import Problem, cbs
    >>> grid = Grid.from_ascii("....\\n#.##", diagonal="never")
    >>> result = cbs(Problem(grid, [(0, 0), (0, 3)], [(0, 3), (0, 0)]))
    >>> result.sum_of_costs, result.optimal
    (8, True)
    >>> result.paths[1]
    [(0, 3), (0, 2), (0, 1), (0, 0)]

    Without the pocket they cannot pass; CBS gives up at its limit:

    >>> cbs(Problem(Grid.from_ascii("...", diagonal="never"), [(0, 0), (0, 2)],
    ...             [(0, 2), (0, 0)]), node_limit=50).status
    'node limit'
    """
    limit = _check(problem, node_limit, time_limit)
    search = _Search(problem, 1.0, limit, node_limit)
    for name, value in (("prioritize", prioritize), ("bypass", bypass),
                        ("heuristic", heuristic)):
        check_flag(name, value)
    early = unreachable(problem, "cbs", search.started)
    if early is not None:
        return early
    try:
        return _cbs(search, prioritize, bypass, heuristic)
    except LimitReached:
        return search.finish(None, "time limit", "cbs")


def _cbs(search: _Search, prioritize: bool, bypass: bool, heuristic: bool) -> MAPFResult:
    root = search.root()
    if root is None:
        return search.finish(None, "no solution", "cbs")
    counter = 0
    if root.conflicts:
        _classify(search, root, prioritize, heuristic)
    open_list: list[tuple[int, int, int, _Node]] = [(root.cost + root.h, root.pairs, 0, root)]
    while open_list:
        _, _, _, node = heapq.heappop(open_list)
        if not node.conflicts:
            return search.finish(node, "solved", "cbs", optimal=True)
        stop = search.check_limits()
        if stop is not None:
            return search.finish(None, stop, "cbs")
        search.stats["expansions"] += 1
        while True:
            f = node.cost + node.h
            conflict = _classify(search, node, prioritize, heuristic)
            if node.cost + node.h > f:
                counter += 1
                heapq.heappush(open_list, (node.cost + node.h, node.pairs, counter, node))
                break
            children = []
            adopted = False
            for agent, constraint in split(conflict):
                kid = search.child(node, agent, constraint)
                if kid is None:
                    continue
                if bypass and kid.cost == node.cost and len(kid.conflicts) < len(node.conflicts):
                    node.paths = kid.paths
                    node.bounds = kid.bounds
                    node.conflicts = kid.conflicts
                    search.stats["bypasses"] += 1
                    adopted = True
                    break
                children.append(kid)
            if adopted:
                if not node.conflicts:
                    return search.finish(node, "solved", "cbs", optimal=True)
                continue
            for kid in children:
                if kid.conflicts:
                    _classify(search, kid, prioritize, heuristic)
                counter += 1
                heapq.heappush(open_list, (kid.cost + kid.h, kid.pairs, counter, kid))
            break
    return search.finish(None, "no solution", "cbs")


# -------------------------------------------------------------------------------- ECBS


def ecbs(
    problem: Problem,
    *,
    w: float = 1.5,
    time_limit: float = 10.0,
    node_limit: int | None = None,
    bypass: bool = False,
) -> MAPFResult:
    """Enhanced CBS: a solution whose sum of costs is at most ``w`` times the optimum.

    Parameters
    ----------
    problem : Problem
        The agents' starts and goals on a world (grid cells are ``(row, col)``).
    w : float
        The suboptimality bound, >= 1 (1 behaves as CBS without its improvements).
    time_limit : float
        Seconds (> 0; ``math.inf`` for none).
    node_limit : int or None
        Most constraint-tree nodes to expand.
    bypass : bool
        A child whose cost stays within the bound and has fewer conflicts gives its
        path to the node being expanded instead of joining the tree. Off by default:
        on random-32-32-20 it saved time at 100 agents and cost time at 120.

    Returns
    -------
    MAPFResult
        Solved (``optimal`` when the cost met the proven lower bound), or falsy with
        status ``"no solution"``, ``"time limit"`` or ``"node limit"``.
        ``stats["lower_bound"]`` is the proven lower bound on the optimum when it
        stopped (the least lower bound of the open nodes).

    Raises
    ------
    TypeError
        ``problem`` is not a :class:`Problem`.
    ValueError
        ``w`` below 1 or not a number, a bad ``time_limit`` or ``node_limit``.

    Examples
    --------
    >>> from pathcraft import Grid
    >>> from pathcraft.mapf import Problem, ecbs
    >>> grid = Grid.from_ascii("....\\n#.##", diagonal="never")
    >>> result = ecbs(Problem(grid, [(0, 0), (0, 3)], [(0, 3), (0, 0)]), w=1.2)
    >>> bool(result), result.sum_of_costs <= 1.2 * 8
    (True, True)
    >>> ecbs(Problem(grid, [(0, 0)], [(0, 3)]), w=0.5)
    Traceback (most recent call last):
    ...
    ValueError: w must be a number >= 1; got 0.5
    """
    if isinstance(w, bool) or not isinstance(w, numbers.Real) or not float(w) >= 1.0:
        raise ValueError(f"w must be a number >= 1; got {w!r}")
    limit = _check(problem, node_limit, time_limit)
    check_flag("bypass", bypass)
    search = _Search(problem, float(w), limit, node_limit)
    early = unreachable(problem, "ecbs", search.started)
    if early is not None:
        return early
    try:
        return _ecbs(search, bypass)
    except LimitReached:
        return search.finish(None, "time limit", "ecbs")


def _ecbs(search: _Search, bypass: bool) -> MAPFResult:
    root = search.root()
    if root is None:
        return search.finish(None, "no solution", "ecbs")
    w = search.w
    nodes: list[_Node] = [root]
    expanded: set[int] = set()
    open_list: list[tuple[int, int]] = [(sum(root.bounds), 0)]  # (lower bound, id)
    focal: list[tuple[int, int, int]] = [(root.pairs, root.cost, 0)]
    pending: list[tuple[int, int]] = []  # (cost, id) above the focal bound
    lb = sum(root.bounds)

    def add(node: _Node) -> None:
        nodes.append(node)
        i = len(nodes) - 1
        heapq.heappush(open_list, (sum(node.bounds), i))
        if node.cost <= w * lb + EPSILON:
            heapq.heappush(focal, (node.pairs, node.cost, i))
        else:
            heapq.heappush(pending, (node.cost, i))

    while True:
        while open_list and open_list[0][1] in expanded:
            heapq.heappop(open_list)
        if not open_list:
            return search.finish(None, "no solution", "ecbs")
        if open_list[0][0] > lb:
            lb = open_list[0][0]
            while pending and pending[0][0] <= w * lb + EPSILON:
                cost, i = heapq.heappop(pending)
                heapq.heappush(focal, (nodes[i].pairs, cost, i))
        search.stats["lower_bound"] = lb
        if not focal:  # the node of least bound is in focal, but for rounding
            i = open_list[0][1]
            heapq.heappush(focal, (nodes[i].pairs, nodes[i].cost, i))
        _, _, i = heapq.heappop(focal)
        if i in expanded:
            continue
        node = nodes[i]
        if node.conflicts:
            stop = search.check_limits()
            if stop is not None:
                return search.finish(None, stop, "ecbs")
        expanded.add(i)
        if not node.conflicts:
            return search.finish(node, "solved", "ecbs", optimal=node.cost <= lb)
        search.stats["expansions"] += 1
        while node.conflicts:
            kids = []
            for agent, constraint in split(node.conflicts[0]):
                kid = search.child(node, agent, constraint)
                if kid is None:
                    continue
                if (bypass and kid.cost <= w * lb + EPSILON
                        and len(kid.conflicts) < len(node.conflicts)):
                    # The kid's path keeps the node's constraints too: the node takes
                    # it (with the node's own, lower, bound for that agent).
                    node.paths, node.conflicts = kid.paths, kid.conflicts
                    node.mdds = {}
                    search.stats["bypasses"] += 1
                    break
                kids.append(kid)
            else:
                for kid in kids:
                    add(kid)
                break
        if not node.conflicts:
            return search.finish(node, "solved", "ecbs", optimal=node.cost <= lb)
