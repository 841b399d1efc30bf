"""The ``frictionlab`` command line (ARCHITECTURE section 6). Thin: no physics here.

Commands: ``run``, ``reproduce``, ``bench``; ``list``/``show``, ``data``, ``fit``, ``sweep`` and ``compare``
are registered by their subpackages (``frictionlab.fit.cli`` etc.) when present, through a
``register(app)`` function, so new commands slot in without touching this file.

Exit codes: 0 success; 1 a check failed (``run``, ``reproduce``; a proven deviation of the paper is
listed as such and is not a failure), a sweep point failed, or
an internal error; 2 a bad input (every :class:`FrictionLabError` and every usage error,
printed as one plain line); 130 interrupted (Ctrl-C), with one line saying what was
written where. Tracebacks are shown only with ``--debug``. Tested with typer 0.29 (which
vendors its own click) and with older typer on the public ``click``: :func:`main` catches
the exception classes of whichever click typer actually runs on.
"""

from __future__ import annotations

import importlib
import importlib.util
import shlex
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.markup import escape

from .core.errors import ConfigError, FrictionLabError
from .core.files import writable_dir

# rich_markup_mode=None: help texts are plain text, so "[parallel]" or "[kg]" is printed, not taken as markup
app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None,
                  help="Friction models: simulate, reproduce, fit, compare.")
console = Console()
err_console = Console(stderr=True)

#: set by :func:`main` when ``--debug`` is on the command line
_DEBUG = False

_PLUGINS = ("frictionlab.cli_show", "frictionlab.cli_data", "frictionlab.fit.cli", "frictionlab.sweep.cli", "frictionlab.analysis.compare_cli",
            "frictionlab.export.cli")


@app.callback()
def _root(debug: Annotated[bool, typer.Option("--debug", help="show tracebacks on errors")] = False,
          threads: Annotated[Optional[int], typer.Option(
              "--threads", help="thread budget of the threaded hot paths (FFT above its size crossover, numba "
                                "parallel loops); sets FRICTIONLAB_THREADS")] = None,
          max_memory: Annotated[Optional[str], typer.Option(
              "--max-memory", help="most memory a run may plan to use, e.g. 8G (default: half of the machine's); "
                                   "runs estimated above it are refused before they start; sets FRICTIONLAB_MAX_MEMORY")]
          = None) -> None:
    """frictionlab: friction models from five research works behind one interface."""
    if max_memory is not None:
        import os

        from .core.validation import MEMORY_ENV, parse_bytes

        parse_bytes(max_memory, "--max-memory")
        os.environ[MEMORY_ENV] = max_memory
    if threads is not None:
        from .core.threads import set_thread_limit

        set_thread_limit(threads)


_SCHEDULER_HELP = ("run the independent runs of the scenarios with a \\[parallel] section (rough-contact Figs. 8, "
                   "13, 14) on a dask cluster: its address (tcp://host:8786) or scheduler file (FILE.json); "
                   "every worker and the scheduler need the same frictionlab")


def _scheduler_option(value: Optional[str]) -> Optional[str]:
    """``--scheduler``: an address or a scheduler file; the local words of ``sweep`` are refused here."""
    if value is None:
        return None
    if not value.strip() or value.strip().lower() in ("local", "serial", "sync", "synchronous"):
        raise ConfigError(f"--scheduler {value!r}: give a dask scheduler's address (tcp://host:8786) or scheduler "
                          "file; local processes are the default (--workers N)")
    return value.strip()


