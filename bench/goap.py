"""GOAP benchmark: pathcraft.goap.Planner against goap-ai's RegressivePlanner.

Run on purpose, not in CI::

    python bench/goap.py            # full run, about a minute
    python bench/goap.py --quick    # smoke run, nothing written
    python bench/goap.py --help

Peers: ``goap-ai`` 2.0.0 (imports as ``goap``; a regressive A* whose heuristic counts
unmet goal facts) is the one GOAP library from PyPI that installs and runs on this
Python. ``goap`` 0.3.0 (GOApy) pins networkx 2.3 and does not import on Python 3.11 (and
installs into the same ``goap/`` package as goap-ai); ``goapauto`` needs Python >= 3.12
(pip finds no version for 3.11). See shared/PEERS.md.

goap-ai takes equality preconditions and effects that set values, so every domain here
is written that way (bool facts), and both libraries get the same actions, costs, start
and goal. Domains:

- ``hunger``: search berries, gather them, eat (3-step plan);
- ``soldier``: weapons, ammo, cover, a knife, a grenade (several ways to win);
- ``chain-100``: 100 actions: a 10-stage chain with four ways forward at each stage
  (costs 1-4) and nine two-stage skips (2.5), plus 50 distractor actions over 10
  facts the goal does not need; the optimal plan has 10 steps, cost 10;
- ``random``: many random domains of 8 bool facts and 30 actions (1-2 equality
  preconditions, 1-2 set effects, costs 1-5, goals of 2-3 facts).

Every plan is replayed from the start (each action's preconditions must hold, the end
must meet the goal) and its cost compared with an exhaustive uniform-cost search over
all reachable states written here (the oracle). goap-ai runs under a time limit per
plan (a regressive tree search without duplicate detection can run for ever on an
unreachable goal).

The markdown tables go to ``bench/results/goap.md`` and are printed.
"""

from __future__ import annotations

import argparse
import datetime as dt
import heapq
import itertools
import math
import os
import platform
import random
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import Any

from _machine import cpu_model, git_rev

import pathcraft
from pathcraft.goap import Action, Planner

HERE = Path(__file__).resolve().parent


def _import_goap_ai() -> tuple[Any, Any]:
    """goap-ai's ``goap`` package: this script's folder is left off ``sys.path`` for the
    import, since this file is also named goap."""
    saved = sys.path[:]
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
    try:
        from goap.action import Action as ai_action
        from goap.planner import RegressivePlanner as ai_planner
    finally:
        sys.path[:] = saved
    return ai_action, ai_planner


AiAction, RegressivePlanner = _import_goap_ai()
DEFAULT_OUT = HERE / "results" / "goap.md"
REL_TOL = 1e-9

Facts = dict[str, bool]


@dataclass
class Domain:
    """One planning problem, in plain data both libraries are built from."""

    name: str
    start: Facts
    goal: Facts
    actions: list[tuple[str, Facts, Facts, float]]  # name, preconditions, effects, cost
    note: str = ""
    oracle: float = math.nan
    oracle_steps: int = -1
    timer: float = math.nan  # seconds: the median of empty timed calls (see timer)

    def spec(self, name: str) -> tuple[Facts, Facts, float]:
        for n, pre, eff, cost in self.actions:
            if n == name:
                return pre, eff, cost
        raise KeyError(name)


# --------------------------------------------------------------------------- domains


def hunger() -> Domain:
    return Domain(
        "hunger",
        {"berries_found": False, "has_food": False, "hungry": True},
        {"hungry": False},
        [
            ("search_berries", {"berries_found": False}, {"berries_found": True}, 2.0),
            ("gather_berries", {"berries_found": True}, {"has_food": True}, 1.0),
            ("eat", {"has_food": True}, {"has_food": False, "hungry": False}, 1.0),
        ],
        "search, gather, eat",
    )


