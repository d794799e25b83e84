"""What the Moving AI readers share: the path type and the file-and-line error (defined
in :mod:`pathcraft._movingai`, below the worlds, so grids read maps too)."""

from __future__ import annotations

from pathcraft._movingai import StrPath, file_error

__all__ = ["StrPath", "file_error"]