@app.command()
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
    scheduler: Annotated[Optional[str], typer.Option("--scheduler", help=_SCHEDULER_HELP)] = None,
    resume: Annotated[bool, typer.Option("--resume", help="also resume from finished runs in OUT/partial/ that "
                                         "another user wrote (refused without it: their values enter the result)")] = False,
) -> None:
    """Run one scenario (or TOML file) -> OUT/<name>.nc (every sample), .csv (decimated by default), .png.

    A scenario of many independent runs (rough-contact Figs. 8, 13, 14) writes each finished run to
    OUT/partial/<name>/ at once; the same command after an interruption resumes from them (``--fresh``:
    start over); they are removed once OUT/<name>.nc is written. Workers: ``--set parallel.workers=N``, or
    the workers of a dask cluster: ``--scheduler tcp://host:8786`` (or a scheduler file).

    Exit status as ``reproduce``: 0 when no claim fails (a proven deviation of the paper is listed
    as DEVIATION, not a failure), 1 when one does.
    """
    from .core.files import write_text_atomic
    from .core.result import CSV_MAX_ROWS, write_csv, write_netcdf
    from .plot import save, time_series
    from .scenarios import load_scenario
    from .scenarios.checkpoint import discard, partial_results
    from .solve.config import dump_toml, parse_set
    from .scenarios.executor import runs_on

    if csv not in _CSV_MODES:
        raise ConfigError(f"--csv {csv!r}: choose one of {', '.join(_CSV_MODES)}")
    overrides = parse_set(set_ or [])
    sc = load_scenario(target)  # the loader `sweep` uses too: a file keeps its scenario's derived keys
    scheduler = _scheduler_option(scheduler)
    if scheduler is not None and "parallel" not in sc.config:
        raise ConfigError(f"--scheduler: {sc.name} has no [parallel] section (no independent runs to send to a "
                          "cluster); use 'frictionlab sweep --scheduler' to run a scenario over a grid on one")
    if dump:
        cfg = sc.resolved_config(overrides, quick)
        path = writable_dir(out) / f"{sc.name.replace('/', '__')}.toml"
        write_text_atomic(path, dump_toml(cfg, scenario=None if sc.name.startswith("file/") else sc.name, expand=True))
        _say(f"wrote {path}")
        return
    writable_dir(out)  # a bad --out fails now, not after the computation
    stem = out / sc.name.replace("/", "__")
    written: list[str] = []
    store = None
    try:
        with partial_results(out, sc.name, fresh=fresh, trust_others=resume,
                             say=lambda text: _say(text, err=True)) as store, \
                runs_on(scheduler) as cluster:
            if cluster is not None:
                cluster.client  # noqa: B018 - reach it (and check its workers) before the scenario starts
            with console.status(f"running {escape(sc.name)} ..."):
                ds, cfg = sc.execute(overrides, quick=quick)
            written.append(str(write_netcdf(ds, stem.with_suffix(".nc"))))
            discard(out, sc.name)  # the result holds them now (removed under the lock: no one resumes meanwhile)
        if csv != "none":
            written.append(str(write_csv(ds, stem.with_suffix(".csv"),
                                         max_rows=CSV_MAX_ROWS if csv == "decimated" else None)))
        fig = sc.plot(ds) if sc.plot else time_series(
            ds, [v for v in ("friction_force", "slip_velocity") if v in ds] or list(ds.data_vars)[:2])
        save(fig, stem.with_suffix(".png"))
        written.append(str(stem.with_suffix(".png")))
    except KeyboardInterrupt:
        kept = (store.resumed + store.written) if store is not None and not written else 0
        _say(f"interrupted: {'wrote ' + ', '.join(written) if written else 'no output written'} "
             f"(no half-written files under {out}); "
             + (f"{kept} finished run(s) of {sc.name} are kept in {store.directory}: the same command resumes from them"
                if kept else f"nothing else of {sc.name} was saved"), err=True)
        raise SystemExit(130) from None
    checks = sc.evaluate(ds, cfg)
    for c in checks:  # verdicts as `reproduce`: a proven deviation of the paper is listed, not a failure
        console.print(_RUN_LABEL[c.status] + "  " + escape(f"{c.claim}: expected {c.expected}, measured {c.measured}")
                      + (escape(f" ({c.explanation})") if c.status == "deviation" and c.explanation else ""))
    _say(f"wrote {stem}.nc" + ("" if csv == "none" else f", .csv ({_csv_note(stem.with_suffix('.csv'))})")
         + ", .png")
    if ds.attrs.get("data_files"):  # which data the result rests on (also the .nc file's data_files attribute)
        _say(f"data read: {ds.attrs['data_files']}")
    n_fail = sum(not c.ok for c in checks)
    if n_fail:
        _say(f"{n_fail}/{len(checks)} checks of {sc.name} failed", err=True)
        raise SystemExit(1)


