"""Build the compiled core (Cython extensions under ``src/pathcraft/_core``).

Everything else (metadata, packages, data files) is in ``pyproject.toml``. The
extensions are declared here from their ``.pyx`` sources and translated to C only when
they are built (``build_ext``), never for an sdist: the sdist ships the Cython sources
(see ``MANIFEST.in``) and every build from it runs Cython afresh.

The build is quick on a few cores: Cython's utility code is compiled once into a shared
module (not into every kernel), Cython translates the modules in parallel processes, the
C compiler runs on every module at once (``build_ext --parallel``, on by default here),
a translation is redone only when its sources changed, and the optimisation flags suit
the compiler (MSVC takes ``/O2``; GCC and Clang ``-O3``, without debugging information,
and ``-ffp-contract=off``: no fused multiply-add where the source has a multiply and an
add, so the open-list keys round as in Python, see ``_core/codes.pxd``).
"""

import os

import numpy as np
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

CORE = "src/pathcraft/_core"

COMPILER_DIRECTIVES = {
    "language_level": "3",
    "boundscheck": False,
    "wraparound": False,
    "initializedcheck": False,
    "cdivision": True,
}

# Optimisation flags by compiler family (distutils' compiler_type).
OPTIMISE = {
    "msvc": ["/O2"],
    "unix": ["-O3", "-g0", "-ffp-contract=off"],
    "mingw32": ["-O3", "-g0", "-ffp-contract=off"],
    "cygwin": ["-O3", "-g0", "-ffp-contract=off"],
}

# The debug build (PATHCRAFT_DEBUG_BUILD=1): bounds and initialisation checks compiled
# in, so an out-of-range index into a memoryview raises IndexError instead of reading
# or writing past an array; pathcraft._core.grid_search.DEBUG_BUILD says which build is
# installed. CI runs the test suite against both (.ci/run). Wraparound stays off on
# purpose: with it off, the bounds check rejects a negative index too, where wraparound
# would silently read from the end (no kernel indexes from the end on purpose).
DEBUG_BUILD = os.environ.get("PATHCRAFT_DEBUG_BUILD", "") == "1"
DEBUG_MACROS = [("PATHCRAFT_DEBUG_BUILD", "1")] if DEBUG_BUILD else []
if DEBUG_BUILD:
    COMPILER_DIRECTIVES.update(boundscheck=True, initializedcheck=True)


def kernel(name: str) -> Extension:
    """A compiled module of ``src/pathcraft/_core``, from its ``.pyx`` source."""
    return Extension(
        f"pathcraft._core.{name}",
        [f"{CORE}/{name}.pyx"],
        include_dirs=[np.get_include(), CORE],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION"), *DEBUG_MACROS],
    )


# Cython's utility code (memoryviews, buffer checks, type imports...) compiled once into
# this module and imported by the others, instead of into each of them: about half the
# C code, so half the compile time.
SHARED = "pathcraft._core._cyutility"

EXTENSIONS = [
    Extension(SHARED, [f"{CORE}/_cyutility.c"]),
    # The generic search loops: a pure-Python module, also compiled as it is.
    Extension("pathcraft._engine", ["src/pathcraft/_engine.py"]),
    # The frame-by-frame driver of the compiled searches: its per-step overhead counts.
    Extension("pathcraft._sliced", ["src/pathcraft/_sliced.py"]),
    # GOAP's fast path: the Python around a small plan's few microseconds of search.
    Extension("pathcraft.goap._fast", ["src/pathcraft/goap/_fast.py"]),
    # A frame's budget, spent around every budgeted plan: its clock is clock.h's.
    Extension(
        "pathcraft.agents._budget", ["src/pathcraft/agents/_budget.py"], include_dirs=[CORE]
    ),
    kernel("machine"),
    kernel("grid_search"),
    kernel("jps"),
    kernel("jpsplus"),
    kernel("theta"),
    kernel("hashed"),  # issue 29: sliced grid searches' state sized by the cells reached
    kernel("quick"),
    kernel("graph_search"),
    kernel("visibility"),
    kernel("navmesh"),
    kernel("polyanya"),
    kernel("stencil"),
    kernel("layered"),  # issue 19: floors joined by portals
    kernel("clearance"),
    kernel("dstar"),  # issue 18: incremental replanning (D* Lite)
    kernel("flowrepair"),  # issue 18: flow fields repaired where cells changed
    kernel("voxel"),  # issue 19: 3-D voxel grids
    kernel("components"),  # issue 32: reachability by component labels
    kernel("subgoal"),  # issue 32: subgoal graphs (exact queries on static maps)
    kernel("hpa"),  # issue 32: HPA* (entrances, intra-cluster fields, queries)
    kernel("goap"),  # issue 34: GOAP planning over packed states
    kernel("sipp"),  # issue 33: reservation table and safe-interval path planning
    kernel("lacam"),  # issue 33: multi-agent pathfinding (PIBT, LaCAM*)
    kernel("mapf_lns"),  # issue 33: refining a multi-agent solution
    kernel("scatter"),  # issue 33: spread paths guiding LaCAM (space utilisation)
    kernel("recast_hf"),  # issue 35: triangle meshes to a compact heightfield with regions
    kernel("recast_poly"),  # issue 35: contours and polygons of 3-D navigation meshes
    kernel("recast_detail"),  # issue 35: the detail mesh (Recast's rcBuildPolyMeshDetail)
]


def cores() -> int:
    """Processes to build with: the cores this process may use."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


class BuildExt(build_ext):
    """``build_ext`` that runs Cython in parallel, compiles in parallel, and picks flags
    by compiler."""

    def finalize_options(self) -> None:
        from Cython.Build import cythonize

        # Translate to C first (setuptools annotates the extensions it is given next),
        # and only what changed since the last build: Cython compares the timestamps
        # of each .c with its .pyx/.pxd/.h dependencies; ``--force`` retranslates all.
        modules = self.distribution.ext_modules
        self.distribution.ext_modules = cythonize(
            modules,
            compiler_directives=COMPILER_DIRECTIVES,
            shared_utility_qualified_name=SHARED,
            nthreads=cores() if len(modules) > 1 else 0,
            force=bool(self.force),
            quiet=True,
        )
        super().finalize_options()
        # distutils' option: compile that many extensions at once (threads running the
        # compiler). ``--parallel N`` or ``-j N`` on the command line still wins.
        if not self.parallel:
            self.parallel = cores()

    def build_extensions(self) -> None:
        flags = OPTIMISE.get(self.compiler.compiler_type, [])
        for ext in self.extensions:
            ext.extra_compile_args = flags + list(ext.extra_compile_args or [])
        super().build_extensions()


setup(ext_modules=EXTENSIONS, cmdclass={"build_ext": BuildExt})
