"""Multi-agent pathfinding (MAPF): many agents, each from its start to its goal, with no
two in one place at one time and no two swapping places in one step.

The rules (the usual ones of the MAPF benchmark, Stern, Sturtevant, Felner et al.,
SoCS 2019): time runs in steps; at each step every agent moves to a neighbour of its
place or waits, one time step either way (diagonal moves too, on 8-connected grids,
which follow the grid's corner rule; step costs are ignored). Forbidden: a vertex
conflict (two agents in one place at one time), an edge conflict (two agents swapping
places in one step) and, when asked (``following=True``), a following conflict (an
agent entering a place another leaves in the same step). An agent stays at its goal
after its path ends, so a later agent passing there is a vertex conflict. An agent's
cost is the time step after which it never leaves its goal again (0 if it starts
there); solutions are measured by the sum of costs and by the makespan (the largest).

- :class:`Problem`: a world (a :class:`~pathcraft.grid.Grid`, a
  :class:`~pathcraft.graph.Graph`, or any world with ``neighbors(place)``), starts and
  goals, as CSR arrays and node ids;
- :func:`solve`: one front door over the solvers, chosen by name;
- :class:`MAPFResult`: paths, sum of costs, makespan, the lower bound, time, status;
- :func:`validate`: every conflict of a solution (:class:`Conflict`);
- :func:`lower_bound`: the sum of the agents' individual shortest paths;
- :class:`Reservations` (with :class:`Booking` and :class:`BookingSearch`) and
  :class:`Cooperative`: a reservation table a game's units share, each booking its
  plans as it goes (what :class:`~pathcraft.agents.Pursuer` and
  :class:`~pathcraft.agents.PathRequestQueue` use with ``reservations=``), and
  windowed cooperative planning of many units per turn;
- :func:`pathcraft.io.read_mapf_scen`: instances of the benchmark's scenario files.

Examples
--------
>>> from pathcraft import Grid
>>> from pathcraft.mapf import Problem, lower_bound, validate
>>> grid = Grid.from_ascii("....\\n.##.\\n....", diagonal="never")
>>> problem = Problem(grid, [(0, 0), (0, 3)], [(0, 3), (0, 0)])
>>> lower_bound(problem)
6
>>> validate(problem, [[(0, 0), (0, 1), (0, 2), (0, 3)], [(0, 3), (0, 2), (0, 1), (0, 0)]])[0]
Conflict(kind='edge', agents=(0, 1), time=2, places=((0, 1), (0, 2)))
"""

from pathcraft.mapf._adjacency import adjacency
from pathcraft.mapf._bookings import Booking, BookingSearch, Reservations
from pathcraft.mapf._cbs import cbs, ecbs
from pathcraft.mapf._cooperative import Cooperative
from pathcraft.mapf._lacam import lacam, pibt
from pathcraft.mapf._problem import Problem, lower_bound
from pathcraft.mapf._result import STATUSES, MAPFResult
from pathcraft.mapf._solve import SOLVERS, solve
from pathcraft.mapf._validate import CONFLICT_KINDS, Conflict, validate

__all__ = [
    "CONFLICT_KINDS",
    "SOLVERS",
    "STATUSES",
    "Booking",
    "BookingSearch",
    "Conflict",
    "Cooperative",
    "MAPFResult",
    "Problem",
    "Reservations",
    "adjacency",
    "cbs",
    "ecbs",
    "lacam",
    "lower_bound",
    "pibt",
    "solve",
    "validate",
]
