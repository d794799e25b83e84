"""A small Wavefront OBJ reader: vertices and faces, nothing else."""

from __future__ import annotations

import os

import numpy as np
import numpy.typing as npt

from pathcraft._validation import check_choice

__all__ = ["read_obj"]


def _index(token: str, count: int, where: str) -> int:
    """A face's vertex reference (``a``, ``a/b``, ``a//c``, ``a/b/c``; 1-based, or
    negative counting back from the last vertex read) as a 0-based index."""
    head = token.split("/", 1)[0]
    try:
        value = int(head)
    except ValueError:
        raise ValueError(f"{where}: bad vertex reference {token!r}") from None
    if value > 0 and value <= count:
        return value - 1
    if value < 0 and -value <= count:
        return count + value
    raise ValueError(f"{where}: vertex reference {token!r} out of range 1..{count}")


def read_obj(
    path: str | os.PathLike[str], up: str = "y"
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int32]]:
    """Read the triangles of an OBJ file as world points ``(x, y, z)``, z up.

    ``v`` lines give vertices and ``f`` lines faces (``f 1 2 3``, ``f 1/1 2/2 3/3``,
    ``f 1//1 ...``; negative references count back from the last vertex); a face of
    more than three vertices is fanned into triangles from its first vertex.
    Comments (``#``) and every other kind of line (normals, texture coordinates,
    groups, materials) are ignored.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    up : {"y", "z"}
        The file's up axis. ``"y"`` (as RecastDemo's levels and most exporters): a
        file's ``(X, Y, Z)`` becomes ``(X, -Z, Y)``, a rotation that keeps handedness
        and faces' winding. ``"z"``: taken as it is.

    Returns
    -------
    vertices : ndarray of float64, shape (n, 3)
    triangles : ndarray of int32, shape (t, 3)

    Raises
    ------
    ValueError
        A malformed ``v`` or ``f`` line (naming the file and the line number), or
        a bad ``up``.

    Examples
    --------
    >>> import os, tempfile
    >>> from pathcraft.navmesh3d import read_obj
    >>> text = "# a quad\\nv 0 0 0\\nv 1 0 0\\nv 1 0 -1\\nv 0 0 -1\\nf 1 2 3 4\\n"
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     name = os.path.join(folder, "quad.obj")
    ...     with open(name, "w") as file:
    ...         _ = file.write(text)
    ...     vertices, triangles = read_obj(name)
    >>> vertices[2].tolist(), triangles.tolist()
    ([1.0, 1.0, 0.0], [[0, 1, 2], [0, 2, 3]])
    """
    check_choice("up", up, ("y", "z"))
    vertices: list[tuple[float, float, float]] = []
    triangles: list[tuple[int, int, int]] = []
    with open(path, encoding="utf-8", errors="replace") as file:
        for number, line in enumerate(file, start=1):
            text = line.split("#", 1)[0].split()
            if not text:
                continue
            where = f"{os.fspath(path)}, line {number}"
            if text[0] == "v":
                if len(text) < 4:
                    raise ValueError(f"{where}: a vertex needs x y z; got {line.strip()!r}")
                try:
                    x, y, z = (float(t) for t in text[1:4])
                except ValueError:
                    raise ValueError(f"{where}: bad vertex {line.strip()!r}") from None
                if not all(np.isfinite((x, y, z))):
                    raise ValueError(f"{where}: a vertex must be finite; got {line.strip()!r}")
                vertices.append((x, -z, y) if up == "y" else (x, y, z))
            elif text[0] == "f":
                if len(text) < 4:
                    raise ValueError(
                        f"{where}: a face needs at least 3 vertices; got {line.strip()!r}"
                    )
                face = [_index(t, len(vertices), where) for t in text[1:]]
                triangles.extend((face[0], face[k], face[k + 1]) for k in range(1, len(face) - 1))
    return (
        np.array(vertices, dtype=np.float64).reshape(-1, 3),
        np.array(triangles, dtype=np.int32).reshape(-1, 3),
    )
