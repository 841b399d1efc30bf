"""Steady-state extraction from a time series."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from ..core.errors import DataError

if TYPE_CHECKING:
    import xarray as xr

__all__ = ["SteadyState", "steady_state"]


@dataclass(frozen=True)
class SteadyState:
    """Result of :func:`steady_state`.

    Attributes
    ----------
    value : float
        Steady value: mean of the final ``tail`` fraction of the series [units of y].
    time : float
        Settling time: the earliest time after which the series stays within ``tol`` of
        ``value`` [s]; ``nan`` when it never settles.
    tol : float
        Band half-width used [units of y].
    settled : bool
        True when the final ``tail`` fraction itself lies inside the band (the series has
        reached a steady state by the end).
    spread : float
        Peak-to-peak variation over the final ``tail`` fraction [units of y].
    """

    value: float
    time: float
    tol: float
    settled: bool
    spread: float


def steady_state(
    t: ArrayLike | xr.DataArray,
    y: ArrayLike | None = None,
    *,
    rtol: float = 1e-3,
    atol: float = 0.0,
    tail: float = 0.05,
) -> SteadyState:
    r"""Detect when ``y(t)`` settles and return the steady value and the settling time.

    The steady value :math:`\bar y` is the mean over the final ``tail`` fraction of the
    samples; the band is :math:`|y - \bar y| \le \max(\mathrm{atol}, \mathrm{rtol}|\bar y|)`
    and the settling time is the first time after which every later sample is inside it.

    Parameters
    ----------
    t : array or xarray.DataArray
        Times [s]; if a DataArray with a ``time`` coordinate is given and ``y`` is None, the
        DataArray is the series.
    y : array
        Values (any units).
    rtol, atol : float
        Relative and absolute half-width of the settling band.
    tail : float
        Fraction (0, 0.5] of the series used for the final value.

    Returns
    -------
    SteadyState

    Examples
    --------
    >>> import numpy as np
    >>> t = np.linspace(0, 10, 1001)
    >>> r = steady_state(t, 2 - np.exp(-t), rtol=1e-3)
    >>> round(r.value, 3), round(r.time, 1)
    (2.0, 6.2)
    """
    if y is None:
        import xarray as xr

        if not isinstance(t, xr.DataArray):
            raise DataError("steady_state needs (t, y) arrays or one DataArray with a 'time' coordinate")
        y = t.values
        t = t["time"].values
    t = np.asarray(t, dtype=float)
    y = np.asarray(y, dtype=float)
    if t.shape != y.shape or t.ndim != 1 or t.size < 4:
        raise DataError(f"steady_state needs two 1-D series of equal length >= 4, got shapes {t.shape} and {y.shape}")
    if not (0.0 < tail <= 0.5):
        raise DataError(f"steady_state tail = {tail!r} must be in (0, 0.5]")
    if not np.all(np.isfinite(y)):
        raise DataError("steady_state: the series contains non-finite values")
    n_tail = max(2, int(round(tail * y.size)))
    last = y[-n_tail:]
    value = float(np.mean(last))
    tol = max(float(atol), float(rtol) * abs(value))
    outside = np.nonzero(np.abs(y - value) > tol)[0]
    if outside.size == 0:
        time = float(t[0])
    elif outside[-1] == y.size - 1:
        time = float("nan")
    else:
        time = float(t[outside[-1] + 1])
    settled = bool(np.all(np.abs(last - value) <= tol))
    return SteadyState(value=value, time=time, tol=tol, settled=settled, spread=float(np.ptp(last)))
