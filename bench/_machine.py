"""What every benchmark report states about its run: machine, commit, peak memory.

Imported by the scripts in this folder (run as ``python bench/NAME.py``, which puts
this folder on ``sys.path``).
"""

from __future__ import annotations

import os
import platform
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def movingai_dir() -> Path:
    """The Moving AI benchmark data: ``$PATHCRAFT_MOVINGAI``, else
    ``../shared/benchmarks/movingai`` beside the repository (it may be absent: callers
    check ``/ "maps"`` and say what they skip)."""
    env = os.environ.get("PATHCRAFT_MOVINGAI")
    return Path(env) if env else REPO.parent / "shared" / "benchmarks" / "movingai"


def mapf_dir() -> Path:
    """The MAPF benchmark data (``maps/``, ``scen-random/``): ``$PATHCRAFT_MAPF``, else
    ``../shared/benchmarks/mapf`` beside the repository (it may be absent)."""
    env = os.environ.get("PATHCRAFT_MAPF")
    return Path(env) if env else REPO.parent / "shared" / "benchmarks" / "mapf"


def git_rev() -> str:
    """The short commit of the repository, marked when ``src/`` has local changes."""
    try:
        rev = subprocess.run(
            ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()  # fmt: skip
        dirty = subprocess.run(
            ["git", "-C", str(REPO), "status", "--porcelain", "src"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return rev + ("+local changes in src/" if dirty else "")


def cpu_model() -> str:
    """The processor's model name from /proc/cpuinfo (or what platform knows)."""
    try:
        with open("/proc/cpuinfo") as f:
            return next(line.split(":", 1)[1].strip() for line in f if "model name" in line)
    except (OSError, StopIteration):
        return platform.processor() or "unknown CPU"


def machine() -> str:
    """One line: processor, cores, memory, operating system, Python."""
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            kb = int(next(line.split()[1] for line in f if line.startswith("MemTotal")))
        mem = f", {kb / 2**20:.0f} GiB RAM"
    except (OSError, StopIteration):
        pass
    return (
        f"{cpu_model()}, {os.cpu_count()} cores{mem}; {platform.system()} "
        f"{platform.release()}; CPython {platform.python_version()}"
    )


def write_section(path: Path, title: str, body: str, heading: str = "") -> None:
    """Write ``body`` as the section ``## title`` of the results file ``path``,
    replacing that section (up to the next ``## `` heading) and keeping the others;
    a new file starts with ``heading`` (its ``# `` title)."""
    text = path.read_text() if path.exists() else (heading.rstrip() + "\n" if heading else "")
    mark = f"## {title}\n"
    section = f"{mark}\n{body.strip()}\n"
    if mark in text:
        head, _, rest = text.partition(mark)
        after = rest.find("\n## ")
        tail = rest[after + 1 :] if after >= 0 else ""
        text = head + section + ("\n" + tail if tail else "")
    else:
        text = text.rstrip() + "\n\n" + section if text.strip() else section
    path.write_text(text)


def vm_status() -> dict[str, int] | None:
    """VmRSS and VmHWM (peak) of this process in bytes, from /proc; None elsewhere."""
    try:
        lines = Path("/proc/self/status").read_text().splitlines()
    except OSError:
        return None
    out = {}
    for line in lines:
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0]) * 1024  # kB
    return out if len(out) == 2 else None


def reset_peak_rss() -> bool:
    """Reset VmHWM to the current RSS (Linux >= 4.0); False when that is not possible.

    ``ru_maxrss`` is no use in a child process: it starts at the parent's peak, since
    exec carries the old memory map's high-water mark over.
    """
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        return False
    return True
