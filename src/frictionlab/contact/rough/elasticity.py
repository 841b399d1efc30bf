r"""Elastic interaction operators of the asperity ensemble (Hulikal, Lapusta & Bhattacharya).

Non-dimensional form (paper eq. 8, elastic part): the length change of element ``i`` is

.. math:: u_i = \sum_j K_{ij} F_j,\qquad K_{ii} = \kappa_0/\bar\Delta,\quad K_{ij} = 1/\bar r_{ij},

with the paper's self coefficient :math:`\kappa_0 = 3.8` (uniform load on a
:math:`\Delta\times\Delta` square, Love's solution). On a regular grid :math:`K` is a
Toeplitz (convolution) operator, so the finite, non-periodic sum is evaluated *exactly* by a
zero-padded FFT on a :math:`2n_x\times 2n_y` grid (no multipole truncation, unlike the paper's order-5 FMM of Sect. 2.5.1).

Operators here act on a force field ``x`` (shape ``(nx, ny)``) and return the displacement
field ``K x``. They are symmetric positive definite, which the constrained conjugate-gradient
solver relies on.

* :class:`BoussinesqFFT` -- the paper's kernel, finite patch (``periodic=False``, default) or
  a periodic patch (``periodic=True``) using the continuum periodic half-space Green's function
  :math:`\hat u(\mathbf q) = 2\pi\hat F(\mathbf q)/(\bar\Delta^2|\mathbf q|)` (the set-up of
  tamaas / contactmechanics; the mean mode is a rigid shift absorbed by the dilatation).
* :class:`MeanField` -- no interaction, :math:`K = \bar C^0 I` (paper eq. 5).
* :class:`StepOperator` -- :math:`M = cK + \mathrm{diag}(D)` used for one time step.

References
----------
S. Hulikal, N. Lapusta, K. Bhattacharya, "Static and sliding contact of rough surfaces:
effect of asperity-scale properties and long-range elastic interactions", eqs. (7)-(8).
"""

from __future__ import annotations

import math
import os
from typing import Any

import numpy as np

from ...core.errors import ParameterError
from ...core.lazy import lazy_njit
from ...core.threads import thread_limit
from .backend import Backend, get_backend

__all__ = ["BoussinesqFFT", "MeanField", "StepOperator", "SQUARE_SELF_COEF", "boussinesq_kernel",
           "brute_force_apply", "patch_kernel_values"]

#: exact displacement at the centre of a uniformly loaded square, 4 ln(1 + sqrt 2) (Love's solution; the paper's eq. 7 prints 3.8)
SQUARE_SELF_COEF = 4.0 * math.log1p(math.sqrt(2.0))


def _self_coef(value: float | str) -> float:
    if isinstance(value, str):
        if value in ("square", "exact"):
            return SQUARE_SELF_COEF
        raise ParameterError(f"self_coef = {value!r} must be a positive number or 'square'")
    v = float(value)
    if not math.isfinite(v) or v <= 0:
        raise ParameterError(f"self_coef = {v!r} must be a positive number (paper: 3.8) or 'square'")
    return v


