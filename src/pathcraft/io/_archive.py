"""The archive under a saved world: named arrays in a zip of ``.npy`` files, read
strictly and sealed by a checksum of every byte that shapes the world.

:func:`write_archive` writes what ``numpy.savez`` writes (an uncompressed zip of
``.npy`` members, C order, no pickle) plus a ``checksum`` member: ``"sha256:<hex>"``
over every other member, in name order, each as its name, its length, its CRC-32 and
its ``.npy`` header (dtype, order, shape): the list of members, their headers and,
through the CRC-32s (checked as each member is read to its end), their data.
:func:`read_archive` reads such a zip without ``numpy.load``:

- the zip itself: members must be plain ``<name>.npy`` files, each once, stored or
  deflated, not encrypted, of a zip version Python reads, each no larger than the
  archive holds (stored) or deflate can expand to, and all together no larger than
  ``max_bytes`` (checked on the directory, before anything is read);
- each ``.npy`` header is parsed by a strict pattern (no ``eval``, no ``literal_eval``):
  version 1.0 or 2.0, a plain numeric, boolean or text dtype (no Python objects, so no
  pickle), and a shape whose size is exactly the member's data, checked before the
  array is allocated;
- every member is read to its end, so its CRC-32 is checked.

With ``mmap=True`` (a file given by name), the data of each stored member of at least
:data:`MAP_MIN_BYTES` is not read into memory but mapped from the file, copy on write
(``numpy.memmap`` mode ``"c"``: pages are read when touched and shared with every
other process mapping the same file; a write changes this process's copy of a page,
never the file); its CRC-32 is computed over the mapping (reading it once, into the
shared page cache). :func:`write_archive` pads each member's local header (a zip
"extra" field, id ``0xD935``, the one Android's zipalign uses) so that its data starts
at a multiple of 64 bytes in the file; a member that does not (an older file) is read
into memory instead, as an array the kernels can take must be aligned.

Any failure is an :class:`ArchiveError` (a ``ValueError``); the caller adds the file's
name. Whether the checksum matches is the caller's question (:func:`read_archive` returns
the one it computed), as a file of the first format version has none. The checksum
finds damage, not forgery: anyone can seal a file again; what keeps a hostile file
harmless is the strict reading.

Examples
--------
>>> import io
>>> import numpy as np
>>> from pathcraft.io._archive import read_archive, write_archive
>>> buffer = io.BytesIO()
>>> write_archive(buffer, {"cost": np.ones((2, 3)), "kind": np.array("grid")})
>>> arrays, digest = read_archive(io.BytesIO(buffer.getvalue()))
>>> sorted(arrays), arrays["cost"].shape, digest == arrays["checksum"].item()
(['checksum', 'cost', 'kind'], (2, 3), True)
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import struct
import time
import zipfile
import zlib
from collections.abc import Mapping
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt

__all__ = [
    "CHECKSUM",
    "MAP_MIN_BYTES",
    "MAX_LOAD_BYTES",
    "ArchiveError",
    "read_archive",
    "write_archive",
]

#: The member holding the checksum of all the others.
CHECKSUM = "checksum"
#: The default limit on a saved world's arrays, all together, in bytes (4 GiB): a file
#: whose zip directory declares more is refused before anything is read.
MAX_LOAD_BYTES = 4 << 30
#: With ``mmap=True``, members of at least this many bytes are mapped; smaller ones are
#: read (a mapping costs a page at least).
MAP_MIN_BYTES = 1 << 16

_MAGIC = b"\x93NUMPY"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}\.npy")
# What numpy writes, exactly: dtype, order and shape in this order, padded with spaces.
_HEADER = re.compile(
    r"\{'descr': '([<>|=](?:b1|i[1248]|u[1248]|f[248]|U[1-9][0-9]{0,8}))', "
    r"'fortran_order': (True|False), 'shape': \(((?:0|[1-9][0-9]{0,18})"
    r"(?:, (?:0|[1-9][0-9]{0,18}))*,?)?\), \} *\n"
)
_DTYPE = re.compile(r"'descr': '([^']{0,40})'")
_MAX_HEADER = 4096
_CHUNK = 1 << 20
#: Member data starts at a multiple of this in files :func:`write_archive` writes.
_ALIGN = 64
_PAD_ID = 0xD935  # the extra field Android's zipalign pads with
_LOCAL_HEADER = 30  # bytes of a zip local file header before its name and extra field
_ZIP64_EXTRA = 20  # the zip64 extra field zipfile adds to a local header (force_zip64)
#: Deflate expands at most about 1032 times (a 258-byte match in 2 bits).
_DEFLATE_RATIO = 1032
_ZIP_ERRORS = (
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    NotImplementedError,
    RuntimeError,
    EOFError,
    OSError,
    zlib.error,
    struct.error,
    UnicodeError,
    OverflowError,
    ValueError,
)


class ArchiveError(ValueError):
    """A saved world's zip or one of its ``.npy`` members is damaged or not allowed."""


