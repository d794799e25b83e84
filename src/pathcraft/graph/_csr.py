"""Remaking CSR arrays after a local change, for graphs patched rather than rebuilt.

A graph rebuilt from all its edges pays for checks and a sort over every edge; when a
change touches a few rows, :func:`merge_rows` makes the new CSR arrays from the old ones
by copying the runs of rows that stay (a few large ``memcpy``) and putting the new
contents of the other rows between them. :func:`splice_rows` is the common case of a
numbering that stays put.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["merge_rows", "row_places", "splice_rows"]


def merge_rows(
    offsets: npt.NDArray[np.int64],
    arrays: Sequence[npt.NDArray[Any]],
    source: npt.NDArray[np.intp],
    counts: npt.NDArray[np.int64],
    fresh: Sequence[npt.NDArray[Any]],
) -> tuple[npt.NDArray[np.int64], list[npt.NDArray[Any]]]:
    """New CSR arrays whose rows are old rows or fresh ones.

    Parameters
    ----------
    offsets : ndarray of int64, shape (old_n + 1,)
        The old row offsets: row ``r`` holds places ``offsets[r]:offsets[r + 1]`` of
        each of ``arrays``.
    arrays : sequence of ndarray
        The old per-place arrays (targets, weights, ...), all of one length.
    source : ndarray of intp, shape (n,)
        For each new row, the old row it copies, or -1 for a fresh row. The old rows
        copied should mostly come in runs (``source[r + 1] == source[r] + 1``): each
        run is one copy.
    counts : ndarray of int64
        The length of each fresh row, in order.
    fresh : sequence of ndarray
        One per array of ``arrays``: the contents of the fresh rows, concatenated in
        order (``counts.sum()`` places).

    Returns
    -------
    offsets, arrays
        The new CSR offsets (``n + 1``) and per-place arrays (new arrays; the old ones
        are not written).

    Examples
    --------
    >>> import numpy as np
    >>> off, (val,) = merge_rows(np.array([0, 2, 3, 5]), [np.array([1, 2, 3, 4, 5])],
    ...                          np.array([2, -1, 0]), np.array([1]), [np.array([9])])
    >>> off.tolist(), val.tolist()
    ([0, 2, 3, 5], [4, 5, 9, 1, 2])
    """
    n = source.shape[0]
    copied = source >= 0
    degree = np.zeros(n, dtype=np.int64)
    old = source[copied]
    degree[copied] = offsets[old + 1] - offsets[old]
    degree[~copied] = counts
    new_offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(degree, out=new_offsets[1:])
    bounds = np.zeros(counts.shape[0] + 1, dtype=np.int64)
    np.cumsum(counts, out=bounds[1:])
    # runs: of fresh rows, or of old rows in order
    cut = np.ones(n, dtype=bool)
    cut[1:] = (copied[1:] != copied[:-1]) | (copied[1:] & (source[1:] != source[:-1] + 1))
    starts = np.flatnonzero(cut)
    stops = np.append(starts[1:], n) if n else starts
    before: npt.NDArray[np.intp] = np.cumsum(~copied) - ~copied  # fresh rows before each
    pieces: list[list[npt.NDArray[Any]]] = [[] for _ in arrays]
    for a, b in zip(starts.tolist(), stops.tolist(), strict=True):
        if copied[a]:
            lo, hi, take = int(offsets[source[a]]), int(offsets[source[b - 1] + 1]), arrays
        else:
            lo, hi, take = int(bounds[before[a]]), int(bounds[before[a] + b - a]), fresh
        for out, arr in zip(pieces, take, strict=True):
            out.append(arr[lo:hi])
    joined = [
        np.concatenate(out) if out else arr[:0].copy()
        for out, arr in zip(pieces, arrays, strict=True)
    ]
    return new_offsets, joined


def splice_rows(
    offsets: npt.NDArray[np.int64],
    arrays: Sequence[npt.NDArray[Any]],
    rows: npt.NDArray[np.intp],
    counts: npt.NDArray[np.int64],
    fresh: Sequence[npt.NDArray[Any]],
    n: int,
) -> tuple[npt.NDArray[np.int64], list[npt.NDArray[Any]]]:
    """:func:`merge_rows` for a numbering that stays put: the rows ``rows`` (sorted,
    distinct, each ``< n``) replaced by fresh ones of lengths ``counts`` and contents
    ``fresh`` (concatenated in the order of ``rows``), the row count set to ``n`` (old
    rows from ``n`` up dropped; rows from the old count up that are not in ``rows``
    empty).

    Examples
    --------
    >>> import numpy as np
    >>> off, (val,) = splice_rows(np.array([0, 2, 3, 5]), [np.array([1, 2, 3, 4, 5])],
    ...                           np.array([1, 3]), np.array([0, 1]), [np.array([9])], 4)
    >>> off.tolist(), val.tolist()
    ([0, 2, 2, 4, 5], [1, 2, 4, 5, 9])
    """
    old_n = offsets.shape[0] - 1
    source = np.arange(n, dtype=np.intp)
    source[old_n:] = -1
    source[rows] = -1
    size = np.zeros(n, dtype=np.int64)
    size[rows] = counts
    return merge_rows(offsets, arrays, source, size[source < 0], fresh)


def row_places(offsets: npt.NDArray[np.int64], rows: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
    """The places of CSR rows ``rows``, concatenated in the order of ``rows``.

    Examples
    --------
    >>> import numpy as np
    >>> row_places(np.array([0, 2, 3, 5]), np.array([2, 0])).tolist()
    [3, 4, 0, 1]
    """
    size = offsets[rows + 1] - offsets[rows]
    start = np.repeat(offsets[rows] - (np.cumsum(size) - size), size)
    out: npt.NDArray[np.int64] = start + np.arange(int(size.sum()))
    return out
