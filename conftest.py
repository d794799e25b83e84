"""Repository-wide pytest configuration."""

# The compiled forms of pathcraft._engine, pathcraft._sliced, pathcraft.goap._fast and
# pathcraft.agents._budget shadow their sources for import; the first three sources have
# no doctests, tests/test_engine.py runs the engine as pure Python on purpose,
# tests/test_sliced_kernels.py tests the compiled _sliced and tests/test_goap_goals.py
# the compiled GOAP fast path; tests/test_agents_budget.py runs _budget's examples,
# compiled and as Python.
collect_ignore = [
    "src/pathcraft/_engine.py", "src/pathcraft/_sliced.py", "src/pathcraft/goap/_fast.py",
    "src/pathcraft/agents/_budget.py",
]  # fmt: skip
