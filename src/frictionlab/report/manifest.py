"""What produced a report directory, so a later run never silently replaces another run's report.

``reproduce`` checks ``OUT`` before it runs anything and writes ``OUT/report-manifest.json`` with its
report once that is complete (an interrupted run leaves the earlier report and manifest whole): the scenario names,
the papers or names the command chose them by, the profile (quick or full) and the command. A later ``reproduce`` into the same ``OUT`` is
refused (one line, exit 2) when the directory holds a report of another scenario set or
profile -- after ``make demo`` (every paper, quick), ``reproduce kloss --out out/`` would
otherwise replace the 61-scenario report with a 13-scenario one -- unless it is given
``--overwrite``, which then also removes the data files and figures of the old run's scenarios
that the new one does not run (they would look like part of the new report). A run of the same
set and profile (the same command again, e.g. after an interruption, or after an update that
added a scenario to the papers it names) replaces it, as before. A
report without a manifest (written by an older version) counts as another run's, unless its
``validation.md`` quotes the same command (``make demo`` again over an older ``out/``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError
from ..core.files import write_text_atomic

__all__ = ["MANIFEST", "REPORT_FILES", "check_report_dir", "claim_report_dir", "read_manifest", "record_report_dir"]

MANIFEST = "report-manifest.json"
FORMAT = "frictionlab-report-1"
#: the files that make a directory hold a report
REPORT_FILES = ("report.md", "report.html", "validation.md")


def read_manifest(out: str | Path) -> dict[str, Any] | None:
    """The manifest of the report in ``out``; None when there is none or it is unreadable."""
    try:
        data = json.loads((Path(out) / MANIFEST).read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("scenarios"), list):
        return None
    return data


def _legacy_command(out: Path) -> str | None:
    """The command a report without a manifest quotes in its ``validation.md`` (None if it quotes none)."""
    try:
        head = (out / "validation.md").read_text(encoding="utf-8")[:2000]
    except (OSError, UnicodeDecodeError):
        return None
    found = re.search(r"Generated from one reproduce run \(`([^`]*)`", head)
    return _selection_of(found.group(1)) if found else None


def _selection_of(command: str) -> str:
    """A reproduce command less its worker count (which changes no result)."""
    return re.sub(r" --workers \d+", "", command).strip()


def _profile(quick: bool) -> str:
    return "quick" if quick else "full"


def _slug(name: str) -> str:
    from .outcomes import slug

    return slug(name)


def _remove_outputs_of(out: Path, names: Sequence[str]) -> None:
    """Remove the data file and figure ``reproduce`` wrote for each scenario in ``names``."""
    for name in names:
        for f in (out / "data" / f"{_slug(name)}.nc", out / "figures" / f"{_slug(name)}.png"):
            f.unlink(missing_ok=True)


def claim_report_dir(out: str | Path, scenarios: Sequence[str], *, quick: bool, command: str = "",
                     overwrite: bool = False, selection: Sequence[str] | None = None) -> None:
    """Record that ``out`` now holds the report of ``scenarios`` (refusing another run's report):
    :func:`check_report_dir`, then :func:`record_report_dir`."""
    stale = check_report_dir(out, scenarios, quick=quick, command=command, overwrite=overwrite, selection=selection)
    record_report_dir(out, scenarios, quick=quick, command=command, selection=selection, stale=stale)


def record_report_dir(out: str | Path, scenarios: Sequence[str], *, quick: bool, command: str = "",
                      selection: Sequence[str] | None = None, stale: Sequence[str] = ()) -> None:
    """Write the manifest of the report of ``scenarios`` now in ``out``, and remove the data files and
    figures of the ``stale`` scenarios (an older run's that this one replaced with ``--overwrite``).
    ``reproduce`` calls it once its report is complete, so an interrupted run leaves the old one whole."""
    out = Path(out)
    _remove_outputs_of(out, [n for n in stale if n not in scenarios])
    chosen = None if selection is None else sorted(selection)
    data = {"format": FORMAT, "command": command, "quick": bool(quick), "selection": chosen, "scenarios": list(scenarios)}
    write_text_atomic(out / MANIFEST, json.dumps(data, indent=1) + "\n")


def check_report_dir(out: str | Path, scenarios: Sequence[str], *, quick: bool, command: str = "",
                     overwrite: bool = False, selection: Sequence[str] | None = None) -> list[str]:
    """Refuse to replace another run's report in ``out``; return the scenarios of the report there
    that a run of ``scenarios`` replaces (their outputs go when it is recorded, :func:`record_report_dir`).

    The report in ``out`` is of the same run when the profile is the same and either the scenario
    names are, or the ``selection`` that chose them is (the command's papers or names; empty: all),
    so ``make demo`` again after an update that added a scenario still replaces its own report.

    Raises
    ------
    ConfigError
        ``out`` holds a report of another scenario set or profile and ``overwrite`` is False.
    """
    out = Path(out)
    names = list(scenarios)
    old = read_manifest(out)
    has_report = any((out / f).exists() for f in REPORT_FILES)
    chosen = None if selection is None else sorted(selection)
    same = old is not None and old.get("quick") == bool(quick) and (
        sorted(old["scenarios"]) == sorted(names) or (chosen is not None and old.get("selection") == chosen))
    if old is None and has_report and command:  # written before manifests: the command its page quotes
        same = _legacy_command(out) == _selection_of(command)
    if (has_report or old is not None) and not same:
        if not overwrite:
            if old is None:
                what = "a report whose run is not recorded (no " + MANIFEST + ")"
            else:
                n = len(old["scenarios"])
                what = (f"the report of {n} scenario{'s' if n != 1 else ''}, {_profile(bool(old.get('quick')))} "
                        f"profile ({old.get('command') or 'frictionlab reproduce'})")
            raise ConfigError(f"--out {str(out)!r} holds {what}; this run has {len(names)} scenario"
                              f"{'s' if len(names) != 1 else ''}, {_profile(quick)} profile: refusing to replace "
                              "it; choose another --out, or pass --overwrite to replace it")
    return list(old["scenarios"]) if old is not None and not same else []