def _interrupted_reproduce(outcomes: list, pending: list[str], out: Path, stage: Path, *, quick: bool,
                           command: str) -> None:
    """Ctrl-C during ``reproduce``: the progress report in ``stage`` says what ran and what did not; one
    line says what was written where; exit 130. The report in ``out`` is not touched."""
    from .report.reproduce import write_report
    from .scenarios.checkpoint import partial_dir

    write_report(outcomes, stage, quick=quick, command=command, not_run=pending, interrupted=True)
    kept = partial_dir(out, pending[0]) if pending else None
    kept = kept if kept is not None and any(kept.glob("*.nc")) else None
    _say(f"interrupted during {pending[0] if pending else 'the report'}: {len(outcomes)} scenario(s) finished, "
         f"{len(pending)} did not run; the report in {out} is unchanged; this run's report, data and figures "
         f"so far are in {stage}"
         + (f"; the finished runs of {pending[0]} are kept in {kept}: the same command resumes from them"
            if kept else ""), err=True)
    raise SystemExit(130) from None


_RUN_LABEL = {"pass": "[green]pass[/green]", "deviation": "[yellow]DEVIATION[/yellow]", "fail": "[red]FAIL[/red]",
              "not testable": "[blue]not testable[/blue]"}


_CSV_MODES = ("decimated", "full", "none")


def _csv_note(path: Path) -> str:
    """``decimated: ...`` from a CSV's first line, else ``every sample``."""
    with open(path, encoding="utf-8") as fh:
        first = fh.readline()
    return "decimated: " + first.split("decimated: ", 1)[1].split(";")[0] if first.startswith("# frictionlab: decimated") \
        else "every sample"


def _say(text: str, err: bool = False) -> None:
    """Print ``text`` as plain text (never parsed as rich markup: user paths may hold '[')."""
    (err_console if err else console).print(text, markup=False, highlight=False, soft_wrap=True)


