"""Shared test configuration: hypothesis profiles, the Moving AI data fixture, the
matplotlib backend and a local Dask cluster."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# Timing varies on shared machines: no per-example deadline. CI runs derandomized so
# a red run can be replayed exactly.
settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("ci" if os.environ.get("CI") else "default")

# Pictures are drawn off screen: matplotlib's Agg backend, chosen before it is imported.
os.environ["MPLBACKEND"] = "Agg"

REPO = Path(__file__).resolve().parents[1]
MOVINGAI_ENV = "PATHCRAFT_MOVINGAI"
MAPF_ENV = "PATHCRAFT_MAPF"


def _data_dir(
    env: str, name: str, folders: tuple[str, ...], bundled: Path | None = None
) -> Path:
    """The benchmark folder ``$env``, else ``../shared/benchmarks/NAME`` beside the
    repository, else ``bundled`` (a copy shipped with the tests), holding ``folders``;
    where none is there, the test is skipped with a message naming the data (a
    failure under CI, which always has it)."""
    candidates = []
    if os.environ.get(env):
        candidates.append(Path(os.environ[env]))
    candidates.append(REPO.parent / "shared" / "benchmarks" / name)
    if bundled is not None:
        candidates.append(bundled)
    for path in candidates:
        if all((path / folder).is_dir() for folder in folders):
            return path
    message = _MISSING[name]
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


_MISSING = {
    "movingai": (
        "Moving AI benchmark data not found (the grid benchmarks of "
        "movingai.com/benchmarks; the README's 'The Moving AI test data' says which "
        "maps): set PATHCRAFT_MOVINGAI to a folder with maps/ and scen/, or place "
        "shared/benchmarks/movingai beside the repository"
    ),
    "mapf": (
        "MAPF benchmark data not found (the grid MAPF benchmark of "
        "movingai.com/benchmarks/mapf: maps/ and scen-random/ of empty-32-32, "
        "random-32-32-20, maze-32-32-2, room-32-32-4, warehouse-10-20-10-2-1): set "
        "PATHCRAFT_MAPF to such a folder, or place shared/benchmarks/mapf beside "
        "the repository"
    ),
}


@pytest.fixture(scope="session")
def movingai() -> Path:
    """The Moving AI benchmark folder (``maps/`` and ``scen/``).

    Found at ``$PATHCRAFT_MOVINGAI`` or at ``../shared/benchmarks/movingai`` beside the
    repository. Where it is absent (a user's clone) the tests that need it are skipped
    with a message saying so; under CI (``CI`` set) its absence is a failure, since CI
    always has it.
    """
    return _data_dir(MOVINGAI_ENV, "movingai", ("maps", "scen"))


@pytest.fixture(scope="session")
def mapf_benchmark() -> Path:
    """The multi-agent benchmark folder (``maps/`` and ``scen-random/``).

    Found at ``$PATHCRAFT_MAPF``, at ``../shared/benchmarks/mapf`` beside the
    repository, or else in ``tests/data/mapf``: the same files (430 kB, ODC-By, the
    attribution in its README), shipped with the tests so that the multi-agent tests
    run in every clone, CI's included, whether or not the shared folder has them.
    """
    return _data_dir(
        MAPF_ENV, "mapf", ("maps", "scen-random"), REPO / "tests" / "data" / "mapf"
    )


@pytest.fixture(scope="session")
def dask_client() -> Iterator[Any]:
    """A Dask client on a real LocalCluster of two single-threaded worker processes."""
    distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()
