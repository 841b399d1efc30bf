r"""Self-affine (fractal) rough surfaces in physical units, by Fourier filtering.

The isotropic power spectral density is Persson's standard form (Persson, Albohr, Tartaglino,
Volokitin & Tosatti, J. Phys.: Condens. Matter 17 (2005) R1, Sec. 2; Jacobs, Junge & Pastewka,
Surf. Topogr.: Metrol. Prop. 5 (2017) 013001, eq. 8):

.. math:: C(q) \propto \begin{cases} 1, & q_L \le q < q_r \\ (q/q_r)^{-2(1+H)}, & q_r \le q \le q_s \\
          0, & \text{otherwise} \end{cases}

with the Hurst exponent :math:`0 < H < 1`, angular wavenumbers :math:`q = 2\pi/\lambda` [rad/m]
(long cut-off :math:`q_L`, roll-off :math:`q_r`, short cut-off :math:`q_s`). A white Gaussian
field is filtered by :math:`\sqrt{C(q)}` and the result scaled to the requested rms height
:math:`h_\mathrm{rms}` or rms slope :math:`h'_\mathrm{rms} = \sqrt{\langle|\nabla h|^2\rangle}`
(both measured by :func:`rms_height` / :func:`rms_slope` on the returned map).

A periodic surface is one period of the filtered field; a non-periodic one is a window (the
first ``shape`` pixels) of a periodic field ``pad`` times larger in each direction, so its edges
do not match and wavelengths up to ``pad`` times the window are present (as in the peers'
non-periodic generators).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from ...core.errors import ParameterError

__all__ = ["self_affine_surface", "self_affine_psd", "rms_height", "rms_slope", "radial_psd", "BAND_RTOL"]

#: Relative tolerance of the band edges: a mode whose wavenumber equals a cut-off to this fraction
#: is in the band. It is far above the rounding of a wavenumber or of a cut-off converted to
#: pixel units (a few 1e-16) and below the relative gap between two distinct mode wavenumbers
#: of a square grid of up to 10^5 pixels a side (at least 1/m^2 = 1e-10).
BAND_RTOL = 1e-12


def _wavenumbers(nx: int, ny: int, pixel_size: float) -> NDArray[np.float64]:
    qx = 2 * np.pi * np.fft.fftfreq(nx, d=pixel_size)
    qy = 2 * np.pi * np.fft.fftfreq(ny, d=pixel_size)
    return np.hypot(qx[:, None], qy[None, :])


def _pixel_wavenumbers(nx: int, ny: int) -> NDArray[np.float64]:
    """Mode wavenumbers in cycles per pixel, :math:`\\sqrt{(k_x/n_x)^2 + (k_y/n_y)^2}` from the integer
    indices: the same numbers at every pixel size (``q = 2 pi / a`` times them)."""
    return np.hypot(np.fft.fftfreq(nx)[:, None], np.fft.fftfreq(ny)[None, :])


def self_affine_psd(q: NDArray[np.float64], hurst: float, q_long: float, q_rolloff: float,
                    q_short: float) -> NDArray[np.float64]:
    """Unnormalised :math:`C(q)`: flat on ``[q_long, q_rolloff)``, ``(q/q_rolloff)^(-2(1+H))`` up to
    ``q_short``, zero outside (module docstring). The band edges hold to the relative tolerance
    :data:`BAND_RTOL` (``q`` and the cut-offs in any one unit)."""
    q = np.asarray(q, dtype=float)
    with np.errstate(divide="ignore"):
        c = np.where(q < q_rolloff, 1.0, (q / q_rolloff) ** (-2.0 * (1.0 + hurst)))
    return np.where((q >= q_long * (1.0 - BAND_RTOL)) & (q <= q_short * (1.0 + BAND_RTOL)), c, 0.0)


def rms_height(h: NDArray[np.float64]) -> float:
    """Root mean square of the heights about their mean [m]."""
    h = np.asarray(h, dtype=float)
    return float(np.sqrt(np.mean((h - h.mean()) ** 2)))


def rms_slope(h: NDArray[np.float64], pixel_size: float, periodic: bool = True) -> float:
    r""":math:`\sqrt{\langle|\nabla h|^2\rangle}` [1]: spectral derivative for a periodic map, second-order
    finite differences (``numpy.gradient``) otherwise."""
    h = np.asarray(h, dtype=float)
    if periodic:
        H = np.fft.fft2(h - h.mean())
        q = _wavenumbers(*h.shape, pixel_size)
        return float(np.sqrt(np.sum(q**2 * np.abs(H) ** 2)) / h.size)
    gx, gy = np.gradient(h, pixel_size)
    return float(np.sqrt(np.mean(gx**2 + gy**2)))


def radial_psd(h: NDArray[np.float64], pixel_size: float, nbins: int = 40) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    r"""Radially averaged periodogram :math:`C(q) = |\hat h(q)|^2 a^2/(N_x N_y)` in log-spaced bins.

    Returns ``(q, C)`` [rad/m, m^4], empty bins dropped (a periodic map: no window applied)."""
    h = np.asarray(h, dtype=float)
    S = np.abs(np.fft.fft2(h - h.mean())) ** 2 * pixel_size**2 / h.size
    q = _wavenumbers(*h.shape, pixel_size)
    qmin = 2 * np.pi / (max(h.shape) * pixel_size)
    edges = np.geomspace(qmin * 0.999, q.max() * 1.001, nbins + 1)
    idx = np.digitize(q.ravel(), edges) - 1
    ok = (idx >= 0) & (idx < nbins) & (q.ravel() > 0)
    sums = np.bincount(idx[ok], weights=S.ravel()[ok], minlength=nbins)
    counts = np.bincount(idx[ok], minlength=nbins)
    qs = np.bincount(idx[ok], weights=q.ravel()[ok], minlength=nbins)
    keep = counts > 0
    return qs[keep] / counts[keep], sums[keep] / counts[keep]


def self_affine_surface(shape: int | tuple[int, int], pixel_size: float, *, hurst: float,
                        rms_height: float | None = None, rms_slope: float | None = None,
                        q_rolloff: float | None = None, q_short: float | None = None, q_long: float | None = None,
                        seed: int | None = None, periodic: bool = True, pad: int = 4) -> NDArray[np.float64]:
    r"""Random self-affine height map [m] with Persson's PSD (module docstring).

    Parameters
    ----------
    shape : int or (int, int)
        Pixels ``(nx, ny)``.
    pixel_size : float
        Pixel spacing :math:`a` [m]; the map covers ``nx*a x ny*a``.
    hurst : float
        Hurst exponent :math:`H` in (0, 1); the PSD falls as :math:`q^{-2(1+H)}`.
    rms_height, rms_slope : float
        Give exactly one: rms height [m] or rms slope :math:`\sqrt{\langle|\nabla h|^2\rangle}` [1].
    q_rolloff, q_short, q_long : float, optional
        Roll-off, short and long cut-off angular wavenumbers [rad/m]. Defaults: ``q_long`` the
        fundamental :math:`2\pi/L` of the generated field, ``q_rolloff = q_long`` (no plateau),
        ``q_short`` the Nyquist wavenumber :math:`\pi/a`. Need ``q_long <= q_rolloff <= q_short <= pi/a``.
        The band is the set of modes with ``q_long <= q <= q_short`` to a relative
        :data:`BAND_RTOL`, compared in cycles per pixel (``q a / 2 pi``, from the integer mode
        indices): the fundamental, every mode on the Nyquist circle and any mode a cut-off
        names exactly are kept, and the same request and seed give the same map in pixel
        units (heights / ``a``) at every pixel size.
    seed : int, optional
        Seed of ``numpy.random.default_rng``.
    periodic : bool
        Periodic map (default) or a window of a ``pad`` times larger periodic field.
    pad : int
        Enlargement of the generated field for non-periodic maps (>= 2).
    """
    nx, ny = (int(shape), int(shape)) if np.isscalar(shape) else (int(shape[0]), int(shape[1]))
    if nx < 2 or ny < 2:
        raise ParameterError(f"surface shape ({nx}, {ny}) needs at least 2 x 2 pixels")
    if not (math.isfinite(pixel_size) and pixel_size > 0):
        raise ParameterError(f"pixel_size = {pixel_size!r} m must be positive")
    if not (0.0 < hurst < 1.0):
        raise ParameterError(f"hurst = {hurst!r} must lie in (0, 1)")
    if (rms_height is None) == (rms_slope is None):
        raise ParameterError("give exactly one of rms_height [m] and rms_slope [1]")
    target = rms_height if rms_height is not None else rms_slope
    if not (math.isfinite(target) and target > 0):
        raise ParameterError(f"{'rms_height' if rms_height is not None else 'rms_slope'} = {target!r} must be positive")
    if not periodic and int(pad) < 2:
        raise ParameterError(f"pad = {pad!r} must be >= 2 for a non-periodic surface")
    mx, my = (nx, ny) if periodic else (nx * int(pad), ny * int(pad))
    # the band in cycles per pixel (q a / 2 pi): defaults exact, given cut-offs converted once
    to_px = pixel_size / (2 * math.pi)
    f_fund = 1.0 / max(mx, my)
    fl = f_fund if q_long is None else float(q_long) * to_px
    fr = fl if q_rolloff is None else float(q_rolloff) * to_px
    fs = 0.5 if q_short is None else float(q_short) * to_px
    if not (0 < fl <= fr * (1 + BAND_RTOL) and fr <= fs * (1 + BAND_RTOL) and fs <= 0.5 * (1 + BAND_RTOL)):
        raise ParameterError(f"need 0 < q_long ({fl / to_px:.4g}) <= q_rolloff ({fr / to_px:.4g}) <= q_short "
                             f"({fs / to_px:.4g}) <= pi/pixel_size ({0.5 / to_px:.4g}) [rad/m]")
    if fl < f_fund * (1 - BAND_RTOL) and periodic:
        raise ParameterError(f"q_long = {fl / to_px:.4g} rad/m is below the map's fundamental 2 pi/L = "
                             f"{f_fund / to_px:.4g}; enlarge the map or use periodic=False")
    rng = np.random.default_rng(seed)
    filt = np.sqrt(self_affine_psd(_pixel_wavenumbers(mx, my), hurst, fl, fr, fs))
    if not np.any(filt > 0):
        raise ParameterError("no Fourier mode lies between q_long and q_short on this grid; widen the band")
    h = np.fft.ifft2(np.fft.fft2(rng.standard_normal((mx, my))) * filt).real[:nx, :ny]
    h = h - h.mean()
    measured = _rms_height(h) if rms_height is not None else _rms_slope(h, pixel_size, periodic)
    return h * (target / measured)


_rms_height, _rms_slope = rms_height, rms_slope
