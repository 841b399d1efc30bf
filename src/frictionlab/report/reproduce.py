"""Run scenarios, evaluate their checks, and write the report pages (``page_md``, ``page_html``).

Each claim has one of three verdicts (:class:`frictionlab.scenarios.base.Check`): pass, fail, or
deviation (the paper's own equations do not give its claim, shown with passing evidence computed
in the same run). :func:`exit_code` gives 0 when nothing fails, 1 when a claim fails, 2 when a
scenario could not run.
"""

from __future__ import annotations

import os
import shutil
import time
import traceback
from pathlib import Path

from ..core.errors import FrictionLabError
from ..core.result import write_netcdf
from ..plot import save
from ..scenarios.base import Scenario
from ..scenarios.checkpoint import LockBusy, discard, partial_results
from .manifest import check_report_dir, record_report_dir
from .outcomes import Counts, ScenarioOutcome, counts, exit_code, slug
from .page_html import write_html
from .page_md import write_markdown
from .validation import write_validation

__all__ = ["ScenarioOutcome", "Counts", "counts", "exit_code", "reproduce", "run_one", "write_report", "IN_PROGRESS",
           "start_staging", "publish"]

#: where a reproduce run writes its data files, figures and progress report until it is complete; the
#: report in OUT is replaced only then, so an interrupted run leaves the earlier one as it was
IN_PROGRESS = "in-progress"


def run_one(sc: Scenario, out: Path, quick: bool, overrides: dict | None = None, debug: bool = False,
            trust_others: bool = False, dest: Path | None = None) -> ScenarioOutcome:
    """Run ``sc``, write its data (``dest/data``, default ``out/data``) and figure, evaluate its checks.

    Its finished independent runs are kept in ``out/partial/<scenario>/`` while it runs
    (:mod:`frictionlab.scenarios.checkpoint`): a rerun after an interruption or a crash resumes
    from them; they are removed once the data file is written. Another process writing the same
    scenario's partial results under ``out`` raises :class:`~frictionlab.core.filelock.LockBusy`
    (not recorded as the scenario's error: the caller stops). Partial results another user wrote are
    refused (the scenario's error) unless ``trust_others`` (``reproduce --resume``)."""
    res = ScenarioOutcome(sc.name, sc.description, references=list(sc.references))
    dest = out if dest is None else dest
    t0 = time.perf_counter()
    try:
        with partial_results(out, sc.name, trust_others=trust_others):
            ds, cfg = sc.execute(overrides, quick=quick)
            res.data_files = str(ds.attrs.get("data_files", ""))
            res.data = write_netcdf(ds, dest / "data" / f"{slug(sc.name)}.nc")
            discard(out, sc.name)  # under the lock: no other process resumes from them meanwhile
        res.checks = sc.evaluate(ds, cfg)
        fig = sc.figure(ds)
        if fig is not None:
            res.figure = dest / "figures" / f"{slug(sc.name)}.png"
            res.figure.parent.mkdir(parents=True, exist_ok=True)
            save(fig, res.figure)
    except LockBusy:  # another process works on this --out: stop here, do not go on beside it
        raise
    except FrictionLabError as exc:
        res.error = f"{type(exc).__name__}: {exc}"
    except Exception as exc:  # a crash is reported, not hidden, and does not stop the report
        if _interrupted(exc):  # Ctrl-C met a compiled loop or a worker: still a Ctrl-C, not a fail
            raise KeyboardInterrupt from exc
        res.error = f"{type(exc).__name__}: {exc}"
        if debug:
            res.error += "\n" + traceback.format_exc()
    res.seconds = time.perf_counter() - t0
    return res


