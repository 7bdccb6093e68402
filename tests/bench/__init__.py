"""Benchmarks: `python -m tests.bench` prints figures; nothing here passes or fails.

Kept outside the pytest run (`norecursedirs` in pyproject.toml). Real time is
read with `time.perf_counter`, never `time.monotonic`, which simcord virtualises.
"""
