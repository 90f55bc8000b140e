"""Benchmarks, run from a source checkout (see bench_act.py)."""