def _member_bytes(arr: npt.NDArray[Any]) -> tuple[bytes, npt.NDArray[np.uint8]]:
    """The ``.npy`` header of a C-ordered array and its data as bytes (a view)."""
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, np.lib.format.header_data_from_array_1_0(arr))
    return header.getvalue(), arr.reshape(-1).view(np.uint8)


def _seal(digest: Any, name: str, size: int, crc: int, header: bytes) -> None:
    """Add one member to the checksum: its name, size, CRC-32 and ``.npy`` header (its
    data is bound through the CRC-32, checked as the member is read)."""
    digest.update(name.encode("ascii") + b"\0" + size.to_bytes(8, "little"))
    digest.update(crc.to_bytes(4, "little") + len(header).to_bytes(4, "little") + header)


def write_archive(target: Any, arrays: Mapping[str, Any]) -> None:
    """Write ``arrays`` (names without ``.npy``; no ``checksum``) and their checksum to
    ``target`` (a file name or a binary file) as an uncompressed zip."""
    members: dict[str, tuple[bytes, npt.NDArray[np.uint8]]] = {}
    for name in sorted(arrays):
        arr = np.asarray(arrays[name])
        arr = arr if arr.flags.c_contiguous else arr.copy(order="C")
        if arr.dtype.hasobject:
            raise TypeError(f"the array {name!r} holds Python objects, which a file cannot hold")
        members[name] = _member_bytes(arr)
    digest = hashlib.sha256()
    for name, (header, data) in members.items():
        crc = zlib.crc32(data.data, zlib.crc32(header))
        _seal(digest, name, len(header) + data.size, crc, header)
    members[CHECKSUM] = _member_bytes(np.array(f"sha256:{digest.hexdigest()}"))
    with zipfile.ZipFile(target, mode="w", compression=zipfile.ZIP_STORED) as zf:
        for name, (header, data) in members.items():
            info = zipfile.ZipInfo(f"{name}.npy", time.localtime()[:6])
            # an extra field pads the local header so the array's data is aligned
            before = zf.fp.tell() if zf.fp is not None else 0  # where the header goes
            lead = _LOCAL_HEADER + len(info.filename) + 4 + _ZIP64_EXTRA + len(header)
            pad = -(before + lead) % _ALIGN
            info.extra = struct.pack("<HH", _PAD_ID, pad) + bytes(pad)
            with zf.open(info, "w", force_zip64=True) as out:
                out.write(header)
                out.write(data.data)


