"""Pictures of searches: what a search explored, its path, A* beside Dijkstra.

Needs the ``viz`` extra (matplotlib and Pillow): ``pip install "pathcraft[viz]"``.
Importing :mod:`pathcraft` never imports this package; importing it without the extra
raises an ImportError that says how to install it.

Grid cells are ``(row, col)``. The pictures read what a search recorded: run it with
``record=True`` so ``result.explored`` holds the expanded cells in order.

- :func:`plot_search`: one search on one matplotlib Axes: walls, terrain costs in
  shades of grey, explored cells coloured by their g-cost (the cost from the start)
  from yellow (low) to red (high), the path on top, start and goal marked;
- :func:`compare`: several searches of one query side by side on one colour scale;
- :func:`animate_search`: a GIF of the explored region growing in expansion order,
  ending on the path, with a fixed number of frames however big the search;
- :func:`plot_graph`: a :class:`~pathcraft.Graph` with coordinates or a
  :class:`~pathcraft.WaypointGraph` in ``(x, y)`` space: obstacles, links, nodes,
  the expanded nodes by g-cost and the path;
- :func:`plot_mesh`: a navigation mesh (positions ``(x, y)``), a corridor of its
  polygons and paths on it (needs shapely too, for the mesh itself);
- :func:`plot_mesh3d`: a 3-D navigation mesh (positions ``(x, y, z)``) and paths on
  it, in perspective or from above.

Images are built as NumPy arrays (one image per picture, never a patch per cell), so a
1024 x 1024 map draws in well under a second. Each world type has its own module
(:mod:`pathcraft.viz.grid`, :mod:`pathcraft.viz.graph`, :mod:`pathcraft.viz.mesh`),
all sharing the colours of :mod:`pathcraft.viz._image`.

Examples
--------
>>> from pathcraft import Grid
>>> from pathcraft.viz import plot_search
>>> grid = Grid.from_ascii('''
... ........
... .#####..
... ......9.
... ''')
>>> result = grid.astar((2, 0), (0, 7), record=True)
>>> ax = plot_search(grid, result)
>>> ax.get_title()
'cost 9.00, 15 expanded'
"""

from __future__ import annotations

from pathcraft.viz._deps import require

require()

from pathcraft.viz.animate import animate_search  # noqa: E402
from pathcraft.viz.graph import plot_graph  # noqa: E402
from pathcraft.viz.grid import compare, plot_search  # noqa: E402
from pathcraft.viz.mesh import plot_mesh  # noqa: E402
from pathcraft.viz.mesh3d import plot_mesh3d  # noqa: E402

__all__ = ["animate_search", "compare", "plot_graph", "plot_mesh", "plot_mesh3d", "plot_search"]
