"""GOAP: a hungry agent plans to search for berries, gather them and eat.

Run: ``python examples/goap_hunger.py``. The same example runs as a doctest in the
docstring of :mod:`pathcraft.goap`.
"""

from __future__ import annotations

from pathcraft.goap import Action, Plan, Planner, State, add, ge, le


def build_planner() -> Planner:
    """Three actions: finding berries, gathering two at a time, eating one."""
    return Planner([
        Action("search_berries", {"berries_found": False}, {"berries_found": True}, cost=2),
        Action("gather_berries", {"berries_found": True}, {"food": add(2)}, cost=1),
        Action("eat", {"food": ge(1)}, {"food": add(-1), "hunger": add(-1)}, cost=1),
    ])  # fmt: skip


def show(title: str, plan: Plan) -> None:
    print(f"{title}: {'found' if plan else 'no plan (' + str(plan.reason) + ')'}")
    if not plan:
        return
    print(f"  start                 {dict(plan.start)}")
    for step, (action, state) in enumerate(zip(plan.actions, plan.states, strict=True), 1):
        print(f"  {step}. {action.name:<18} {dict(state)}")
    print(f"  total cost {plan.cost:g}, {plan.expanded} states expanded")


def main() -> None:
    planner = build_planner()
    start = State(hunger=3, food=0, berries_found=False)
    show("hunger 3 -> 0", planner.plan(start, {"hunger": le(0)}))
    show("within 4 actions", planner.plan(start, {"hunger": le(0)}, max_depth=4))
    show("already fed", planner.plan(start.replace(hunger=0), {"hunger": le(0)}))


if __name__ == "__main__":
    main()
