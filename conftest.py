"""Repository-wide pytest configuration."""

# The compiled forms of pathcraft._engine, pathcraft._sliced and pathcraft.goap._fast
# shadow their sources for import; the sources have no doctests, tests/test_engine.py
# runs the engine as pure Python on purpose, tests/test_sliced_kernels.py tests the
# compiled _sliced and tests/test_goap_goals.py the compiled GOAP fast path.
collect_ignore = [
    "src/pathcraft/_engine.py", "src/pathcraft/_sliced.py", "src/pathcraft/goap/_fast.py",
]  # fmt: skip
