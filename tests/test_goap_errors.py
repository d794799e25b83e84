"""GOAP bad input: every error is raised at the boundary and names the action and fact."""

from __future__ import annotations

import math

import pytest

from pathcraft.goap import Action, Condition, Planner, State, add, eq, ge, gt, le, lt, ne


def test_goal_naming_an_unknown_fact() -> None:
    planner = Planner([Action("eat", {}, {"hunger": add(-1)})])
    with pytest.raises(ValueError, match=r"goal: the goal names fact 'thirst', which neither"):
        planner.plan({"hunger": 2}, {"thirst": 0})


def test_precondition_naming_an_unknown_fact() -> None:
    planner = Planner([Action("eat", {"food": ge(1)}, {"hunger": add(-1)})])
    with pytest.raises(ValueError, match=r"action 'eat': the precondition names fact 'food'"):
        planner.plan({"hunger": 2}, {"hunger": 0})


def test_fact_known_only_from_an_effect_is_fine() -> None:
    find = Action("find", {}, {"food": 1})
    planner = Planner([find, Action("eat", {"food": ge(1)}, {"ok": True})])
    assert planner.plan({"ok": False}, {"ok": True}).names == ["find", "eat"]


def test_reads_naming_an_unknown_fact() -> None:
    planner = Planner([Action("walk", {}, {"x": 1}, check=lambda s: True, reads=["mood"])])
    with pytest.raises(ValueError, match=r"action 'walk': reads names fact 'mood'"):
        planner.plan({"x": 0}, {"x": 1})


@pytest.mark.parametrize("cost", [-1, -0.5, math.nan, math.inf])
def test_bad_static_cost(cost: float) -> None:
    with pytest.raises(ValueError, match=r"action 'walk': cost must be a finite number >= 0"):
        Action("walk", {}, {"x": 1}, cost=cost)


@pytest.mark.parametrize("cost", ["1", None, True, [1]])
def test_cost_of_the_wrong_type(cost: object) -> None:
    with pytest.raises(TypeError, match=r"action 'walk': cost must be a number >= 0 or a"):
        Action("walk", {}, {"x": 1}, cost=cost)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-1.0, math.nan, math.inf])
def test_bad_dynamic_cost_names_the_action_during_the_search(bad: float) -> None:
    planner = Planner([
        Action("rest", {}, {"tired": 0}, cost=1),
        Action("walk", {}, {"home": True}, cost=lambda s: bad),
    ])  # fmt: skip
    with pytest.raises(ValueError, match=r"action 'walk': cost\(state\) returned .* in State"):
        planner.plan({"tired": 1, "home": False}, {"home": True})


def test_dynamic_cost_that_is_not_a_number() -> None:
    planner = Planner([Action("walk", {}, {"home": True}, cost=lambda s: "far")])
    with pytest.raises(TypeError, match=r"action 'walk': cost\(state\) returned 'far'"):
        planner.plan({"home": False}, {"home": True})


def test_dynamic_cost_below_its_min_cost() -> None:
    planner = Planner([Action("walk", {}, {"home": True}, cost=lambda s: 0.5, min_cost=1)])
    with pytest.raises(ValueError, match=r"action 'walk': .* below its min_cost 1.0"):
        planner.plan({"home": False}, {"home": True})


def test_min_cost_checks() -> None:
    with pytest.raises(ValueError, match=r"action 'walk': min_cost is a lower bound for a dyn"):
        Action("walk", {}, {"x": 1}, cost=2, min_cost=1)
    with pytest.raises(ValueError, match=r"action 'walk': min_cost must be a finite number"):
        Action("walk", {}, {"x": 1}, cost=lambda s: 2, min_cost=-1)


def test_duplicate_action_names() -> None:
    with pytest.raises(ValueError, match=r"two actions are named 'eat'"):
        Planner([Action("eat", {}, {"x": 1}), Action("eat", {}, {"x": 2})])


def test_planner_takes_actions_only() -> None:
    with pytest.raises(TypeError, match=r"Planner takes Action objects; got str 'eat'"):
        Planner(["eat"])  # type: ignore[list-item]


@pytest.mark.parametrize("effect", [1.5, None, [1], {"a": 1}, eq(1)])
def test_effect_of_an_unsupported_type(effect: object) -> None:
    with pytest.raises(TypeError, match=r"action 'eat': the effect on fact 'hunger' is"):
        Action("eat", {}, {"hunger": effect})  # type: ignore[dict-item]


@pytest.mark.parametrize("cond", [1.5, None, [1], add(1)])
def test_precondition_of_an_unsupported_type(cond: object) -> None:
    with pytest.raises(TypeError, match=r"action 'eat': the precondition on fact 'food' is"):
        Action("eat", {"food": cond}, {"x": 1})  # type: ignore[dict-item]


def test_goal_of_an_unsupported_type() -> None:
    planner = Planner([Action("eat", {}, {"x": 1})])
    with pytest.raises(TypeError, match=r"goal: the goal on fact 'x' is 1.5 \(float\)"):
        planner.plan({"x": 0}, {"x": 1.5})  # type: ignore[dict-item]
    with pytest.raises(TypeError, match=r"goal: goals must be a mapping"):
        planner.plan({"x": 0}, [("x", 1)])  # type: ignore[arg-type]


