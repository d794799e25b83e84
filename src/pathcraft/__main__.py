"""``python -m pathcraft`` runs the command-line interface."""

from pathcraft.cli import main

raise SystemExit(main())
