"""Graphs in CSR arrays searched by the compiled core (nodes are labels of any hashable kind).

The world itself is :class:`Graph` (see its documentation).
"""

from pathcraft.graph._graph import GRAPH_HEURISTICS, Graph
from pathcraft.graph._space import GraphSpace

__all__ = ["GRAPH_HEURISTICS", "Graph", "GraphSpace"]