def test_add_needs_an_int_delta_and_an_int_fact_the_state_has() -> None:
    with pytest.raises(TypeError, match=r"add\(\) takes an int delta; got 0.5"):
        add(0.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"add\(\) takes an int delta; got True"):
        add(True)
    planner = Planner([Action("eat", {}, {"hunger": add(-1)})])
    with pytest.raises(ValueError, match=r"action 'eat' adds to fact 'hunger', which the start"):
        planner.plan({"x": 0}, {"hunger": 0})
    flags = Planner([Action("flip", {}, {"flag": add(1)})])
    with pytest.raises(TypeError, match=r"action 'flip' adds to fact 'flag', which is a bool"):
        flags.plan({"flag": False}, {"flag": True})


def test_kinds_must_agree() -> None:
    planner = Planner([Action("arm", {}, {"ammo": True})])
    with pytest.raises(TypeError, match=r"action 'arm' sets fact 'ammo' to True \(a bool\), but"):
        planner.plan({"ammo": 3}, {"ammo": ge(1)})
    compare = Planner([Action("load", {"ammo": "full"}, {"ammo": 3})])
    with pytest.raises(TypeError, match=r"action 'load': the precondition eq\('full'\) on fact"):
        compare.plan({"ammo": 0}, {"ammo": 3})
    with pytest.raises(TypeError, match=r"goal: the goal ge\(1\) on fact 'armed' compares a bo"):
        Planner([Action("arm", {}, {"armed": True})]).plan({"armed": False}, {"armed": ge(1)})


def test_conditions_refuse_what_they_cannot_compare() -> None:
    with pytest.raises(TypeError, match=r"ge\(True\) orders a bool"):
        ge(True)
    with pytest.raises(TypeError, match=r"lt\(\) compares with a bool, int or str; got 1.5"):
        lt(1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"a condition's op must be one of"):
        Condition("=~", 1)
    assert [repr(c) for c in (eq(1), ne("a"), lt(2), le(3), gt(4), ge(5))] == [
        "eq(1)", "ne('a')", "lt(2)", "le(3)", "gt(4)", "ge(5)",
    ]  # fmt: skip


def test_state_checks_and_immutability() -> None:
    with pytest.raises(TypeError, match=r"fact 'speed' has the value 1.5 \(float\)"):
        State(speed=1.5)
    with pytest.raises(TypeError, match=r"fact names must be strings; got 3"):
        State({3: True})  # type: ignore[dict-item]
    s = State(a=1, b=True)
    with pytest.raises(TypeError):
        s["a"] = 2  # type: ignore[index]
    assert hash(s) == hash(State({"b": True, "a": 1})) and s == {"a": 1, "b": True}
    assert s != {"a": 1} and s.replace(a=2)["a"] == 2 and s["a"] == 1
    planner = Planner([Action("x", {}, {"a": 2})])
    with pytest.raises(TypeError, match=r"state must be a mapping of fact names to values; got"):
        planner.plan([("a", 1)], {"a": 2})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"fact 'a' has the value None"):
        planner.plan({"a": None}, {"a": 2})  # type: ignore[dict-item]


def test_action_argument_checks() -> None:
    with pytest.raises(TypeError, match=r"an action's name must be a str; got 3"):
        Action(3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"an action's name must not be empty"):
        Action("")
    with pytest.raises(TypeError, match=r"action 'a': check must be a callable"):
        Action("a", check=True)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"action 'a': reads must be an iterable of fact names"):
        Action("a", reads="tired")
    with pytest.raises(TypeError, match=r"action 'a': effects must be a mapping"):
        Action("a", {}, [("x", 1)])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("option", "value", "error", "match"),
    [
        ("weight", 0.5, ValueError, r"weight must be a finite number >= 1"),
        ("tie_break", "lifo", ValueError, r"tie_break must be one of 'g', 'fifo', 'random'"),
        ("max_depth", -1, ValueError, r"max_depth must be >= 0 or None"),
        ("max_depth", 2.5, TypeError, r"max_depth must be an integer >= 0 or None"),
        ("max_expansions", -3, ValueError, r"max_expansions must be an integer from 0 to"),
        ("max_cost", math.nan, ValueError, r"max_cost must be a number >= 0 or None"),
        ("prune", "yes", TypeError, r"prune must be True or False"),
    ],
)
def test_bad_options(option: str, value: object, error: type[Exception], match: str) -> None:
    planner = Planner([Action("x", {}, {"a": 2})])
    with pytest.raises(error, match=match):
        planner.plan({"a": 1}, {"a": 2}, **{option: value})  # type: ignore[arg-type]


def test_errors_in_callbacks_propagate() -> None:
    def broken(state: State) -> bool:
        raise RuntimeError("sensor offline")

    planner = Planner([Action("look", {}, {"seen": True}, check=broken)])
    with pytest.raises(RuntimeError, match="sensor offline"):
        planner.plan({"seen": False}, {"seen": True})
    # an undeclared read is a KeyError from the user's own check
    planner = Planner([Action("look", {}, {"seen": True}, check=lambda s: s["light"],
                              reads=[])])  # fmt: skip
    with pytest.raises(KeyError, match="light"):
        planner.plan({"seen": False, "light": True}, {"seen": True})
    assert gt(1).test(2) and le(1).test(1)
