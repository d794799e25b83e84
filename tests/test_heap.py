"""The shared open-list heap (`pathcraft._core.heap.pxd`, through the test-only shim
`tests/_heap_shim.pyx`) against `heapq` as the oracle."""

from __future__ import annotations

import heapq
from typing import Any

import numpy as np
import pytest
from _compiled import build
from hypothesis import given, settings
from hypothesis import strategies as st

_shim = build("_heap_shim")
OpenHeap = _shim.OpenHeap
IndexedHeap = _shim.IndexedHeap

# Few distinct keys and ties: most comparisons fall through to the push order.
KEYS = st.sampled_from([-1.0, 0.0, 0.5, 1.0, 2.0, 1e300, float("inf")])
TIES = st.sampled_from([-2.0, 0.0, 0.0, 1.0])
ITEMS = st.integers(-(2**62), 2**62)
OPS = st.lists(
    st.one_of(
        st.tuples(st.just("push"), KEYS, TIES, ITEMS),
        st.tuples(st.just("pop")),
        st.tuples(st.just("clear")) | st.tuples(st.just("push"), KEYS, TIES, ITEMS),
    ),
    max_size=300,
)


class Model:
    """What OpenHeap must do, with heapq over ``(key, tie, order, item)`` tuples."""

    def __init__(self) -> None:
        self.entries: list[tuple[float, float, int, int]] = []
        self.counter = 0

    def push(self, key: float, tie: float, item: int) -> None:
        heapq.heappush(self.entries, (key, tie, self.counter, item))
        self.counter += 1

    def pop(self) -> tuple[float, float, int, int]:
        return heapq.heappop(self.entries)  # IndexError when empty, as OpenHeap

    def clear(self) -> None:
        self.entries.clear()
        self.counter = 0


@settings(max_examples=200)
@given(ops=OPS, capacity=st.integers(0, 40))
def test_pops_in_heapq_order(ops: list[tuple[Any, ...]], capacity: int) -> None:
    heap, model = OpenHeap(capacity), Model()
    for op in ops:
        if op[0] == "push":
            heap.push(*op[1:])
            model.push(*op[1:])
        elif op[0] == "pop":
            if model.entries:
                assert heap.pop() == model.pop()
            else:
                with pytest.raises(IndexError):
                    heap.pop()
        else:
            heap.clear()
            model.clear()
        assert len(heap) == len(model.entries)
    drained = [heap.pop() for _ in range(len(heap))]
    assert drained == [model.pop() for _ in range(len(model.entries))]
    assert len(heap) == 0


@settings(max_examples=100)
@given(
    first=st.lists(st.tuples(KEYS, TIES, ITEMS), max_size=50),
    batch=st.lists(st.tuples(KEYS, TIES, ITEMS), max_size=200),
)
def test_push_many_is_the_same_as_pushing_one_by_one(
    first: list[tuple[float, float, int]], batch: list[tuple[float, float, int]]
) -> None:
    heap, model = OpenHeap(), Model()
    for entry in first:
        heap.push(*entry)
        model.push(*entry)
    keys = np.array([k for k, _, _ in batch], dtype=np.float64)
    ties = np.array([t for _, t, _ in batch], dtype=np.float64)
    items = np.array([i for _, _, i in batch], dtype=np.intp)
    keys.flags.writeable = False  # read-only arrays are accepted (const memoryviews)
    heap.push_many(keys, ties, items)
    for entry in batch:
        model.push(*entry)
    assert len(heap) == len(model.entries)
    assert [heap.pop() for _ in range(len(heap))] == [
        model.pop() for _ in range(len(model.entries))
    ]


@pytest.mark.parametrize(("n_keys", "n_ties", "n_items"), [(3, 2, 3), (3, 3, 4), (0, 1, 0)])
def test_push_many_checks_the_lengths(n_keys: int, n_ties: int, n_items: int) -> None:
    heap = OpenHeap()
    heap.push(1.0, 0.0, 7)
    with pytest.raises(ValueError, match="keys, ties and items must have one length"):
        heap.push_many(np.zeros(n_keys), np.zeros(n_ties), np.zeros(n_items, dtype=np.intp))
    assert len(heap) == 1  # nothing was pushed
    assert heap.pop() == (1.0, 0.0, 0, 7)


def test_pop_from_empty_raises_index_error() -> None:
    heap = OpenHeap()
    with pytest.raises(IndexError, match="pop from an empty heap"):
        heap.pop()
    heap.push(0.0, 0.0, 1)
    heap.pop()
    with pytest.raises(IndexError):
        heap.pop()


def test_clear_empties_and_restarts_the_order() -> None:
    heap = OpenHeap(4)
    for i in range(100):  # grows well past its first capacity
        heap.push(float(i % 3), 0.0, i)
    assert len(heap) == 100
    heap.clear()
    assert len(heap) == 0
    with pytest.raises(IndexError):
        heap.pop()
    heap.push(5.0, 1.0, 42)
    assert heap.pop() == (5.0, 1.0, 0, 42)


def test_equal_keys_and_ties_come_out_first_in_first_out() -> None:
    heap = OpenHeap()
    for item in (30, 10, 20):
        heap.push(1.0, 0.0, item)
    heap.push(1.0, -1.0, 99)  # a smaller tie goes first
    assert [heap.pop()[3] for _ in range(4)] == [99, 30, 10, 20]


# --------------------------------------------------------------------- indexed heap

_IH_OPS = st.lists(
    st.one_of(
        st.tuples(
            st.just("push"),
            st.integers(0, 5).map(float),  # few keys: many ties
            st.sampled_from([0.0, -1.0, 0.5]),
            st.integers(0, 19),
        ),
        st.tuples(st.just("pop")),
    ),
    max_size=200,
)


@given(_IH_OPS)
def test_indexed_heap_pops_like_a_reference_that_replaces_entries(ops: list[tuple]) -> None:
    """push() of an item already inside replaces its entry (fresh order number), as if
    the old entry were deleted and a new one pushed; pops follow (key, tie, order)."""
    heap = IndexedHeap(20)
    reference: dict[int, tuple[float, float, int]] = {}
    order = 0
    for op in ops:
        if op[0] == "push":
            _, key, tie, item = op
            heap.push(key, tie, item)
            reference[item] = (key, tie, order)
            order += 1
        elif reference:
            want_item = min(reference, key=lambda i: reference[i])
            key, tie, got_order = reference.pop(want_item)
            assert heap.pop() == (key, tie, got_order, want_item)
        else:
            with pytest.raises(IndexError):
                heap.pop()
        assert len(heap) == len(reference)
        for item in reference:  # the index points at each item's real place
            assert item in heap
            assert heap.item_at(heap.position(item)) == item


def test_indexed_heap_rejects_items_outside_its_capacity() -> None:
    heap = IndexedHeap(4)
    with pytest.raises(IndexError, match="item 4 outside"):
        heap.push(1.0, 0.0, 4)
    with pytest.raises(ValueError, match="capacity must be"):
        IndexedHeap(0)
