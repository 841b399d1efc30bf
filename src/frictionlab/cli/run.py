"""``frictionlab run``: one scenario (or TOML file) -> NetCDF, CSV and PNG, and the verdicts of its checks."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape

from ..core.errors import ConfigError
from ..core.files import writable_dir
from .common import ResumeOption, SchedulerOption, WorkersOption, console, execution_options, say

__all__ = ["register"]

#: how each verdict is printed (as ``reproduce``: a proven deviation of the paper is listed, not a failure)
_RUN_LABEL = {"pass": "[green]pass[/green]", "deviation": "[yellow]DEVIATION[/yellow]", "fail": "[red]FAIL[/red]",
              "not testable": "[blue]not testable[/blue]"}

_CSV_MODES = ("decimated", "full", "none")


def run(
    target: Annotated[str, typer.Argument(help="scenario name or scenario TOML file")],
    set_: Annotated[Optional[list[str]], typer.Option("--set", help="override, e.g. model.a=0.011")] = None,
    out: Annotated[Path, typer.Option("--out", help="output directory")] = Path("out"),
    dump: Annotated[bool, typer.Option("--dump", help="write the scenario as TOML (preset expanded to its values) and exit")] = False,
    quick: Annotated[bool, typer.Option("--quick", help="use the scenario's quick profile")] = False,
    csv: Annotated[str, typer.Option("--csv", help="CSV beside the NetCDF file: 'decimated' (at most 10,000 rows, "
                                     "said in its first line), 'full' (every sample) or 'none'")] = "decimated",
    fresh: Annotated[bool, typer.Option("--fresh", help="discard the finished runs an interrupted earlier run left "
                                        "in OUT/partial/ instead of resuming from them")] = False,
    workers: WorkersOption = None,
    scheduler: SchedulerOption = None,
    resume: ResumeOption = False,
) -> None:
    """Run one scenario (or TOML file) -> OUT/<name>.nc (every sample), .csv (decimated by default), .png.

    A scenario of many independent runs (rough-contact Figs. 8, 13, 14) writes each finished run to
    OUT/partial/<name>/ at once; the same command after an interruption resumes from them (``--fresh``:
    start over); they are removed once OUT/<name>.nc is written. Its runs go to ``--workers N`` local
    processes, or to the workers of a dask cluster: ``--scheduler tcp://host:8786`` (or a scheduler file).

    Exit status as ``reproduce``: 0 when no claim fails (a proven deviation of the paper is listed
    as DEVIATION, not a failure), 1 when one does.
    """
    from ..core.files import write_text_atomic
    from ..core.result import CSV_MAX_ROWS, csv_note, write_csv, write_netcdf
    from ..plot import save, time_series
    from ..scenarios import load_scenario
    from ..scenarios.checkpoint import discard, partial_results
    from ..scenarios.executor import runs_independently, runs_on
    from ..solve.config import parse_set

    if csv not in _CSV_MODES:
        raise ConfigError(f"--csv {csv!r}: choose one of {', '.join(_CSV_MODES)}")
    overrides = parse_set(set_ or [])
    sc = load_scenario(target)  # the loader `sweep` uses too: a file keeps its scenario's derived keys
    scheduler = execution_options(workers, scheduler)
    for given, option in ((scheduler, "--scheduler"), (workers, "--workers")):
        if given is not None and not runs_independently(sc):
            raise ConfigError(f"{option}: {sc.name} is not made of independent runs (nothing to send to "
                              + ("a cluster); use 'frictionlab sweep --scheduler' to run a scenario over a grid on one"
                                 if option == "--scheduler" else "other processes); use 'frictionlab sweep --workers' "
                                                                 "to run a scenario over a grid in parallel"))
    if dump:
        cfg = sc.resolved_config(overrides, quick)
        path = writable_dir(out) / f"{sc.name.replace('/', '__')}.toml"
        write_text_atomic(path, sc.dump_toml(cfg, scenario=None if sc.name.startswith("file/") else sc.name))
        say(f"wrote {path}")
        return
    writable_dir(out)  # a bad --out fails now, not after the computation
    stem = out / sc.name.replace("/", "__")
    written: list[str] = []
    store = None
    try:
        with partial_results(out, sc.name, fresh=fresh, trust_others=resume,
                             say=lambda text: say(text, err=True)) as store, \
                runs_on(scheduler, workers=workers) as cluster:
            if cluster is not None:
                cluster.client  # noqa: B018 - reach it (and check its workers) before the scenario starts
            with console.status(f"running {escape(sc.name)} ..."):
                ds, cfg = sc.execute(overrides, quick=quick)
            written.append(str(write_netcdf(ds, stem.with_suffix(".nc"))))
            discard(out, sc.name)  # the result holds them now (removed under the lock: no one resumes meanwhile)
        if csv != "none":
            written.append(str(write_csv(ds, stem.with_suffix(".csv"),
                                         max_rows=CSV_MAX_ROWS if csv == "decimated" else None)))
        fig = sc.figure(ds) if sc.plot else time_series(
            ds, [v for v in ("friction_force", "slip_velocity") if v in ds] or list(ds.data_vars)[:2])
        save(fig, stem.with_suffix(".png"))
        written.append(str(stem.with_suffix(".png")))
    except KeyboardInterrupt:
        kept = (store.resumed + store.written) if store is not None and not written else 0
        say(f"interrupted: {'wrote ' + ', '.join(written) if written else 'no output written'} "
             f"(no half-written files under {out}); "
             + (f"{kept} finished run(s) of {sc.name} are kept in {store.directory}: the same command resumes from them"
                if kept else f"nothing else of {sc.name} was saved"), err=True)
        raise SystemExit(130) from None
    checks = sc.evaluate(ds, cfg)
    for c in checks:  # verdicts as `reproduce`: a proven deviation of the paper is listed, not a failure
        console.print(_RUN_LABEL[c.status] + "  " + escape(f"{c.claim}: expected {c.expected}, measured {c.measured}")
                      + (escape(f" ({c.explanation})") if c.status == "deviation" and c.explanation else ""))
    say(f"wrote {stem}.nc" + ("" if csv == "none" else f", .csv ({csv_note(stem.with_suffix('.csv'))})")
         + ", .png")
    if ds.attrs.get("data_files"):  # which data the result rests on (also the .nc file's data_files attribute)
        say(f"data read: {ds.attrs['data_files']}")
    n_fail = sum(not c.ok for c in checks)
    if n_fail:
        say(f"{n_fail}/{len(checks)} checks of {sc.name} failed", err=True)
        raise SystemExit(1)



def register(app: typer.Typer) -> None:
    """Add ``run`` to the frictionlab CLI."""
    app.command()(run)
