"""``frictionlab fit``: fit any model to a CSV and write JSON (params +- errors, FIT %) and a PNG.

Exit status: 0 for a fit that passes the quality check, 1 for a poor one (FIT below
``--min-fit`` or a parameter the data do not determine; the outputs are still written), 2 for
bad input."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from ..core.errors import ConfigError

__all__ = ["register"]

#: the default ``--min-fit`` [%]; equals ``fitter.MIN_FIT`` (kept here: ``fit --help`` imports no scipy)
DEFAULT_MIN_FIT = 50.0


def _pairs(items: list[str] | None, what: str) -> dict[str, float | str]:
    out: dict[str, float | str] = {}
    for item in items or []:
        if "=" not in item:
            raise ConfigError(f"{what} expects NAME=VALUE, got {item!r}")
        k, v = item.split("=", 1)
        try:
            out[k.strip()] = float(v)
        except ValueError:
            out[k.strip()] = v.strip()
    return out


def _numbers(items: list[str] | None, what: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for k, v in _pairs(items, what).items():
        if isinstance(v, str):
            raise ConfigError(f"{what} {k}={v}: the value must be a number")
        out[k] = v
    return out


def _progress_text(f: dict) -> str:
    best = "" if f["best_cost"] == float("inf") else f", best so far {f['best_cost']:.4g}"
    return f"start {f['start']}/{f['n_starts']}, {f['evaluations']} evaluations, cost {f['cost']:.4g}{best}"


def register(app: typer.Typer) -> None:
    """Add the ``fit`` command to the frictionlab CLI."""

    @app.command()
    def fit(
        model: Annotated[str, typer.Argument(help="curve (kloss, kloss-slip, kloss-lift, magic-formula), a law name, or 'rsf'")],
        data: Annotated[Path, typer.Argument(help="CSV file ('#' comments, one header row) or a packaged dataset name (frictionlab data list)")],
        x: Annotated[str, typer.Option("--x", help="abscissa column (time column for dynamic fits)")],
        y: Annotated[str, typer.Option("--y", help="ordinate column (measured output)")],
        out: Annotated[Path, typer.Option("--out", help="output directory")] = Path("out"),
        where: Annotated[Optional[list[str]], typer.Option("--where", help="keep rows COL=VALUE")] = None,
        xmin: Annotated[Optional[float], typer.Option("--xmin")] = None,
        xmax: Annotated[Optional[float], typer.Option("--xmax")] = None,
        x_scale: Annotated[float, typer.Option("--x-scale", help="multiply x (unit conversion)")] = 1.0,
        y_scale: Annotated[float, typer.Option("--y-scale", help="multiply y")] = 1.0,
        fix: Annotated[Optional[list[str]], typer.Option("--fix", help="hold NAME=VALUE")] = None,
        start: Annotated[Optional[list[str]], typer.Option("--start", help="start NAME=VALUE")] = None,
        velocity: Annotated[Optional[str], typer.Option("--velocity", help="velocity column: dynamic fit of a law")] = None,
        slip: Annotated[Optional[str], typer.Option("--slip", help="slip column (rsf: load-point displacement)")] = None,
        slip_units: Annotated[Optional[str], typer.Option("--slip-units", help="unit of the slip column: um | mm | m "
                                                          "(default: from the column name, e.g. slip_um)")] = None,
        law: Annotated[str, typer.Option("--law", help="rsf evolution law: aging | slip")] = "aging",
        trend: Annotated[bool, typer.Option("--trend", help="rsf: add a linear slip trend (Leeman et al. 2016 lin_term)")] = False,
        two_state: Annotated[bool, typer.Option("--two-state", help="rsf: add a second state variable (b2, dc2)")] = False,
        negative_b2: Annotated[bool, typer.Option("--negative-b2", help="rsf: allow b2 < 0 (strengthening evolution)")] = False,
        n_starts: Annotated[int, typer.Option("--n-starts")] = 8,
        seed: Annotated[int, typer.Option("--seed")] = 0,
        min_fit: Annotated[float, typer.Option(
            "--min-fit", help="FIT floor [%]: a fit below it exits 1 (default 50: below it the residuals hold more of "
                              "the data's variance than the model explains; noisy records: lower it)")] = DEFAULT_MIN_FIT,
        quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress lines on stderr")] = False,
    ) -> None:
        """Fit MODEL to DATA -> OUT/<stem>_<model>.json (params ± errors with units, FIT %) and .png.

        Prints the fit report: every parameter with its standard error and unit, correlations,
        FIT % = 100 R^2, warnings about the data (e.g. lift data past stall). Exits 1 when the
        fit is poor: FIT below --min-fit (default 50 %) or a parameter the data do not determine
        (the JSON and PNG are still written); 2 for bad input. Without --start, the model's
        data-driven start is the second of the --n-starts starts.

        A fit running longer than about 2 s prints a progress line every 2 s on stderr (start,
        evaluations, cost); --quiet turns them off.
        """
        import warnings

        from ..plot import save
        from ..fit.data import load_timeseries, load_xy, slip_scale
        from ..fit.fitter import Fitter, FitWarning

        from ..core.files import writable_dir
        from ..core.progress import ProgressLines
        from ..fit.fitter import check_starts

        check_starts(n_starts, seed, ("--n-starts", "--seed"))  # before the data is read

        fixed = _numbers(fix, "--fix")
        x0 = _numbers(start, "--start") or None  # none given: the data-driven start (Fitter docstring)
        writable_dir(out)
        progress = None if quiet else ProgressLines(f"fit {model}", fmt=_progress_text)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FitWarning)  # the report prints them
            if model == "rsf":
                from ..fit.rsf import fit_velocity_step, load_velocity_step

                unused = [o for o, v in (("--where", where), ("--velocity", velocity), ("--x-scale", x_scale != 1.0),
                                         ("--y-scale", y_scale != 1.0)) if v]
                if unused or set(fixed) - {"k"}:
                    raise ConfigError(f"fit rsf takes no {', '.join(unused + [f'--fix {k}' for k in fixed if k != 'k'])}: "
                                      "it holds only the stiffness k fixed (--fix k=VALUE [1/m]), reads the slip in "
                                      "--slip-units and selects times with --xmin/--xmax")
                step = load_velocity_step(data, time=x, friction=y, slip=slip or "slip_um",
                                          slip_scale=slip_scale(slip or "slip_um", slip_units), tmin=xmin, tmax=xmax)
                f = fit_velocity_step(step, law=law, k=fixed.get("k"), n_starts=n_starts, seed=seed, trend=trend,
                                      two_state=two_state, allow_negative_b2=negative_b2, x0=x0,
                                      progress=progress)
            elif velocity or slip:
                ts = load_timeseries(data, x, y, velocity=velocity, slip=slip,
                                     slip_scale=slip_scale(slip, slip_units) if slip else 1.0, y_scale=y_scale,
                                     tmin=xmin, tmax=xmax)
                f = Fitter(model, kind="dynamic", fixed=fixed, x0=x0, n_starts=n_starts, seed=seed,
                           progress=progress).fit(ts)
            else:
                d = load_xy(data, x, y, where=_pairs(where, "--where"), xmin=xmin, xmax=xmax, x_scale=x_scale,
                            y_scale=y_scale)
                f = Fitter(model, kind="static", fixed=fixed, x0=x0, n_starts=n_starts, seed=seed,
                           progress=progress).fit(d)
        if progress is not None:
            progress.done(f"finished, {f.fit_percent_:.3f} % FIT")
        stem = out / f"{data.stem}_{model}"
        f.write_json(stem.with_suffix(".json"), min_fit)
        save(f.plot(), stem.with_suffix(".png"))
        typer.echo(f.report(min_fit))
        typer.echo(f"wrote {stem}.json, {stem}.png")
        read = getattr(f.data_, "data_file", None)
        if read:  # which file the fit rests on (also in the JSON's data_file)
            typer.echo(f"data read: {read['path']} (sha256 {read['sha256']})")
        problems = f.problems(min_fit)
        if problems:
            typer.echo(f"fit {model}: poor fit, exit 1: " + "; ".join(problems), err=True)
            raise typer.Exit(1)
