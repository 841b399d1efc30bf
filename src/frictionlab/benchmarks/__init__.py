"""Benchmarks that ``frictionlab bench`` runs: ``bench_<name>.py`` with
``run(quick: bool) -> list[(metric, value, unit, target)]``.

They ship with the package, and ``frictionlab bench`` runs only these (or the ``bench_*.py`` files
of a directory the user names with ``--path``); it never looks in the working directory or its
parents, where anyone who can write a ``benchmarks/`` folder above the user could plant code.
Each module also runs on its own (``python -m frictionlab.benchmarks.bench_rough_sliding 128``).
"""