@app.command()
def reproduce(
    targets: Annotated[Optional[list[str]], typer.Argument(help="papers (classic, kloss, ...) or scenario names; all if none")] = None,
    quick: Annotated[bool, typer.Option("--quick", help="quick profiles (CI / make demo)")] = False,
    out: Annotated[Path, typer.Option("--out", help="report directory")] = Path("out"),
    workers: Annotated[Optional[int], typer.Option(
        "--workers", help="processes for the independent runs of the scenarios with a [parallel] section "
                          "(sets parallel.workers; each process uses one FFT thread)")] = None,
    fresh: Annotated[bool, typer.Option("--fresh", help="discard the finished runs an interrupted earlier reproduce "
                                        "left in OUT/partial/ instead of resuming from them")] = False,
    mutations: Annotated[bool, typer.Option("--mutations", help="also rerun each scenario under every mutation its "
                                            "paper checks declare (a wrong model or reading under which the check "
                                            "must change its verdict); prints 'mutations: K killed, S survived', "
                                            "writes OUT/mutations.md; a survivor exits 1")] = False,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="replace a report in OUT of other scenarios or "
                                            "another profile (refused without it)")] = False,
    scheduler: Annotated[Optional[str], typer.Option("--scheduler", help=_SCHEDULER_HELP)] = None,
    resume: Annotated[bool, typer.Option("--resume", help="also resume from finished runs in OUT/partial/ that "
                                         "another user wrote (refused without it: their values enter the result)")] = False,
) -> None:
    """Run the papers' experiments, check every claim, write report.html, report.md and validation.md.

    A scenario of many independent runs (rough-contact Figs. 8, 13, 14) writes each finished run to
    OUT/partial/<scenario>/ at once; the same command after an interruption resumes from them
    (``--fresh``: start over); they are removed once the scenario's data file is written.

    OUT/report-manifest.json records the scenarios and profile of the report; a report of other
    scenarios or another profile in OUT is not replaced without ``--overwrite`` (the same command
    again replaces its own).

    Exit status: 0 when no claim fails (proven deviations of the papers are not failures), 1 when
    one does, 2 when a scenario could not run.
    """
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from .report.reproduce import counts, exit_code, publish, run_one, start_staging, write_report
    from .scenarios.base import select
    from .scenarios.checkpoint import discard
    from .scenarios.executor import runs_on

    if workers is not None and workers < 1:
        raise ConfigError(f"--workers {workers}: the number of worker processes must be at least 1")
    scheduler = _scheduler_option(scheduler)
    if workers is not None and scheduler is not None:
        raise ConfigError("--workers sizes the local processes; with --scheduler the cluster's workers run the "
                          "independent runs (scale the cluster instead)")
    scenarios = select(list(targets or []))
    debug = _DEBUG or "--debug" in sys.argv
    command = ("frictionlab reproduce" + "".join(f" {t}" for t in targets or []) + (" --quick" if quick else "")
               + (f" --workers {workers}" if workers is not None else "")
               + (f" --scheduler {scheduler}" if scheduler is not None else ""))
    outcomes = []
    writable_dir(out)
    from .report.manifest import check_report_dir, record_report_dir

    stale = check_report_dir(out, [sc.name for sc in scenarios], quick=quick, command=command, overwrite=overwrite,
                             selection=list(targets or []))
    overrides = {sc.name: {"parallel.workers": workers} if workers is not None and "parallel" in sc.config else None
                 for sc in scenarios}
    if workers is not None:
        used = [name for name, o in overrides.items() if o]
        _say(f"--workers {workers}: " + (f"parallel.workers = {workers} for {', '.join(used)}" if used
                                         else "none of these scenarios has a [parallel] section; not used"))
    if scheduler is not None:
        used = [sc.name for sc in scenarios if "parallel" in sc.config]
        _say(f"--scheduler {scheduler}: " + (f"the independent runs of {', '.join(used)} go to the cluster" if used
                                             else "none of these scenarios has a [parallel] section; not used"))
    if fresh:
        for sc in scenarios:
            discard(out, sc.name)
    stage = start_staging(out)  # the report in OUT is replaced only once every scenario has run
    pending = [sc.name for sc in scenarios]
    label = {"pass": "[green]pass[/green]", "deviation": "[yellow]deviation[/yellow]", "fail": "[red]FAIL[/red]",
             "not testable": "[blue]not testable[/blue]"}
    if mutations:
        from .report.mutations import MutationReport, run_mutations

        mrep = MutationReport()
        command += " --mutations"
    try:
        with runs_on(scheduler) as cluster, Progress(TextColumn("{task.description:<40}"), BarColumn(),
                                                     TextColumn("{task.completed}/{task.total}"), TimeElapsedColumn(),
                                                     console=console) as prog:
            if cluster is not None and any("parallel" in sc.config for sc in scenarios):
                cluster.client  # noqa: B018 - reach it (and check its workers) now: a bad address stops here
            task = prog.add_task("reproduce", total=len(scenarios))
            for sc in scenarios:
                prog.update(task, description=escape(sc.name))
                o = run_one(sc, out, quick, overrides=overrides[sc.name], debug=debug, dest=stage,
                            **({"trust_others": True} if resume else {}))
                outcomes.append(o)
                if mutations and not o.error:
                    prog.update(task, description=escape(f"{sc.name} (mutations)"))
                    mrep.extend(run_mutations(sc, o.checks, quick=quick, overrides=overrides[sc.name]))
                pending.pop(0)
                write_report(outcomes, stage, quick=quick, command=command, not_run=pending)  # progress, beside OUT's report
                prog.console.print(f"{label[o.status]} " + escape(f"{sc.name} ({o.seconds:.1f} s, {counts([o]).line()})"
                                                                  + (f" -- {o.error.splitlines()[0]}" if o.error else "")))
                if o.data_files:  # which data the result rests on (also its data/<name>.nc's data_files attribute)
                    prog.console.print(f"     data read: {o.data_files}", markup=False, highlight=False, soft_wrap=True)
                for c in o.checks:
                    if c.status != "pass":
                        prog.console.print(f"     {label[c.status]} " + escape(f"{c.claim}: expected {c.expected}, "
                                                                             f"measured {c.measured}"))
                prog.advance(task)
    except KeyboardInterrupt:
        _interrupted_reproduce(outcomes, pending, out, stage, quick=quick, command=command)
    md, html_ = publish(outcomes, out, stage, quick=quick, command=command)
    record_report_dir(out, [sc.name for sc in scenarios], quick=quick, command=command,
                      selection=list(targets or []), stale=stale)
    n = counts(outcomes)
    _say(f"wrote {html_}, {md} and {out / 'validation.md'}")
    _say(f"checks: {n.line()}; scenarios that failed to run: {n.errors}")
    _say(f"claims of the papers: {counts(outcomes, 'paper').line()}")
    code = exit_code(outcomes)
    if mutations:
        from .core.files import write_text_atomic
        from .report.mutations import mutation_markdown

        mpath = write_text_atomic(out / "mutations.md", mutation_markdown(mrep, command))
        for o in mrep.outcomes:
            if not o.killed:
                _say("  " + escape(o.line()))
        _say(f"{mrep.line()} ({mpath})")
        if mrep.survived and code == 0:
            code = 1
    if code:
        raise SystemExit(code)


