"""Repository-wide pytest configuration."""

# The compiled form of pathcraft._engine shadows its source for import; the source
# has no doctests, and tests/test_engine.py runs it as pure Python on purpose.
collect_ignore = ["src/pathcraft/_engine.py"]
