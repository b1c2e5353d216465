"""Benchmarks: `make bench` (or `python -m bench`) runs them all; each file also runs alone."""