def _benchmarks(path: Path | None) -> dict[str, Path]:
    """``{name: file}`` of the benchmarks: the package's own (``frictionlab/benchmarks/``), or the
    ``bench_*.py`` files of the directory the user names (``--path``). Never the working directory
    or its parents: a ``benchmarks/`` folder planted above the user would run as their code."""
    d = Path(__file__).resolve().parent / "benchmarks" if path is None else Path(path)
    if not d.is_dir():
        raise ConfigError(f"--path {str(path)!r}: not a directory")
    return {f.stem[len("bench_"):]: f for f in sorted(d.glob("bench_*.py")) if f.is_file()}


def _load_benchmark(name: str, f: Path, packaged: bool):
    """The module of benchmark ``name``: imported from the package, or executed from ``f`` (``--path``)."""
    if packaged:
        return importlib.import_module(f"frictionlab.benchmarks.bench_{name}")
    spec = importlib.util.spec_from_file_location(f"_fl_bench_{f.stem}", f)
    if spec is None or spec.loader is None:
        raise ConfigError(f"cannot load benchmark file {f}")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _with_peers(found: dict[str, Path], packaged: bool) -> list[str]:
    """Names of the benchmarks with a peer comparison (``run_peers``)."""
    return [b for b, f in found.items() if hasattr(_load_benchmark(b, f, packaged), "run_peers")]


@app.command()
def bench(
    name: Annotated[Optional[str], typer.Argument(help="benchmark name (bench_<name>.py of the package, or of --path); "
                                                       "all if omitted")] = None,
    quick: Annotated[bool, typer.Option("--quick", help="smaller problem sizes")] = False,
    path: Annotated[Optional[Path], typer.Option(
        "--path", help="run the bench_*.py files of this directory instead of the packaged benchmarks "
                       "(they run as your code: name only a directory you trust)")] = None,
    peers: Annotated[bool, typer.Option(
        "--peers", help="the benchmark's comparison with peer codes on their kind of problem instead of its "
                        "own rows (rough_contact: tamaas, ContactMechanics when installed)")] = False,
) -> None:
    """Print benchmark figures (times, rates, ratios against targets).

    Runs the benchmarks that ship with frictionlab (``frictionlab/benchmarks/``) or, with
    ``--path DIR``, the ``bench_*.py`` files of DIR; never files found in the working directory.
    """
    from rich.table import Table

    found = _benchmarks(path)
    if not found:
        raise ConfigError(f"no bench_*.py files in {path}")
    if name is not None:
        if name not in found:
            from .core.errors import suggest

            raise ConfigError(f"unknown benchmark {name!r}{suggest(name, list(found))}; known: {', '.join(found)}")
        every, found = found, {name: found[name]}
    t = Table(title="frictionlab benchmarks")
    for col in ("benchmark", "metric", "value", "unit", "target"):
        t.add_column(col)
    for bname, f in found.items():
        mod = _load_benchmark(bname, f, packaged=path is None)
        if peers and not hasattr(mod, "run_peers"):
            if name is not None:
                raise ConfigError(f"benchmark {bname!r} has no peer comparison (--peers); "
                                  f"those that have: {', '.join(_with_peers(every, path is None)) or 'none'}")
            continue
        _say(f"running {f.stem} ..." if path is None else f"running {f} ...")
        for metric, value, unit, target in (mod.run_peers(quick=quick) if peers else mod.run(quick=quick)):
            t.add_row(*map(escape, (bname, str(metric), f"{value:.4g}" if isinstance(value, (int, float)) else str(value),
                                    str(unit), str(target))))
    console.print(t)


for _mod in _PLUGINS:
    if importlib.util.find_spec(_mod.rsplit(".", 1)[0]) is not None:
        try:
            importlib.import_module(_mod).register(app)
        except ModuleNotFoundError:
            pass


def _click_classes() -> tuple[tuple[type, ...], tuple[type, ...], tuple[type, ...]]:
    """(usage-error, exit, abort) exception classes of the click typer runs on.

    typer >= 0.2x vendors click as ``typer._click`` (its exceptions are not the public
    ``click``'s); older typer raises the public ``click`` exceptions. Both are caught.
    """
    usage: list[type] = []
    exits: list[type] = [typer.Exit]
    aborts: list[type] = [typer.Abort]
    try:
        from typer._click.exceptions import ClickException as VendoredClickException

        usage.append(VendoredClickException)
    except ImportError:
        pass
    try:
        import click

        usage.append(click.ClickException)
        exits.append(click.exceptions.Exit)
        aborts.append(click.exceptions.Abort)
    except ImportError:
        pass
    return tuple(usage), tuple(exits), tuple(aborts)


