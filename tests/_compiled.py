"""Test-only compiled modules: Cython sources under ``tests/`` built on first use (and
:func:`load`, a module's file imported under a name of its own).

Some tests reach the compiled core's inline functions (the ``.pxd`` declarations)
through a small Cython shim that must not ship in the wheel; it lives here and is
built into ``build/test_ext/<hash>/`` the first time a test needs it (later runs reuse
the build while the shim and the ``.pxd`` files it reads are unchanged). Tests that
need one skip when Cython or a C compiler is not available.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sysconfig
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
CORE = SRC / "pathcraft" / "_core"


def build(name: str) -> ModuleType:
    """Import the shim ``tests/<name>.pyx``, compiling it first when needed."""
    source = Path(__file__).with_name(f"{name}.pyx")
    digest = hashlib.sha256(source.read_bytes())
    for pxd in sorted(CORE.glob("*.pxd")) + sorted(CORE.glob("*.h")):
        digest.update(pxd.read_bytes())
    out = ROOT / "build" / "test_ext" / digest.hexdigest()[:16]
    library = out / f"{name}{sysconfig.get_config_var('EXT_SUFFIX')}"
    if not library.exists():
        cython = pytest.importorskip("Cython.Build")
        from setuptools import Distribution, Extension

        ext = Extension(name, [str(source)], include_dirs=[str(CORE)])
        modules = cython.cythonize(
            [ext], include_path=[str(SRC)], build_dir=str(out / "c"), quiet=True,
            compiler_directives={"language_level": 3},
        )  # fmt: skip
        command = Distribution({"ext_modules": modules}).get_command_obj("build_ext")
        command.build_lib = str(out)
        command.build_temp = str(out / "tmp")
        command.ensure_finalized()
        try:
            command.run()
        except Exception as error:  # no compiler
            pytest.skip(f"could not build the test shim {name}: {error}")
    return load(name, library)


def load(name: str, path: Path) -> ModuleType:
    """The module in the file ``path`` imported under ``name``: a shim built here, or
    the Python source of a module the package ships compiled (run as Python)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
