"""The approximate closed set behind ``closed="bloom"``: a scalable Bloom filter."""

from __future__ import annotations

import numbers
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

__all__ = ["BloomClosed", "ScalableBloom"]


@dataclass(frozen=True, slots=True)
class BloomClosed:
    """Settings of the approximate closed set, ``closed=BloomClosed(...)``.

    ``closed="bloom"`` is ``closed=BloomClosed()``. The closed set is a scalable Bloom
    filter (Almeida et al., "Scalable Bloom Filters", 2007): a chain of ``rbloom``
    filters, each ``growth`` times larger than the last with an error rate
    ``tightening`` times smaller, so the false-positive rate of the whole chain stays
    below ``error_rate`` however many nodes it holds.

    Parameters
    ----------
    error_rate : float
        Bound on the probability that a node never expanded is taken for a closed one;
        0 < error_rate < 1.
    initial_capacity : int
        Nodes the first filter holds before the next one is added; >= 1.
    growth : int
        Capacity ratio between consecutive filters; >= 2.
    tightening : float
        Error-rate ratio between consecutive filters; 0 < tightening < 1.
    key : callable or None
        Maps a node to what the filter stores; None stores the node itself. A Bloom
        filter sees only ``hash()``, so nodes with equal hashes are one node to it. In
        CPython ``hash(-1) == hash(-2)``, so ``(x, -1)`` and ``(x, -2)`` collide: on a
        lattice around the origin, pass a key that keeps them apart, for example
        ``key=lambda n: (2 * n[0] + 1, 2 * n[1] + 1)`` (odd numbers never hash to -2).
        Equal nodes must give equal keys.

    Examples
    --------
    >>> from pathcraft import BloomClosed, astar
    >>> def lattice(n):  # an unbounded 4-connected lattice
    ...     x, y = n
    ...     return [((x + 1, y), 1.0), ((x - 1, y), 1.0), ((x, y + 1), 1.0), ((x, y - 1), 1.0)]
    >>> h = lambda n: abs(n[0] - 3) + abs(n[1] + 4)
    >>> odd = BloomClosed(key=lambda n: (2 * n[0] + 1, 2 * n[1] + 1))
    >>> astar((0, 0), (3, -4), lattice, h, closed=odd).cost
    7.0
    """

    error_rate: float = 1e-6
    initial_capacity: int = 1 << 16
    growth: int = 2
    tightening: float = 0.5
    key: Callable[[Any], Hashable] | None = None

    def __post_init__(self) -> None:
        if self.key is not None and not callable(self.key):
            raise TypeError(f"key must be a callable or None; got {self.key!r}")
        for name in ("error_rate", "tightening"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, numbers.Real):
                raise TypeError(f"{name} must be a number in (0, 1); got {value!r}")
            if not 0.0 < float(value) < 1.0:
                raise ValueError(f"{name} must be in (0, 1); got {value!r}")
        for name, least in (("initial_capacity", 1), ("growth", 2)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise TypeError(f"{name} must be an integer >= {least}; got {value!r}")
            if int(value) < least:
                raise ValueError(f"{name} must be an integer >= {least}; got {value!r}")
            object.__setattr__(self, name, int(value))  # numpy integers become ints


class ScalableBloom:
    """A set-like chain of Bloom filters that keeps its false-positive bound as it grows.

    A node is stored as the integer ``hash((key(node),))``, computed once per add or
    test. rbloom derives its k bit positions from a linear congruential sequence seeded
    with ``hash(item)``, and ``hash(0) == 0``, ``hash(1) == 1`` put node 0's positions
    one step before node 1's: k - 1 of them are shared, so once 1 is in a filter, 0 was
    reported present with a probability near the filter's fill (about 1/2 at capacity),
    not its error rate. The 1-tuple's hash mixes the node's hash into 64 well-spread
    bits. Nodes whose own hashes are equal (``-1`` and ``-2`` in CPython) stay
    indistinguishable unless ``key`` keeps them apart: a Bloom filter only sees hashes.
    """

    __slots__ = (
        "_bloom_type", "_capacity", "_count", "_error", "_filters", "_key", "_settings",
    )  # fmt: skip

    def __init__(self, settings: BloomClosed) -> None:
        try:
            from rbloom import Bloom
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ImportError(
                'closed="bloom" needs the rbloom package: pip install "pathcraft[bloom]"'
            ) from exc
        self._bloom_type = Bloom
        self._settings = settings
        self._key = settings.key
        self._filters: list[Any] = []
        # The errors of the filters form a geometric series summing to error_rate.
        self._error = settings.error_rate * (1.0 - settings.tightening)
        self._capacity = settings.initial_capacity
        self._count = 0
        self._filters.append(Bloom(self._capacity, self._error))

    def add(self, node: Hashable) -> None:
        if self._count >= self._capacity:
            self._capacity *= self._settings.growth
            self._error *= self._settings.tightening
            self._filters.append(self._bloom_type(self._capacity, self._error))
            self._count = 0
        self._filters[-1].add(self._hash(node))
        self._count += 1

    def __contains__(self, node: Hashable) -> bool:
        h = self._hash(node)
        for f in reversed(self._filters):  # noqa: SIM110 - a plain loop beats any() here
            # the newest filter holds the most nodes: test it first
            if h in f:
                return True
        return False

    def _hash(self, node: Hashable) -> int:
        return hash((node if self._key is None else self._key(node),))

    @property
    def nbytes(self) -> int:
        """Memory held by the filters' bit arrays."""
        return int(sum(f.size_in_bits for f in self._filters)) // 8
