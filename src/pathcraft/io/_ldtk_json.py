"""Checked reading of an LDtk file's JSON: every value taken from it is checked for
its kind and range, and every error is a ``ValueError`` naming the file, the level, the
layer and the entity it is in (a :class:`Place`)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

__all__ = ["Place", "count", "finite", "get", "load_json", "number", "pair"]


class Place:
    """Where a check is: the file, the level, the layer and the entity, for messages."""

    def __init__(
        self, where: str, level: str | None = None, layer: str | None = None,
        entity: str | None = None,
    ) -> None:  # fmt: skip
        self.where, self.level, self.layer, self.entity = where, level, layer, entity

    def at(
        self, *, level: str | None = None, layer: str | None = None, entity: str | None = None
    ) -> Place:
        return Place(self.where, level or self.level, layer or self.layer, entity)

    def error(self, message: str) -> ValueError:
        parts = [self.where]
        for noun, name in (("level", self.level), ("layer", self.layer), ("entity", self.entity)):
            if name is not None:
                parts.append(f"{noun} {name!r}")
        return ValueError(f"{', '.join(parts)}: {message}")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def load_json(path: Path, place: Place) -> Any:
    """A file's JSON; a ``ValueError`` naming the file and the line of a syntax error."""
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise place.error(f"not an LDtk file (not UTF-8 text: {exc.reason})") from None
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise place.error(
            f"not valid JSON (truncated or edited?): {exc.msg} (line {exc.lineno}, "
            f"column {exc.colno})"
        ) from None
    except (ValueError, RecursionError) as exc:
        raise place.error(f"not valid JSON: {exc}") from None


def get(obj: Any, key: str, kind: type | tuple[type, ...], place: Place) -> Any:
    if not isinstance(obj, dict):
        raise place.error(f"expected a JSON object holding {key!r}; got {type(obj).__name__}")
    if key not in obj:
        raise place.error(f"missing {key!r}")
    value = obj[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _kinds(kind)):
        names = "/".join(k.__name__ for k in _kinds(kind))
        raise place.error(f"{key!r} must be {names}; got {value!r}")
    return value


def _kinds(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def count(obj: Any, key: str, place: Place) -> int:
    """A size: an integer from 1 to 2**31 - 1 (LDtk's own integers are 32-bit)."""
    value = get(obj, key, int, place)
    if not 0 < value < 2**31:
        raise place.error(f"{key!r} must be an integer from 1 to 2**31 - 1; got {value!r}")
    return int(value)


def finite(value: Any) -> float | None:
    """A JSON number as a finite float, or None (huge integers too)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        out = float(value)
    except OverflowError:
        return None
    return out if math.isfinite(out) else None


def number(obj: Any, key: str, place: Place, default: float | None = None) -> float:
    if default is not None and (not isinstance(obj, dict) or obj.get(key) is None):
        return default
    value = finite(get(obj, key, (int, float), place))
    if value is None:
        raise place.error(f"{key!r} must be a finite number; got {obj[key]!r}")
    return value


def pair(obj: Any, key: str, place: Place, default: tuple[float, float]) -> tuple[float, float]:
    raw = obj.get(key) if isinstance(obj, dict) else None
    if raw is None:
        return default
    pair = [finite(v) for v in raw] if isinstance(raw, list) and len(raw) == 2 else [None]
    if None in pair:
        raise place.error(f"{key!r} must be two finite numbers; got {raw!r}")
    return float(pair[0] or 0.0), float(pair[1] or 0.0)
