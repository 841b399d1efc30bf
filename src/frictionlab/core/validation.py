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

__all__ = ["check_run_settings", "check_grid_size", "available_memory", "format_bytes", "MAX_GRID_POINTS",
           "total_memory", "memory_limit", "check_memory", "check_count", "parse_bytes", "MEMORY_SHARE"]

#: share of the machine's physical memory a run may plan to use when the user sets no limit: the
#: estimates are rough, and the machine runs other processes (sweep workers, the user's own)
MEMORY_SHARE = 0.5
#: bytes per sample of a scenario's sampled curve (the abscissa, the model's outputs and derived
#: arrays, about 16 float64 arrays of the curve's length)
CURVE_BYTES_PER_SAMPLE = 8 * 16
#: the environment variable of the user's memory limit (``frictionlab --max-memory`` sets it)
MEMORY_ENV = "FRICTIONLAB_MAX_MEMORY"

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


def total_memory() -> int | None:
    """Bytes of physical memory of this machine, or of this process's cgroup when that is less;
    None when unknown."""
    total: int | None = None
    try:  # the kernel's count (on Linux the MemTotal psutil reads), without importing psutil (~10 ms)
        total = int(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):  # no sysconf names (Windows): ask psutil
        try:
            import psutil

            total = int(psutil.virtual_memory().total)
        except Exception:  # psutil missing or unsupported platform
            total = None
    total = total if total and total > 0 else None
    try:  # a container's limit (cgroup v2), when one is set
        with open("/sys/fs/cgroup/memory.max", encoding="ascii") as fh:
            text = fh.read().strip()
        if text.isdigit():
            total = min(total, int(text)) if total else int(text)
    except OSError:
        pass
    return total


_UNITS = {"": 1, "k": 2 ** 10, "m": 2 ** 20, "g": 2 ** 30, "t": 2 ** 40}


def parse_bytes(text: str, what: str = MEMORY_ENV) -> int:
    """``'8G'``, ``'512 MiB'``, ``'1.5e9'`` -> bytes (K, M, G, T are powers of 1024; a trailing B or iB
    is allowed); :class:`ConfigError` for anything else or a size <= 0."""
    import re

    m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*([kKmMgGtT]?)(?:i?[bB])?\s*", str(text))
    if not m:
        raise ConfigError(f"{what} = {str(text)[:40]!r}: give a size such as 8G, 512M or 2000000000 (bytes)")
    n = float(m.group(1)) * _UNITS[m.group(2).lower()]
    if not math.isfinite(n) or n < 1:
        raise ConfigError(f"{what} = {str(text)[:40]!r}: the size must be at least one byte")
    return int(min(n, 2.0 ** 62))


def memory_limit() -> tuple[int | None, str]:
    """``(bytes, what they are)``: the most memory a run may plan to use: the user's limit
    (``$FRICTIONLAB_MAX_MEMORY``, ``frictionlab --max-memory``) when set, never more than the machine
    has; else :data:`MEMORY_SHARE` of the machine's total. Not the memory free at this moment, which
    depends on what else runs and would accept a run that another process then pushes into swap."""
    total = total_memory()
    user = os.environ.get(MEMORY_ENV, "").strip()
    if user:
        n = parse_bytes(user)
        if total is not None and n > total:
            return total, f"the {format_bytes(total)} this machine has ({MEMORY_ENV} = {user} is more)"
        return n, f"the {format_bytes(n)} allowed ({MEMORY_ENV} = {user})"
    if total is None:
        return None, ""
    return int(total * MEMORY_SHARE), (f"the {format_bytes(total * MEMORY_SHARE)} a run may use ({MEMORY_SHARE:g} of "
                                        f"this machine's {format_bytes(total)}; --max-memory sets another limit)")


def check_memory(need: float, what: str, hint: str, memory: int | None = None) -> None:
    """Refuse a run of ``what`` that needs about ``need`` bytes, beyond :func:`memory_limit` (or
    ``memory`` bytes when given), with :class:`ParameterError` ending in ``hint`` (what to change)."""
    if memory is not None:
        limit, where = memory, f"the {format_bytes(memory)} available"
    else:
        limit, where = memory_limit()
    if limit is not None and need > limit:
        raise ParameterError(f"{what} needs about {format_bytes(need)} of memory, more than {where}; {hint}")


def check_count(name: str, value: Any, *, minimum: int = 1, maximum: int | None = None, bytes_each: float = 0.0) -> int:
    """A count from a configuration (samples of a curve, points of a sweep): a whole number in
    ``[minimum, maximum]`` whose arrays (``bytes_each`` per unit) fit :func:`memory_limit`.

    Raises
    ------
    ParameterError
        not a whole number, out of range, or too large for the memory."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) and not (
            isinstance(value, float) and math.isfinite(value) and value.is_integer()):
        raise ParameterError(f"{name} = {str(value)[:40]} must be a whole number")
    n = int(value)
    shown = str(n) if abs(n) < 10 ** 15 else f"{str(n)[:4]}...({len(str(abs(n)))} digits)"
    if n < minimum:
        raise ParameterError(f"{name} = {shown} must be >= {minimum}")
    if maximum is not None and n > maximum:
        raise ParameterError(f"{name} = {shown} is more than the {maximum:,} allowed")
    if bytes_each:
        check_memory(float(n) * bytes_each if n < 10 ** 300 else math.inf, f"{name} = {shown}", f"use a smaller {name}")
    return n


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
    a run that needs more than :func:`memory_limit` allows (``memory`` bytes when given).

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
    check_memory(need, f"this run ({steps:.3g} steps of dt = {dt:g} s over t_end = {t_end:g} s, {saved:.3g} saved "
                       "samples)", "increase integrator.dt, shorten the protocol (or set integrator.t_end), or save "
                       "fewer samples (integrator.save_dt)", memory=memory)


def check_grid_size(shape: tuple[int, ...] | list[int], limit: int = MAX_GRID_POINTS) -> int:
    """Number of points of a grid of ``shape``; ConfigError when it exceeds ``limit``."""
    size = math.prod(int(n) for n in shape)
    if size > limit:
        raise ConfigError(f"the grid has {size:.4g} points ({' x '.join(str(n) for n in shape)}), more than the "
                          f"{limit:,} a sweep may run; use fewer values per axis or split the sweep")
    return size