def _interrupted(exc: BaseException) -> bool:
    """Whether ``exc`` carries a Ctrl-C: numba code (and C extensions) that return while Python's
    SIGINT handler has set its flag raise ``SystemError: ... returned a result with an exception
    set`` with the KeyboardInterrupt as its cause or context."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def start_staging(out: Path) -> Path:
    """``out/in-progress/``, emptied: where a run writes until it is complete (:data:`IN_PROGRESS`)."""
    stage = Path(out) / IN_PROGRESS
    if stage.exists():
        shutil.rmtree(stage)  # an earlier interrupted run's (its finished runs are kept in out/partial/)
    stage.mkdir(parents=True)
    return stage


def publish(outcomes: list[ScenarioOutcome], out: Path, stage: Path, **report: object) -> tuple[Path, Path]:
    """Move the data files and figures of a complete run from ``stage`` into ``out``, write the report
    there (``report``: :func:`write_report`'s keywords) and remove ``stage``."""
    for o in outcomes:
        for attr, sub in (("data", "data"), ("figure", "figures")):
            path = getattr(o, attr)
            if path is not None and Path(path).parent == stage / sub:
                target = out / sub / Path(path).name
                target.parent.mkdir(parents=True, exist_ok=True)
                os.replace(path, target)
                setattr(o, attr, target)
    pages = write_report(outcomes, out, **report)
    shutil.rmtree(stage, ignore_errors=True)
    return pages


def reproduce(scenarios: list[Scenario], out: Path, *, quick: bool = False, progress=None,
              debug: bool = False, fresh: bool = False, overwrite: bool = False) -> list[ScenarioOutcome]:
    """Run ``scenarios`` one after another (:func:`run_one`) into ``out/in-progress/``, its report there
    rewritten after each, and replace the report in ``out`` with it once all have run (:func:`publish`):
    an interrupted call (KeyboardInterrupt, re-raised) leaves the earlier report in ``out`` as it was
    and its own in ``out/in-progress/``. With ``fresh`` the partial results of an earlier interrupted
    call are discarded first. A report of other scenarios or another profile in ``out`` is replaced
    only with ``overwrite`` (:func:`frictionlab.report.manifest.check_report_dir`)."""
    out.mkdir(parents=True, exist_ok=True)
    names = [sc.name for sc in scenarios]
    stale = check_report_dir(out, names, quick=quick, overwrite=overwrite)
    if fresh:
        for sc in scenarios:
            discard(out, sc.name)
    stage = start_staging(out)
    outcomes: list[ScenarioOutcome] = []
    pending = list(names)
    try:
        for sc in scenarios:
            if progress is not None:
                progress(sc.name)
            outcomes.append(run_one(sc, out, quick, debug=debug, dest=stage))
            pending.pop(0)
            write_report(outcomes, stage, quick=quick, not_run=pending)  # current, and honest about what is left
    except KeyboardInterrupt:
        write_report(outcomes, stage, quick=quick, not_run=pending, interrupted=True)
        raise
    publish(outcomes, out, stage, quick=quick)
    record_report_dir(out, names, quick=quick, stale=stale)
    return outcomes


def _version() -> str:
    try:
        from .. import __version__
    except ImportError:  # pragma: no cover
        return "?"
    return __version__


def write_report(outcomes: list[ScenarioOutcome], out: Path, *, quick: bool = False,
                 command: str = "", not_run: list[str] | tuple[str, ...] = (),
                 interrupted: bool = False) -> tuple[Path, Path]:
    """Write ``out/report.md``, a self-contained ``out/report.html`` (figures embedded) and ``out/validation.md``.

    The reports open with every failed and deviating claim (scenario, claim, expected, measured,
    a link to its section), then hold the counts of the three verdicts, a summary table per paper, one section listing every deviation with its explanation and evidence checks, every
    claim with its expected value, measurement, verdict and the spec ambiguity it depends on
    (evidence rows nested under their deviation), the figures, and the references (the scenarios'
    own and the citations the models registered). ``validation.md`` is the per-paper summary
    (:mod:`frictionlab.report.validation`); ``command`` is quoted in it. Scenarios in ``not_run`` (not reached yet, or cut off by
    an interrupt) are named at the top and the report does not pass. The files are written through
    a temporary name and a rename.

    Returns
    -------
    (path of report.md, path of report.html)
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    not_run = list(not_run)
    write_validation(outcomes, out, quick=quick, stamp=stamp, command=command)
    return (write_markdown(outcomes, out, quick, stamp, not_run, interrupted),
            write_html(outcomes, out, quick, stamp, not_run, interrupted, _version()))