def _patch_primitive(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Primitive F with d2F/dxdy = 1/sqrt(x^2+y^2), up to terms in x or y alone."""
    ax, ay = np.abs(x), np.abs(y)
    with np.errstate(divide="ignore", invalid="ignore"):
        f1 = np.where(ax > 0, x * np.arcsinh(y / np.where(ax > 0, ax, 1.0)), 0.0)
        f2 = np.where(ay > 0, y * np.arcsinh(x / np.where(ay > 0, ay, 1.0)), 0.0)
    return f1 + f2


def patch_kernel_values(a: np.ndarray, b: np.ndarray, dx: float = 1.0) -> np.ndarray:
    r"""Exact uniform-square response (Love): displacement at offset ``(a, b)`` elements from a unit
    force spread over a ``dx x dx`` square, :math:`\frac{1}{\Delta^2}\iint 1/r\,dA`."""
    x1, x2, y1, y2 = a - 0.5, a + 0.5, b - 0.5, b + 0.5
    return (_patch_primitive(x2, y2) - _patch_primitive(x1, y2) - _patch_primitive(x2, y1)
            + _patch_primitive(x1, y1)) / dx


def boussinesq_kernel(nx: int, ny: int, dx: float = 1.0, self_coef: float | str = 3.8,
                      kernel: str = "point") -> np.ndarray:
    r"""Wrap-around kernel :math:`\tilde\kappa` of shape ``(2nx, 2ny)`` (eq. 8 on a zero-padded grid).

    ``kernel="point"`` (paper): ``kappa[a mod 2nx, b mod 2ny] = 1/(dx sqrt(a^2+b^2))`` for
    ``|a| < nx, |b| < ny`` and ``kappa[0, 0] = self_coef/dx``. ``kernel="patch"``: the exact
    uniform-square response for every offset (self term 4 ln(1+sqrt 2), ``self_coef`` ignored;
    the pixel model of contactmechanics' free-boundary half space). Row ``nx`` and column ``ny``
    are zero (never used).
    """
    a = np.fft.fftfreq(2 * nx, 1.0 / (2 * nx))  # 0..nx-1, -nx..-1
    b = np.fft.fftfreq(2 * ny, 1.0 / (2 * ny))
    if kernel == "patch":
        k = patch_kernel_values(a[:, None], b[None, :], dx)
    elif kernel == "point":
        r = np.hypot(a[:, None], b[None, :])
        with np.errstate(divide="ignore"):
            k = 1.0 / (dx * r)
        k[0, 0] = _self_coef(self_coef) / dx
    else:
        raise ParameterError(f"kernel = {kernel!r} is not one of ['point', 'patch']")
    k[nx, :] = 0.0
    k[:, ny] = 0.0
    return k


def brute_force_apply(x: np.ndarray, dx: float = 1.0, self_coef: float | str = 3.8) -> np.ndarray:
    """Direct O(N^2) evaluation of ``K x`` (reference for tests; small grids only)."""
    nx, ny = x.shape
    ii, jj = np.meshgrid(np.arange(nx), np.arange(ny), indexing="ij")
    xi, yi = ii.ravel().astype(float), jj.ravel().astype(float)
    r = np.hypot(xi[:, None] - xi[None, :], yi[:, None] - yi[None, :]) * dx
    with np.errstate(divide="ignore"):
        k = 1.0 / r
    np.fill_diagonal(k, _self_coef(self_coef) / dx)
    return (k @ x.ravel()).reshape(nx, ny)


#: FFT precisions: (real, complex) dtypes of the transform buffers
_FFT_PRECISIONS = {"double": (np.float64, np.complex128), "single": (np.float32, np.complex64)}

#: transform-grid size (points) from which "auto" uses more than one FFT thread. Measured
#: (issue 17) after the one-thread product moved to the transposed half spectrum (numpy.fft,
#: no allocation; 1.3x faster at 512^2) against two scipy.fft threads, min of repeated products,
#: shared 2-core machine at load ~4: padded 512^2 12.8 vs 16.1 ms, 1024^2 67 vs 88 ms, 2048^2
#: 352 vs 474 ms; periodic 1024^2 19-23 vs 20-49 ms, 2048^2 113 vs 138-176 ms -- one thread
#: at every measured size, so "auto" takes two only beyond them (padded 2048^2 = 2^24 points;
#: the crossover 2^25 is a padded 2896^2 or a periodic 5792^2 product).
#: Earlier (strided one-thread product) two threads gained 7-16 % from 2^20 points on an idle
#: machine. Runs in parallel over seeds/velocities want one thread each.
FFT_THREAD_CROSSOVER = 1 << 25


def resolve_fft_workers(workers: int | str, n_points: int) -> int:
    """FFT threads for a transform grid of ``n_points`` points.

    ``"auto"``: 1 below :data:`FFT_THREAD_CROSSOVER` transform points; from it the thread
    budget ``$FRICTIONLAB_THREADS`` (``frictionlab --threads``; :mod:`frictionlab.core.threads`)
    or 2 when unset, capped by the cores. ``-1``: all cores. A positive integer: as given.
    """
    ncpu = os.cpu_count() or 1
    if workers == "auto":
        if n_points < FFT_THREAD_CROSSOVER:
            return 1
        return max(1, min(thread_limit() or 2, ncpu))
    if isinstance(workers, bool) or not isinstance(workers, (int, np.integer)):
        raise ParameterError(f"fft workers = {workers!r} must be 'auto', -1 or a positive integer")
    if workers == -1:
        return ncpu
    if workers < 1:
        raise ParameterError(f"fft workers = {workers!r} must be 'auto', -1 or a positive integer")
    return int(workers)


def _sparse_limit(n_transform: int, n_field: int) -> int:
    """Break-even number of elements for :meth:`BoussinesqFFT.add_sparse` versus one FFT product.

    One product costs about ``5 n_t log2(n_t)`` flops-equivalent for the four half-spectrum
    transforms; one direct column costs ``n_field`` fused multiply-adds (~2x faster per element
    than FFT flops). Half the break-even is taken so that a correction is never the slower path.
    """
    return max(4, int(0.5 * 5.0 * n_transform * math.log2(max(n_transform, 2)) / (2.0 * n_field)))


class BoussinesqFFT:
    r"""Boussinesq interaction :math:`K` as an exact FFT convolution (eq. 8).

    Parameters
    ----------
    nx, ny : int
        Grid size (elements).
    dx : float
        Element spacing :math:`\bar\Delta` [L*].
    self_coef : float or "square"
        Self term coefficient (paper 3.8; ``"square"`` = :math:`4\ln(1+\sqrt2)=3.5255`).
    periodic : bool
        False: finite patch, zero-padded (paper). True: periodic patch, continuum spectral
        kernel :math:`2\pi/(\bar\Delta^2|q|)`, zero mean mode.
    backend : str or Backend
        ``"numpy"`` (numpy.fft at one thread, scipy.fft threaded), ``"cupy"`` or ``"torch"``.
    dtype : numpy dtype
        float64 (default) or float32 (GPU; use a solver tolerance >= 1e-6).
    kernel : {"point", "patch"}
        Paper's point-force kernel with regularised self term (default) or the exact
        uniform-square (Love) response at every offset (finite patch only).

    Notes
    -----
    The non-periodic product uses a split transform: a real FFT along ``y`` of only the ``nx``
    non-zero rows, then a complex FFT along ``x`` of the padded columns; the inverse keeps only
    the first ``nx`` rows before the last real transform. This skips the all-zero quarter of the
    padded array and costs about 3/4 of a plain ``rfft2``/``irfft2`` pair.
    """

    def __init__(self, nx: int, ny: int, dx: float = 1.0, self_coef: float | str = 3.8, *,
                 periodic: bool = False, backend: str | Backend | None = None, dtype: Any = np.float64,
                 workers: int | str = "auto", kernel: str = "point", fft_precision: str = "double"):
        if int(nx) < 1 or int(ny) < 1:
            raise ParameterError(f"grid size ({nx}, {ny}) must be positive")
        if not (dx > 0 and math.isfinite(dx)):
            raise ParameterError(f"dx = {dx!r} must be a positive element spacing [L*]")
        self.nx, self.ny, self.dx = int(nx), int(ny), float(dx)
        self.self_coef = _self_coef(self_coef)
        self.periodic = bool(periodic)
        if fft_precision not in _FFT_PRECISIONS:
            raise ParameterError(f"fft_precision = {fft_precision!r} is not one of {sorted(_FFT_PRECISIONS)}")
        self.fft_precision = fft_precision
        self.workers = resolve_fft_workers(workers, self.nx * self.ny * (1 if self.periodic else 4))
        self.be = get_backend(backend, self.workers)
        self.dtype = dtype
        if self.periodic:
            qx = 2 * np.pi * np.fft.fftfreq(self.nx, d=self.dx)
            qy = 2 * np.pi * np.fft.rfftfreq(self.ny, d=self.dx)
            q = np.hypot(qx[:, None], qy[None, :])
            with np.errstate(divide="ignore"):
                khat = 2 * np.pi / (q * self.dx**2)
            khat[0, 0] = 0.0
            # diagonal of the periodic operator (mean of the spectrum)
            self.diag = float(khat.sum() * 2 - khat[:, 0].sum() - (khat[:, -1].sum() if self.ny % 2 == 0 else 0)) / (self.nx * self.ny)
            self._shape = (self.nx, self.ny)
        else:
            k = boussinesq_kernel(self.nx, self.ny, self.dx, self.self_coef, kernel)
            khat = np.fft.rfft2(k).real  # kernel is even -> real spectrum
            if kernel == "patch":
                self.self_coef = SQUARE_SELF_COEF
            self.diag = self.self_coef / self.dx
            self._shape = (2 * self.nx, 2 * self.ny)
        self.khat = self.be.asarray(khat, dtype=dtype)
        self.n_products = 0
        self._work: dict[str, np.ndarray] | None = None
        self._kr: np.ndarray | None = None
        #: largest number of isolated elements whose product is added by direct summation
        #: (:meth:`add_sparse`) rather than by a full FFT product; cost model of the numpy path
        self.sparse_limit = _sparse_limit(self._shape[0] * self._shape[1], self.nx * self.ny)

    @property
    def shape(self) -> tuple[int, int]:
        return (self.nx, self.ny)

    def set_fft_precision(self, fft_precision: str) -> bool:
        """Switch the precision of the following products (``"double"``/``"single"``; the
        transform buffers are rebuilt at the next product). Returns whether it changed."""
        if fft_precision not in _FFT_PRECISIONS:
            raise ParameterError(f"fft_precision = {fft_precision!r} is not one of {sorted(_FFT_PRECISIONS)}")
        if fft_precision == self.fft_precision:
            return False
        self.fft_precision = fft_precision
        self._work = None
        return True

    def apply(self, x: Any) -> Any:
        """Return ``K @ x`` for a field ``x`` of shape ``(nx, ny)``."""
        self.n_products += 1
        be = self.be
        if self.periodic:
            return be.irfft2(be.rfft2(x) * self.khat, s=self._shape)
        mx, my = self._shape
        f = be.rfft(x, n=my, axis=1)          # (nx, ny+1): only the non-zero rows
        f = be.fft(f, n=mx, axis=0)           # (2nx, ny+1)
        f *= self.khat
        f = be.ifft(f, n=mx, axis=0)[: self.nx]
        return be.irfft(f, n=my, axis=1)[:, : self.ny]

    __call__ = apply

    # --- allocation-free numpy path ---------------------------------------------------------
    def _buffers(self) -> dict[str, Any]:
        if self._work is None:
            rdt, cdt = _FFT_PRECISIONS[self.fft_precision]
            mx, my = self._shape
            nq = my // 2 + 1
            kh = np.ascontiguousarray(self.be.to_numpy(self.khat), dtype=rdt)
            if self.periodic:
                w = {"C": np.zeros((mx, nq), cdt), "D": np.empty((mx, nq), cdt), "khat": kh}
                if rdt != np.float64:
                    w["R"] = np.empty((mx, my), rdt)
            else:
                # transposed half spectrum: the transforms along x run over contiguous rows
                w = {"R": np.zeros((self.nx, my), rdt),     # right half stays zero (padding)
                     "R2": np.empty((self.nx, my), rdt),
                     "C": np.empty((self.nx, nq), cdt),
                     "T": np.zeros((nq, mx), cdt),          # right half stays zero (padding)
                     "T2": np.empty((nq, mx), cdt),
                     "khat": np.ascontiguousarray(kh.T)}
            w["fns"] = self._fft_pair()
            self._work = w
        return self._work

    def _fft_pair(self) -> tuple[Any, Any, Any, Any]:
        """``(rfft, fft, ifft, irfft)``, each returning the array that holds its result:
        ``numpy.fft`` writing into ``out`` (one thread, double precision: no allocation), or
        ``scipy.fft`` (threads, or single precision, which ``numpy.fft`` computes 1.5-3x slower
        than scipy's float32 transforms), whose complex transforms run in place when ``out`` is
        the input and otherwise return a new array (used as it is: no copy into ``out``)."""
        if self.workers == 1 and self.fft_precision == "double":
            return np.fft.rfft, np.fft.fft, np.fft.ifft, np.fft.irfft
        import scipy.fft as sf

        wk = self.workers

        def wrap(f):
            def g(a, n=None, axis=-1, out=None):
                return f(a, n=n, axis=axis, workers=wk, overwrite_x=out is a)
            return g
        return wrap(sf.rfft), wrap(sf.fft), wrap(sf.ifft), wrap(sf.irfft)

    def apply_into(self, x: np.ndarray, out: np.ndarray) -> np.ndarray:
        r"""``out[...] = K @ x`` (numpy backend) into preallocated buffers: the real FFT of the
        rows into a half spectrum, then (finite patch) a transposed copy so that the padded
        transform along ``x``, the product with the (real, even) kernel spectrum and its inverse
        run over contiguous rows (measured 1.3x faster than the strided column transform at
        512^2), the inverse real FFT of the first ``nx`` rows. One thread in double precision:
        ``numpy.fft`` with ``out=``, nothing allocated; otherwise ``scipy.fft``
        (:meth:`_fft_pair`; in single precision the input is cast once into the padded buffer and
        the result once into ``out``). Other backends: :meth:`apply`."""
        if self.be.name != "numpy":
            out[...] = self.apply(x)
            return out
        self.n_products += 1
        w = self._buffers()
        rfft, fft, ifft, irfft = w["fns"]
        kh = w["khat"]
        nx, ny = self.nx, self.ny
        mx, my = self._shape
        if self.periodic:
            C, D, R = w["C"], w["D"], w.get("R")
            if R is None:  # double precision: transform x and write the result straight to out
                F = rfft(x, axis=1, out=C)
            else:
                np.copyto(R, x, casting="unsafe")
                F = rfft(R, axis=1, out=C)
            F = fft(F, axis=0, out=D)
            np.multiply(F, kh, out=F)
            F = ifft(F, axis=0, out=C)
            res = irfft(F, n=my, axis=1, out=out if R is None else R)
            if res is not out:
                np.copyto(out, res, casting="unsafe")
            return out
        R, R2, C, T, T2 = w["R"], w["R2"], w["C"], w["T"], w["T2"]
        np.copyto(R[:, :ny], x, casting="unsafe")
        F = rfft(R, axis=1, out=C)
        np.copyto(T[:, :nx], F.T)
        F = fft(T, axis=1, out=T2)
        np.multiply(F, kh, out=F)
        F = ifft(F, axis=1, out=F)
        _nb_transpose_into(F, C, nx)
        np.copyto(out, irfft(C, n=my, axis=1, out=R2)[:, :ny], casting="unsafe")
        return out

    def kernel_real(self) -> np.ndarray:
        """Real-space kernel on the transform grid (the column of ``K``): the zero-padded
        wrap-around kernel (finite patch) or the periodic kernel ``irfft2(khat)``."""
        if self._kr is None:
            kh = self.be.to_numpy(self.khat).astype(np.float64)
            self._kr = np.ascontiguousarray(np.fft.irfft2(kh, s=self._shape))
        return self._kr

    def add_sparse(self, out: np.ndarray, ii: np.ndarray, jj: np.ndarray, vals: np.ndarray, k: int,
                   factor: float = 1.0) -> None:
        r"""``out += factor * K v`` for a field ``v`` with ``k`` non-zero entries ``vals`` at
        ``(ii, jj)``, by direct summation of kernel columns (cost ``k * nx * ny``; exact to
        round-off, no FFT)."""
        _nb_add_sparse(out, self.kernel_real(), ii, jj, vals, k, factor)

    def add_local(self, out: np.ndarray, ii: np.ndarray, jj: np.ndarray, vals: np.ndarray, k: int,
                  radius: int, factor: float = 1.0) -> None:
        r"""``out += factor * K_R v``: :meth:`add_sparse` truncated to the kernel window
        :math:`|a|, |b| \le` ``radius`` around each element (cost ``k (2 radius + 1)^2``). An
        approximation: the solver uses it only between exact products (see ``pk_solve``)."""
        _nb_add_local(out, self.kernel_real(), ii, jj, vals, k, factor, int(radius), self.periodic)

    def min_eig_estimate(self) -> float:
        """Lower bound of the spectrum used for step-size control (2.19/dx for the self term 3.8)."""
        return (self.self_coef - 1.61) / self.dx


class MeanField:
    r"""No interaction: :math:`K = \bar C^0 I` (paper eq. 5, mean-field model)."""

    def __init__(self, C0: float, nx: int = 1, ny: int = 1, *, backend: str | Backend | None = None):
        if not (C0 > 0 and math.isfinite(C0)):
            raise ParameterError(f"C0 = {C0!r} must be a positive compliance [L*/F*]")
        self.C0 = float(C0)
        self.nx, self.ny = int(nx), int(ny)
        self.diag = self.C0
        self.be = get_backend(backend)
        self.n_products = 0
        self.periodic = False

    @property
    def shape(self) -> tuple[int, int]:
        return (self.nx, self.ny)

    def apply(self, x: Any) -> Any:
        return self.C0 * x

    __call__ = apply
    sparse_limit = 1 << 62

    def apply_into(self, x: np.ndarray, out: np.ndarray) -> np.ndarray:
        return np.multiply(x, self.C0, out=out)

    def add_sparse(self, out: np.ndarray, ii: np.ndarray, jj: np.ndarray, vals: np.ndarray, k: int,
                   factor: float = 1.0) -> None:
        _nb_add_diag(out, None, ii, jj, vals, k, factor * self.C0)

    def add_local(self, out: np.ndarray, ii: np.ndarray, jj: np.ndarray, vals: np.ndarray, k: int,
                  radius: int, factor: float = 1.0) -> None:
        """Exact (the operator is diagonal): :meth:`add_sparse`."""
        self.add_sparse(out, ii, jj, vals, k, factor)


class StepOperator:
    r"""Step operator :math:`M = c\,K + \mathrm{diag}(D)` (one time step of eqs. 7-8).

    ``c`` is the viscoelastic compliance factor of the step and ``D`` the linearised
    viscoplastic diagonal :math:`\Delta t\,\rho'(F^n)` (or None).
    """

    def __init__(self, base: BoussinesqFFT | MeanField, c: float = 1.0, diag: Any = None):
        self.base, self.c, self.extra = base, float(c), diag
        self.be = base.be

    @property
    def is_diagonal(self) -> bool:
        return isinstance(self.base, MeanField)

    def diagonal(self) -> Any:
        d = self.c * self.base.diag
        return d if self.extra is None else d + self.extra

    def apply(self, x: Any) -> Any:
        y = self.base.apply(x)
        if self.c != 1.0:
            y = self.c * y
        if self.extra is not None:
            y = y + self.extra * x
        return y

    __call__ = apply

    @property
    def sparse_limit(self) -> int:
        return int(getattr(self.base, "sparse_limit", 0))

    def apply_into(self, x: np.ndarray, out: np.ndarray) -> np.ndarray:
        """``out[...] = M @ x`` (numpy backend; no allocation on the one-thread FFT path)."""
        self.base.apply_into(x, out)
        if self.c != 1.0 or self.extra is not None:  # else nothing to do (and no kernel to load)
            _nb_scale_add_diag(out, self.c, self.extra if self.extra is not None else _NO_DIAG, x,
                               self.extra is not None)
        return out

    def add_local(self, out: np.ndarray, ii: np.ndarray, jj: np.ndarray, vals: np.ndarray, k: int,
                  radius: int, factor: float = 1.0) -> None:
        """``out += factor * M_R v``, the kernel truncated to ``radius`` (:meth:`BoussinesqFFT.add_local`)."""
        self.base.add_local(out, ii, jj, vals, k, radius, factor * self.c)
        if self.extra is not None:
            _nb_add_diag(out, np.ascontiguousarray(self.extra, dtype=np.float64), ii, jj, vals, k, factor)

    def add_sparse(self, out: np.ndarray, ii: np.ndarray, jj: np.ndarray, vals: np.ndarray, k: int,
                   factor: float = 1.0) -> None:
        """``out += factor * M v`` for a ``k``-sparse ``v`` (see :meth:`BoussinesqFFT.add_sparse`)."""
        self.base.add_sparse(out, ii, jj, vals, k, factor * self.c)
        if self.extra is not None:
            _nb_add_diag(out, np.ascontiguousarray(self.extra, dtype=np.float64), ii, jj, vals, k, factor)


# --- compiled helpers (numpy backend) -------------------------------------------------------------

_NO_DIAG = np.zeros((1, 1))


@lazy_njit(cache=True)
def _nb_transpose_into(src, dst, nc):  # pragma: no cover - compiled
    """``dst[...] = src[:, :nc].T`` in 32 x 32 tiles (numpy's strided copy of the transposed
    view reads across rows: 1.4x slower at 512^2)."""
    nr = src.shape[0]
    for i0 in range(0, nr, 32):
        i1 = min(i0 + 32, nr)
        for j0 in range(0, nc, 32):
            j1 = min(j0 + 32, nc)
            for j in range(j0, j1):
                for i in range(i0, i1):
                    dst[j, i] = src[i, j]


@lazy_njit(cache=True, fastmath=True)
def _nb_add_sparse(out, kr, ii, jj, vals, k, factor):  # pragma: no cover - compiled
    # row by row, the k columns inner: each output row is read and written once (it stays in
    # L1) instead of once per column; every element still adds the columns in the order 0..k-1
    nx, ny = out.shape
    mx, my = kr.shape
    for i in range(nx):
        orow = out[i]
        for m in range(k):
            j0 = jj[m]
            a = i - ii[m]
            if a < 0:
                a += mx
            v = vals[m] * factor
            krow = kr[a]
            # columns j < j0 wrap to the end of the kernel row; j >= j0 read it from the start
            hi = krow[my - j0:]
            for j in range(j0):
                orow[j] += v * hi[j]
            lo = krow[: ny - j0]
            orow2 = orow[j0:]
            for j in range(ny - j0):
                orow2[j] += v * lo[j]


@lazy_njit(inline="always")
def _add_window_row(orow, krow, j0, v, R, ny, my):  # pragma: no cover - compiled
    """``orow[j0 + b] += v krow[b mod my]`` for ``|b| <= R`` inside ``[0, ny)`` (a non-periodic row):
    two contiguous runs, offsets ``b < 0`` reading the end of the kernel row, as slices indexed
    from 0 (no negative-index wrap test per element: vectorised, 1.5-2x). Inlined in numba's IR
    (``inline="always"``), so it is compiled as part of its caller, with the caller's flags."""
    lo = max(-R, -j0)
    hi = min(R, ny - 1 - j0)
    hn = min(hi, -1)
    if hn >= lo:
        o = orow[j0 + lo: j0 + hn + 1]
        kk = krow[my + lo: my + hn + 1]
        for t in range(hn - lo + 1):
            o[t] += v * kk[t]
    l0 = max(lo, 0)
    if hi >= l0:
        o = orow[j0 + l0: j0 + hi + 1]
        kk = krow[l0: hi + 1]
        for t in range(hi - l0 + 1):
            o[t] += v * kk[t]


@lazy_njit(inline="always")
def _add_window_row_periodic(orow, krow, j0, v, R, ny):  # pragma: no cover - compiled
    """``orow[(j0 + b) mod ny] += v krow[b mod ny]`` for ``|b| <= R`` (a periodic row, ``2R + 1 <= ny``):
    up to four contiguous runs (offsets below / above zero, each split where the output column
    wraps), so that no element takes a modulo and the runs vectorise (the per-element modulo
    loop made the windowed corrections of a periodic 512^2 solve cost ~4 products each)."""
    # b in [-R, -1]: kernel column ny + b; output j0 + b, wrapped to j0 + b + ny below 0
    lo = max(-R, -j0)
    if lo <= -1:
        o = orow[j0 + lo: j0]
        kk = krow[ny + lo: ny]
        for t in range(-lo):
            o[t] += v * kk[t]
    hw = min(-1, -j0 - 1)
    if hw >= -R:
        o = orow[j0 - R + ny: j0 + hw + 1 + ny]
        kk = krow[ny - R: ny + hw + 1]
        for t in range(hw + R + 1):
            o[t] += v * kk[t]
    # b in [0, R]: kernel column b; output j0 + b, wrapped to j0 + b - ny from ny on
    h0 = min(R, ny - 1 - j0)
    o = orow[j0: j0 + h0 + 1]
    kk = krow[: h0 + 1]
    for t in range(h0 + 1):
        o[t] += v * kk[t]
    if R >= ny - j0:
        o = orow[: j0 + R - ny + 1]
        kk = krow[ny - j0: R + 1]
        for t in range(j0 + R - ny + 1):
            o[t] += v * kk[t]


@lazy_njit(cache=True, fastmath=True)
def _nb_add_local(out, kr, ii, jj, vals, k, factor, R, periodic):  # pragma: no cover - compiled
    nx, ny = out.shape
    mx, my = kr.shape
    rows_sorted = not periodic
    for m in range(1, k):
        if ii[m] < ii[m - 1]:
            rows_sorted = False
            break
    if rows_sorted:
        # departures listed by row (the solver's lists are ascending): output row by output row,
        # the departures whose window covers it inner, so that the row stays in L1; each element
        # still adds the departures in the order of the list
        first = 0
        for i in range(nx):
            while first < k and ii[first] < i - R:
                first += 1
            orow = out[i]
            m = first
            while m < k and ii[m] <= i + R:
                j0 = jj[m]
                v = vals[m] * factor
                krow = kr[(i - ii[m]) % mx]
                _add_window_row(orow, krow, j0, v, R, ny, my)
                m += 1
        return
    for m in range(k):
        i0 = ii[m]
        j0 = jj[m]
        v = vals[m] * factor
        for a in range(-R, R + 1):
            i = i0 + a
            if i < 0 or i >= nx:
                if not periodic:
                    continue
                i = (i + nx) % nx
            krow = kr[a % mx]
            orow = out[i]
            if periodic and 2 * R + 1 <= ny and my == ny:
                _add_window_row_periodic(orow, krow, j0, v, R, ny)
            elif periodic:
                for b in range(-R, R + 1):
                    orow[(j0 + b) % ny] += v * krow[b % my]
            else:
                _add_window_row(orow, krow, j0, v, R, ny, my)


@lazy_njit(cache=True)
def _nb_add_diag(out, diag, ii, jj, vals, k, factor):  # pragma: no cover - compiled
    for m in range(k):
        d = factor if diag is None else factor * diag[ii[m], jj[m]]
        out[ii[m], jj[m]] += d * vals[m]


@lazy_njit(cache=True)
def _nb_scale_add_diag(out, c, extra, x, has_extra):  # pragma: no cover - compiled
    nx, ny = out.shape
    if c == 1.0 and not has_extra:
        return
    for i in range(nx):
        for j in range(ny):
            v = c * out[i, j]
            if has_extra:
                v += extra[i, j] * x[i, j]
            out[i, j] = v
