"""Stick-slip event detection and metrics from a friction-force or velocity series."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from ..core.errors import DataError

if TYPE_CHECKING:
    import xarray as xr

__all__ = ["StickSlip", "stick_slip"]


@dataclass(frozen=True)
class StickSlip:
    """Stick-slip metrics (see :func:`stick_slip`).

    Attributes
    ----------
    stick_slip : bool
        True when at least ``min_events`` force peaks were found (otherwise: smooth sliding).
    n_events : int
        Number of slip events (force peaks) in the analysed window.
    peak_times : numpy.ndarray
        Times of the force peaks (slip onsets) [s].
    trough_times : numpy.ndarray
        Times of the force minima (stick onsets) between consecutive peaks, one per
        cycle (``n_events - 1`` entries) [s].
    amplitude : float
        Mean peak-to-trough force drop [units of the series].
    period : float
        Stick-slip period t_ss, the mean spacing between peaks [s].
    t_stick : float
        Mean time from a force minimum (stick start) to the next peak [s].
    kappa : float
        t_stick / t_ss [1].
    """

    stick_slip: bool
    n_events: int
    peak_times: np.ndarray
    trough_times: np.ndarray
    amplitude: float
    period: float
    t_stick: float
    kappa: float

    @property
    def t_ss(self) -> float:
        """Alias of :attr:`period`."""
        return self.period

    @property
    def frequency(self) -> float:
        return 1.0 / self.period if self.period > 0 else float("nan")

    def to_dataset(self) -> xr.Dataset:
        """Metrics as an xarray Dataset (peak times on ``event``, stick onsets on ``cycle``)."""
        import xarray as xr

        d = asdict(self)
        ds = xr.Dataset(
            {
                "peak_times": ("event", np.asarray(self.peak_times, dtype=float), {"units": "s"}),
                "trough_times": ("cycle", np.asarray(self.trough_times, dtype=float), {"units": "s"}),
                "amplitude": ((), self.amplitude),
                "period": ((), self.period, {"units": "s"}),
                "t_stick": ((), self.t_stick, {"units": "s"}),
                "kappa": ((), self.kappa, {"units": "1"}),
            },
            attrs={"stick_slip": str(d["stick_slip"]), "n_events": int(d["n_events"])},
        )
        return ds


def stick_slip(
    t: ArrayLike | xr.DataArray,
    force: ArrayLike | None = None,
    *,
    window: float = 0.4,
    prominence: float = 0.02,
    min_events: int = 3,
    velocity: ArrayLike | None = None,
    v_stick: float | None = None,
    relative_prominence: float = 0.0,
) -> StickSlip:
    r"""Detect stick-slip events in a friction (or spring) force series.

    The last ``window`` fraction of the series is analysed. Peaks are force maxima with a
    prominence above ``prominence`` times the mean absolute force (default 2 %); each peak
    is a slip onset and the minimum between two peaks is a stick onset. Then

    .. math::
        t_{ss} = \overline{\Delta t_{peak}},\quad
        t_{stick} = \overline{t_{peak} - t_{min}},\quad \kappa = t_{stick}/t_{ss},

    and the amplitude is the mean peak-to-trough drop. Fewer than ``min_events`` peaks
    means smooth sliding (the metrics are then ``nan``). This follows the detection rule of
    the beam-network spec (section 3.7 and "stick-slip detection").

    If ``velocity`` and ``v_stick`` are given, stick onsets are taken instead as the first
    sample in each inter-peak interval where ``|velocity| < v_stick`` (the slider is stuck),
    which suits series whose force keeps falling after the slider stops.

    Parameters
    ----------
    t : array or DataArray
        Times [s] (or a DataArray of the force with a ``time`` coordinate, ``force=None``).
    force : array
        Force (or stress, or friction coefficient) series.
    window : float
        Fraction (0, 1] of the series, at its end, that is analysed.
    prominence : float
        Minimum peak prominence relative to the mean absolute force in the window.
    min_events : int
        Minimum number of peaks for stick-slip.
    velocity, v_stick : array, float
        Optional slider velocity [m/s] and stick threshold [m/s].
    relative_prominence : float
        Keep only peaks whose prominence is at least this fraction [0, 1] of the largest
        peak prominence in the window (0: all). The friction of a law with a Stribeck curve
        (static, LuGre, GMS) on a spring-slider rises again as the slider slows at the end of
        a slip, a second, less prominent peak per cycle (about half the breakaway drop on the
        classic settings); 0.75 counts breakaways only. The spring force has no such peak.

    Returns
    -------
    StickSlip
    """
    if force is None:
        import xarray as xr

        if not isinstance(t, xr.DataArray):
            raise DataError("stick_slip needs (t, force) arrays or one DataArray with a 'time' coordinate")
        force = t.values
        t = t["time"].values
    t = np.asarray(t, dtype=float)
    f = np.asarray(force, dtype=float)
    if t.shape != f.shape or t.ndim != 1 or t.size < 8:
        raise DataError(f"stick_slip needs two 1-D series of equal length >= 8, got {t.shape} and {f.shape}")
    if not np.all(np.isfinite(f)):
        raise DataError("stick_slip: the force series contains non-finite values")
    if not (0.0 < window <= 1.0):
        raise DataError(f"stick_slip window = {window!r} must be in (0, 1]")
    i0 = int(np.floor((1.0 - window) * t.size))
    tw, fw = t[i0:], f[i0:]
    vw = None if velocity is None else np.asarray(velocity, dtype=float)[i0:]
    scale = float(np.mean(np.abs(fw)))
    if scale == 0.0:
        scale = 1.0
    from scipy.signal import find_peaks

    peaks, props = find_peaks(fw, prominence=prominence * scale)
    if not (0.0 <= relative_prominence <= 1.0):
        raise DataError(f"stick_slip relative_prominence = {relative_prominence!r} must be in [0, 1]")
    if relative_prominence > 0.0 and peaks.size:
        prom = props["prominences"]
        peaks = peaks[prom >= relative_prominence * prom.max()]
    nan = float("nan")
    empty = np.array([], dtype=float)
    if peaks.size < min_events:
        return StickSlip(False, int(peaks.size), tw[peaks], empty, nan, nan, nan, nan)
    troughs = []
    for a, b in zip(peaks[:-1], peaks[1:]):
        seg = slice(a, b + 1)
        if vw is not None and v_stick is not None:
            vs = np.abs(vw[seg])
            moving = np.nonzero(vs >= v_stick)[0]
            stuck = np.nonzero(vs < v_stick)[0]
            if moving.size:
                stuck = stuck[stuck > moving[0]]  # the first stop after the slip that starts at the peak
            troughs.append(a + (int(stuck[0]) if stuck.size else int(np.argmin(fw[seg]))))
        else:
            troughs.append(a + int(np.argmin(fw[seg])))
    tr = np.asarray(troughs)
    pk = peaks[1:]
    period = float(np.mean(np.diff(tw[peaks])))
    t_stick = float(np.mean(tw[pk] - tw[tr]))
    amplitude = float(np.mean(fw[pk] - np.array([fw[a:b + 1].min() for a, b in zip(peaks[:-1], peaks[1:])])))
    return StickSlip(True, int(peaks.size), tw[peaks], tw[tr], amplitude, period, t_stick, t_stick / period)
