"""The rule that turns an LDtk level's IntGrid values into a grid's costs.

Used by :meth:`pathcraft.io.ldtk.LdtkLevel.grid` (whose documentation states the rule):
values are named by number or by identifier; a value in ``walls`` (or, with no
``walls``, every value ``costs`` does not name) is a wall; a value in ``costs`` costs
that much; anything else is floor of cost 1. Layers are read bottom to top.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Literal

import numpy as np
import numpy.typing as npt

from pathcraft.io._ldtk_source import IntGridLayer

__all__ = ["Value", "int_grid_cost"]

#: A value of an IntGrid layer, by number (``1``) or by identifier (``"wall"``).
Value = int | str


def int_grid_cost(
    read: list[IntGridLayer],
    walls: Value | Sequence[Value] | None,
    costs: Mapping[Value, float] | None,
    empty: Literal["floor", "wall"],
    error: Callable[[str], ValueError],
) -> npt.NDArray[np.float64]:
    """The cost array of the IntGrid layers ``read`` (top layer first, all of one
    shape), ``np.inf`` on walls; ``error`` makes the messages that name the level."""
    wall_keys = _values("walls", walls)
    cost_table = _costs(costs)
    both = [k for k in wall_keys if k in cost_table]
    if both:
        raise error(f"value {both[0]!r} is both in walls and in costs")
    defined = [(v, n) for lay in read for v, n in lay.names.items()]
    for key in [*wall_keys, *cost_table]:
        if not any(key in (v, n) for v, n in defined):
            listing = ", ".join(f"{v} {n!r}" if n else str(v) for v, n in dict(defined).items())
            raise error(
                f"no value {key!r} in IntGrid layers {[lay.name for lay in read]}; they "
                f"define {listing or 'no values'}"
            )
    rows, cols = read[0].values.shape
    cost = np.ones((rows, cols))
    wall = np.zeros((rows, cols), dtype=bool)
    covered = np.zeros((rows, cols), dtype=bool)
    for layer in reversed(read):  # bottom to top
        covered |= layer.values != 0
        for value, name in layer.names.items():
            here = layer.values == value
            priced = [c for k, c in cost_table.items() if k in (value, name)]
            if priced:
                cost[here] = priced[0]
            elif (value in wall_keys or name in wall_keys) if walls is not None else True:
                wall |= here
    if empty == "wall":
        wall |= ~covered
    cost[wall] = np.inf
    return cost


def _values(arg: str, value: Value | Sequence[Value] | None) -> list[Value]:
    if value is None:
        return []
    out = [value] if isinstance(value, (int, str)) else list(value)
    for v in out:
        if isinstance(v, bool) or not isinstance(v, (int, str)):
            raise TypeError(
                f"{arg} must hold IntGrid values (int) or their identifiers (str); got {v!r}"
            )
    return out


def _costs(costs: Mapping[Value, float] | None) -> dict[Value, float]:
    if costs is None:
        return {}
    if not isinstance(costs, Mapping):
        raise TypeError(f"costs must be a mapping value -> cost; got {costs!r}")
    _values("costs", list(costs))
    out: dict[Value, float] = {}
    for key, raw in costs.items():
        try:
            cost = float(raw)
        except (TypeError, ValueError):
            raise ValueError(f"costs[{key!r}] must be a cost > 0 or inf; got {raw!r}") from None
        if not cost > 0:
            raise ValueError(f"costs[{key!r}] must be a cost > 0 or inf; got {raw!r}")
        out[key] = cost
    return out
