"""What the Moving AI readers share: the path type and the file-and-line error."""

from __future__ import annotations

import os

StrPath = str | os.PathLike[str]


def file_error(path: StrPath, line: int, message: str, column: int | None = None) -> ValueError:
    """The error for a bad line of a map or scenario file, naming the file and line."""
    where = f"line {line}" if column is None else f"line {line}, column {column}"
    return ValueError(f"{os.fspath(path)}, {where}: {message}")
