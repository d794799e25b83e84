"""Draw ``docs/replan-doors.gif``: an agent crossing a map while doors close in front
of it, its path repaired by ``grid.replanner`` (D* Lite) after every change.

Run ``python docs/make_replan_gif.py`` (needs Pillow, the ``viz`` extra). Each frame the
agent takes one step along its current path; when its path runs through a door a few
steps ahead, that door closes (drawn red) and the next ``path()`` goes round.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from pathcraft import Grid

OUT = Path(__file__).resolve().parent / "replan-doors.gif"
ROWS, COLS, CELL = 40, 64, 8
WALL_COLS = (16, 32, 48)
DOORS = ((4, 8), (18, 22), (32, 36))  # rows of the doors in every wall


def level() -> Grid:
    cost = np.ones((ROWS, COLS))
    for c in WALL_COLS:
        cost[:, c] = np.inf
        for lo, hi in DOORS:
            cost[lo:hi, c] = 1.0
    return Grid(cost)


def frame(grid: Grid, closed: set, path: np.ndarray, agent: tuple, goal: tuple) -> Image.Image:
    img = Image.new("RGB", (COLS * CELL, ROWS * CELL), (245, 245, 240))
    draw = ImageDraw.Draw(img)
    walls = ~grid.walkable
    for r, c in np.argwhere(walls).tolist():
        color = (200, 40, 40) if (r, c) in closed else (60, 60, 70)
        draw.rectangle([c * CELL, r * CELL, (c + 1) * CELL - 1, (r + 1) * CELL - 1], fill=color)
    if len(path) > 1:
        xy = [(c * CELL + CELL / 2, r * CELL + CELL / 2) for r, c in path.tolist()]
        draw.line(xy, fill=(40, 110, 220), width=3)
    for (r, c), color in ((goal, (30, 160, 60)), (agent, (230, 120, 0))):
        draw.ellipse([c * CELL - 3, r * CELL - 3, (c + 1) * CELL + 2, (r + 1) * CELL + 2],
                     fill=color)  # fmt: skip
    return img


def main() -> None:
    grid = level()
    agent, goal = (20, 2), (20, 61)
    plan = grid.replanner(agent, goal)
    closed: set[tuple[int, int]] = set()
    frames = []
    for _ in range(200):
        result = plan.path()
        path = result.path
        frames.append(frame(grid, closed, path, agent, goal))
        if agent == goal or not result:
            break
        for r, c in path[1:7].tolist():  # a door on the path just ahead: close it
            if c in WALL_COLS and not any(cell[1] == c for cell in closed):
                lo, hi = next((lo, hi) for lo, hi in DOORS if lo <= r < hi)
                grid[lo:hi, c] = np.inf
                closed.update((rr, c) for rr in range(lo, hi))
                break
        else:
            agent = tuple(int(x) for x in path[1])
            plan.move_to(agent)
    frames += [frames[-1]] * 10  # hold the end
    palette = [f.convert("P", palette=Image.Palette.ADAPTIVE, colors=16) for f in frames]
    palette[0].save(OUT, save_all=True, append_images=palette[1:], duration=70, loop=0,
                    optimize=True)  # fmt: skip
    print(f"wrote {OUT} ({len(frames)} frames, {OUT.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
