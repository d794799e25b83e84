"""Build the compiled core (Cython extensions under ``src/pathcraft/_core``)."""

import os

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

COMPILER_DIRECTIVES = {
    "language_level": "3",
    "boundscheck": False,
    "wraparound": False,
    "initializedcheck": False,
    "cdivision": True,
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
    """A compiled module of ``src/pathcraft/_core``."""
    return Extension(
        f"pathcraft._core.{name}",
        [f"src/pathcraft/_core/{name}.pyx"],
        include_dirs=[np.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION"), *DEBUG_MACROS],
        extra_compile_args=["-O3"],
    )


extensions = [
    # The generic search loops: a pure-Python module, also compiled as it is.
    Extension("pathcraft._engine", ["src/pathcraft/_engine.py"], extra_compile_args=["-O3"]),
    # The frame-by-frame driver of the compiled searches: its per-step overhead counts.
    Extension("pathcraft._sliced", ["src/pathcraft/_sliced.py"], extra_compile_args=["-O3"]),
    kernel("heap"),
    kernel("machine"),
    kernel("grid_search"),
    kernel("jps"),
    kernel("graph_search"),
    kernel("visibility"),
    kernel("navmesh"),
    kernel("polyanya"),
]

setup(ext_modules=cythonize(extensions, compiler_directives=COMPILER_DIRECTIVES))
