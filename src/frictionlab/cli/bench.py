"""``frictionlab bench``: the benchmarks' figures (times, rates, ratios against targets) as a table."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape

from ..core.errors import ConfigError, suggest
from .common import console, say

__all__ = ["register"]


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

    from ..benchmarks import find, load, with_peers

    found = find(path)
    if not found:
        raise ConfigError(f"no bench_*.py files in {path}")
    if name is not None:
        if name not in found:
            raise ConfigError(f"unknown benchmark {name!r}{suggest(name, list(found))}; known: {', '.join(found)}")
        every, found = found, {name: found[name]}
    t = Table(title="frictionlab benchmarks")
    for col in ("benchmark", "metric", "value", "unit", "target"):
        t.add_column(col)
    for bname, f in found.items():
        mod = load(bname, f, packaged=path is None)
        if peers and not hasattr(mod, "run_peers"):
            if name is not None:
                raise ConfigError(f"benchmark {bname!r} has no peer comparison (--peers); "
                                  f"those that have: {', '.join(with_peers(every, path is None)) or 'none'}")
            continue
        say(f"running {f.stem} ..." if path is None else f"running {f} ...")
        for metric, value, unit, target in (mod.run_peers(quick=quick) if peers else mod.run(quick=quick)):
            t.add_row(*map(escape, (bname, str(metric), f"{value:.4g}" if isinstance(value, (int, float)) else str(value),
                                    str(unit), str(target))))
    console.print(t)



def register(app: typer.Typer) -> None:
    """Add ``bench`` to the frictionlab CLI."""
    app.command()(bench)