def _check_directory(zf: zipfile.ZipFile, max_bytes: int, size: int) -> list[zipfile.ZipInfo]:
    """The members, once the directory passed (``size``: the archive's length)."""
    infos = zf.infolist()
    seen: set[str] = set()
    total = 0
    for info in infos:
        name = info.filename
        if not _NAME.fullmatch(name):
            raise ArchiveError(f"the member {name!r} is not an array of a pathcraft world")
        if name in seen:
            raise ArchiveError(f"the member {name!r} occurs twice")
        seen.add(name)
        if info.flag_bits & 0x1:
            raise ArchiveError(f"the member {name!r} is encrypted")
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise ArchiveError(
                f"the member {name!r} uses zip compression method {info.compress_type}; "
                "expected stored (0) or deflated (8)"
            )
        if info.extract_version > zipfile.MAX_EXTRACT_VERSION:
            raise ArchiveError(
                f"the member {name!r} needs zip version {info.extract_version / 10:.1f}"
            )
        stored = info.compress_type == zipfile.ZIP_STORED
        if info.compress_size > size or info.file_size > (
            info.compress_size if stored else _DEFLATE_RATIO * info.compress_size + 1024
        ):  # no allocation for data that is not there
            raise ArchiveError(
                f"the member {name!r} claims {info.file_size} bytes from "
                f"{info.compress_size} in an archive of {size}"
            )
        total += info.file_size
    if total > max_bytes:
        raise ArchiveError(
            f"its arrays take {total} bytes, more than max_bytes={max_bytes} (raise the "
            "limit to load a world this large)"
        )
    return infos


def _read_exactly(member: Any, size: int, what: str) -> bytes:
    data: bytes = member.read(size)
    if len(data) != size:
        raise ArchiveError(f"{what} is truncated")
    return data


def _parse_header(name: str, text: str) -> tuple[np.dtype[Any], tuple[int, ...], bool]:
    found = _HEADER.fullmatch(text)
    if found is None:
        said = _DTYPE.search(text)
        if said is not None and said.group(1) in ("|O", "<O", ">O", "O"):
            raise ArchiveError(
                f"the array {name!r} holds Python objects (pickled data), which a pathcraft "
                "world never holds; it is not read"
            )
        raise ArchiveError(f"the array {name!r} has a damaged or unsupported .npy header")
    descr, order, dims = found.groups()
    shape = tuple(int(d) for d in dims.split(",") if d.strip()) if dims else ()
    if repr(shape) != f"({dims or ''})":
        raise ArchiveError(f"the array {name!r} has a damaged .npy header (shape {dims!r})")
    return np.dtype(descr), shape, order == "True"


def _read_member(
    zf: zipfile.ZipFile, info: zipfile.ZipInfo, digest: Any, mapped: str | None = None
) -> npt.NDArray[Any]:
    """One member, checked; mapped from the file ``mapped`` where it can be (see the
    module), else read."""
    name = info.filename[:-4]
    with zf.open(info) as member:
        start = _read_exactly(member, 10, f"the array {name!r}")
        if start[:6] != _MAGIC or start[6:8] not in (b"\x01\x00", b"\x02\x00"):
            raise ArchiveError(f"the array {name!r} is not a .npy array of version 1.0 or 2.0")
        if start[6] == 1:
            length, lead = int.from_bytes(start[8:10], "little"), start
        else:
            more = _read_exactly(member, 2, f"the array {name!r}")
            length, lead = int.from_bytes(start[8:10] + more, "little"), start + more
        if length > _MAX_HEADER or len(lead) + length > info.file_size:
            raise ArchiveError(f"the array {name!r} has a damaged .npy header (length {length})")
        raw = _read_exactly(member, length, f"the array {name!r}")
        dtype, shape, fortran = _parse_header(name, raw.decode("latin1"))  # any byte decodes
        count = 1
        for d in shape:
            count *= d
        expected = info.file_size - len(lead) - length
        if count * dtype.itemsize != expected:
            raise ArchiveError(
                f"the array {name!r} claims shape {shape} of {dtype.str} ({count * dtype.itemsize} "
                f"bytes) but holds {expected} bytes"
            )
        if mapped is not None and info.compress_type == zipfile.ZIP_STORED and (
            expected >= MAP_MIN_BYTES
        ):
            dims = shape[::-1] if fortran else shape
            arr = _map_member(mapped, info, len(lead) + length, dtype, dims)
            if arr is not None:
                crc = zlib.crc32(arr.reshape(-1).view(np.uint8).data, zlib.crc32(lead + raw))
                if crc != info.CRC:
                    raise ArchiveError(f"the array {name!r} fails its CRC-32 check")
                _seal(digest, name, info.file_size, info.CRC, lead + raw)
                return arr.T if fortran else arr
        try:
            arr = np.empty(shape[::-1] if fortran else shape, dtype=dtype)
        except MemoryError as exc:  # within max_bytes, but not free now
            raise ArchiveError(f"the array {name!r} needs {expected} bytes of memory") from exc
        flat = arr.reshape(-1).view(np.uint8)
        for at in range(0, expected, _CHUNK):  # in chunks, as numpy.load reads
            chunk = _read_exactly(member, min(_CHUNK, expected - at), f"the array {name!r}")
            flat[at : at + len(chunk)] = np.frombuffer(chunk, dtype=np.uint8)
        if member.read(1):  # read to the end: the CRC-32 is checked
            raise ArchiveError(f"the array {name!r} is longer than its zip entry says")
        _seal(digest, name, info.file_size, info.CRC, lead + raw)
    return arr.T if fortran else arr


