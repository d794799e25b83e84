"""Draw ``docs/mapf-room.gif``: 100 agents of the MAPF benchmark's room-32-32-4 map
(scen ``random-1``, its first 100 lines) crossing the rooms at once, solved by
``pathcraft.mapf.lacam(problem, refine=True)``.

Run ``python docs/make_mapf_gif.py`` (needs Pillow, the ``viz`` extra, and the benchmark
folder: ``$PATHCRAFT_MAPF`` or ``shared/benchmarks/mapf`` beside the repository). One
frame a time step: every agent a dot of its own colour, its goal a small square of the
same colour, filled once the agent stands on it.
"""

from __future__ import annotations

import colorsys
import os
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from pathcraft.io import read_mapf_scen
from pathcraft.mapf import Problem, lacam

HERE = Path(__file__).resolve().parent
OUT = HERE / "mapf-room.gif"
CELL, AGENTS, NAME = 10, 100, "room-32-32-4"


def benchmark() -> Path:
    env = os.environ.get("PATHCRAFT_MAPF")
    return Path(env) if env else HERE.parent.parent / "shared" / "benchmarks" / "mapf"


def colours(n: int) -> list[tuple[int, int, int]]:
    out = []
    for i in range(n):
        r, g, b = colorsys.hsv_to_rgb((i * 0.618034) % 1.0, 0.75, 0.9)
        out.append((int(r * 255), int(g * 255), int(b * 255)))
    return out


def main() -> None:
    scen = benchmark() / "scen-random" / f"{NAME}-random-1.scen"
    grid, starts, goals = read_mapf_scen(scen, AGENTS)
    result = lacam(Problem(grid, starts, goals), refine=True, time_limit=3.0, seed=1)
    assert result, result
    walls = ~np.isfinite(grid.cost)
    rows, cols = walls.shape
    colour = colours(AGENTS)
    frames = []
    for t in range(result.makespan + 1):
        img = Image.new("RGB", (cols * CELL, rows * CELL), (245, 245, 240))
        draw = ImageDraw.Draw(img)
        for r, c in np.argwhere(walls).tolist():
            draw.rectangle([c * CELL, r * CELL, (c + 1) * CELL - 1, (r + 1) * CELL - 1],
                           fill=(60, 60, 70))  # fmt: skip
        for i, path in enumerate(result.paths):
            r, c = path[min(t, len(path) - 1)]
            gr, gc = goals[i]
            done = (r, c) == (gr, gc)
            draw.rectangle([gc * CELL + 2, gr * CELL + 2, gc * CELL + CELL - 3,
                            gr * CELL + CELL - 3], outline=colour[i],
                           fill=colour[i] if done else None)  # fmt: skip
            if not done:
                draw.ellipse([c * CELL, r * CELL, c * CELL + CELL - 1, r * CELL + CELL - 1],
                             fill=colour[i])  # fmt: skip
        frames.append(img)
    frames += [frames[-1]] * 12  # hold the end
    palette = [f.convert("P", palette=Image.Palette.ADAPTIVE, colors=64) for f in frames]
    palette[0].save(OUT, save_all=True, append_images=palette[1:], duration=110, loop=0,
                    optimize=True)  # fmt: skip
    print(
        f"wrote {OUT} ({len(frames)} frames, {OUT.stat().st_size // 1024} KiB); "
        f"sum of costs {result.sum_of_costs} ({result.sum_of_costs / result.lower_bound:.3f}x "
        f"the bound {result.lower_bound}), makespan {result.makespan}"
    )


if __name__ == "__main__":
    main()
