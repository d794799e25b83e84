"""A crowd leaving a room through two doors, written to an animated GIF.

Run: ``python examples/crowd.py [out.gif]`` (default ``crowd.gif``). Needs the
``crowd`` extra (pyrvo, for ORCA) and the ``viz`` extra (Pillow, for the GIF):
``pip install "pathcraft[crowd,viz]"``.

Every agent follows the flow field to the nearer door while ORCA keeps the agents
apart; the run ends when the room is empty or after a minute of simulated time.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from pathcraft import Grid
from pathcraft.agents import Crowd

ROWS, COLS = 40, 60
SCALE = 8  # pixels per cell
DT = 0.1


def room() -> tuple[Grid, list[tuple[int, int]]]:
    """A walled room, two tables in it, and two doors in the bottom wall."""
    cost = np.ones((ROWS, COLS))
    cost[0, :] = cost[-1, :] = cost[:, 0] = cost[:, -1] = np.inf
    cost[12:16, 10:25] = np.inf
    cost[12:16, 35:50] = np.inf
    doors = [(ROWS - 1, c) for c in (14, 15, 16, 44, 45, 46)]
    for d in doors:
        cost[d] = 1.0
    return Grid(cost), doors


def main(out: str = "crowd.gif", agents: int = 400, seconds: float = 60.0) -> dict[str, Any]:
    """Simulate and write the GIF; return ``exited`` (all left?) and ``time``."""
    try:
        from PIL import Image, ImageDraw
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError('this example needs Pillow: pip install "pathcraft[viz]"') from exc
    grid, doors = room()
    rng = np.random.default_rng(0)
    ys, xs = np.mgrid[1.5:11.5:0.7, 1.5 : COLS - 1.5 : 0.7]
    spots = np.stack([xs.ravel(), ys.ravel()], axis=1)
    start = spots[rng.choice(len(spots), agents, replace=False)]
    crowd = Crowd(grid, start, doors, radius=0.3, max_speed=1.5)
    base = Image.new("RGB", (COLS * SCALE, ROWS * SCALE), (240, 238, 230))
    pen = ImageDraw.Draw(base)
    for r, c in np.argwhere(~grid.walkable).tolist():
        pen.rectangle((c * SCALE, r * SCALE, (c + 1) * SCALE - 1, (r + 1) * SCALE - 1),
                      fill=(70, 70, 80))  # fmt: skip
    frames = []
    steps = round(seconds / DT)
    for k in range(steps + 1):
        if k % 3 == 0:  # a frame every 0.3 s
            frame = base.copy()
            draw = ImageDraw.Draw(frame)
            rad = 0.3 * SCALE
            for x, y in crowd.positions[~crowd.exited].tolist():
                cx, cy = x * SCALE, y * SCALE
                draw.ellipse((cx - rad, cy - rad, cx + rad, cy + rad), fill=(200, 50, 50))
            frames.append(frame.convert("P", palette=Image.Palette.ADAPTIVE, colors=16))
        if crowd.exited.all() or k == steps:
            break
        crowd.step(DT)
    frames[0].save(out, save_all=True, append_images=frames[1:], duration=60, loop=0)
    result = {"exited": bool(crowd.exited.all()), "time": crowd.time, "frames": len(frames)}
    print(f"{int(crowd.exited.sum())} of {agents} agents left in {crowd.time:.1f} s; "
          f"{len(frames)} frames written to {out}")  # fmt: skip
    return result


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "crowd.gif")
