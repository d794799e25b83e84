"""Smoke test of an installed pathcraft: one query of every world.

Run by ``.ci/run`` in a fresh virtual environment holding only the wheel built from
the sdist (with the ``geometry`` extra), from a directory outside the checkout so that
the installed package is the one imported. Exits non-zero on the first wrong answer.
"""

import math
import sys
from pathlib import Path

import numpy as np

import pathcraft
from pathcraft import Graph, Grid, NavMesh, WaypointGraph
from pathcraft.goap import Action, Planner, add, ge, le


def check(label: str, got: object, want: object) -> None:
    ok = math.isclose(got, want) if isinstance(want, float) else got == want  # type: ignore[arg-type]
    print(f"{'ok' if ok else 'FAILED'}: {label}: {got!r}" + ("" if ok else f" (want {want!r})"))
    if not ok:
        sys.exit(1)


def main() -> None:
    where = Path(pathcraft.__file__).resolve()
    print(f"pathcraft {pathcraft.__version__} from {where.parent}")
    if not any(p.name == "site-packages" for p in where.parents):
        sys.exit(f"FAILED: pathcraft imported from {where}, not from an installed wheel")

    grid = Grid.from_ascii("""
    .....
    .###.
    .....
    """)
    # Around the wall's end: no corner cutting by default, so straight steps only.
    check("Grid.astar", grid.astar((0, 0), (2, 4)).cost, 6.0)
    check("Grid.jps", grid.jps((0, 0), (2, 4)).cost, 6.0)

    roads = Graph.from_adjacency({"a": {"b": 1.0, "c": 4.0}, "b": {"c": 1.5}, "c": {}})
    check("Graph.astar", roads.astar("a", "c").path, ["a", "b", "c"])

    from shapely import box

    wall = box(4, -5, 6, 5)
    waypoints = WaypointGraph([(4, 5), (6, 5), (4, -5), (6, -5)], [wall])
    check("WaypointGraph.find_path", round(waypoints.find_path((0, 0), (10, 0)).cost, 3), 14.806)

    mesh = NavMesh.from_geometry(box(0, 0, 20, 10).difference(box(8, 0, 12, 7)))
    best = mesh.find_path((2, 2), (18, 2), algorithm="optimal")
    check("NavMesh.find_path optimal", round(best.cost, 3), 19.62)

    line = lambda n: [(m, 1.0) for m in (n - 1, n + 1) if 0 <= m <= 5]  # noqa: E731
    check("pathcraft.astar", pathcraft.astar(0, 5, line, lambda n: 5 - n).path, list(range(6)))

    planner = Planner([
        Action("search", {"found": False}, {"found": True}, cost=2),
        Action("gather", {"found": True}, {"food": add(2)}, cost=1),
        Action("eat", {"food": ge(1)}, {"food": add(-1), "hunger": add(-1)}, cost=1),
    ])  # fmt: skip
    plan = planner.plan({"hunger": 1, "food": 0, "found": False}, {"hunger": le(0)})
    check("goap.Planner.plan", plan.names, ["search", "gather", "eat"])

    batch = grid.find_paths(np.array([[0, 0], [2, 0]]), np.array([[2, 4], [0, 4]]), workers=2)
    check("Grid.find_paths", [r.found for r in batch], [True, True])
    print("smoke test passed")


if __name__ == "__main__":
    main()