def _map_member(
    path: str, info: zipfile.ZipInfo, skip: int, dtype: np.dtype[Any], shape: tuple[int, ...]
) -> npt.NDArray[Any] | None:
    """The data of a stored member mapped copy-on-write from ``path`` (``skip``: the
    bytes of its ``.npy`` header), or None where it is not aligned for its dtype."""
    with open(path, "rb") as file:
        file.seek(info.header_offset)
        local = _read_exactly(file, _LOCAL_HEADER, f"the array {info.filename[:-4]!r}")
    if local[:4] != b"PK\x03\x04":
        raise ArchiveError(f"the array {info.filename[:-4]!r} has a damaged local header")
    names, extra = struct.unpack("<HH", local[26:30])
    start = info.header_offset + _LOCAL_HEADER + names + extra + skip
    if start % max(dtype.alignment, 8) or start + info.file_size - skip > os.path.getsize(path):
        return None
    if 0 in shape:
        return None
    return np.memmap(path, dtype=dtype, mode="c", offset=start, shape=shape)


def _starts_as_npy(source: str | BinaryIO) -> bool:
    if isinstance(source, str):
        with open(source, "rb") as file:
            return file.read(len(_MAGIC)) == _MAGIC
    at = source.tell()
    start = source.read(len(_MAGIC))
    source.seek(at)
    return start == _MAGIC


def _length(source: str | BinaryIO) -> int:
    if isinstance(source, str):
        return os.path.getsize(source)
    at = source.tell()
    end = source.seek(0, io.SEEK_END)
    source.seek(at)
    return end


def read_archive(
    source: str | BinaryIO, max_bytes: int = MAX_LOAD_BYTES, *, mmap: bool = False
) -> tuple[dict[str, npt.NDArray[Any]], str]:
    """The arrays of a zip of ``.npy`` members, each checked (see the module), and the
    ``"sha256:<hex>"`` checksum of all but the ``checksum`` member, as computed; with
    ``mmap`` (``source`` a file name), large stored members mapped, not read."""
    if mmap and not isinstance(source, str):
        raise TypeError("mmap=True maps a file: give its name, not a file object")
    digest = hashlib.sha256()
    arrays: dict[str, npt.NDArray[Any]] = {}
    try:
        if _starts_as_npy(source):
            raise ArchiveError("a single .npy array, not an .npz archive")
        with zipfile.ZipFile(source) as zf:
            infos = _check_directory(zf, max_bytes, _length(source))
            for info in sorted(infos, key=lambda i: i.filename[:-4]):
                name = info.filename[:-4]
                sealed = hashlib.sha256() if name == CHECKSUM else digest
                where = source if mmap and isinstance(source, str) else None
                arrays[name] = _read_member(zf, info, sealed, where)
    except ArchiveError:
        raise
    except _ZIP_ERRORS as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        raise ArchiveError(f"{type(exc).__name__}: {exc}") from exc
    return arrays, f"sha256:{digest.hexdigest()}"
