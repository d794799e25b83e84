"""The approximate closed set behind ``closed="bloom"``: a scalable Bloom filter."""

from __future__ import annotations

from collections.abc import Hashable
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
    """

    error_rate: float = 1e-6
    initial_capacity: int = 1 << 16
    growth: int = 2
    tightening: float = 0.5

    def __post_init__(self) -> None:
        if not 0.0 < self.error_rate < 1.0:
            raise ValueError(f"error_rate must be in (0, 1); got {self.error_rate!r}")
        if not isinstance(self.initial_capacity, int) or self.initial_capacity < 1:
            raise ValueError(
                f"initial_capacity must be an integer >= 1; got {self.initial_capacity!r}"
            )
        if not isinstance(self.growth, int) or self.growth < 2:
            raise ValueError(f"growth must be an integer >= 2; got {self.growth!r}")
        if not 0.0 < self.tightening < 1.0:
            raise ValueError(f"tightening must be in (0, 1); got {self.tightening!r}")


class ScalableBloom:
    """A set-like chain of Bloom filters that keeps its false-positive bound as it grows."""

    __slots__ = ("_bloom_type", "_capacity", "_count", "_error", "_filters", "_settings")

    def __init__(self, settings: BloomClosed) -> None:
        try:
            from rbloom import Bloom
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ImportError(
                'closed="bloom" needs the rbloom package: pip install "pathcraft[bloom]"'
            ) from exc
        self._bloom_type = Bloom
        self._settings = settings
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
        self._filters[-1].add(node)
        self._count += 1

    def __contains__(self, node: Hashable) -> bool:
        return any(node in f for f in self._filters)

    @property
    def nbytes(self) -> int:
        """Memory held by the filters' bit arrays."""
        return int(sum(f.size_in_bits for f in self._filters)) // 8
