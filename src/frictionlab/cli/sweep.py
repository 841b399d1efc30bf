"""The ``frictionlab sweep`` command (registered into the main CLI by :func:`register`).

``frictionlab sweep SCENARIO|FILE.toml --grid ... [--metric NAME ...] [--plot FILE]`` runs a sweep;
``frictionlab sweep plot STORE [--metric NAME ...] [--out FILE]`` draws a finished (or partial) one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

__all__ = ["register", "result_table"]


def result_table(ds, title: str, max_rows: int = 40):
    """A rich Table of a gathered sweep: swept keys, every metric as ``name [units]``, status.

    Columns fold (wrap) instead of cutting names, so every metric's full name and units show.
    """
    import json

    from rich.markup import escape
    from rich.table import Table

    from ..sweep.plot import key_label, metric_label, metric_names

    keys = list(json.loads(ds.attrs["grid"]))
    metrics = metric_names(ds)
    words = [str(v) for v in ds.data_vars if str(v).startswith("regime")]
    t = Table(title=title)
    for k in keys:
        t.add_column(escape(key_label(ds, k).replace(" [", "\n[")), overflow="fold")
    for m in metrics:
        t.add_column(escape(metric_label(ds, m).replace(" [", "\n[")), overflow="fold", justify="right")
    for w in words:
        t.add_column(escape(w), overflow="fold")
    t.add_column("status", overflow="fold")
    flat = ds.stack(_p=keys) if len(keys) > 1 else ds.rename({keys[0]: "_p"}).assign_coords(
        {keys[0]: ("_p", ds[keys[0]].values)})
    n = flat.sizes["_p"]
    for i in range(min(n, max_rows)):
        row = flat.isel(_p=i)

        def fmt_key(v) -> str:
            return f"{v:.4g}" if isinstance(v, float) else escape(str(v))

        t.add_row(*[fmt_key(row[k].item()) for k in keys], *[f"{float(row[m]):.5g}" for m in metrics],
                  *[str(row[w].item()) for w in words], str(row["status"].item()))
    if n > max_rows:
        t.caption = f"first {max_rows} of {n} points; all are in sweep.nc"
    return t


def register(app: typer.Typer) -> None:
    """Add the ``sweep`` command to the ``frictionlab`` typer ``app``."""

    @app.command()
    def sweep(
        scenario: Annotated[str, typer.Argument(help="scenario name (e.g. classic/rsf-velocity-step), a run TOML "
                                                      "file, or 'plot' to draw the store STORE")],
        plot_store: Annotated[Optional[Path], typer.Argument(metavar="[STORE]",
                                                             help="with 'plot': the store directory to draw")] = None,
        grid: Annotated[Optional[list[str]], typer.Option(
            "--grid", help="axis key=start:stop:num[:log] or key=[a,b,c]; repeat for more dimensions")] = None,
        set_: Annotated[Optional[list[str]], typer.Option("--set", help="fixed override for every point, e.g. model.b=0.02")] = None,
        metric: Annotated[Optional[list[str]], typer.Option(
            "--metric", help="per-point metric (repeat for more), e.g. steady_friction, stick_slip_amplitude; "
                             "an unknown name lists the valid ones. Default: the scenario's summary")] = None,
        plot: Annotated[Optional[Path], typer.Option("--plot", help="also draw the metrics vs the swept keys "
                                                                    "into this file (.png, .pdf, .svg)")] = None,
        out: Annotated[Optional[Path], typer.Option("--out", help="with 'plot': the figure file "
                                                                  "(default STORE/sweep.png)")] = None,
        scheduler: Annotated[Optional[str], typer.Option(
            "--scheduler", help="'serial' runs in this process; 'local' always starts a local cluster; an address "
                                "(tcp://host:8786) or a scheduler file (FILE.json of 'dask scheduler "
                                "--scheduler-file') uses a running dask cluster; default: the first points here, "
                                "the rest on local workers when that is faster")] = None,
        store: Annotated[Optional[Path], typer.Option("--store", help="store directory (default out/sweeps/<scenario>)")] = None,
        resume: Annotated[bool, typer.Option("--resume", help="continue the store, skipping its finished points")] = False,
        workers: Annotated[Optional[int], typer.Option("--workers", help="local cluster worker processes (default 2; "
                                                                         "at most the points and the cores)")] = None,
        oversubscribe: Annotated[bool, typer.Option("--oversubscribe", help="allow more --workers than cores")] = False,
        dashboard: Annotated[bool, typer.Option("--dashboard", help="serve the local cluster's dask dashboard "
                                                                    "(port 8787)")] = False,
        traces: Annotated[Optional[str], typer.Option(
            "--traces", help="what the store keeps of each run besides its metrics: full (every sample), reduced "
                             "(at most 256 samples per series) or none; default: a resumed store's, else full")] = None,
        verify: Annotated[bool, typer.Option("--verify", help="on --resume, check the checksum of every stored "
                                                              "result (done anyway for stores up to 256 MB)")] = False,
        quick: Annotated[bool, typer.Option("--quick", help="use the scenario's quick profile")] = False,
        timeout: Annotated[float, typer.Option("--timeout", help="seconds to wait for --scheduler to answer")] = 5.0,
        worker_timeout: Annotated[float, typer.Option("--worker-timeout", help="seconds to wait for the first worker "
                                                                               "of --scheduler")] = 60.0,
        chunk: Annotated[Optional[int], typer.Option("--chunk", help="points per dask task (default: tasks of "
                                                                     "~0.5 s from the measured point time)")] = None,
        worker_writes: Annotated[Optional[bool], typer.Option(
            "--worker-writes/--client-writes", help="who writes the point files (default: the workers of a local "
                                                    "cluster, else the client)")] = None,
        overwrite: Annotated[bool, typer.Option(
            "--overwrite", help="replace a --plot/--out file that was not drawn from this sweep's store "
                                "(refused without it)")] = False,
    ) -> None:
        """Run SCENARIO over a parameter grid -> STORE/sweep.nc, or 'sweep plot STORE' -> STORE/sweep.png."""
        from rich.console import Console
        from rich.markup import escape

        from ..core.errors import ConfigError
        from ..core.result import write_netcdf
        from ..scenarios.base import load_scenario
        from ..solve.config import parse_set
        from ..sweep.figures import check_figure, check_figure_path, draw, draw_store
        from ..sweep.grid import parse_grid
        from ..sweep.metrics import resolve_metrics
        from ..sweep.runner import run_sweep

        console = Console()
        if scenario == "plot":
            if plot_store is None:
                raise ConfigError("usage: frictionlab sweep plot STORE [--metric NAME ...] [--out FILE]")
            console.print(f"wrote {draw_store(plot_store, metric, out, overwrite)}", markup=False)
            return
        if plot_store is not None:
            raise ConfigError(f"unexpected argument {str(plot_store)!r}: a sweep takes one SCENARIO (did you mean "
                              f"'frictionlab sweep plot {plot_store}'?)")
        if out is not None:
            raise ConfigError("--out is for 'frictionlab sweep plot STORE'; a sweep writes its figure with --plot FILE")
        sc = load_scenario(scenario)  # the loader of `frictionlab run`
        overrides = parse_set(set_ or [])
        if workers is not None and workers < 1:
            raise ConfigError(f"--workers must be >= 1, got {workers}")
        if plot is not None:
            check_figure_path(plot, "--plot")
        if traces is not None and traces not in ("full", "reduced", "none"):
            raise ConfigError(f"--traces {traces!r}: give full, reduced or none")
        resolve_metrics(metric or None, sc)  # an unknown metric stops here, before anything runs
        sc.refuse_derived([item.split("=", 1)[0].strip() for item in grid or []], "--grid")  # before its values
        g = parse_grid(grid or [], sc.resolved_config(overrides or None, quick), sc.units)
        path = store or Path("out") / "sweeps" / sc.name.replace("/", "__")
        if plot is not None:
            check_figure(plot, path, overwrite)  # before the sweep runs, not after
        console.print(f"sweep {sc.name}: {' x '.join(f'{k} ({len(v)})' for k, v in g.axes.items())} = {g.size} "
                      f"point{'s' if g.size != 1 else ''} -> {path}", markup=False)
        try:
            ds = run_sweep(sc, g, store=path, overrides=overrides, quick=quick, scheduler=scheduler,
                           n_workers=workers, resume=resume, connect_timeout=timeout, progress=console,
                           worker_writes=worker_writes, chunk_size=chunk, metrics=metric or None, traces=traces,
                           verify=verify or None, worker_timeout=worker_timeout, oversubscribe=oversubscribe,
                           dashboard=dashboard)
        except KeyboardInterrupt:
            Console(stderr=True).print(f"interrupted; finished points are in {path}; continue with --resume",
                                       markup=False)
            raise SystemExit(130) from None
        result = write_netcdf(ds, path / "sweep.nc")
        console.print(result_table(ds, f"{sc.name} sweep"))
        n_failed = int(ds.attrs["n_failed"])
        for key, err in zip(ds["point_key"].values.ravel(), ds["error"].values.ravel()):
            if err:
                console.print(f"[red]failed[/red] {key}: " + escape(err.splitlines()[0]))
        console.print(f"wrote {result}; {g.size - n_failed}/{g.size} points finished", markup=False)
        if plot is not None:
            console.print(f"wrote {draw(ds, plot, path)}", markup=False)
        if n_failed:
            raise SystemExit(1)
