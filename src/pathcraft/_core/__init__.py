"""The compiled core: Cython kernels over flat NumPy arrays, nothing public.

Kernels take validated, contiguous arrays and know nothing of the public classes;
the front doors in :mod:`pathcraft` check every argument before calling them.
"""
