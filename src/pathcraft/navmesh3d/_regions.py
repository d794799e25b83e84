"""Merging and filtering the watershed's regions (Recast's mergeAndFilterRegions).

The loops here run over regions (tens to a few thousand), not spans: every per-span
pass (counting, floors, outlines, relabelling) is a kernel call or a NumPy operation.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from pathcraft._core import recast_hf
from pathcraft._unique import sorted_unique

__all__ = ["merge_and_filter"]

_BORDER = 0x8000


@dataclass
class _Region:
    """One region's bookkeeping: Recast's rcRegion."""

    id: int
    span_count: int = 0
    area: int = 0
    overlap: bool = False
    visited: bool = False
    connections: list[int] = field(default_factory=list)
    floors: set[int] = field(default_factory=set)


def _drop_adjacent_repeats(connections: list[int]) -> None:
    """Remove neighbours equal to the next one around the loop (in place)."""
    i = 0
    while i < len(connections) and len(connections) > 1:
        if connections[i] == connections[(i + 1) % len(connections)]:
            del connections[i]
        else:
            i += 1


def _replace_neighbour(region: _Region, old: int, new: int) -> None:
    changed = False
    for i, c in enumerate(region.connections):
        if c == old:
            region.connections[i] = new
            changed = True
    if old in region.floors:
        region.floors.discard(old)
        region.floors.add(new)
    if changed:
        _drop_adjacent_repeats(region.connections)


def _can_merge(a: _Region, b: _Region) -> bool:
    """Same area, one shared stretch of outline, never over one another."""
    if a.area != b.area:
        return False
    if a.connections.count(b.id) > 1:
        return False
    return b.id not in a.floors


def _merge(a: _Region, b: _Region) -> bool:
    """Fold ``b`` into ``a``: their outlines joined where they touch."""
    if b.id not in a.connections or a.id not in b.connections:
        return False
    ia, ib = a.connections.index(b.id), b.connections.index(a.id)
    na, nb = len(a.connections), len(b.connections)
    joined = [a.connections[(ia + 1 + i) % na] for i in range(na - 1)]
    joined += [b.connections[(ib + 1 + i) % nb] for i in range(nb - 1)]
    a.connections = joined
    _drop_adjacent_repeats(a.connections)
    a.floors |= b.floors
    a.span_count += b.span_count
    b.span_count = 0
    b.connections = []
    return True


def merge_and_filter(
    con: npt.NDArray[np.int32],
    cell_first: npt.NDArray[np.int32],
    cell_count: npt.NDArray[np.int32],
    area: npt.NDArray[np.uint8],
    reg: npt.NDArray[np.uint16],
    n_raw: int,
    min_region_area: int,
    merge_region_area: int,
) -> int:
    """Remove small isolated regions, merge small ones, renumber 1..n (in place).

    Recast's rules: a group of connected regions smaller than ``min_region_area``
    spans that touches no tile border is removed; then every region but those larger
    than ``merge_region_area`` that touch a wall, and those overlapping themselves,
    merges into its smallest neighbour with which it shares one stretch of outline,
    never one above or below it in a column, until nothing merges. Returns the number
    of regions left.
    """
    nreg = n_raw
    counts = np.bincount(reg[reg < nreg], minlength=nreg)
    regions = [_Region(i, span_count=int(counts[i])) for i in range(nreg)]
    # floors: regions sharing a column
    columns = np.repeat(np.arange(len(cell_count)), cell_count)
    most = int(cell_count.max()) if len(cell_count) else 0
    for k in range(1, most):
        below = np.flatnonzero(columns[:-k] == columns[k:])
        a, b = reg[below].astype(np.int64), reg[below + k].astype(np.int64)
        keep = (a != 0) & (b != 0) & (a < nreg) & (b < nreg)
        for code in sorted_unique(a[keep] * nreg + b[keep]).tolist():
            x, y = divmod(code, nreg)
            if x == y:
                regions[x].overlap = True
            regions[x].floors.add(y)
            regions[y].floors.add(x)
    # each region's outline, walked from its first span in scan order with an edge
    # (every region has one: a region of spans without edges would cover the field)
    offsets, neighbours, first = recast_hf.region_contours(con, reg, nreg)
    for r in np.flatnonzero(first >= 0).tolist():
        region = regions[r]
        region.connections = neighbours[offsets[r] : offsets[r + 1]].tolist()
        region.area = int(area[first[r]])

    # remove small groups of connected regions that touch no tile border
    for region in regions:
        if region.id == 0 or region.id & _BORDER or region.span_count == 0 or region.visited:
            continue
        touches_border = False
        total = 0
        stack = [region.id]
        trace: list[int] = []
        region.visited = True
        while stack:
            current = regions[stack.pop()]
            total += current.span_count
            trace.append(current.id)
            for c in current.connections:
                if c & _BORDER:
                    touches_border = True
                    continue
                other = regions[c]
                if other.visited or other.id == 0 or other.id & _BORDER:
                    continue
                stack.append(other.id)
                other.visited = True
        if total < min_region_area and not touches_border:
            for r in trace:
                regions[r].span_count = 0
                regions[r].id = 0

    # merge small regions into their smallest neighbour
    merged = True
    while merged:
        merged = False
        for region in regions:
            if region.id == 0 or region.id & _BORDER or region.overlap:
                continue
            if region.span_count == 0:
                continue
            if region.span_count > merge_region_area and 0 in region.connections:
                continue
            smallest, target = 0xFFFFFFF, region.id
            for c in region.connections:
                if c & _BORDER:
                    continue
                other = regions[c]
                if other.id == 0 or other.id & _BORDER or other.overlap:
                    continue
                if (
                    other.span_count < smallest
                    and _can_merge(region, other)
                    and _can_merge(other, region)
                ):
                    smallest, target = other.span_count, other.id
            if target != region.id:
                old = region.id
                if _merge(regions[target], region):
                    for other in regions:
                        if other.id == 0 or other.id & _BORDER:
                            continue
                        if other.id == old:
                            other.id = target
                        _replace_neighbour(other, old, target)
                    merged = True

    # renumber 1..n in order of the raw ids; unlike Recast, ids that hold no span (the
    # raw ids of a tile's border regions, 1 to 4) get no number
    remap = np.zeros(nreg, dtype=np.uint16)
    new_ids: dict[int, int] = {}
    for i, region in enumerate(regions):
        if region.id == 0 or region.id & _BORDER or counts[i] == 0:
            continue
        remap[i] = new_ids.setdefault(region.id, len(new_ids) + 1)
    plain = reg < nreg
    reg[plain] = remap[reg[plain]]
    return len(new_ids)
