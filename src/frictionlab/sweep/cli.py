"""The ``frictionlab sweep`` command (registered into the main CLI by :func:`register`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    """Add the ``sweep`` command to the ``frictionlab`` typer ``app``."""

    @app.command()
    def sweep(
        scenario: Annotated[str, typer.Argument(help="scenario name, e.g. classic/rsf-velocity-step")],
        grid: Annotated[Optional[list[str]], typer.Option(
            "--grid", help="axis key=start:stop:num[:log] or key=\\[a,b,c]; repeat for more dimensions")] = None,
        set_: Annotated[Optional[list[str]], typer.Option("--set", help="fixed override for every point, e.g. model.b=0.02")] = None,
        scheduler: Annotated[Optional[str], typer.Option(
            "--scheduler", help="address of a running dask scheduler (tcp://host:8786); 'serial' runs in this process; "
                                "default: a local cluster")] = None,
        store: Annotated[Optional[Path], typer.Option("--store", help="store directory (default out/sweeps/<scenario>)")] = None,
        resume: Annotated[bool, typer.Option("--resume", help="continue the store, skipping its finished points")] = False,
        workers: Annotated[Optional[int], typer.Option("--workers", help="local cluster worker processes (default 2)")] = None,
        quick: Annotated[bool, typer.Option("--quick", help="use the scenario's quick profile")] = False,
        timeout: Annotated[float, typer.Option("--timeout", help="seconds to wait for --scheduler to answer")] = 5.0,
        chunk: Annotated[int, typer.Option("--chunk", help="points per dask task (> 1 for points cheaper than "
                                                          "~50 ms; needs workers that write the store)")] = 1,
        worker_writes: Annotated[Optional[bool], typer.Option(
            "--worker-writes/--client-writes", help="who writes the point files (default: the workers of a local "
                                                    "cluster of 2+, else the client)")] = None,
    ) -> None:
        """Run SCENARIO over a parameter grid (one dask task per point) -> STORE/sweep.nc."""
        from rich.console import Console
        from rich.markup import escape
        from rich.table import Table

        from ..core.errors import ConfigError
        from ..core.result import write_netcdf
        from ..scenarios import get_scenario
        from ..scenarios.config import parse_set
        from .grid import parse_grid
        from .runner import run_sweep

        console = Console()
        sc = get_scenario(scenario)
        overrides = parse_set(set_ or [])
        if workers is not None and workers < 1:
            raise ConfigError(f"--workers must be >= 1, got {workers}")
        g = parse_grid(grid or [], sc.resolved_config(overrides or None, quick))
        path = store or Path("out") / "sweeps" / sc.name.replace("/", "__")
        console.print(f"sweep {sc.name}: {' x '.join(f'{k} ({len(v)})' for k, v in g.axes.items())} = {g.size} points "
                      f"-> {path}", markup=False)
        try:
            ds = run_sweep(sc, g, store=path, overrides=overrides, quick=quick, scheduler=scheduler,
                           n_workers=workers, resume=resume, connect_timeout=timeout, progress=console,
                           worker_writes=worker_writes, chunk_size=chunk)
        except KeyboardInterrupt:
            Console(stderr=True).print(f"interrupted; finished points are in {path}; continue with --resume",
                                       markup=False)
            raise SystemExit(130) from None
        out = write_netcdf(ds, path / "sweep.nc")
        metrics = [v for v in ds.data_vars if v not in ("status", "error", "point_key")]
        t = Table(title=f"{sc.name} sweep")
        for k in g.keys:
            t.add_column(k)
        for m in metrics[:4]:
            t.add_column(m)
        t.add_column("status")
        flat = ds.stack(_p=g.keys) if len(g.keys) > 1 else ds.rename({g.keys[0]: "_p"}).assign_coords(
            {g.keys[0]: ("_p", ds[g.keys[0]].values)})
        for i in range(min(flat.sizes["_p"], 40)):
            row = flat.isel(_p=i)
            t.add_row(*[f"{row[k].item():.4g}" if isinstance(row[k].item(), float) else escape(str(row[k].item()))
                        for k in g.keys],
                      *[f"{float(row[m]):.5g}" for m in metrics[:4]], str(row["status"].item()))
        console.print(t)
        n_failed = int(ds.attrs["n_failed"])
        for key, err in zip(ds["point_key"].values.ravel(), ds["error"].values.ravel()):
            if err:
                console.print(f"[red]failed[/red] {key}: " + escape(err.splitlines()[0]))
        console.print(f"wrote {out}; {g.size - n_failed}/{g.size} points finished", markup=False)
        if n_failed:
            raise SystemExit(1)
