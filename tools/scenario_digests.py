"""Digest and checks of scenarios run quick: the before/after evidence of a change that must not move results.

usage: PYTHONPATH=src python tools/scenario_digests.py SCENARIO [SCENARIO ...] > before.txt
       (change the code)
       PYTHONPATH=src python tools/scenario_digests.py SCENARIO [SCENARIO ...] > after.txt; diff before.txt after.txt

For each scenario it prints the SHA-256 (16 hex digits) of every data variable and coordinate of the dataset its
checks read (names sorted; attributes left out: they carry provenance and timings) and one line per check: kind,
verdict, claim, expected, measured. Bit-identical results give identical output; a wall-clock variable (a fit's
``fit_seconds``) changes the digest on every run.
"""

from __future__ import annotations

import hashlib
import sys

import numpy as np

from frictionlab.scenarios.base import get_scenario


def digest(ds) -> str:
    h = hashlib.sha256()
    for name in sorted(map(str, ds.variables)):
        values = np.asarray(ds[name].values)
        h.update(name.encode())
        h.update(repr(values.tolist()).encode() if values.dtype == object else np.ascontiguousarray(values).tobytes())
    return h.hexdigest()[:16]


def main(names: list[str]) -> None:
    for name in names:
        sc = get_scenario(name)
        ds, cfg = sc.execute(quick=True)
        print(f"## {name} digest {digest(ds)}")
        for c in sc.evaluate(ds, cfg):
            print(f"{c.kind} | {c.status} | {c.claim} | {c.expected} | {c.measured}")


if __name__ == "__main__":
    main(sys.argv[1:])
