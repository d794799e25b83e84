"""The sort-based distinct values (:func:`pathcraft._unique.sorted_unique`) against
``np.unique``: same values, same dtype, input untouched."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from pathcraft._unique import sorted_unique

DTYPES = st.sampled_from([np.int8, np.int32, np.int64, np.uint16, np.intp, np.float32,
                          np.float64, np.bool_])  # fmt: skip


def _same(values: npt.NDArray[np.generic]) -> None:
    before = values.copy()
    got = sorted_unique(values)
    want = np.unique(values)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got, want, equal_nan=values.dtype.kind in "fcmM")
    assert np.array_equal(values, before, equal_nan=values.dtype.kind in "fcmM")


@given(hnp.arrays(DTYPES, hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=12)))
def test_it_gives_what_np_unique_gives(values: npt.NDArray[np.generic]) -> None:
    _same(values)


@given(st.lists(st.sampled_from([0.0, -0.0, 1.5, np.nan, np.inf, -np.inf]), max_size=20))
def test_nans_infinities_and_signed_zeros_come_out_as_np_unique_gives_them(
    values: list[float],
) -> None:
    _same(np.array(values, dtype=np.float64))


def test_not_a_time_is_kept_once_at_the_end() -> None:
    days = np.array(["2024-01-02", "NaT", "2024-01-01", "NaT"], dtype="datetime64[D]")
    _same(days)
    assert np.isnat(sorted_unique(days)[-1]) and sorted_unique(days).size == 3


def test_many_distinct_keys() -> None:
    keys = np.random.default_rng(7).integers(0, 2**40, 100_000)
    _same(keys)
