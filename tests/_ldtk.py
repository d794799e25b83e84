"""Shared pieces of the LDtk tests: the corpus, an independent reading of LDtk files
(plain json and NumPy), and a tiny project to edit."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

CORPUS = Path(__file__).parent / "data" / "ldtk_corpus"
PROJECTS = sorted(p.relative_to(CORPUS).as_posix() for p in CORPUS.rglob("*.ldtk"))


# ---------------------------------------------------------------- an independent reader


def truth_levels(path: Path) -> list[dict[str, Any]]:
    """Every level of a project as the file says it, with its layers read from the
    project or from its external file."""
    project = json.loads(path.read_text(encoding="utf-8"))
    levels = project["levels"] or [lv for w in project.get("worlds", []) for lv in w["levels"]]
    out = []
    for level in levels:
        if level.get("layerInstances") is None:
            external = json.loads((path.parent / level["externalRelPath"]).read_text())
            level = {**level, "layerInstances": external["layerInstances"]}
        out.append(level)
    return out


def truth_defs(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))["defs"]


def truth_values(layer: dict[str, Any], defs: dict[str, Any]) -> np.ndarray:
    """An IntGrid layer's values: the CSV, or (before LDtk 0.8) the sparse list whose
    ``v`` is the 0-based index of the value in the layer's definition."""
    rows, cols = layer["__cHei"], layer["__cWid"]
    if layer.get("intGridCsv"):
        return np.array(layer["intGridCsv"]).reshape(rows, cols)
    (spec,) = [d for d in defs["layers"] if d["uid"] == layer["layerDefUid"]]
    values = [d.get("value", i + 1) for i, d in enumerate(spec["intGridValues"])]
    flat = np.zeros(rows * cols, dtype=int)
    for entry in layer["intGrid"]:
        flat[entry["coordId"]] = values[entry["v"]]
    return flat.reshape(rows, cols)


def truth_centres(layer: dict[str, Any], defs: dict[str, Any]) -> list[tuple[str, float, float]]:
    out = []
    for e in layer["entityInstances"]:
        (spec,) = [d for d in defs["entities"] if d["identifier"] == e["__identifier"]]
        w, h = e.get("width", spec["width"]), e.get("height", spec["height"])
        px, py = e.get("__pivot", [spec["pivotX"], spec["pivotY"]])
        x = e["px"][0] + layer["__pxTotalOffsetX"] + (0.5 - px) * w
        y = e["px"][1] + layer["__pxTotalOffsetY"] + (0.5 - py) * h
        out.append((e["__identifier"], x, y))
    return out


def corpus_levels() -> list[tuple[str, int]]:
    return [(name, i) for name in PROJECTS for i in range(len(truth_levels(CORPUS / name)))]


def tiny_project(values: list[int], rows: int = 3, cols: int = 4) -> dict[str, Any]:
    return {
        "jsonVersion": "1.5.3",
        "worldLayout": "Free",
        "defaultGridSize": 8,
        "defs": {
            "layers": [{"uid": 1, "identifier": "Ground", "type": "IntGrid", "gridSize": 8,
                        "intGridValues": [{"value": v, "identifier": n}
                                          for v, n in ((1, "a"), (2, "b"), (3, "c"))]}],
            "entities": [{"identifier": "Hero", "uid": 2, "tags": [], "width": 8,
                          "height": 8, "pivotX": 0, "pivotY": 0, "fieldDefs": []}],
        },
        "levels": [{
            "identifier": "L", "iid": "x", "worldX": 8, "worldY": 16,
            "pxWid": cols * 8, "pxHei": rows * 8, "fieldInstances": [],
            "layerInstances": [
                {"__identifier": "Things", "__type": "Entities", "__cWid": cols,
                 "__cHei": rows, "__gridSize": 8, "__pxTotalOffsetX": 0,
                 "__pxTotalOffsetY": 0, "layerDefUid": 2, "intGridCsv": [],
                 "entityInstances": [{"__identifier": "Hero", "px": [8, 0],
                                      "fieldInstances": []}]},
                {"__identifier": "Ground", "__type": "IntGrid", "__cWid": cols,
                 "__cHei": rows, "__gridSize": 8, "__pxTotalOffsetX": 0,
                 "__pxTotalOffsetY": 0, "layerDefUid": 1, "intGridCsv": values,
                 "entityInstances": []},
            ],
        }],
    }  # fmt: skip


def write(tmp_path: Path, project: Any, name: str = "bad.ldtk") -> Path:
    path = tmp_path / name
    path.write_text(project if isinstance(project, str) else json.dumps(project, indent=1))
    return path


def ground(project: dict[str, Any]) -> dict[str, Any]:
    layer: dict[str, Any] = project["levels"][0]["layerInstances"][1]
    return layer


def hero(project: dict[str, Any]) -> dict[str, Any]:
    hero: dict[str, Any] = project["levels"][0]["layerInstances"][0]["entityInstances"][0]
    return hero
