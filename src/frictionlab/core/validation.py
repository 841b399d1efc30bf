"""Size and setting checks made before any work starts.

:func:`check_run_settings` refuses integrator settings that cannot run (a tolerance of the
wrong sign, ``save_dt = inf``, ``max_points = 0``, a value that is not a number) and runs
whose arrays would not fit in memory, so a mistyped duration fails in a millisecond with a
one-line error instead of a ``MemoryError`` (or swapping) minutes later.
:func:`check_grid_size` does the same for sweep grids.
"""

from __future__ import annotations

import math
import numbers
import os
from typing import Any

from .errors import ConfigError, ParameterError

__all__ = ["check_run_settings", "check_grid_size", "available_memory", "format_bytes", "MAX_GRID_POINTS"]

#: largest number of points a sweep grid may have (each point is one run and one file)
MAX_GRID_POINTS = 1_000_000

#: bytes held per fixed step by the compiled loops: the protocol sampled at half steps
#: (3 channels x 2 samples, with a transposed copy), its left limits (3) and temporaries
_BYTES_PER_STEP = 8 * 16
#: bytes per saved sample and saved variable (result arrays, Dataset, outputs)
_BYTES_PER_SAVED_VALUE = 8 * 4


def available_memory() -> int | None:
    """Bytes of memory available to a new allocation now, or None when unknown."""
    try:
        import psutil

        return int(psutil.virtual_memory().available)
    except Exception:  # psutil missing or unsupported platform: ask the OS
        try:
            return int(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
        except (ValueError, OSError, AttributeError):
            return None


def format_bytes(n: float) -> str:
    """``1.5e12`` -> ``'1.4 TiB'``."""
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:.3g} {unit}" if unit != "B" else f"{int(n)} B"
        n /= 1024
    return f"{n:.3g} EiB"  # pragma: no cover


def _number(name: str, value: Any, *, positive: bool = False, nonneg: bool = False, units: str = "") -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) and not hasattr(value, "__float__"):
        raise ParameterError(f"integrator.{name} = {value!r} must be a number{' in ' + units if units else ''}, "
                             f"not {type(value).__name__}")
    try:
        x = float(value)
    except (TypeError, ValueError, OverflowError):
        raise ParameterError(f"integrator.{name} = {value!r} is not a representable number") from None
    if not math.isfinite(x):
        raise ParameterError(f"integrator.{name} = {x!r} must be finite")
    if positive and not x > 0:
        raise ParameterError(f"integrator.{name} = {x:g}{' ' + units if units else ''} must be > 0")
    if nonneg and x < 0:
        raise ParameterError(f"integrator.{name} = {x:g}{' ' + units if units else ''} must be >= 0")
    return x


def check_run_settings(model: Any, protocol: Any, system: Any, integrator: str, *, dt: Any = None, t_end: Any = None,
                       save_dt: Any = None, max_points: Any = 20000, rtol: Any = 1e-8, atol: Any = 1e-12,
                       newmark_beta: Any = 0.25, newmark_gamma: Any = 0.5, memory: int | None = None) -> None:
    """Refuse integrator settings of :func:`~frictionlab.solve.simulate.simulate` that cannot run.

    Checks the types and ranges of ``dt``, ``t_end``, ``save_dt`` (finite, > 0),
    ``max_points`` (a whole number >= 2), ``rtol`` (0 < rtol < 1), ``atol`` (>= 0) and the
    Newmark coefficients, then estimates the memory the run needs (the compiled loops hold
    the protocol sampled at every half step; every run, stepped and adaptive ones included,
    holds the saved samples) and refuses
    a run that needs more than is available now (``memory`` bytes when given).

    Raises
    ------
    ParameterError
        A setting of the wrong type or out of range, or a run too large for the memory.
    """
    if not isinstance(integrator, str):
        raise ConfigError(f"integrator must be a name like 'rk4', got {type(integrator).__name__} {integrator!r}"[:200])
    t_end = _number("t_end", protocol.duration if t_end is None else t_end, positive=True, units="s")
    dt = t_end / 1e4 if dt is None else _number("dt", dt, positive=True, units="s")
    if save_dt is not None:
        save_dt = _number("save_dt", save_dt, positive=True, units="s")
    if isinstance(max_points, bool) or not isinstance(max_points, numbers.Integral) and not (
            isinstance(max_points, float) and max_points.is_integer()):
        raise ParameterError(f"integrator.max_points = {max_points!r} must be a whole number >= 2")
    if not max_points >= 2:
        raise ParameterError(f"integrator.max_points = {max_points!r} must be >= 2 (the first and the last sample)")
    rtol_ = _number("rtol", rtol)
    if not 0 < rtol_ < 1:
        raise ParameterError(f"integrator.rtol = {rtol_:g} must lie in (0, 1) (e.g. 1e-8)")
    _number("atol", atol, nonneg=True)
    _number("newmark_beta", newmark_beta, nonneg=True)
    _number("newmark_gamma", newmark_gamma, nonneg=True)

    steps = t_end / dt
    saved = min(steps + 1, (t_end / save_dt + 2) if save_dt is not None else float(max_points) + 1)
    n_vars = len(getattr(system, "state_names", ())) + len(getattr(model, "state_names", ())) + 8
    need = saved * n_vars * _BYTES_PER_SAVED_VALUE
    from .base import AbstractSteppedModel

    stepped = integrator == "step" or isinstance(model, AbstractSteppedModel) or getattr(protocol, "feedback", False)
    if integrator not in ("radau", "bdf", "lsoda", "rk45", "dop853") and not stepped:
        need += steps * _BYTES_PER_STEP  # the compiled loops sample the protocol up front
    have = available_memory() if memory is None else memory
    if have is not None and need > have:
        raise ParameterError(
            f"this run needs about {format_bytes(need)} of memory ({steps:.3g} steps of dt = {dt:g} s over "
            f"t_end = {t_end:g} s, {saved:.3g} saved samples), more than the {format_bytes(have)} available; "
            "increase integrator.dt, shorten the protocol (or set integrator.t_end), or save fewer samples "
            "(integrator.save_dt)")


def check_grid_size(shape: tuple[int, ...] | list[int], limit: int = MAX_GRID_POINTS) -> int:
    """Number of points of a grid of ``shape``; ConfigError when it exceeds ``limit``."""
    size = math.prod(int(n) for n in shape)
    if size > limit:
        raise ConfigError(f"the grid has {size:.4g} points ({' x '.join(str(n) for n in shape)}), more than the "
                          f"{limit:,} a sweep may run; use fewer values per axis or split the sweep")
    return size
