"""What other packages share of the graph's internals, under public-internal names: the
one place they import them from (not the public API, which is :mod:`pathcraft.graph`;
these may change with the package).

The navigation mesh builds and patches its graphs with the CSR row helpers
(:func:`row_places`, :func:`splice_rows`, :func:`merge_rows`); the mesh and the
waypoint graph run the graph kernel with its checked settings (:func:`kernel_args`);
the flow fields off the grid take their distances from :func:`reversed_field`.
"""

from __future__ import annotations

from pathcraft.graph._csr import merge_rows, row_places, splice_rows
from pathcraft.graph._search import kernel_args, reversed_field

__all__ = ["kernel_args", "merge_rows", "reversed_field", "row_places", "splice_rows"]
