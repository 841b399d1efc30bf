"""Self-describing results: what made a result, when, and what each variable is (CF conventions).

Every result of :func:`frictionlab.simulate` carries, in its ``attrs``, the software that made it
(``source``, ``frictionlab_version``, ``git_revision`` when the package runs from a git checkout),
the call (``frictionlab_call``) and ``Conventions`` (the CF metadata conventions, version 1.10);
every variable and coordinate a ``long_name`` (and a CF ``standard_name`` where the CF standard
name table has one). These are the same in every run of the same code, so two runs stay
comparable attribute for attribute. Writing a file (:func:`frictionlab.core.result.write_netcdf`)
adds what differs from one run to the next: ``date_created`` (UTC, ISO 8601) and a CF
``history`` line naming the command (the ``frictionlab`` command line under the CLI, else the
Python program and its arguments).

Reading the git revision opens two small files under ``.git`` (no ``git`` process), once per
process; an installed (non-checkout) package has none, and the attribute is then absent.
"""

from __future__ import annotations

import functools
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

__all__ = ["CONVENTIONS", "LONG_NAMES", "CF_STANDARD_NAMES", "software_attrs", "git_revision", "long_name",
           "describe_variables", "set_command", "command_line", "creation_attrs", "revision_at"]

#: the CF metadata conventions the files follow
CONVENTIONS = "CF-1.10"

#: long names of the standard variables and common coordinates (others: the name in words)
LONG_NAMES: dict[str, str] = {
    "time": "time",
    "slip": "slip (relative tangential displacement)",
    "slip_velocity": "slip velocity",
    "normal_force": "normal force",
    "friction_force": "friction force",
    "normal_stress": "normal stress",
    "shear_stress": "shear stress",
    "friction_coefficient": "friction coefficient (friction force / normal force)",
    "driver_position": "position of the driving point",
    "spring_force": "spring force",
    "contact_area": "real contact area",
    "real_contact_area": "real contact area",
    "approach": "approach of the bodies from first touch (interference)",
    "pressure": "mean contact pressure (normal force / contact area)",
    "dilatation": "dilatation (normal separation change)",
    "applied_force": "applied tangential force",
    "state_theta": "rate-and-state state variable theta",
    "case": "case index",
    "point": "sweep point index",
}

#: CF standard names (CF standard name table) of the variables that have one
CF_STANDARD_NAMES: dict[str, str] = {"time": "time"}

_COMMAND: list[str] = []


def set_command(command: str) -> None:
    """Record the command line that runs in this process (the CLI calls it once)."""
    _COMMAND[:] = [command]


def command_line() -> str:
    """The recorded command, else the Python program and its arguments."""
    if _COMMAND:
        return _COMMAND[0]
    return "python " + " ".join(sys.argv) if sys.argv and sys.argv[0] else "python (interactive)"


def _git_dir(start: Path) -> Path | None:
    for parent in (start, *start.parents):
        dot = parent / ".git"
        if dot.is_dir():
            return dot
        if dot.is_file():  # a worktree or submodule: "gitdir: PATH"
            text = dot.read_text(encoding="utf-8", errors="replace").strip()
            if text.startswith("gitdir:"):
                d = Path(text[7:].strip())
                return d if d.is_absolute() else (parent / d)
    return None


@functools.lru_cache(maxsize=1)
def git_revision() -> str | None:
    """The commit of the checkout the package runs from, or ``None`` (an installed package)."""
    return revision_at(Path(__file__).resolve().parents[3])


def revision_at(start: Path) -> str | None:
    """The commit checked out in the git work tree holding ``start`` (a main checkout or a
    worktree; loose or packed refs), or ``None``."""
    try:
        gdir = _git_dir(start)
        if gdir is None or not (gdir / "HEAD").is_file():
            return None
        head = (gdir / "HEAD").read_text(encoding="utf-8").strip()
        if not head.startswith("ref:"):
            return head or None
        ref = head[4:].strip()
        common = gdir
        if (gdir / "commondir").is_file():  # a worktree keeps its refs in the main .git
            common = (gdir / (gdir / "commondir").read_text(encoding="utf-8").strip()).resolve()
        for base in (gdir, common):
            if (base / ref).is_file():
                return (base / ref).read_text(encoding="utf-8").strip() or None
        for base in (gdir, common):
            packed = base / "packed-refs"
            if packed.is_file():
                for line in packed.read_text(encoding="utf-8").splitlines():
                    parts = line.split()
                    if len(parts) == 2 and parts[1] == ref:
                        return parts[0]
    except OSError:
        return None
    return None


@functools.lru_cache(maxsize=1)
def software_attrs() -> dict[str, str]:
    """``source``, ``frictionlab_version``, ``git_revision`` (when known) and ``Conventions``."""
    from .. import __version__

    rev = git_revision()
    attrs = {"Conventions": CONVENTIONS, "frictionlab_version": __version__,
             "source": f"frictionlab {__version__}" + (f" (git {rev[:12]})" if rev else "")}
    if rev:
        attrs["git_revision"] = rev
    return attrs


def long_name(name: str) -> str:
    """The long name of a variable: from :data:`LONG_NAMES`, else its name in words."""
    if name in LONG_NAMES:
        return LONG_NAMES[name]
    return str(name).replace("_", " ").replace(".", " ").strip()


def describe_variables(ds: Any) -> Any:
    """Give every variable and coordinate of ``ds`` a ``long_name`` (and a CF ``standard_name``
    where one exists), keeping those already set; an integer index coordinate without units (a
    case, element or point number) gets units ``"1"``. Returns ``ds`` (changed in place)."""
    for name, var in ds.variables.items():
        var.attrs.setdefault("long_name", long_name(str(name)))
        if name in ds.dims and var.dtype.kind in "iu":
            var.attrs.setdefault("units", "1")
        if name in CF_STANDARD_NAMES:
            var.attrs.setdefault("standard_name", CF_STANDARD_NAMES[str(name)])
    return ds


def creation_attrs(previous_history: str | None = None) -> dict[str, str]:
    """``date_created`` now (UTC) and a CF ``history`` line (appended to ``previous_history``)."""
    now = datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    line = f"{now}: {command_line()}"
    history = f"{previous_history}\n{line}" if previous_history else line
    return {"date_created": now, "history": history}
