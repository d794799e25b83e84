"""``pathcraft mapf``: solves a benchmark instance, checks it, reports like ``solve``."""

from __future__ import annotations

import re

import pytest

from pathcraft.cli import main


def test_mapf_command_reports_a_solved_instance(mapf_benchmark, capsys) -> None:
    scen = mapf_benchmark / "scen-random" / "random-32-32-20-random-1.scen"
    code = main(["mapf", str(scen), "--agents", "40", "--solver", "prioritized"])
    out = capsys.readouterr().out
    assert code == 0, out
    match = re.fullmatch(
        r"prioritized on random-32-32-20-random-1\.scen: 40 agents, solved; sum of costs "
        r"(\d+) \((\d+\.\d{3})x the bound (\d+)\), makespan (\d+); \d+\.\d{3} s; valid\n",
        out,
    )
    assert match, out
    total, ratio, bound = int(match[1]), float(match[2]), int(match[3])
    assert total >= bound and abs(ratio - total / bound) < 1e-3


def test_mapf_command_reports_failure_and_bad_input(mapf_benchmark, capsys, tmp_path) -> None:
    scen = mapf_benchmark / "scen-random" / "room-32-32-4-random-1.scen"
    code = main(["mapf", str(scen), "--agents", "2", "--solver", "whca", "--time-limit", "1e-9"])
    out = capsys.readouterr().out
    assert code == 1 and "not solved (time limit" in out and "2 agents" in out
    assert main(["mapf", str(scen), "--agents", "400"]) == 2
    assert "k must be from 1 to 341" in capsys.readouterr().err
    assert main(["mapf", str(tmp_path / "none.scen")]) == 2
    with pytest.raises(SystemExit):
        main(["mapf", str(scen), "--solver", "astar"])
    with pytest.raises(SystemExit):
        main(["mapf", str(scen), "--time-limit", "-1"])
