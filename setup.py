"""Build the compiled core (Cython extensions under ``src/pathcraft/_core``)."""

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


def kernel(name: str) -> Extension:
    """A compiled module of ``src/pathcraft/_core``."""
    return Extension(
        f"pathcraft._core.{name}",
        [f"src/pathcraft/_core/{name}.pyx"],
        include_dirs=[np.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=["-O3"],
    )


extensions = [
    # The generic search loops: a pure-Python module, also compiled as it is.
    Extension("pathcraft._engine", ["src/pathcraft/_engine.py"], extra_compile_args=["-O3"]),
    kernel("heap"),
    kernel("grid_search"),
    kernel("jps"),
    kernel("graph_search"),
    kernel("visibility"),
    kernel("navmesh"),
    kernel("polyanya"),
]

setup(ext_modules=cythonize(extensions, compiler_directives=COMPILER_DIRECTIVES))
