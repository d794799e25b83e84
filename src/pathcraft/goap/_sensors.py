"""Sensors: callables that update an agent's facts, each on its own interval."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pathcraft._positions import check_number
from pathcraft.goap._facts import State, Value

__all__ = ["Sensor", "SensorRead"]

#: What a sensor reads: ``read(beliefs) -> facts`` (a mapping of the facts it saw, or
#: None when nothing changed).
SensorRead = Callable[[State], Mapping[str, Value] | None]


class Sensor:
    """A callable that updates some of an agent's facts, every few ticks or seconds.

    Parameters
    ----------
    read : callable
        ``read(beliefs) -> mapping or None``: the facts it saw (fact name to a bool,
        int or str), given the agent's current beliefs (a
        :class:`~pathcraft.goap.State`); None (or an empty mapping) when it has nothing
        to report. Facts it reports that the beliefs already hold change nothing.
    every : int
        Run every this many ticks (>= 1; the default 1: every tick).
    seconds : float or None
        Run instead every this many seconds of the ``dt`` the agent's ticks were given
        (> 0); None: count ticks.
    name : str or None
        A name for the agent's events and errors (default: the callable's name).

    Raises
    ------
    TypeError
        ``read`` is not callable, ``every`` is not an int.
    ValueError
        ``every < 1``, ``seconds <= 0`` or not finite.

    Examples
    --------
    >>> from pathcraft.goap import Sensor
    >>> eyes = Sensor(lambda beliefs: {"sees_player": True}, every=3, name="eyes")
    >>> eyes
    Sensor('eyes', every=3)
    >>> Sensor(print, seconds=0.5)
    Sensor('print', seconds=0.5)
    >>> Sensor(print, every=0)
    Traceback (most recent call last):
    ...
    ValueError: Sensor: every must be an int >= 1 (ticks); got 0
    """

    __slots__ = ("every", "name", "read", "seconds")

    def __init__(
        self,
        read: SensorRead,
        *,
        every: int = 1,
        seconds: float | None = None,
        name: str | None = None,
    ) -> None:
        if not callable(read):
            raise TypeError(f"Sensor: read must be a callable read(beliefs); got {read!r}")
        if isinstance(every, bool) or not isinstance(every, int):
            raise TypeError(f"Sensor: every must be an int >= 1 (ticks); got {every!r}")
        if every < 1:
            raise ValueError(f"Sensor: every must be an int >= 1 (ticks); got {every!r}")
        if seconds is not None:
            seconds = check_number("seconds", seconds, low=0.0, inclusive=False)
        if name is not None and not isinstance(name, str):
            raise TypeError(f"Sensor: name must be a str or None; got {name!r}")
        self.read = read
        self.every = every
        self.seconds = seconds
        self.name: str = name if name is not None else getattr(read, "__name__", "sensor")

    def __repr__(self) -> str:
        when = f"seconds={self.seconds!r}" if self.seconds is not None else f"every={self.every}"
        return f"Sensor({self.name!r}, {when})"


def as_sensor(item: Any, index: int) -> Sensor:
    """A sensor from a :class:`Sensor` or a bare callable (run every tick)."""
    if isinstance(item, Sensor):
        return item
    if callable(item):
        return Sensor(item)
    raise TypeError(f"sensors[{index}] must be a Sensor or a callable read(beliefs); got {item!r}")
