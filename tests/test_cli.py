"""The ``pathcraft`` command line."""

import subprocess
import sys

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
