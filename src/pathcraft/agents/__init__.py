"""Agents that move along paths: a pursuer, path followers, crowds, sliced searches.

- :class:`Pursuer` chases a moving target on any world (a grid, a graph, a navigation
  mesh, ...), re-planning cheaply.
- :class:`PathFollower` moves many agents along their paths in continuous space, on
  the floor of any world that has one.
- :class:`Crowd` moves thousands of agents to their nearest exits along
  :class:`FlowField` s, with ORCA (RVO2) keeping them apart.
- :class:`ChaseField` leads many chasers to one moving target (a flow field exact
  near the target, an anchor's field beyond it).
- :class:`PathRequestQueue` serves many agents' searches (each world's compiled
  ``start_search``, or a :class:`~pathcraft.search.SlicedSearch` over callables) a
  fixed budget of node expansions, or microseconds, per frame, in order of first request.
- :class:`GridSpace`, :class:`GraphSpace`: the worlds agents move in (the
  :class:`Space` protocol every world's ``agent_space()`` follows), and the
  :class:`Floor` continuous agents stand on (:func:`floor_for`).
"""

from pathcraft.agents._moving import ChaseField
from pathcraft.agents.chase import ChaseStatus, Pursuer
from pathcraft.agents.crowd import Crowd
from pathcraft.agents.flow import FlowField
from pathcraft.agents.follow import PathFollower
from pathcraft.agents.queue import PathRequestQueue
from pathcraft.agents.spaces import Floor, GraphSpace, GridSpace, Space, floor_for, space_for

__all__ = [
    "ChaseField",
    "ChaseStatus",
    "Crowd",
    "Floor",
    "FlowField",
    "GraphSpace",
    "GridSpace",
    "PathFollower",
    "PathRequestQueue",
    "Pursuer",
    "Space",
    "floor_for",
    "space_for",
]
