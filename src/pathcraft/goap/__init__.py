"""Goal-oriented action planning (GOAP): the cheapest plan of actions to a goal.

An agent knows its world as a :class:`State` (fact names to bools, ints and strs),
wants a goal (conditions on facts) and can do :class:`Action` s, each with
preconditions, effects and a cost. A :class:`Planner` finds the cheapest sequence of
actions from the current state to one meeting the goal with an A* whose nodes are world
states and whose edges are actions, compiled (facts packed into integers, the search in
:mod:`pathcraft._core.goap`). Given several :class:`Goal` s with priorities, one search
finds the plan to the best goal some plan reaches; :meth:`Planner.start` spreads a plan
over frames (a :class:`PlanSearch`).

Examples
--------
A hungry agent: it must find berries before it can gather them, and can eat what it
gathered; each meal lowers its hunger by one.

>>> from pathcraft.goap import Action, Planner, add, ge, le
>>> planner = Planner([
...     Action("search_berries", {"berries_found": False}, {"berries_found": True}, cost=2),
...     Action("gather_berries", {"berries_found": True}, {"food": add(2)}, cost=1),
...     Action("eat", {"food": ge(1)}, {"food": add(-1), "hunger": add(-1)}, cost=1),
... ])
>>> plan = planner.plan({"hunger": 2, "food": 0, "berries_found": False}, {"hunger": le(0)})
>>> plan.names, plan.cost
(['search_berries', 'gather_berries', 'eat', 'eat'], 5.0)
>>> plan.final
State({'berries_found': True, 'food': 0, 'hunger': 0})

No plan is an answer, not an exception:

>>> stuck = planner.plan({"hunger": 2, "food": 0, "berries_found": False}, {"hunger": le(0)},
...                      max_depth=3)
>>> bool(stuck), stuck.reason
(False, 'max_depth')
"""

from pathcraft.goap._action import Action, CostFunction, Effect
from pathcraft.goap._agent import ActionStatus, Agent, AgentEvent, AgentStatus, Executor
from pathcraft.goap._compile import MissingFactWarning
from pathcraft.goap._facts import Add, Condition, State, Value, add, eq, ge, gt, le, lt, ne
from pathcraft.goap._goal import Goal, Priority
from pathcraft.goap._moves import Places, Walker
from pathcraft.goap._plan import Plan
from pathcraft.goap._planner import Planner
from pathcraft.goap._search import PlanSearch
from pathcraft.goap._sensors import Sensor

__all__ = [
    "Action",
    "ActionStatus",
    "Add",
    "Agent",
    "AgentEvent",
    "AgentStatus",
    "Condition",
    "CostFunction",
    "Effect",
    "Executor",
    "Goal",
    "MissingFactWarning",
    "Places",
    "Plan",
    "PlanSearch",
    "Planner",
    "Priority",
    "Sensor",
    "State",
    "Value",
    "Walker",
    "add",
    "eq",
    "ge",
    "gt",
    "le",
    "lt",
    "ne",
]
