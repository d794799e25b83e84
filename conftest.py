"""Repository-wide pytest configuration."""

# The compiled forms of pathcraft._engine and pathcraft._sliced shadow their sources
# for import; the sources have no doctests, tests/test_engine.py runs the engine as pure
# Python on purpose, and tests/test_sliced_kernels.py tests the compiled _sliced.
collect_ignore = ["src/pathcraft/_engine.py", "src/pathcraft/_sliced.py"]
