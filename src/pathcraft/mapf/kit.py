"""What other modules share of :mod:`pathcraft.mapf`'s internals, under public-internal
names (not the public API, which is :mod:`pathcraft.mapf`; these may change): the
command line's ``pathcraft mapf`` (:func:`add_arguments`, :func:`run`), and for solver
modules the checks and pieces every solver uses (:func:`check_time_limit`,
:func:`unreachable`, :func:`trimmed`, :func:`path_cost`)."""

from __future__ import annotations

from pathcraft.mapf._cli import add_arguments, run
from pathcraft.mapf._prioritized import unreachable
from pathcraft.mapf._result import path_cost, trimmed
from pathcraft.mapf._solve import check_time_limit

__all__ = ["add_arguments", "check_time_limit", "path_cost", "run", "trimmed", "unreachable"]
