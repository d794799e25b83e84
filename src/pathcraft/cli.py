"""The ``pathcraft`` command line."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from pathcraft._version import __version__

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``pathcraft`` command."""
    parser = argparse.ArgumentParser(
        prog="pathcraft",
        description="Pathfinding and planning for games and simulations.",
    )
    parser.add_argument("--version", action="version", version=f"pathcraft {__version__}")
    parser.add_subparsers(dest="command", metavar="COMMAND")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    return 0  # pragma: no cover - every subcommand returns from its own handler
