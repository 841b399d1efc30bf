r"""What one friction record does at a protocol's velocity changes and holds (any model).

Measured on the record itself (no model-specific code):

* :func:`step_response` at the first change between two sliding velocities: the jump of
  :math:`\mu` across it (``direct_effect``; the change over the sample interval that ends at
  the step, less the change over the interval before it, which removes the drift of a state
  still relaxing), the largest rise over the first 5 % of the new
  segment (``peak_after_step``), :math:`\mu` at the end of that segment
  (``steady_after_step``) and :math:`\mu` just before the step or the first hold
  (``mu_reference``);
* :func:`hold_peaks` for every hold: peak :math:`\mu` on reslide (first half of the next
  slide) minus :math:`\mu` just before the hold (the healing of Marone 1998, Fig. 6);
* :func:`interp_segments` interpolates a record onto another time grid without straddling a
  protocol jump.

The protocol is queried only through ``segments()`` and ``breakpoints``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import xarray as xr
from numpy.typing import NDArray

__all__ = ["first_velocity_change", "hold_windows", "step_response", "hold_peaks", "interp_segments", "time_grid"]


def first_velocity_change(protocol: Any) -> tuple[float, float, float, float] | None:
    """``(t_step, v_before, v_after, t_next)`` [s, m/s, m/s, s] of the first change between two
    sliding segments of constant velocity (``t_next``: end of the new segment), or None."""
    segs = protocol.segments()
    if any(s.velocity is None for s in segs):
        return None
    for a, b in zip(segs[:-1], segs[1:]):
        v0, v1 = abs(a.velocity), abs(b.velocity)
        if v0 > 0 and v1 > 0 and v0 != v1:
            return float(b.t_start), v0, v1, float(b.t_end)
    return None


def hold_windows(protocol: Any) -> list[tuple[float, float, float]]:
    """``(start, end, next_slide)`` [s] of every hold segment: its times and the duration of the
    segment that follows it (the hold's own duration when it ends the programme)."""
    segs = protocol.segments()
    out = []
    for k, s in enumerate(segs):
        if s.kind == "hold":
            nxt = segs[k + 1].duration if k + 1 < len(segs) else s.duration
            out.append((s.t_start, s.t_end, nxt))
    return out


def _before(t: NDArray[np.float64], t0: float) -> NDArray[np.bool_]:
    return t < t0 - 1e-9 * max(1.0, t0)


def step_response(ds: xr.Dataset, protocol: Any) -> dict[str, Any]:
    """``direct_effect``, ``peak_after_step``, ``steady_after_step``, ``mu_reference`` [1] and the
    indices ``i_before``/``i_step`` of the samples around the first velocity change (module docstring)."""
    out: dict[str, Any] = {}
    t = ds.time.values
    mu = ds.friction_coefficient.values
    ch = first_velocity_change(protocol)
    if ch is not None:
        t_step, _, _, t_next = ch
        i1 = int(np.searchsorted(t, t_step - 1e-9 * max(1.0, t_step)))
        i0 = i1 - 1
        if 0 <= i0 and i1 < t.size:
            # minus the drift over the previous interval (the state still relaxing before the step)
            drift = float(mu[i0] - mu[i0 - 1]) if i0 >= 1 and np.isclose(t[i1] - t[i0], t[i0] - t[i0 - 1]) else 0.0
            out.update(i_before=i0, i_step=i1, direct_effect=float(mu[i1] - mu[i0]) - drift)
            win = (t >= t[i1]) & (t <= t_step + 0.05 * (t_next - t_step))
            out["peak_after_step"] = float(np.max(mu[win]) - mu[i0])
        i_end = int(np.searchsorted(t, t_next - 1e-9 * max(1.0, t_next))) - 1
        out["steady_after_step"] = float(mu[max(i_end, 0)])
    windows = hold_windows(protocol)
    t_ref = windows[0][0] if windows else (ch[0] if ch is not None else None)
    if t_ref is not None and _before(t, t_ref).any():
        out["mu_reference"] = float(mu[_before(t, t_ref)][-1])
    return out


def hold_peaks(ds: xr.Dataset, protocol: Any) -> list[float]:
    """Reslide peak minus the friction just before each hold [1] (NaN where unmeasurable)."""
    t = ds.time.values
    mu = ds.friction_coefficient.values
    peaks = []
    for h0, h1, slide in hold_windows(protocol):
        before = _before(t, h0)
        after = (t >= h1 - 1e-9 * max(1.0, h1)) & (t <= h1 + 0.5 * slide)
        peaks.append(float(np.max(mu[after]) - mu[before][-1]) if before.any() and after.any() else math.nan)
    return peaks


def interp_segments(grid: NDArray[np.float64], t: NDArray[np.float64], y: NDArray[np.float64],
                    edges: NDArray[np.float64]) -> NDArray[np.float64]:
    """Linear interpolation that never straddles a protocol jump: each segment
    ``[e_k, e_{k+1})`` of the grid is interpolated from the samples of the same segment only
    (a sample on an edge belongs to the new segment, as in the protocols)."""
    out = np.interp(grid, t, y, left=np.nan, right=np.nan)
    tol = 1e-9 * max(1.0, float(abs(edges[-1])))
    for k in range(edges.size - 1):
        lo, hi = edges[k] - tol, (edges[k + 1] - tol if k < edges.size - 2 else np.inf)
        src = (t >= lo) & (t < hi)
        dst = (grid >= lo) & (grid < hi) & (grid <= t[-1] + tol)
        if src.sum() >= 1 and dst.any():
            out[dst] = np.interp(grid[dst], t[src], y[src])
    return out


def time_grid(protocol: Any, n: int) -> NDArray[np.float64]:
    """``n`` uniform times over the protocol plus its breakpoints [s]."""
    g = np.linspace(0.0, float(protocol.duration), n)
    return np.unique(np.concatenate([g, np.asarray(protocol.breakpoints, dtype=float)]))
