"""One validation page from several reproduce runs of the same revision: each scenario's checks are
evaluated again, with its default (full-profile) configuration, from the data file its run wrote.

usage: PYTHONPATH=src python tools/combine_reports.py OUT NAME=DIR:SECONDS [NAME=DIR:SECONDS ...]
       e.g. rough-contact/fig13=/runs/b:5670.5 (DIR is the run's --out, SECONDS its scenario time)

Writes OUT/validation.md, report.md and report.html (``frictionlab.report.reproduce.write_report``). Run it with
the code the runs used: the checks are that revision's. The rows equal those of each run's own page
(stop 36: identical for rough-contact Figs. 13 and 14).
"""

from __future__ import annotations

import sys
from pathlib import Path

import xarray as xr

from frictionlab.report.outcomes import ScenarioOutcome, slug
from frictionlab.report.reproduce import write_report
from frictionlab.scenarios.base import get_scenario


def outcome(name: str, run_dir: Path, seconds: float) -> ScenarioOutcome:
    sc = get_scenario(name)
    path = run_dir / "data" / f"{slug(name)}.nc"
    ds = xr.load_dataset(path)
    res = ScenarioOutcome(sc.name, sc.description, references=list(sc.references))
    res.checks = sc.evaluate(ds, sc.resolved_config(None, quick=False))
    res.data, res.seconds = path, seconds
    figure = run_dir / "figures" / f"{slug(name)}.png"
    res.figure = figure if figure.exists() else None
    res.data_files = str(ds.attrs.get("data_files", ""))
    return res


def main(argv: list[str]) -> None:
    out, specs = Path(argv[0]), argv[1:]
    outcomes = []
    for spec in specs:
        name, rest = spec.split("=", 1)
        run_dir, seconds = rest.rsplit(":", 1)
        outcomes.append(outcome(name, Path(run_dir), float(seconds)))
    write_report(outcomes, out, quick=False, command=" + ".join(specs))


if __name__ == "__main__":
    main(sys.argv[1:])