def soldier() -> Domain:
    start = {
        "rifle_nearby": True, "has_rifle": False, "loaded": False, "has_clip": True,
        "has_knife": True, "knife_drawn": False, "has_grenade": False, "in_cover": False,
        "near_enemy": False, "enemy_dead": False,
    }  # fmt: skip
    actions = [
        ("pick_up_rifle", {"rifle_nearby": True, "has_rifle": False},
         {"has_rifle": True, "rifle_nearby": False}, 2.0),
        ("reload", {"has_rifle": True, "has_clip": True, "loaded": False},
         {"loaded": True, "has_clip": False}, 1.0),
        ("take_cover", {"in_cover": False}, {"in_cover": True, "near_enemy": False}, 1.0),
        ("shoot_from_cover", {"loaded": True, "in_cover": True}, {"enemy_dead": True}, 1.0),
        ("shoot_in_open", {"loaded": True, "in_cover": False}, {"enemy_dead": True}, 3.0),
        ("draw_knife", {"has_knife": True, "knife_drawn": False}, {"knife_drawn": True}, 0.5),
        ("approach", {"near_enemy": False}, {"near_enemy": True, "in_cover": False}, 2.0),
        ("stab", {"knife_drawn": True, "near_enemy": True}, {"enemy_dead": True}, 3.0),
        ("find_grenade", {"has_grenade": False}, {"has_grenade": True}, 4.0),
        ("throw_grenade", {"has_grenade": True, "in_cover": True},
         {"enemy_dead": True, "has_grenade": False}, 1.0),
    ]  # fmt: skip
    return Domain("soldier", start, {"enemy_dead": True}, actions, "weapons, ammo, cover")


def chain(seed: int) -> Domain:
    rng = random.Random(seed)
    stages = 10
    start = {f"s{i}": i == 0 for i in range(stages + 1)}
    actions = []
    for i in range(stages):
        costs = [1.0, 2.0, 3.0, 4.0]
        rng.shuffle(costs)
        for k, c in enumerate(costs):
            actions.append((f"advance_{i}_{k}", {f"s{i}": True}, {f"s{i + 1}": True}, c))
    for i in range(stages - 1):
        actions.append((f"skip_{i}", {f"s{i}": True}, {f"s{i + 2}": True}, 2.5))
    n_distract = 10
    for k in range(100 - len(actions)):
        a, b = rng.sample(range(n_distract), 2)
        actions.append((f"fidget_{k}", {f"d{a}": rng.random() < 0.5},
                        {f"d{b}": rng.random() < 0.5}, 1.0))  # fmt: skip
    start.update({f"d{k}": rng.random() < 0.5 for k in range(n_distract)})
    return Domain(
        "chain-100", start, {f"s{stages}": True}, actions,
        "10 stages x 4 ways + 9 skips + 51 distractor actions",
    )  # fmt: skip


def random_domain(rng: random.Random, index: int, facts: int = 8, n: int = 30) -> Domain:
    names = [f"f{i}" for i in range(facts)]
    start = {f: rng.random() < 0.5 for f in names}
    goal = {f: not start[f] if rng.random() < 0.8 else start[f]
            for f in rng.sample(names, rng.randint(2, 3))}  # fmt: skip
    actions = []
    for k in range(n):
        pre = {f: rng.random() < 0.5 for f in rng.sample(names, rng.randint(1, 2))}
        eff = {f: rng.random() < 0.5 for f in rng.sample(names, rng.randint(1, 2))}
        actions.append((f"a{k}", pre, eff, float(rng.randint(1, 5))))
    return Domain(f"random-{index}", start, goal, actions)


# --------------------------------------------------------------------------- oracle


def oracle(domain: Domain) -> tuple[float, int]:
    """The cheapest plan's cost and length by uniform-cost search over all states."""
    key = lambda s: tuple(sorted(s.items()))  # noqa: E731
    count = itertools.count()
    best = {key(domain.start): 0.0}
    heap = [(0.0, next(count), domain.start, 0)]
    while heap:
        g, _, state, steps = heapq.heappop(heap)
        if g > best[key(state)]:
            continue
        if all(state.get(f) == v for f, v in domain.goal.items()):
            return g, steps
        for _, pre, eff, cost in domain.actions:
            if all(state.get(f) == v for f, v in pre.items()):
                new = {**state, **eff}
                d = g + cost
                if d < best.get(key(new), math.inf):
                    best[key(new)] = d
                    heapq.heappush(heap, (d, next(count), new, steps + 1))
    return math.inf, -1


