"""The ``frictionlab`` command line (ARCHITECTURE section 6). Thin: no physics here.

Commands: ``run``, ``reproduce``, ``bench``; ``list``/``show``, ``data``, ``fit``, ``sweep`` and ``compare``
are registered by their subpackages (``frictionlab.fit.cli`` etc.) when present, through a
``register(app)`` function, so new commands slot in without touching this file.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from typing import Annotated, Optional

import click
import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from .core.errors import ConfigError, FrictionLabError

app = typer.Typer(add_completion=False, no_args_is_help=True, help="Friction models: simulate, reproduce, fit, compare.")
console = Console()
err_console = Console(stderr=True)

_PLUGINS = ("frictionlab.cli_show", "frictionlab.cli_data", "frictionlab.fit.cli", "frictionlab.sweep.cli",
            "frictionlab.analysis.compare_cli")


@app.callback()
def _root(debug: Annotated[bool, typer.Option("--debug", help="show tracebacks on errors")] = False) -> None:
    """frictionlab: friction models from five research works behind one interface."""


@app.command()
def run(
    target: Annotated[str, typer.Argument(help="scenario name or scenario TOML file")],
    set_: Annotated[Optional[list[str]], typer.Option("--set", help="override, e.g. model.a=0.011")] = None,
    out: Annotated[Path, typer.Option("--out", help="output directory")] = Path("out"),
    dump: Annotated[bool, typer.Option("--dump", help="write the scenario as TOML (preset expanded to its values) and exit")] = False,
    quick: Annotated[bool, typer.Option("--quick", help="use the scenario's quick profile")] = False,
) -> None:
    """Run one scenario (or TOML file) -> OUT/<name>.nc, .csv, .png."""
    from .core.result import write_csv, write_netcdf
    from .plot import save, time_series
    from .scenarios import Scenario, get_scenario
    from .scenarios.config import apply_overrides, dump_toml, load_toml, parse_set

    overrides = parse_set(set_ or [])
    if target.endswith(".toml") or Path(target).is_file():
        cfg = load_toml(target)
        name = cfg.pop("scenario", None)
        if name:
            base = get_scenario(name)
            sc = Scenario(base.name, base.description, apply_overrides(base.config, _flatten(cfg)), base.run,
                          base.checks, base.plot, base.quick, base.references, base.slow)
        else:
            sc = Scenario(f"file/{Path(target).stem}", f"scenario file {target}", cfg)
    else:
        sc = get_scenario(target)
    if dump:
        cfg = sc.resolved_config(overrides, quick)
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"{sc.name.replace('/', '__')}.toml"
        path.write_text(dump_toml(cfg, scenario=None if sc.name.startswith("file/") else sc.name, expand=True))
        console.print(f"wrote {path}")
        return
    with console.status(f"running {sc.name} ..."):
        ds, cfg = sc.execute(overrides, quick=quick)
    stem = out / sc.name.replace("/", "__")
    write_netcdf(ds, stem.with_suffix(".nc"))
    write_csv(ds, stem.with_suffix(".csv"))
    fig = sc.plot(ds) if sc.plot else time_series(ds, [v for v in ("friction_force", "slip_velocity") if v in ds] or list(ds.data_vars)[:2])
    save(fig, stem.with_suffix(".png"))
    checks = sc.evaluate(ds, cfg)
    for c in checks:
        console.print(f"{'[green]pass[/green]' if c.passed else '[red]FAIL[/red]'}  {c.claim}: expected {c.expected}, measured {c.measured}")
    console.print(f"wrote {stem}.nc, .csv, .png")


def _flatten(cfg: dict, prefix: str = "") -> dict:
    out = {}
    for k, v in cfg.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            out.update(_flatten(v, key + "."))
        else:
            out[key] = v
    return out


@app.command()
def reproduce(
    targets: Annotated[Optional[list[str]], typer.Argument(help="papers (classic, kloss, ...) or scenario names; all if none")] = None,
    quick: Annotated[bool, typer.Option("--quick", help="quick profiles (CI / make demo)")] = False,
    out: Annotated[Path, typer.Option("--out", help="report directory")] = Path("out"),
) -> None:
    """Run the papers' experiments, check every claim, write report.html and report.md."""
    from .report.reproduce import run_one, write_report
    from .scenarios.base import select

    scenarios = select(list(targets or []))
    debug = "--debug" in sys.argv
    outcomes = []
    out.mkdir(parents=True, exist_ok=True)
    with Progress(TextColumn("{task.description:<40}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  TimeElapsedColumn(), console=console) as prog:
        task = prog.add_task("reproduce", total=len(scenarios))
        for sc in scenarios:
            prog.update(task, description=sc.name)
            o = run_one(sc, out, quick, debug=debug)
            outcomes.append(o)
            write_report(outcomes, out, quick=quick)  # current after every scenario
            mark = "[green]ok[/green]" if o.passed else "[red]FAIL[/red]"
            prog.console.print(f"{mark} {sc.name} ({o.seconds:.1f} s, {sum(c.passed for c in o.checks)}/{len(o.checks)} checks)"
                               + (f" -- {o.error.splitlines()[0]}" if o.error else ""))
            for c in o.checks:
                if not c.passed:
                    prog.console.print(f"     [red]FAIL[/red] {c.claim}: expected {c.expected}, measured {c.measured}")
            prog.advance(task)
    md, html_ = write_report(outcomes, out, quick=quick)
    n_fail = sum(not o.passed for o in outcomes)
    console.print(f"wrote {html_} and {md}; {len(outcomes) - n_fail}/{len(outcomes)} scenarios passed")
    if n_fail:
        raise SystemExit(1)


def _find_benchmarks() -> Path | None:
    here = Path(__file__).resolve()
    for base in [Path.cwd(), *Path.cwd().parents, *here.parents]:
        cand = base / "benchmarks"
        if cand.is_dir() and any(cand.glob("bench_*.py")):
            return cand
    return None


@app.command()
def bench(
    name: Annotated[Optional[str], typer.Argument(help="benchmark name (file benchmarks/bench_<name>.py); all if omitted")] = None,
    quick: Annotated[bool, typer.Option("--quick", help="smaller problem sizes")] = False,
) -> None:
    """Print benchmark figures (times, rates, ratios against targets)."""
    d = _find_benchmarks()
    if d is None:
        raise ConfigError("no benchmarks/ directory found (run from the repository checkout)")
    files = sorted(d.glob("bench_*.py"))
    names = [f.stem[len("bench_"):] for f in files]
    if name is not None:
        if name not in names:
            from .core.errors import suggest

            raise ConfigError(f"unknown benchmark {name!r}{suggest(name, names)}; known: {', '.join(names)}")
        files = [d / f"bench_{name}.py"]
    t = Table(title="frictionlab benchmarks")
    for col in ("benchmark", "metric", "value", "unit", "target"):
        t.add_column(col)
    for f in files:
        spec = importlib.util.spec_from_file_location(f"_fl_bench_{f.stem}", f)
        mod = importlib.util.module_from_spec(spec)
        assert spec.loader is not None
        spec.loader.exec_module(mod)
        console.print(f"running {f.stem} ...")
        for metric, value, unit, target in mod.run(quick=quick):
            t.add_row(f.stem[6:], metric, f"{value:.4g}" if isinstance(value, (int, float)) else str(value), unit, target)
    console.print(t)


for _mod in _PLUGINS:
    if importlib.util.find_spec(_mod.rsplit(".", 1)[0]) is not None:
        try:
            importlib.import_module(_mod).register(app)
        except ModuleNotFoundError:
            pass


def main() -> None:
    debug = "--debug" in sys.argv
    try:
        app(standalone_mode=False)
    except FrictionLabError as exc:
        if debug:
            raise
        err_console.print(f"[red]error:[/red] {exc}", highlight=False, soft_wrap=True)
        raise SystemExit(2) from None
    except click.exceptions.Exit as exc:
        raise SystemExit(exc.exit_code) from None
    except click.exceptions.Abort:
        err_console.print("aborted")
        raise SystemExit(130) from None
    except click.ClickException as exc:
        exc.show()
        raise SystemExit(2) from None
