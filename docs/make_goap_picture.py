"""Draw docs/goap-plan-search.png: the world states the guard of
``examples/goap_guard.py`` can reach when it sees the thief, as a graph (an edge per
action, its cost the action's), the states a recorded Dijkstra over that graph expands
before it reaches the end of the planner's plan, and the plan (needs the viz extra).

    python docs/make_goap_picture.py

The graph is every state reachable from the guard's beliefs at the moment it planned
(``Action.applicable`` and ``Action.apply``, breadth-first), laid out by the number of
actions from the start; the Dijkstra's cost to the plan's last state is checked equal
to the plan's cost, so the picture shows the plan the planner chose among the
alternatives it weighed (going to either armory; the guard chases only when armed).
"""

from __future__ import annotations

import itertools
import runpy
from collections import defaultdict
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt

from pathcraft import Graph
from pathcraft.goap import Planner, State
from pathcraft.viz import plot_graph

DOCS = Path(__file__).resolve().parent
EXAMPLE = DOCS.parent / "examples" / "goap_guard.py"


def main() -> None:
    guard = runpy.run_path(str(EXAMPLE), run_name="picture")
    night = guard["run"](900)
    places, actions = night["places"], night["actions"]
    _, plan_names, where = next(p for p in night["plans"] if p[0] == "stop_thief")
    start = State(at=places.label(where), ammo=0, patrolled=False, noise_heard=False,
                  alerted=True, thief_near=False, thief_down=False)  # fmt: skip
    goal = next(g for g in guard["GOALS"] if g.name == "stop_thief")
    plan = Planner(actions).plan(start, goal)
    assert tuple(plan.names) == tuple(plan_names), (plan.names, plan_names)

    index = {start: 0}
    depth = {start: 0}
    edges: list[tuple[int, int, float, str]] = []
    frontier = [start]
    while frontier:  # every state reachable from the start, breadth-first
        nxt = []
        for state in frontier:
            for action in actions:
                if action.name == "patrol" or not action.applicable(state):
                    continue
                after = action.apply(state)
                if after == state:
                    continue
                if after not in index:
                    index[after] = len(index)
                    depth[after] = depth[state] + 1
                    nxt.append(after)
                edges.append((index[state], index[after], action.cost_in(state), action.name))
        frontier = nxt
    layers: dict[int, list[State]] = defaultdict(list)
    for state, d in depth.items():
        layers[d].append(state)
    coords = [(0.0, 0.0)] * len(index)
    for d, states in layers.items():
        for k, state in enumerate(states):
            coords[index[state]] = (float(d), k - (len(states) - 1) / 2.0)
    src, dst, cost, _ = zip(*edges, strict=True)
    graph = Graph(len(index), src, dst, cost, coords=coords)
    assert plan.final is not None
    result = graph.dijkstra(0, index[plan.final], record=True)
    assert abs(result.cost - plan.cost) < 1e-9, (result.cost, plan.cost)

    fig, ax = plt.subplots(figsize=(9, 5.5))
    plot_graph(graph, result, ax=ax, title=(
        f"the guard's plan among {len(index)} reachable world states: "
        f"cost {plan.cost:.1f}, {result.expanded} states expanded"))  # fmt: skip
    path = list(result.path)
    for (a, b), name in zip(itertools.pairwise(path), plan.names, strict=True):
        (x0, y0), (x1, y1) = coords[a], coords[b]
        ax.annotate(name, ((x0 + x1) / 2, (y0 + y1) / 2), fontsize=8, ha="center",
                    va="bottom", color="navy")  # fmt: skip
    ax.set_xlabel("actions from the start")
    ax.set_yticks([])
    ax.set_ylabel("")
    fig.savefig(DOCS / "goap-plan-search.png", dpi=110, bbox_inches="tight")
    print(f"{len(index)} states, {len(edges)} actions; plan {plan.names}, cost {plan.cost}")


if __name__ == "__main__":
    main()
