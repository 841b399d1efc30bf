"""The figure files of a sweep store: drawn from it, written atomically, recorded in ``STORE/figures.json``.

A figure drawn from a store (``frictionlab sweep ... --plot FILE``, ``frictionlab sweep plot STORE``)
is recorded there, so the same sweep (resumed, or drawn again) replaces its own figure; an existing
file that the store did not draw is replaced only with ``overwrite`` (:func:`check_figure`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import ConfigError

if TYPE_CHECKING:
    import xarray as xr

__all__ = ["FIGURES", "FIGURE_SUFFIXES", "check_figure_path", "check_figure", "record_figure", "save_figure",
           "draw", "draw_store"]

#: the list of figure files drawn from a store, in the store's directory
FIGURES = "figures.json"

#: the file types a sweep figure can be written as
FIGURE_SUFFIXES = (".png", ".pdf", ".svg")


def check_figure_path(path: Path, option: str) -> None:
    """Refuse a figure file of another type than :data:`FIGURE_SUFFIXES` (``option`` names it in the error)."""
    if path.suffix.lower() not in FIGURE_SUFFIXES:
        raise ConfigError(f"{option} {str(path)!r}: give a .png, .pdf or .svg file")


def _drawn_from(store: Path) -> list[str]:
    """The figure files drawn from ``store`` so far (``STORE/figures.json``)."""
    try:
        data = json.loads((store / FIGURES).read_text())
    except (OSError, ValueError):
        return []
    return [str(p) for p in data] if isinstance(data, list) else []


def check_figure(path: Path, store: Path, overwrite: bool) -> None:
    """Refuse to replace an existing figure file that was not drawn from ``store`` (without ``overwrite``).

    A figure drawn from a store is recorded in ``STORE/figures.json`` (:func:`record_figure`), so
    the same sweep (resumed, or drawn again) replaces its own figure; a figure of another sweep, or
    any other file, stays unless ``--overwrite``.
    """
    if not path.exists() or overwrite or path.resolve().parent == store.resolve():
        return
    if str(path.resolve()) not in _drawn_from(store):
        raise ConfigError(f"{str(path)!r} exists and was not drawn from the sweep in {str(store)!r}: refusing to "
                          "replace it; choose another file, or pass --overwrite to replace it")


def record_figure(path: Path, store: Path) -> None:
    """Add ``path`` to the figures drawn from ``store`` (``STORE/figures.json``)."""
    from ..core.files import write_text_atomic

    drawn = _drawn_from(store)
    if str(path.resolve()) not in drawn:
        write_text_atomic(store / FIGURES, json.dumps([*drawn, str(path.resolve())], indent=1) + "\n")


def save_figure(fig, path: Path) -> Path:
    """Write ``fig`` to ``path`` (its folder made if missing; the type from the suffix) through a temporary name."""
    from ..core.files import atomic_target

    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_target(path) as tmp:
        fig.savefig(tmp, dpi=110, format=path.suffix.lstrip(".") or "png")
    return path


def draw(ds: xr.Dataset, path: Path, store: Path, metrics: Sequence[str] | None = None) -> Path:
    """Draw the gathered sweep ``ds`` of ``store`` (:func:`~frictionlab.sweep.plot.plot_sweep`) into
    ``path`` and record it there."""
    from .plot import plot_sweep

    path = save_figure(plot_sweep(ds, metrics), path)
    record_figure(path, store)
    return path


def draw_store(store: Path, metrics: Sequence[str] | None = None, out: Path | None = None,
               overwrite: bool = False) -> Path:
    """Draw the (finished or partial) sweep in ``store`` into ``out`` (default ``STORE/sweep.png``)."""
    from .runner import gather

    if out is not None:
        check_figure_path(out, "--out")
    ds = gather(store)
    path = out or store / "sweep.png"
    check_figure(path, store, overwrite)
    return draw(ds, path, store, metrics)
