"""The check that the ``viz`` extra (matplotlib and Pillow) is installed."""

from __future__ import annotations

import importlib

__all__ = ["INSTALL_HINT", "require"]

#: How to install what the pictures need.
INSTALL_HINT = 'pip install "pathcraft[viz]"'


def require() -> None:
    """Import matplotlib and Pillow, or raise ImportError naming the ``viz`` extra."""
    for module, package in (("matplotlib", "matplotlib"), ("PIL", "Pillow")):
        try:
            importlib.import_module(module)
        except ImportError as exc:
            raise ImportError(
                f"pathcraft.viz needs {package} (the viz extra: matplotlib and Pillow); "
                f"install it with: {INSTALL_HINT}"
            ) from exc
