"""The ``pathcraft`` command line."""

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import pathcraft
from pathcraft.cli import main
from pathcraft.io import bundled_map, bundled_scen


def test_version_flag_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"pathcraft {pathcraft.__version__}"


def test_help_lists_the_program(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    assert "usage: pathcraft" in capsys.readouterr().out


def test_console_entry_point_runs_as_a_module() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pathcraft", "--version"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"pathcraft {pathcraft.__version__}"


def test_demo_solves_the_bundled_map_and_matches_every_length(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["demo", "--scenarios", "6", "-o", str(tmp_path / "demo.png")]) == 0
    out = capsys.readouterr().out
    assert "arena2.map" in out
    assert "6/6 lengths equal the published optimum" in out
    assert out.count(" yes") == 6


def test_solve_checks_every_length_and_reports_a_summary(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from pathcraft.io import bundled_map, bundled_scen

    code = main(
        ["solve", str(bundled_map()), str(bundled_scen()), "--limit", "25", "--no-progress"]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert "solved 25 of 910 scenarios, 0 mismatches" in out
    assert "median" in out and "p95" in out


def test_solve_with_dijkstra_matches_too(capsys: pytest.CaptureFixture[str]) -> None:
    from pathcraft.io import bundled_map, bundled_scen

    args = ["solve", str(bundled_map()), str(bundled_scen()), "--algorithm", "dijkstra"]
    assert main([*args, "--limit", "5", "--no-progress"]) == 0
    assert "dijkstra on arena2.map: solved 5 of 910 scenarios, 0 mismatches" in (
        capsys.readouterr().out
    )


def test_solve_exits_1_and_names_the_scenario_on_a_wrong_length(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pathcraft.io import bundled_map, bundled_scen

    lines = Path(bundled_scen()).read_text().splitlines()
    fields = lines[3].split("\t")
    fields[8] = "999.5"  # the third problem's optimum, falsified
    lines[3] = "\t".join(fields)
    bad = tmp_path / "arena2.map.scen"
    bad.write_text("\n".join(lines) + "\n")
    code = main(["solve", str(bundled_map()), str(bad), "--limit", "4", "--no-progress"])
    out = capsys.readouterr().out
    assert code == 1
    assert "1 mismatches" in out
    assert "mismatch at scenario 2" in out and "want 999.500000" in out


def test_solve_reports_a_missing_file_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = f"{tmp_path}/nowhere.map"
    assert main(["solve", missing, missing]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pathcraft solve: error:") and "nowhere.map" in err


def test_bad_option_values_are_refused_by_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["demo", "--scenarios", "0"])
    assert stop.value.code == 2
    assert "expected a whole number >= 1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["solve", "a.map", "a.scen", "--algorithm", "bogus"])
    assert "invalid choice: 'bogus'" in capsys.readouterr().err


def test_solve_as_a_batch_on_threads(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["solve", str(bundled_map()), str(bundled_scen()), "--limit", "60", "--no-progress"]
    for algorithm in ("astar", "jps", "dijkstra"):
        assert main([*args, "--algorithm", algorithm, "--workers", "2"]) == 0
        out = capsys.readouterr().out
        assert f"{algorithm} on arena2.map: solved 60 of 910 scenarios, 0 mismatches" in out
        assert "queries/s on 2 threads" in out


def test_solve_on_a_dask_scheduler(capsys: pytest.CaptureFixture[str], dask_client: Any) -> None:
    address = dask_client.scheduler.address
    args = ["solve", str(bundled_map()), str(bundled_scen()), "--limit", "40"]
    assert main([*args, "--algorithm", "jps", "--scheduler", address]) == 0
    captured = capsys.readouterr()
    assert "solved 40 of 910 scenarios, 0 mismatches" in captured.out
    assert f"on Dask cluster {address}" in captured.out
    assert "jps" in captured.err  # the progress bar


def test_solve_scheduler_without_dask_names_the_extra(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    args = ["solve", str(bundled_map()), str(bundled_scen()), "--scheduler", "tcp://x:1"]
    assert main(args) == 2
    assert "pip install 'pathcraft[dask]'" in capsys.readouterr().err


def test_workers_and_scheduler_are_exclusive(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["solve", "a.map", "a.scen", "--workers", "2", "--scheduler", "tcp://x:1"])
    assert "not allowed with argument" in capsys.readouterr().err


def test_solve_offers_greedy_and_every_diagonal_rule(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["solve", str(bundled_map()), str(bundled_scen()), "--limit", "20", "--no-progress"]
    assert main([*args, "--algorithm", "greedy"]) == 0
    out = capsys.readouterr().out
    assert "greedy on arena2.map: solved 20 of 910 scenarios, 20 found" in out
    assert "lengths not checked (greedy is not optimal)" in out
    assert main([*args, "--algorithm", "greedy", "--workers", "2"]) == 0
    assert "20 found" in capsys.readouterr().out
    assert main([*args, "--diagonal", "never"]) == 0
    out = capsys.readouterr().out
    assert "--diagonal never is not the rule of the published lengths" in out
    ratio = float(out.split("published optimum ")[1].split(";")[0])
    assert ratio >= 1.0  # 4-connected paths are never shorter than 8-connected ones
    with pytest.raises(SystemExit):
        main([*args, "--diagonal", "sometimes"])
    assert "invalid choice: 'sometimes'" in capsys.readouterr().err


def test_solve_names_the_map_a_scenario_file_is_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "small.map"
    other.write_text("type octile\nheight 3\nwidth 4\nmap\n....\n....\n....\n")
    assert main(["solve", str(other), str(bundled_scen()), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pathcraft solve: error: arena2.map.scen is for the map 'arena2.map'")
    assert "(209 rows x 281 cols), not small.map (3 rows x 4 cols)" in err
    assert "pass the map it names" in err


def test_solve_notes_a_scenario_file_naming_another_map_that_fits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = Path(bundled_scen()).read_text().replace("\tarena2.map\t", "\tarena2_copy.map\t")
    renamed = tmp_path / "copy.map.scen"
    renamed.write_text(text)
    args = ["solve", str(bundled_map()), str(renamed), "--limit", "5", "--no-progress"]
    assert main(args) == 0
    captured = capsys.readouterr()
    assert "note: copy.map.scen names the map 'arena2_copy.map', not arena2.map" in captured.err
    assert "solved 5 of 910 scenarios, 0 mismatches" in captured.out
