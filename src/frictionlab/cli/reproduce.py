"""``frictionlab reproduce``: the papers' experiments, every claim checked, the report written."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape

from ..core.files import writable_dir
from . import common
from .common import ResumeOption, SchedulerOption, WorkersOption, console, execution_options, say

__all__ = ["register"]


def _interrupted_reproduce(outcomes: list, pending: list[str], out: Path, stage: Path, *, quick: bool,
                           command: str) -> None:
    """Ctrl-C during ``reproduce``: the progress report in ``stage`` says what ran and what did not; one
    line says what was written where; exit 130. The report in ``out`` is not touched."""
    from ..report.reproduce import write_report
    from ..scenarios.checkpoint import partial_dir

    write_report(outcomes, stage, quick=quick, command=command, not_run=pending, interrupted=True)
    kept = partial_dir(out, pending[0]) if pending else None
    kept = kept if kept is not None and any(kept.glob("*.nc")) else None
    say(f"interrupted during {pending[0] if pending else 'the report'}: {len(outcomes)} scenario(s) finished, "
         f"{len(pending)} did not run; the report in {out} is unchanged; this run's report, data and figures "
         f"so far are in {stage}"
         + (f"; the finished runs of {pending[0]} are kept in {kept}: the same command resumes from them"
            if kept else ""), err=True)
    raise SystemExit(130) from None



def reproduce(
    targets: Annotated[Optional[list[str]], typer.Argument(help="papers (classic, kloss, ...) or scenario names; all if none")] = None,
    quick: Annotated[bool, typer.Option("--quick", help="quick profiles (CI / make demo)")] = False,
    out: Annotated[Path, typer.Option("--out", help="report directory")] = Path("out"),
    workers: WorkersOption = None,
    fresh: Annotated[bool, typer.Option("--fresh", help="discard the finished runs an interrupted earlier reproduce "
                                        "left in OUT/partial/ instead of resuming from them")] = False,
    mutations: Annotated[bool, typer.Option("--mutations", help="also rerun each scenario under every mutation its "
                                            "paper checks declare (a wrong model or reading under which the check "
                                            "must change its verdict); prints 'mutations: K killed, S survived', "
                                            "writes OUT/mutations.md; a survivor exits 1")] = False,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="replace a report in OUT of other scenarios or "
                                            "another profile (refused without it)")] = False,
    scheduler: SchedulerOption = None,
    resume: ResumeOption = False,
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

    from ..report.reproduce import counts, exit_code, publish, run_one, start_staging, write_report
    from ..scenarios.base import select
    from ..scenarios.checkpoint import discard
    from ..scenarios.executor import runs_independently, runs_on

    scheduler = execution_options(workers, scheduler)
    scenarios = select(list(targets or []))
    debug = common.DEBUG or "--debug" in sys.argv
    command = ("frictionlab reproduce" + "".join(f" {t}" for t in targets or []) + (" --quick" if quick else "")
               + (f" --workers {workers}" if workers is not None else "")
               + (f" --scheduler {scheduler}" if scheduler is not None else ""))
    outcomes = []
    writable_dir(out)
    from ..report.manifest import check_report_dir, record_report_dir

    stale = check_report_dir(out, [sc.name for sc in scenarios], quick=quick, command=command, overwrite=overwrite,
                             selection=list(targets or []))
    parallel = [sc.name for sc in scenarios if runs_independently(sc)]
    if workers is not None:
        say(f"--workers {workers}: " + (f"{workers} processes run the independent runs of {', '.join(parallel)}"
                                        if parallel else "none of these scenarios is made of independent runs; not used"))
    if scheduler is not None:
        say(f"--scheduler {scheduler}: " + (f"the independent runs of {', '.join(parallel)} go to the cluster"
                                            if parallel else "none of these scenarios is made of independent runs; "
                                                             "not used"))
    if fresh:
        for sc in scenarios:
            discard(out, sc.name)
    stage = start_staging(out)  # the report in OUT is replaced only once every scenario has run
    pending = [sc.name for sc in scenarios]
    label = {"pass": "[green]pass[/green]", "deviation": "[yellow]deviation[/yellow]", "fail": "[red]FAIL[/red]",
             "not testable": "[blue]not testable[/blue]"}
    if mutations:
        from ..report.mutations import MutationReport, run_mutations

        mrep = MutationReport()
        command += " --mutations"
    try:
        with runs_on(scheduler, workers=workers) as cluster, Progress(TextColumn("{task.description:<40}"), BarColumn(),
                                                     TextColumn("{task.completed}/{task.total}"), TimeElapsedColumn(),
                                                     console=console) as prog:
            if cluster is not None and parallel:
                cluster.client  # noqa: B018 - reach it (and check its workers) now: a bad address stops here
            task = prog.add_task("reproduce", total=len(scenarios))
            for sc in scenarios:
                prog.update(task, description=escape(sc.name))
                o = run_one(sc, out, quick, debug=debug, dest=stage,
                            **({"trust_others": True} if resume else {}))
                outcomes.append(o)
                if mutations and not o.error:
                    prog.update(task, description=escape(f"{sc.name} (mutations)"))
                    mrep.extend(run_mutations(sc, o.checks, quick=quick))
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
    say(f"wrote {html_}, {md} and {out / 'validation.md'}")
    say(f"checks: {n.line()}; scenarios that failed to run: {n.errors}")
    say(f"claims of the papers: {counts(outcomes, 'paper').line()}")
    code = exit_code(outcomes)
    if mutations:
        from ..core.files import write_text_atomic
        from ..report.mutations import mutation_markdown

        mpath = write_text_atomic(out / "mutations.md", mutation_markdown(mrep, command))
        for o in mrep.outcomes:
            if not o.killed:
                say("  " + escape(o.line()))
        say(f"{mrep.line()} ({mpath})")
        if mrep.survived and code == 0:
            code = 1
    if code:
        raise SystemExit(code)



def register(app: typer.Typer) -> None:
    """Add ``reproduce`` to the frictionlab CLI."""
    app.command()(reproduce)
