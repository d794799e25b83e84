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

extensions = [
    # The generic search loops: a pure-Python module, also compiled as it is.
    Extension("pathcraft._engine", ["src/pathcraft/_engine.py"], extra_compile_args=["-O3"]),
    Extension(
        "pathcraft._core.heap",
        ["src/pathcraft/_core/heap.pyx"],
        include_dirs=[np.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=["-O3"],
    ),
    Extension(
        "pathcraft._core.grid_search",
        ["src/pathcraft/_core/grid_search.pyx"],
        include_dirs=[np.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=["-O3"],
    ),
    Extension(
        "pathcraft._core.graph_search",
        ["src/pathcraft/_core/graph_search.pyx"],
        include_dirs=[np.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=["-O3"],
    ),
    Extension(
        "pathcraft._core.visibility",
        ["src/pathcraft/_core/visibility.pyx"],
        include_dirs=[np.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=["-O3"],
    ),
]

setup(ext_modules=cythonize(extensions, compiler_directives=COMPILER_DIRECTIVES))
