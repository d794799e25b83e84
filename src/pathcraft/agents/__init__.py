"""Agents that move along paths: a pursuer, path followers, crowds, sliced searches.

- :class:`Pursuer` chases a moving target on a grid or graph, re-planning cheaply.
- :class:`PathFollower` moves many agents along their paths in continuous space.
- :class:`Crowd` moves thousands of agents to their nearest exits along
  :class:`FlowField` s, with ORCA (RVO2) keeping them apart.
- :class:`ChaseField` leads many chasers to one moving target (a flow field exact
  near the target, an anchor's field beyond it).
- :class:`PathRequestQueue` serves many agents' :class:`~pathcraft.search.SlicedSearch`
  a fixed budget of node expansions per frame.
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
