"""The ``frictionlab export`` command (registered into the main CLI by :func:`register`).

``frictionlab export fmu MODEL[/PRESET] --out law.fmu [--kind both|cs|me] [--step DT] [--set k=v]``
writes an FMI 2.0 FMU; ``frictionlab export c MODEL[/PRESET] --out DIR`` the law's C header and
source (:mod:`frictionlab.export`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from ..core.errors import ConfigError

__all__ = ["register", "parse_target", "parse_sets"]

FORMATS = ("fmu", "c")


def parse_target(target: str) -> tuple[str, str | None]:
    """``"lugre/canudas1995"`` -> ``("lugre", "canudas1995")``; ``"lugre"`` -> ``("lugre", None)``."""
    name, _, preset = target.partition("/")
    if not name:
        raise ConfigError(f"model {target!r}: give MODEL or MODEL/PRESET, e.g. lugre/canudas1995")
    return name, preset or None


def parse_sets(items: list[str]) -> dict[str, object]:
    """``["sigma0=2e5", "law=slip", "k=[1e4,2e4]"]`` -> parameter overrides (values read as TOML)."""
    import tomllib

    out: dict[str, object] = {}
    for item in items:
        key, eq, text = item.partition("=")
        if not eq or not key.strip():
            raise ConfigError(f"--set {item!r}: expected NAME=VALUE, e.g. sigma0=2e5")
        try:
            out[key.strip()] = tomllib.loads(f"v = {text.strip()}")["v"]
        except tomllib.TOMLDecodeError:
            out[key.strip()] = text.strip()  # a bare word: an option's value (law=slip)
    return out


def register(app: typer.Typer) -> None:
    """Add the ``export`` command to the ``frictionlab`` typer ``app``."""

    @app.command("export")
    def export_cmd(
        fmt: Annotated[str, typer.Argument(metavar="FORMAT", help="'fmu' (FMI 2.0) or 'c' (header + source)")],
        target: Annotated[str, typer.Argument(metavar="MODEL[/PRESET]", help="a rate law, e.g. lugre/canudas1995")],
        out: Annotated[Path, typer.Option("--out", help="the .fmu file (fmu) or the directory (c)")],
        set_: Annotated[Optional[list[str]], typer.Option("--set", help="parameter override, e.g. sigma0=2e5")] = None,
        kind: Annotated[str, typer.Option("--kind", help="fmu: 'both', 'cs' (co-simulation) or 'me' "
                                                         "(model exchange)")] = "both",
        step: Annotated[float, typer.Option("--step", help="fmu: default internal RK4 step of co-simulation, "
                                                           "in s (the FMU parameter internal_step)")] = 1e-4,
        stop_time: Annotated[Optional[float], typer.Option("--stop-time", help="fmu: the default experiment's "
                                                           "stop time in s (default: the model's typical duration)")] = None,
    ) -> None:
        """Export a rate law as an FMI 2.0 FMU or as plain C source (no Python inside)."""
        from ..core.registry import discover, make_model

        if fmt not in FORMATS:
            raise ConfigError(f"export format {fmt!r} is not one of {list(FORMATS)}")
        name, preset = parse_target(target)
        discover()
        model = make_model(name, preset, **parse_sets(set_ or []))
        if fmt == "c":
            if kind != "both" or step != 1e-4 or stop_time is not None:
                raise ConfigError("--kind, --step and --stop-time are options of 'export fmu', not of 'export c'")
            from ..export.csource import write_c

            for path in write_c(model, out):
                typer.echo(f"wrote {path}")
            return
        from ..export.fmu import export_fmu

        path = export_fmu(model, out, kind=kind, step=step, stop_time=stop_time)
        typer.echo(f"wrote {path}")