def replay(domain: Domain, names: list[str]) -> float | None:
    """The plan's cost if every action may run where it runs and the goal is met."""
    state = dict(domain.start)
    total = 0.0
    for name in names:
        pre, eff, cost = domain.spec(name)
        if any(state.get(f) != v for f, v in pre.items()):
            return None
        state.update(eff)
        total += cost
    if any(state.get(f) != v for f, v in domain.goal.items()):
        return None
    return total


# --------------------------------------------------------------------------- libraries


def pathcraft_planner(domain: Domain) -> Planner:
    return Planner([Action(n, pre, eff, cost) for n, pre, eff, cost in domain.actions])


def goapai_actions(domain: Domain) -> list[Any]:
    out = []
    for n, pre, eff, cost in domain.actions:
        cls = type(n, (AiAction,), {"preconditions": dict(pre), "effects": dict(eff),
                                    "cost": cost})  # fmt: skip
        out.append(cls())
    return out


class _Timeout(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Timeout


@dataclass
class Run:
    """One library's answer to one domain, and its times."""

    names: list[str] | None = None  # None: no plan
    error: str = ""
    expanded: int = -1
    generated: int = -1
    considered: int = -1
    times: list[float] = field(default_factory=list)


def timer() -> float:
    """An empty timed call: what the pair of clock reads around every timed call costs
    by itself (subtracted from every library's times alike)."""
    t0 = time.perf_counter()
    return time.perf_counter() - t0


def run_pathcraft(planner: Planner, domain: Domain, prune: bool) -> tuple[Run, float]:
    t0 = time.perf_counter()
    plan = planner.plan(domain.start, domain.goal, prune=prune, max_expansions=None)
    dt_ = time.perf_counter() - t0
    run = Run(plan.names if plan else None, "" if plan else str(plan.reason),
              plan.expanded, plan.generated, plan.considered)  # fmt: skip
    return run, dt_


def run_goapai(actions: list[Any], domain: Domain, limit: float) -> tuple[Run, float]:
    planner = RegressivePlanner(dict(domain.start), actions)
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    t0 = time.perf_counter()
    try:
        steps = planner.find_plan(dict(domain.goal))
        dt_ = time.perf_counter() - t0
        return Run([type(s.action).__name__ for s in steps]), dt_
    except _Timeout:
        return Run(None, f"timeout {limit:g} s"), math.nan
    except Exception as exc:  # its "no plan" is an exception (PathNotFound, KeyError)
        return Run(None, type(exc).__name__), time.perf_counter() - t0
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


LIBS = ("pathcraft", "pathcraft prune=False", "goap-ai")


def bench_domain(domain: Domain, reps: int, limit: float) -> dict[str, Run]:
    """Each library ``reps`` times, interleaved (the first to go rotates), and an empty
    timed call in the same loop: every time has the median of those taken off."""
    domain.oracle, domain.oracle_steps = oracle(domain)
    planner = pathcraft_planner(domain)
    ai_actions = goapai_actions(domain)
    runs: dict[str, Run] = {}

    def once(lib: str) -> tuple[Run, float]:
        if lib == "pathcraft":
            return run_pathcraft(planner, domain, True)
        if lib == "pathcraft prune=False":
            return run_pathcraft(planner, domain, False)
        return run_goapai(ai_actions, domain, limit)

    empty: list[float] = []
    for lib in LIBS:  # one plan each first, not timed: what a first call builds or loads
        once(lib)
    for rep in range(reps):
        order = LIBS[rep % 3:] + LIBS[:rep % 3]
        for lib in order:
            if lib in runs and runs[lib].error.startswith("timeout"):
                continue  # one timeout is the answer
            run, took = once(lib)
            kept = runs.setdefault(lib, run)
            kept.times.append(took)
        empty.append(timer())
    # a cold first plan: a new Planner, so the compilation is timed too
    cold = []
    for _ in range(reps):
        t0 = time.perf_counter()
        pathcraft_planner(domain).plan(domain.start, domain.goal, max_expansions=None)
        cold.append(time.perf_counter() - t0)
    runs["pathcraft (new Planner each time)"] = Run(runs["pathcraft"].names, times=cold)
    domain.timer = statistics.median(empty)
    for run in runs.values():
        run.times = [t - domain.timer for t in run.times]
    return runs


def verdict(domain: Domain, run: Run) -> tuple[str, float]:
    """"optimal", "dearer", "illegal", "no plan (right)" or "no plan (wrong)"; and cost."""
    if run.names is None:
        ok = domain.oracle == math.inf
        return ("no plan (right)" if ok else f"no plan (wrong: {run.error})"), math.inf
    cost = replay(domain, run.names)
    if cost is None:
        return "illegal", math.nan
    if math.isclose(cost, domain.oracle, rel_tol=REL_TOL):
        return "optimal", cost
    return "dearer", cost


# --------------------------------------------------------------------------- report


def median_ms(times: list[float]) -> float:
    good = [t for t in times if not math.isnan(t)]
    return statistics.median(good) * 1e3 if good else math.nan


def fmt_ms(x: float) -> str:
    if math.isnan(x):
        return "—"
    if x < 0.01:
        return f"{x:.4f}"
    return f"{x:.3f}" if x < 1 else (f"{x:.2f}" if x < 100 else f"{x:,.0f}")


def fmt_cost(x: float) -> str:
    return "—" if math.isnan(x) else ("none" if x == math.inf else f"{x:g}")


def machine_facts(load_start: tuple[float, ...]) -> list[str]:
    import pathcraft.goap._fast as fast

    compiled = not fast.__file__.endswith(".py")
    return [
        f"- CPU: {cpu_model()}; `nproc` = {os.cpu_count()}; load average (1 / 5 / 15 min) at "
        f"start {' / '.join(f'{x:.2f}' for x in load_start)}, at the end "
        f"{' / '.join(f'{x:.2f}' for x in os.getloadavg())} (a shared, noisy machine: "
        "ratios within a run are steadier than absolute times)",
        f"- Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.system()} {platform.release()}",
        f"- goap-ai {version('goap-ai')}",
        f"- pathcraft {pathcraft.__version__} at commit {git_rev()}; the planner's search "
        "in the compiled kernel `pathcraft._core.goap`, its fast path `pathcraft.goap._fast` "
        f"{'compiled by Cython' if compiled else 'pure Python (not compiled)'}",
    ]


def render(args: argparse.Namespace, fixed: list[tuple[Domain, dict[str, Run]]],
           rand: list[tuple[Domain, dict[str, Run]]]) -> str:  # fmt: skip
    now = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    timers = [d.timer * 1e6 for d, _ in (*fixed, *rand)]
    out = [
        "# GOAP: pathcraft.goap.Planner vs goap-ai",
        "",
        f"Run {now} with `python bench/goap.py` (seed {args.seed}, {args.reps} repetitions "
        f"per domain, {args.random} random domains).",
        "",
        *machine_facts(args.load_start),
        "",
        "## How to read",
        "",
        "- Both libraries get the same bool facts, equality preconditions, set effects, "
        "costs, start and goal (goap-ai takes nothing else). goap-ai is the only GOAP peer "
        "from PyPI that runs on Python 3.11: `goap` 0.3.0 (GOApy) does not import (it pins "
        "networkx 2.3) and `goapauto` needs Python >= 3.12.",
        "- **cost** is the replayed cost of the plan returned (every action's "
        "preconditions checked where it runs, the goal checked at the end); **oracle** is "
        "the cheapest cost by an exhaustive uniform-cost search over every reachable state, "
        "written in the benchmark. **verdict**: optimal, dearer (legal but above the "
        "oracle), illegal, or whether a \"no plan\" was right.",
        "- **median ms** per plan over the repetitions, interleaved (the library going "
        "first rotates). A pathcraft `Planner` caches what it compiles for a goal and the "
        "state's fact kinds, as an agent replanning each frame would reuse it (with the "
        "default options, from a dict with the same facts as a plan before, it also reads "
        "the state straight into a reused search: the fast path; `prune=False` takes the "
        "general path); the "
        "\"new Planner each time\" row times building the planner and the first plan. "
        "goap-ai's planner is built with the world state outside the timing (its "
        "constructor takes the state). Each library plans once before the timed "
        "repetitions, not timed (what a first call builds or loads). **÷ goap-ai** is "
        "goap-ai's median over this row's.",
        "- Every call is timed alone, by a pair of `time.perf_counter()` reads; what the "
        "pair costs by itself (an empty timed call in the same loop, its median per "
        f"domain: {min(timers):.2f}-{max(timers):.2f} us in this run) is taken off every "
        "library's times alike.",
        "- **expanded** / **generated**: world states popped / pushed by pathcraft's A*; "
        "**actions** the actions searched after relevant-action pruning (of all). "
        f"goap-ai runs under a {args.limit:g} s limit per plan.",
        "",
        "## Named domains",
        "",
        "| domain | actions | facts | oracle cost (steps) | library | plan | cost | verdict "
        "| median ms | ÷ goap-ai | expanded | generated | actions |",
        "|---|---:|---:|---|---|---|---:|---|---:|---:|---:|---:|---:|",
    ]
    for domain, runs in fixed:
        ai = median_ms(runs["goap-ai"].times)
        for lib, run in runs.items():
            v, cost = verdict(domain, run)
            ms = median_ms(run.times)
            plan = ", ".join(run.names) if run.names else f"none ({run.error})"
            if len(plan) > 60:
                plan = f"{len(run.names or [])} actions"
            ratio = f"{ai / ms:.1f}x" if not (math.isnan(ai) or math.isnan(ms)) else "—"
            pc = lib.startswith("pathcraft") and run.expanded >= 0
            out.append(
                f"| {domain.name} | {len(domain.actions)} | {len(domain.start)} | "
                f"{fmt_cost(domain.oracle)} ({domain.oracle_steps}) | {lib} | {plan} | "
                f"{fmt_cost(cost)} | {v} | {fmt_ms(ms)} | {ratio} | "
                f"{run.expanded if pc else '—'} | {run.generated if pc else '—'} | "
                f"{f'{run.considered} of {len(domain.actions)}' if pc else '—'} |"
            )
    out += [
        "",
        f"## {len(rand)} random domains",
        "",
        "8 bool facts, 30 actions each (1-2 equality preconditions, 1-2 set effects, costs "
        "1-5), goals of 2-3 facts. Per library: how many plans were optimal, dearer, "
        "illegal, and how many \"no plan\" answers were right or wrong; the median over "
        "domains of the per-plan median time, and of goap-ai's time over this library's "
        "(its median and its lowest over the domains).",
        "",
        "| library | optimal | dearer | illegal | no plan, right | no plan, wrong | "
        "median ms | median of per-domain ÷ goap-ai | lowest per-domain ÷ goap-ai | "
        "median expanded |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    reachable = sum(1 for d, _ in rand if d.oracle < math.inf)
    for lib in (*LIBS, "pathcraft (new Planner each time)"):
        tally = {"optimal": 0, "dearer": 0, "illegal": 0, "right": 0, "wrong": 0}
        times, ratios, expanded = [], [], []
        for domain, runs in rand:
            run = runs[lib]
            v, _ = verdict(domain, run)
            key = v if v in tally else ("right" if "right" in v else "wrong")
            tally[key] += 1
            ms = median_ms(run.times)
            times.append(ms)
            ai = median_ms(runs["goap-ai"].times)
            if not (math.isnan(ms) or math.isnan(ai)):
                ratios.append(ai / ms)
            if run.expanded >= 0:
                expanded.append(run.expanded)
        finite = [t for t in times if not math.isnan(t)]
        out.append(
            f"| {lib} | {tally['optimal']} | {tally['dearer']} | {tally['illegal']} | "
            f"{tally['right']} | {tally['wrong']} | "
            f"{fmt_ms(statistics.median(finite) if finite else math.nan)} | "
            f"{f'{statistics.median(ratios):.1f}x' if ratios else '—'} | "
            f"{f'{min(ratios):.1f}x' if ratios else '—'} | "
            f"{f'{statistics.median(expanded):,.0f}' if expanded else '—'} |"
        )
    ranked = sorted(
        (median_ms(runs["goap-ai"].times) / median_ms(runs["pathcraft"].times), d, runs)
        for d, runs in rand
        if not math.isnan(median_ms(runs["goap-ai"].times))
    )  # fmt: skip
    lowest = ranked[:8]
    under = sum(1 for ratio, _d, _runs in ranked if ratio < 10)
    # what the calls that need no search cost (0 or 1 state expanded) where goap-ai
    # answers in microseconds too (its long searches leave the caches colder still)
    bare = [
        (median_ms(runs["pathcraft"].times) * 1e3, median_ms(runs["goap-ai"].times) * 1e3)
        for _d, runs in rand
        if runs["pathcraft"].expanded <= 1 and median_ms(runs["goap-ai"].times) < 0.02
    ]  # fmt: skip
    floor = (
        f"{min(us for us, _ in bare):.2f}-{max(us for us, _ in bare):.2f} us a call "
        f"(median {statistics.median(us for us, _ in bare):.2f} us) on the "
        f"{len(bare)} domains where goap-ai takes under 20 us too, "
        f"{min(ai / us for us, ai in bare):.1f}-{max(ai / us for us, ai in bare):.1f}x "
        "faster than goap-ai there"
        if bare else "not measured here (no such domain)"
    )  # fmt: skip
    out += [
        "",
        f"The random domains where pathcraft's lead is smallest ({under} of {len(ranked)} "
        "under 10x):",
        "",
        "| domain | oracle cost (steps) | pathcraft ms | goap-ai ms | ÷ goap-ai | expanded "
        "| generated |",
        "|---|---|---:|---:|---:|---:|---:|",
        *(
            f"| {d.name} | {fmt_cost(d.oracle)} ({d.oracle_steps}) | "
            f"{fmt_ms(median_ms(runs['pathcraft'].times))} | "
            f"{fmt_ms(median_ms(runs['goap-ai'].times))} | {ratio:.1f}x | "
            f"{runs['pathcraft'].expanded} | {runs['pathcraft'].generated} |"
            for ratio, d, runs in lowest
        ),
        "",
        "Plans of 0 steps (the goal met at the start: answered without the search) and "
        "goals given up at once (no action can give a goal fact its value, even ignoring "
        "what effects undo: 0 expanded) need no search: goap-ai answers them in a few "
        "microseconds too, and what a pathcraft call costs around its search (the call "
        "with its keyword arguments, the state read, the plan built, two clock reads for "
        "its `elapsed`; one call timed at a time, its caches cold after goap-ai's run and "
        f"the general path's, the timer's own cost taken off) is the floor: {floor}. The "
        "others under 10x, if any, are small searches where goap-ai's regressive search "
        "goes straight to the goal, or near 10x and within one run's noise.",
    ]
    out += [
        "",
        f"{reachable} of the {len(rand)} random goals are reachable (oracle).",
        "",
        "## Relevant-action pruning",
        "",
        "Only actions that change a fact the goal needs are searched, closed through their "
        "preconditions; the search then tracks only the needed facts.",
        "",
        "| domain | actions searched | expanded | generated | median ms | "
        "without pruning: expanded | generated | median ms | speed-up |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for domain, runs in fixed:
        a, b = runs["pathcraft"], runs["pathcraft prune=False"]
        ma, mb = median_ms(a.times), median_ms(b.times)
        out.append(
            f"| {domain.name} | {a.considered} of {len(domain.actions)} | {a.expanded:,} | "
            f"{a.generated:,} | {fmt_ms(ma)} | {b.expanded:,} | {b.generated:,} | "
            f"{fmt_ms(mb)} | {mb / ma:.1f}x |"
        )
    example = next(
        (explain(d, runs["goap-ai"].names) for d, runs in rand
         if verdict(d, runs["goap-ai"])[0] == "illegal"), None,
    )  # fmt: skip
    ea = [runs["pathcraft"].expanded for _, runs in rand]
    eb = [runs["pathcraft prune=False"].expanded for _, runs in rand]
    ta = [median_ms(runs["pathcraft"].times) for _, runs in rand]
    tb = [median_ms(runs["pathcraft prune=False"].times) for _, runs in rand]
    out.append(
        f"| random (median of {len(rand)}) | — | {statistics.median(ea):,.0f} | — | "
        f"{fmt_ms(statistics.median(ta))} | {statistics.median(eb):,.0f} | — | "
        f"{fmt_ms(statistics.median(tb))} | "
        f"{statistics.median(y / x for x, y in zip(ta, tb, strict=True)):.1f}x |"
    )
    if example:
        out += ["", "## Notes", "", f"- An illegal goap-ai plan, for example: {example}."]
    return "\n".join(out) + "\n"


def explain(domain: Domain, names: list[str] | None) -> str:
    """Where a plan breaks: the first action whose preconditions fail, or the goal."""
    state = dict(domain.start)
    for step, name in enumerate(names or [], 1):
        pre, eff, _ = domain.spec(name)
        bad = {f: v for f, v in pre.items() if state.get(f) != v}
        if bad:
            return (
                f"{domain.name}, plan {names}: step {step}, `{name}`, needs {bad} but the "
                f"state has {({f: state.get(f) for f in bad})}"
            )
        state.update(eff)
    return f"{domain.name}, plan {names}: the end state misses the goal {domain.goal}"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="a smoke run; writes nothing")
    p.add_argument("--reps", type=int, default=None, help="repetitions per domain (21)")
    p.add_argument("--random", type=int, default=None, help="random domains (100)")
    p.add_argument("--limit", type=float, default=5.0, help="goap-ai seconds per plan")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    p.add_argument(
        "--previous", type=Path, default=None,
        help="the src folder of an earlier pathcraft, built: its planner timed on chain-100 "
        "against this one, each in its own processes, alternating",
    )  # fmt: skip
    p.add_argument("--previous-name", default="", help="how the results name --previous")
    p.add_argument("--chain-times", type=int, default=0, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    args.reps = args.reps or (3 if args.quick else 21)
    args.random = args.random if args.random is not None else (10 if args.quick else 100)
    return args


def chain_times(seed: int, reps: int) -> None:
    """Print the median seconds of ``reps`` chain-100 plans by the pathcraft imported
    (one plan first, not timed), the plan's cost and where pathcraft came from."""
    domain = chain(seed)
    planner = pathcraft_planner(domain)
    planner.plan(domain.start, domain.goal, max_expansions=None)
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        plan = planner.plan(domain.start, domain.goal, max_expansions=None)
        times.append(time.perf_counter() - t0)
    print(statistics.median(times), plan.cost, pathcraft.__file__)


def against_previous(args: argparse.Namespace, rounds: int = 7) -> list[str]:
    """The section comparing this planner with ``args.previous`` on chain-100."""
    this = Path(pathcraft.__file__).resolve().parents[1]
    medians: dict[str, list[float]] = {"previous": [], "this": []}
    best = oracle(chain(args.seed))[0]
    for r in range(rounds):
        for which in (("previous", "this") if r % 2 == 0 else ("this", "previous")):
            src = args.previous if which == "previous" else this
            env = {**os.environ, "PYTHONPATH": str(src)}
            out = subprocess.run(
                [sys.executable, __file__, "--chain-times", str(args.reps)], env=env,
                capture_output=True, text=True, check=True,
            ).stdout.split()  # fmt: skip
            if not math.isclose(float(out[1]), best, rel_tol=REL_TOL):
                raise SystemExit(f"{which} pathcraft planned chain-100 at cost {out[1]}")
            medians[which].append(float(out[0]))
    old = statistics.median(medians["previous"]) * 1e3
    new = statistics.median(medians["this"]) * 1e3
    return [
        "",
        "## Against pathcraft's previous planner",
        "",
        f"chain-100 with the default options, {rounds} rounds, each round one process "
        f"per planner ({args.reps} plans after one untimed, their median), the planner "
        "going first alternating; the median of the rounds' medians.",
        "",
        "| planner | median ms | speed-up |",
        "|---|---:|---:|",
        f"| previous ({args.previous_name or 'an earlier build'}) | {fmt_ms(old)} | 1.0x |",
        f"| this one | {fmt_ms(new)} | {old / new:.1f}x |",
    ]


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if args.chain_times:
        chain_times(args.seed, args.chain_times)
        return
    args.load_start = os.getloadavg()
    rng = random.Random(args.seed)
    fixed = []
    makers: list[Callable[[], Domain]] = [hunger, soldier, lambda: chain(args.seed)]
    for make in makers:
        domain = make()
        fixed.append((domain, bench_domain(domain, args.reps, args.limit)))
        print(f"{domain.name}: done", flush=True)
    rand = []
    for i in range(args.random):
        domain = random_domain(rng, i)
        rand.append((domain, bench_domain(domain, args.reps, args.limit)))
    text = render(args, fixed, rand)
    if args.previous is not None:
        text += "\n".join(against_previous(args)) + "\n"
    print(text)
    if not args.quick:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text)
        print(f"written to {args.out}")


if __name__ == "__main__":
    main()