#: a word of an error message longer than this is cut (a 5 MB value echoed back helps no one)
MAX_WORD = 200


#: an error message longer than this is cut in its middle
MAX_MESSAGE = 2000


def _one_line(text: str) -> str:
    """``text`` on one line, each word longer than :data:`MAX_WORD` characters cut to its start and
    end, and the whole cut in its middle beyond :data:`MAX_MESSAGE`."""
    line = " ".join(w if len(w) <= MAX_WORD else f"{w[:60]}...({len(w) - 80:,} characters cut)...{w[-20:]}"
                    for w in str(text).split())
    if len(line) > MAX_MESSAGE:
        line = f"{line[:MAX_MESSAGE - 500]} ...({len(line) - MAX_MESSAGE + 100:,} characters cut)... {line[-400:]}"
    return line


def _usage_line(exc: BaseException) -> str:
    ctx = getattr(exc, "ctx", None)
    msg = exc.format_message() if hasattr(exc, "format_message") else str(exc)
    if ctx is not None and type(exc).__name__ != "NoArgsIsHelpError":
        return f"{ctx.command_path}: {_one_line(msg)} (see '{ctx.command_path} --help')"
    return _one_line(msg)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``frictionlab`` command (``argv`` defaults to ``sys.argv[1:]``).

    Never lets a traceback reach the user without ``--debug``: a :class:`FrictionLabError`
    or a usage error is one plain line and exit 2, an OS error (a file that cannot be
    read or written) one line and exit 2, Ctrl-C exit 130, anything else (a bug) one line
    naming the exception and exit 1.
    """
    global _DEBUG
    import os

    # the command draws to files only: a non-interactive backend unless the user chose one (the plot
    # helpers never pick a backend, so a notebook keeps its own)
    os.environ.setdefault("MPLBACKEND", "Agg")
    args = list(sys.argv[1:] if argv is None else argv)
    from .core.provenance import set_command

    set_command("frictionlab " + shlex.join(args))
    debug = _DEBUG = "--debug" in args
    if debug:  # a root option, accepted anywhere on the line (`frictionlab run x --debug`)
        args = ["--debug", *(a for a in args if a != "--debug")]
    usage_errors, exits, aborts = _click_classes()
    try:
        rv = app(args=args, prog_name="frictionlab", standalone_mode=False)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        _say("interrupted", err=True)
        raise SystemExit(130) from None
    except FrictionLabError as exc:
        if debug:
            raise
        err_console.print("[red]error:[/red] " + escape(_one_line(exc)), highlight=False, soft_wrap=True)
        raise SystemExit(2) from None
    except exits as exc:
        rv = exc.exit_code
    except aborts:
        _say("aborted", err=True)
        raise SystemExit(130) from None
    except usage_errors as exc:
        if debug:
            raise
        if type(exc).__name__ == "NoArgsIsHelpError":  # bare `frictionlab` or `frictionlab sweep`: the help
            _say(exc.format_message(), err=True)
        else:
            err_console.print("[red]error:[/red] " + escape(_usage_line(exc)), highlight=False, soft_wrap=True)
        raise SystemExit(getattr(exc, "exit_code", 2) or 2) from None
    except OSError as exc:
        if debug:
            raise
        err_console.print("[red]error:[/red] " + escape(_one_line(exc)), highlight=False, soft_wrap=True)
        raise SystemExit(2) from None
    except Exception as exc:  # a bug: one line, the traceback with --debug
        from .report.reproduce import _interrupted

        if _interrupted(exc):  # Ctrl-C inside a compiled loop, raised as a SystemError caused by it
            _say("interrupted", err=True)
            raise SystemExit(130) from None
        if debug:
            raise
        err_console.print("[red]internal error:[/red] " + escape(_one_line(f"{type(exc).__name__}: {exc}"))
                          + " (a bug in frictionlab; rerun with --debug for the traceback)",
                          highlight=False, soft_wrap=True)
        raise SystemExit(1) from None
    if isinstance(rv, int) and not isinstance(rv, bool) and rv != 0:
        if rv == 130:  # typer turned a Ctrl-C into Exit(130)
            _say("interrupted; no output of this command was left half-written", err=True)
        raise SystemExit(rv)
