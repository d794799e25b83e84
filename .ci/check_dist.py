"""Check what the sdist and the wheel in a directory hold (run by ``.ci/run``).

The sdist must carry every Cython source, declaration and header the build needs and
no generated C; the wheel every compiled kernel, the stubs and the bundled map, and no
C, Cython source, header or test module. Exits non-zero, naming the files, otherwise.
"""

import fnmatch
import sys
import tarfile
import zipfile
from pathlib import Path

# The compiled modules every wheel must hold (by module path, without the suffix).
COMPILED = [
    "pathcraft/_engine",
    "pathcraft/agents/_budget",
    "pathcraft/_core/_cyutility",
    "pathcraft/_core/machine",
    "pathcraft/_core/grid_search",
    "pathcraft/_core/jps",
    "pathcraft/_core/graph_search",
    "pathcraft/_core/visibility",
    "pathcraft/_core/navmesh",
    "pathcraft/_core/polyanya",
]
WHEEL_NEEDS = ["pathcraft/py.typed", "pathcraft/data/arena2.map", "pathcraft/_core/*.pyi"]
WHEEL_FORBIDS = [
    "*.c", "*.pyx", "*.h", "*/tests/*", "tests/*", "*/test_*", "*conftest.py",
    "*_core/heap.*.so", "*_core/heap.*.pyd", "*_core/heap.pyi", "*_heap_shim*",
]  # fmt: skip
SDIST_NEEDS = [
    "*/src/pathcraft/_core/*.pyx",
    "*/src/pathcraft/_core/*.pxd",
    "*/src/pathcraft/_core/*.h",
    "*/LICENSE",
    "*/setup.py",
]
SDIST_FORBIDS = ["*.c", "*.so", "*.pyd"]


def problems(names: list[str], needs: list[str], forbids: list[str]) -> list[str]:
    found = []
    for pattern in needs:
        if not fnmatch.filter(names, pattern):
            found.append(f"missing {pattern}")
    for pattern in forbids:
        found.extend(f"should not hold {name}" for name in fnmatch.filter(names, pattern))
    return found


def main(directory: str) -> int:
    dist = Path(directory)
    sdists, wheels = sorted(dist.glob("*.tar.gz")), sorted(dist.glob("*.whl"))
    if len(sdists) != 1 or len(wheels) != 1:
        print(f"want one sdist and one wheel in {dist}, got {sdists + wheels}")
        return 1
    with tarfile.open(sdists[0]) as tar:
        sdist = tar.getnames()
    with zipfile.ZipFile(wheels[0]) as whl:
        wheel = whl.namelist()
    compiled = [f"{m}.*" for m in COMPILED]
    found = [f"{sdists[0].name}: {p}" for p in problems(sdist, SDIST_NEEDS, SDIST_FORBIDS)]
    found += [
        f"{wheels[0].name}: {p}" for p in problems(wheel, WHEEL_NEEDS + compiled, WHEEL_FORBIDS)
    ]
    for line in found:
        print(line)
    size = wheels[0].stat().st_size / 1e6
    print(
        f"{sdists[0].name}: {len(sdist)} files; {wheels[0].name}: {len(wheel)} files, {size:.2f} MB"
    )
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
