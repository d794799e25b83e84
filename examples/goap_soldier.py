"""GOAP: a soldier with weapons, cover and ammo plans how to defeat an enemy.

Run: ``python examples/goap_soldier.py``. Shooting from cover is cheaper than in the
open (a dynamic cost), the rifle needs ammo and ammo needs a clip; a knife needs the
soldier next to the enemy, out of cover; a grenade does the most damage but there may
be none. Each situation prints its cheapest plan.
"""

from __future__ import annotations

from pathcraft.goap import Action, Plan, Planner, State, add, ge, le


def shot_cost(state: State) -> float:
    """Shooting costs 1 from cover and 3 in the open."""
    return 1.0 if state["in_cover"] else 3.0


def build_planner() -> Planner:
    return Planner([
        Action("pick_up_rifle", {"rifle_nearby": True, "has_rifle": False},
               {"has_rifle": True, "rifle_nearby": False}, cost=2),
        Action("draw_knife", {"has_knife": True, "knife_drawn": False},
               {"knife_drawn": True}, cost=0.5),
        Action("reload", {"has_rifle": True, "clips": ge(1), "ammo": le(0)},
               {"ammo": add(3), "clips": add(-1)}, cost=1),
        Action("take_cover", {"in_cover": False}, {"in_cover": True, "near_enemy": False},
               cost=1),
        Action("approach", {"near_enemy": False}, {"near_enemy": True, "in_cover": False},
               cost=2),
        Action("shoot", {"has_rifle": True, "ammo": ge(1)},
               {"ammo": add(-1), "enemy_health": add(-1)},
               cost=shot_cost, min_cost=1, reads=["in_cover"]),
        Action("stab", {"knife_drawn": True, "near_enemy": True},
               {"enemy_health": add(-2)}, cost=3),
        Action("throw_grenade", {"grenades": ge(1), "in_cover": True},
               {"grenades": add(-1), "enemy_health": add(-3)}, cost=1),
    ])  # fmt: skip


SOLDIER = State(
    rifle_nearby=True, has_rifle=False, ammo=0, clips=2, has_knife=True, knife_drawn=False,
    grenades=0, in_cover=False, near_enemy=False, enemy_health=3,
)  # fmt: skip
GOAL = {"enemy_health": le(0)}


def show(title: str, plan: Plan) -> None:
    if not plan:
        print(f"{title}: no plan ({plan.reason})")
        return
    steps = ", ".join(plan.names) or "(nothing to do)"
    print(f"{title}: {steps}  [cost {plan.cost:g}, {plan.expanded} states expanded]")


def main() -> None:
    planner = build_planner()
    show("rifle nearby, two clips", planner.plan(SOLDIER, GOAL))
    show("no rifle around", planner.plan(SOLDIER.replace(rifle_nearby=False), GOAL))
    show("a grenade in the pocket", planner.plan(SOLDIER.replace(grenades=1), GOAL))
    show("unarmed", planner.plan(
        SOLDIER.replace(rifle_nearby=False, has_knife=False), GOAL))
    show("knife only, at most 2 actions", planner.plan(
        SOLDIER.replace(rifle_nearby=False), GOAL, max_depth=2))
    print("equal choices, three agents (tie_break='random'):")
    armed = SOLDIER.replace(has_rifle=True, rifle_nearby=False, ammo=3, grenades=1,
                            enemy_health=1)  # fmt: skip
    for seed in range(4):
        show(f"  seed {seed}", planner.plan(armed, GOAL, tie_break="random", seed=seed))


if __name__ == "__main__":
    main()
