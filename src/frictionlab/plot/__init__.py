"""Plot helpers: one per result kind. Each takes a Dataset and returns a Figure (no show()).

matplotlib is loaded on the first drawing call, not on import: ``plt`` here is a stand-in
that builds :class:`matplotlib.figure.Figure` objects (object API, never ``matplotlib.use``:
the user's backend and pyplot's figure list stay as they were), importing matplotlib at the
first figure, so a module may ``from frictionlab.plot import plt, time_series`` at
the top and still import cheaply (``frictionlab show``, the scenario registry).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import xarray as xr
    from matplotlib.figure import Figure

__all__ = ["time_series", "versus", "curves", "facets", "finish", "save", "phase_plane", "displacement_plot", "plt"]


class _Pyplot:
    """Figures through matplotlib's object API; nothing here touches the user's backend.

    ``figure`` and ``subplots`` build a :class:`matplotlib.figure.Figure` that pyplot does not
    track (so a Jupyter session neither shows it twice nor loses its own backend: the helpers
    never call ``matplotlib.use``), ``close`` releases nothing pyplot holds; any other
    attribute (``cm``, ``get_cmap``, ...) is read from ``matplotlib.pyplot``, whose import
    changes no backend.
    """

    @staticmethod
    def figure(*, figsize=None, **kwargs: Any) -> Figure:
        from matplotlib.figure import Figure

        return Figure(figsize=figsize, **kwargs)

    def subplots(self, nrows: int = 1, ncols: int = 1, *, figsize=None, subplot_kw=None,
                 gridspec_kw=None, **kwargs: Any):
        fig = self.figure(figsize=figsize)
        axes = fig.subplots(nrows, ncols, subplot_kw=subplot_kw, gridspec_kw=gridspec_kw, **kwargs)
        return fig, axes

    @staticmethod
    def close(fig: Any = None) -> None:
        """A helper's figure is not pyplot's: closing it clears it; pyplot's own are left alone."""
        if fig is not None and hasattr(fig, "clear"):
            fig.clear()

    def __getattr__(self, name: str) -> Any:
        import matplotlib.pyplot

        return getattr(matplotlib.pyplot, name)

    def __repr__(self) -> str:
        return "<frictionlab figures (object API; matplotlib imported on first use)>"


plt: Any = _Pyplot()

def pyplot() -> Any:
    """The figure maker of the helpers (object API, the user's backend untouched)."""
    return plt


def _label(ds: xr.Dataset, name: str) -> str:
    u = ds[name].attrs.get("units", "")
    return f"{name.replace('_', ' ')} [{u}]" if u else name.replace("_", " ")


def time_series(ds: xr.Dataset, variables: Sequence[str] = ("friction_force",), *, hue: str | None = None,
                title: str = "", logx: bool = False) -> Figure:
    """Variables against time, one panel each; ``hue`` draws one line per value of a dimension."""
    plt = pyplot()
    fig, axes = plt.subplots(len(variables), 1, figsize=(7, 2.4 * len(variables) + 0.6), sharex=True, squeeze=False)
    for ax, var in zip(axes[:, 0], variables):
        _draw(ax, ds, "time", var, hue)
        ax.set_ylabel(_label(ds, var))
        if logx:
            ax.set_xscale("log")
    axes[-1, 0].set_xlabel(_label(ds, "time") if "time" in ds else "time")
    if title:
        axes[0, 0].set_title(title)
    fig.tight_layout()
    return fig


def versus(ds: xr.Dataset, x: str, y: str | Sequence[str], *, hue: str | None = None, title: str = "",
           logx: bool = False, logy: bool = False) -> Figure:
    """``y`` against ``x`` (e.g. friction vs slip, hysteresis loops), optionally per ``hue``."""
    ys = [y] if isinstance(y, str) else list(y)
    plt = pyplot()
    fig, axes = plt.subplots(1, len(ys), figsize=(5.2 * len(ys), 3.8), squeeze=False)
    for ax, var in zip(axes[0], ys):
        _draw(ax, ds, x, var, hue)
        ax.set_xlabel(_label(ds, x))
        ax.set_ylabel(_label(ds, var))
        if logx:
            ax.set_xscale("log")
        if logy:
            ax.set_yscale("log")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig


def curves(x, ys: dict[str, object], *, xlabel: str, ylabel: str, title: str = "", logx: bool = False,
           styles: dict[str, str] | None = None) -> Figure:
    """Plain curves (steady-state laws, data vs model)."""
    fig, ax = pyplot().subplots(figsize=(6, 4))
    for name, y in ys.items():
        style = (styles or {}).get(name, "-")
        xx = x[name] if isinstance(x, dict) else x
        ax.plot(xx, y, style, label=name)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if logx:
        ax.set_xscale("log")
    if title:
        ax.set_title(title)
    if len(ys) > 1:
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def facets(ds: xr.Dataset, x: str, y: str, *, col: str, hue: str, label, xlabel: str, ylabel: str,
           logx: bool = False, logy: bool = False, width: float = 5.5) -> Figure:
    """``y`` against ``x``, one panel per value of ``col`` (titled with it), one labelled line per value of ``hue``.

    ``label(value)`` names a ``hue`` line; ``width`` is one panel's [in]. The panels are left to
    :func:`finish` (legends, layout).
    """
    cols = ds[col].values
    fig, axes = pyplot().subplots(1, cols.size, figsize=(width * cols.size, 4), squeeze=False)
    for ax, c in zip(axes[0], cols):
        for h in ds[hue].values:
            s = ds.sel({col: c, hue: h})
            ax.plot(s[x].values, s[y].values, label=label(h))
        ax.set(xlabel=xlabel, ylabel=ylabel, title=str(c), xscale="log" if logx else "linear",
               yscale="log" if logy else "linear")
    return fig


def finish(fig: Figure, *, legend_fontsize: float = 8) -> Figure:
    """Lay a drawn figure out: a legend on every panel that labels artists and has none yet, then a tight layout.

    A scenario's figure is finished here once (:meth:`frictionlab.scenarios.Scenario.figure`), so its
    ``plot`` only draws and labels; a panel that wants its own legend (placement, columns, title) makes it,
    and a panel whose labels such a legend already shows (the same lines in two panels) gets none.
    """
    shown = {tuple(t.get_text() for t in ax.get_legend().get_texts()) for ax in fig.axes if ax.get_legend()}
    for ax in fig.axes:
        labels = ax.get_legend_handles_labels()[1]
        if labels and ax.get_legend() is None and tuple(labels) not in shown:
            ax.legend(fontsize=legend_fontsize)
    fig.tight_layout()
    return fig


def _draw(ax, ds: xr.Dataset, x: str, y: str, hue: str | None) -> None:
    if hue and hue in ds[y].dims:
        for val in ds[hue].values:
            sub = ds.sel({hue: val})
            ax.plot(sub[x].values, sub[y].values, label=f"{hue} = {val}")
        ax.legend(fontsize=7)
    else:
        ax.plot(ds[x].values, ds[y].values)


def save(fig: Figure, path) -> None:
    """Write ``fig`` to ``path`` (format from the suffix) through a temporary name, then close it."""
    from ..core.files import atomic_target

    try:
        with atomic_target(path) as tmp:
            fig.savefig(tmp, dpi=110)
    finally:
        pyplot().close(fig)


from .slider import displacement_plot, phase_plane  # noqa: E402
