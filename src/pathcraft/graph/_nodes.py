"""A graph's node labels: labels to indices and back, with errors naming the argument.

:class:`NodeIndex` is one part :class:`pathcraft.graph.Graph` is composed of: the
labels (any hashable values, or the indices ``0 .. n-1`` when none were given) and the
checks that turn a caller's node, or collection of nodes, into kernel indices.
"""

from __future__ import annotations

import numbers
from collections.abc import Hashable, Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["NodeIndex"]


class NodeIndex:
    """The labels of ``count`` nodes (None: the indices) and their index by label."""

    __slots__ = ("count", "index", "labels")

    def __init__(self, count: int, labels: Sequence[Hashable] | None, index: Any) -> None:
        self.count = count
        self.labels: list[Hashable] | None = None if labels is None else list(labels)
        self.index: dict[Hashable, int] | None = index

    def node(self, name: str, node: Any) -> int:
        """The index of one node label; errors name the argument."""
        if self.index is None:
            if isinstance(node, bool) or not isinstance(node, numbers.Integral):
                raise TypeError(f"{name} must be a node index (an integer); got {node!r}")
            if not 0 <= int(node) < self.count:
                raise ValueError(
                    f"{name} {node!r} is not a node: node indices run from 0 to {self.count - 1}"
                )
            return int(node)
        try:
            return self.index[node]
        except (KeyError, TypeError):
            raise ValueError(f"{name} {node!r} is not a node of this graph") from None

    def nodes(self, name: str, value: Any) -> npt.NDArray[np.intp]:
        """One node or a collection of nodes, as an index array (at least one)."""
        single = (
            isinstance(value, numbers.Integral) and not isinstance(value, bool)
            if self.index is None
            else self.is_label(value)
        )
        if single:
            return np.array([self.node(name, value)], dtype=np.intp)
        if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
            self.node(name, value)  # raises the single-node error
        items = list(value)
        if not items:
            raise ValueError(f"{name} must be a node or a non-empty collection of nodes")
        return np.array(
            [self.node(f"{name}[{i}]", item) for i, item in enumerate(items)], dtype=np.intp
        )

    def is_label(self, value: Any) -> bool:
        """Whether ``value`` is a label (graphs with labels)."""
        try:
            return self.index is not None and value in self.index
        except TypeError:  # unhashable: a collection of nodes
            return False

    def lookup(self, node: Hashable) -> int | None:
        """The index of ``node``, or None when it is not a node (no error)."""
        if self.index is not None:
            return self.index.get(node) if self.is_label(node) else None
        if isinstance(node, bool) or not isinstance(node, numbers.Integral):
            return None
        return int(node) if 0 <= int(node) < self.count else None

    def label(self, i: int) -> Hashable:
        """The label of index ``i`` (checked by the caller)."""
        return i if self.labels is None else self.labels[i]

    def to_labels(self, indices: npt.NDArray[np.intp]) -> list[Hashable]:
        """Kernel indices as labels."""
        if self.labels is None:
            return list(indices.tolist())
        labels = self.labels
        return [labels[i] for i in indices.tolist()]
