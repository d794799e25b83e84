"""The ``pathcraft`` command line."""

import subprocess
import sys
from pathlib import Path

import pytest

import pathcraft
from pathcraft.cli import main


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
