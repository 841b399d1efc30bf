"""``frictionlab compare``: one protocol through many models -> NetCDF, PNG and the RSF fit table."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from ..core.errors import ConfigError

__all__ = ["register"]


def _protocol_fields(settings: list[str] | None) -> dict:
    """The ``--set`` protocol fields (values parsed as in ``run --set``); plain field names only."""
    from ..solve.config import parse_set

    fields = parse_set(settings or [])
    for k in fields:
        if "." in k:
            raise ConfigError(f"protocol setting {k!r}: give plain field names (e.g. velocities=[1e-6,1e-5])")
    return fields


def register(app: typer.Typer) -> None:
    """Add the ``compare`` command to the frictionlab CLI."""

    @app.command()
    def compare(
        protocol: Annotated[str, typer.Argument(help="protocol type: velocity_steps, slide_hold_slide, constant_velocity, ...")] = "velocity_steps",
        set_: Annotated[Optional[list[str]], typer.Option("--set", help="protocol field, e.g. velocities=[1e-6,1e-5]")] = None,
        models: Annotated[Optional[str], typer.Option("--models", help="comma-separated registered model names (default: every registered model)")] = None,
        out: Annotated[Path, typer.Option("--out", help="output directory")] = Path("out"),
        full: Annotated[bool, typer.Option("--full", help="finer integration (4e4 steps) and larger ensembles")] = False,
        law: Annotated[str, typer.Option("--law", help="evolution law of the fitted RSF model: aging | slip")] = "aging",
        noise: Annotated[float, typer.Option("--noise", help="std of seeded noise added before the RSF fit")] = 0.0,
        seed: Annotated[int, typer.Option("--seed")] = 0,
        no_fit: Annotated[bool, typer.Option("--no-fit", help="skip the rate-and-state fit")] = False,
        stiffness: Annotated[Optional[float], typer.Option("--stiffness", help="run in a spring-slider of this stiffness [N/m] (the protocol drives the load point)")] = None,
        mass: Annotated[float, typer.Option("--mass", help="spring-slider mass [kg]")] = 1.0,
        damping: Annotated[float, typer.Option("--damping", help="spring-slider damping [N s/m]")] = 0.0,
    ) -> None:
        """Run PROTOCOL through every model -> OUT/compare_<protocol>.nc, .png, .json (RSF table)."""
        from ..core.files import writable_dir, write_json_atomic
        from ..core.result import write_netcdf
        from ..plot import save
        from ..plot.compare import plot_compare
        from ..analysis.compare import build_protocol, compare as run_compare, format_table, rsf_table

        proto = build_protocol(protocol, _protocol_fields(set_))
        writable_dir(out)
        names = [m.strip() for m in models.split(",") if m.strip()] if models else None
        system = None
        if stiffness is not None:
            from ..systems.mass import spring_slider

            system = spring_slider(mass=mass, stiffness=stiffness, damping=damping)
        ds = run_compare(proto, names, quick=not full, fit=not no_fit, law=law, fit_noise=noise, seed=seed,
                         system=system)
        stem = out / f"compare_{protocol}"
        write_netcdf(ds, stem.with_suffix(".nc"))
        table = format_table(ds) if not no_fit and system is None else ""
        save(plot_compare(ds, title=f"{protocol}: {', '.join(f'{k}={v}' for k, v in proto.attrs().items())}"[:110],
                          table=table), stem.with_suffix(".png"))
        write_json_atomic(stem.with_suffix(".json"), rsf_table(ds), indent=2, default=str)
        for m, s, sec, flag in zip(ds.model.values, ds.status.values, ds.run_seconds.values, ds.flag.values):
            typer.echo(f"{m:<16} {'ok' if s == 'ok' else s}" + (f"  ({sec:.1f} s)" if s == "ok" else "")
                       + (f"  (!) {flag}" if flag else ""))
        if table:
            typer.echo(table)
        typer.echo(f"wrote {stem}.nc, {stem}.png, {stem}.json")
