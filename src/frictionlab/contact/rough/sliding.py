r"""Sliding of the asperity ensemble over a larger rigid rough surface (part 2 of seed 003).

The deformable ``nx x ny`` patch (flat, :math:`z^0_i = 0`) slides along :math:`+x` over a rigid
surface of ``mx x my`` samples (paper: 512 x 512 on 1024 x 512, Sect. 5) under a constant (or
programmed) normal load :math:`W = -\bar F_N`. At every step the rigid heights under the
elements are re-sampled at the shifted positions (paper eq. 4)

.. math:: d_i = d - z^0_i - u_i - h(x^0_i + \bar x,\ y^0_i),\qquad \bar x(t) = \int_0^t \bar v\,dt',

by cubic-spline interpolation along ``x`` (the paper's choice; a band-limited Fourier shift is
an option), the per-step complementarity problem (eqs. 16-17) is solved warm
started from the previous forces (:class:`~frictionlab.contact.rough.model.RoughContactSim`),
and the friction coefficient follows from the velocity-dependent shear strength (eqs. 13-15)

.. math:: \mu = \frac{(\bar\tau_S + \alpha\ln|\bar v|)\,\bar A}{W}\quad(\bar v\ne0),\qquad
          \mu = \frac{\bar\tau_S\bar A}{W}\quad(\bar v = 0),

with the natural log for the 'log' of eqs. 14-15 and :math:`|\bar v|` so that reverse sliding works (Fig. 17).
Viscoplastic shortening :math:`u^p_i` is a field of the deformable body, so it is carried with
the sliding patch automatically (the elements keep their indices, only the rigid surface moves
under them).

Velocity programmes are the library's core protocols
(:class:`~frictionlab.protocols.ConstantVelocity`, :class:`~frictionlab.protocols.VelocitySteps`,
:class:`~frictionlab.protocols.SlideHoldSlide`, ...) in SI units: velocities [m/s] are
converted to :math:`\bar v = v/(L^*/T^*)` with :math:`L^* = 1` µm, :math:`T^* = 1` s; a negative
velocity slides backwards (reversal); ``normal_force`` [N] is converted with :math:`F^*`
unless ``W`` is given.

Time stepping (ours; the paper prints no step): the slip per step is at most ``s_max`` (0.25 Δ), so
:math:`\Delta t = s/|\bar v|`; step boundaries fall exactly on the protocol's velocity jumps.
At a jump the state is unchanged, so the *direct effect* is evaluated without a solve
(Sect. 5.5): :math:`\Delta\mu = \alpha\ln(\bar v_{new}/\bar v_{old})\bar A(\bar v_{old})/W`.

References
----------
S. Hulikal, N. Lapusta, K. Bhattacharya, "Static and sliding contact of rough surfaces: effect
of asperity-scale properties and long-range elastic interactions", JMPS 76 (2015) 44-63,
§5 and eqs. (4), (13)-(15).

Notes
-----
The paper (Sect. 2.2) says heights between samples are interpolated "using a cubic spline", so
``shift="cubic"`` (periodic cubic spline along ``x``) is the default here. Both agree with the
stored samples exactly at integer slip.

Long protocols could wrap around the periodic rigid surface; a run must rather stop before it
starts when the surface is too short for the requested slip. Both are served:
by default a run whose patch would reach rigid surface it has already covered raises a
:class:`~frictionlab.core.errors.ParameterError` naming the length needed
(``nx + slip range``); ``allow_wrap=True`` permits the seamless periodic wrap (used, e.g., to
slide by whole periods of a periodic surface).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import xarray as xr

from ...core.errors import DataError, ParameterError
from ...protocols.base import AbstractProtocol
from .model import KernelParameters, RoughContact, RoughContactSim
from .numerics import SolverOptions
from .sliding_record import SlidingRecord, direct_effect
from .units import L_STAR, T_STAR, V_STAR, to_paper

__all__ = ["RigidSurface", "SlidingPlan", "plan_steps", "required_rigid_length", "check_slip_budget",
           "SlidingOptions", "SlidingRun", "run_sliding", "direct_effect", "steady_mean", "L_STAR", "T_STAR", "V_STAR"]



class RigidSurface:
    r"""Rigid heights under the patch at an arbitrary slip :math:`\bar x` (periodic in ``x``).

    Parameters
    ----------
    heights : ndarray (mx, my)
        Rigid surface samples [L*] at spacing ``dx``; periodic along ``x`` (rows).
    nx, ny : int
        Patch size (elements); needs ``my >= ny`` (the first ``ny`` columns are used).
    dx : float
        Grid spacing [L*].
    method : {"cubic", "fourier"}
        Periodic cubic spline along ``x`` (paper) or exact band-limited Fourier shift.

    Notes
    -----
    The spline coefficients of the whole periodic surface are computed once; a shift then costs
    one gather of ``nx`` rows and a Horner evaluation, because every element has the same
    fractional offset. The Fourier variant keeps the row spectrum and costs one inverse FFT
    along ``x`` per step. At integer slip both return the stored samples exactly.
    """

    def __init__(self, heights: np.ndarray, nx: int, ny: int, dx: float = 1.0, method: str = "cubic"):
        h = np.asarray(heights, dtype=float)
        if h.ndim != 2:
            raise DataError(f"rigid surface must be a 2-D array, got shape {h.shape}")
        if not np.all(np.isfinite(h)):
            raise DataError("rigid surface contains NaN or inf heights")
        mx, my = h.shape
        if my < ny:
            raise ParameterError(f"rigid surface is {my} samples wide in y but the patch needs ny = {ny}")
        if mx < nx:
            raise ParameterError(f"rigid surface is {mx} samples long in x, shorter than the patch (nx = {nx})")
        if method not in ("cubic", "fourier"):
            raise ParameterError(f"shift method = {method!r} is not one of ['cubic', 'fourier']")
        self.h = np.ascontiguousarray(h[:, :ny])
        self.mx, self.nx, self.ny, self.dx, self.method = mx, int(nx), int(ny), float(dx), method
        if method == "cubic":
            from scipy.interpolate import CubicSpline

            xs = np.arange(mx + 1, dtype=float)
            cs = CubicSpline(xs, np.concatenate([self.h, self.h[:1]], axis=0), axis=0, bc_type="periodic")
            self._c = np.ascontiguousarray(cs.c[:, :mx])  # (4, mx, ny), highest power first
        else:
            self._hk = np.fft.fft(self.h, axis=0)
            self._k = 2 * np.pi * np.fft.fftfreq(mx)

    def __call__(self, xbar: float) -> np.ndarray:
        """Heights :math:`h(x^0_i + \\bar x, y^0_i)` of the ``nx x ny`` elements [L*]."""
        s = float(xbar) / self.dx
        k = math.floor(s)
        f = s - k
        rows = (np.arange(self.nx) + k) % self.mx
        if f == 0.0:
            return self.h[rows].copy()
        if self.method == "cubic":
            # one pass (gather of the rows and Horner's rule, as ((c0 f + c1) f + c2) f + c3)
            out = np.empty((self.nx, self.ny))
            _nb_spline_rows(self._c, k, f, out)
            return out
        ph = np.exp(1j * self._k * s)
        if self.mx % 2 == 0:
            ph[self.mx // 2] = math.cos(math.pi * s)
        full = np.fft.ifft(self._hk * ph[:, None], axis=0).real
        return np.ascontiguousarray(full[: self.nx])


@dataclass(frozen=True)
class SlidingPlan:
    """Step grid of a sliding run in model units.

    Attributes
    ----------
    t : ndarray (n+1,)
        Step boundary times [T*], ``t[0] = 0``.
    v : ndarray (n,)
        Non-dimensional velocity :math:`\\bar v` in each step.
    ds : ndarray (n,)
        Slip increment of each step [L*].
    W : ndarray (n,)
        Load at the end of each step [F*].
    jumps : ndarray of int
        Step indices ``k`` such that the velocity changes between step ``k-1`` and ``k``.
    W0 : float
        Load of the loaded state at ``t = 0`` [F*] (``W[0]`` is the load at the end of the first step).
    """

    t: np.ndarray
    v: np.ndarray
    ds: np.ndarray
    W: np.ndarray
    jumps: np.ndarray
    W0: float

    @property
    def slip(self) -> np.ndarray:
        """Slip at every step boundary [L*]."""
        return np.concatenate([[0.0], np.cumsum(self.ds)])

    @property
    def n_steps(self) -> int:
        return int(self.v.size)


def _segments(protocol: AbstractProtocol) -> list[tuple[float, float]]:
    """The protocol's pieces ``(t_start, t_end)`` [s] (:meth:`AbstractProtocol.segments`)."""
    dur = float(protocol.duration)
    if not (math.isfinite(dur) and dur > 0):
        raise ParameterError(f"protocol duration = {dur!r} s must be positive and finite")
    return [(float(sg.t_start), float(sg.t_end)) for sg in protocol.segments()]


def plan_steps(protocol: AbstractProtocol, *, s_max: float = 0.25, hold_dt: float = 0.25, W: float | None = None,
               piecewise_constant: bool | None = None) -> SlidingPlan:
    r"""Build the step grid of a protocol (ours).

    Parameters
    ----------
    protocol : AbstractProtocol
        Velocity programme in SI units (``velocity(t)`` [m/s], ``normal_force(t)`` [N]).
    s_max : float
        Largest slip per step [L*] (default 0.25 Δ, ours).
    hold_dt : float
        Step [T*] during zero-velocity segments (holds).
    W : float, optional
        Constant load [F*]; default ``protocol.normal_force(t)/F*``.
    piecewise_constant : bool, optional
        Treat each protocol segment as constant velocity (default: True when every piece of
        :meth:`~frictionlab.protocols.base.AbstractProtocol.segments` has a constant velocity).

    Raises
    ------
    ParameterError
        Non-positive ``s_max`` / ``hold_dt``, non-finite velocities or loads, non-positive load.
    """
    for name, val in (("s_max", s_max), ("hold_dt", hold_dt)):
        if not (isinstance(val, (int, float)) and math.isfinite(val) and val > 0):
            raise ParameterError(f"sliding.{name} = {val!r} must be a positive finite number")
    segs = _segments(protocol)
    if piecewise_constant is None:
        piecewise_constant = all(sg.velocity is not None for sg in protocol.segments())
    ts: list[np.ndarray] = [np.array([0.0])]
    vs: list[np.ndarray] = []
    dss: list[np.ndarray] = []
    for a, b in segs:
        T = b - a
        if piecewise_constant:
            v = to_paper(float(np.asarray(protocol.velocity(np.array([0.5 * (a + b)])))[0]), "m/s")
            if not math.isfinite(v):
                raise ParameterError(f"protocol velocity on [{a:g}, {b:g}] s is not finite ({v!r})")
            n = max(1, math.ceil(abs(v) * T / s_max - 1e-9)) if v != 0 else max(1, math.ceil(T / hold_dt - 1e-9))
            tt = a + T * np.arange(1, n + 1) / n
            tt[-1] = b
            ts.append(tt)
            vs.append(np.full(n, v))
            dss.append(v * np.diff(np.concatenate([[a], tt])))
        else:
            grid = np.linspace(a, b, 2001)
            vg = to_paper(np.asarray(protocol.velocity(grid), dtype=float), "m/s")
            if not np.all(np.isfinite(vg)):
                raise ParameterError(f"protocol velocity is not finite on [{a:g}, {b:g}] s")
            vmax = float(np.max(np.abs(vg)))
            n = max(1, math.ceil(vmax * T / s_max), math.ceil(T / hold_dt) if vmax == 0 else 1)
            tt = a + T * np.arange(0, n + 1) / n
            # Simpson slip increments and the mean velocity of each step
            vm = to_paper(np.asarray(protocol.velocity(0.5 * (tt[:-1] + tt[1:])), dtype=float), "m/s")
            v0 = to_paper(np.asarray(protocol.velocity(tt[:-1]), dtype=float), "m/s")
            v1 = to_paper(np.asarray(protocol.velocity(tt[1:]), dtype=float), "m/s")
            d = np.diff(tt) * (v0 + 4 * vm + v1) / 6
            ts.append(tt[1:])
            vs.append(vm)
            dss.append(d)
    t = np.concatenate(ts)
    v = np.concatenate(vs)
    ds = np.concatenate(dss)
    if W is None:
        fn = np.asarray(protocol.normal_force(t), dtype=float)
        if not np.all(np.isfinite(fn)) or np.any(fn <= 0):
            raise ParameterError("protocol normal_force must be positive and finite (compressive load) "
                                 f"for the rough-contact model; got min {np.nanmin(fn)!r} N")
        W0, Wv = float(to_paper(fn[0], "N")), to_paper(fn[1:], "N")
    else:
        if not (math.isfinite(W) and W > 0):
            raise ParameterError(f"normal load W = {W!r} F* must be positive")
        W0, Wv = float(W), np.full(v.size, float(W))
    jumps = np.flatnonzero(np.diff(v) != 0) + 1 if piecewise_constant else np.array([], dtype=int)
    return SlidingPlan(t=t, v=v, ds=ds, W=Wv, jumps=jumps.astype(int), W0=W0)


def required_rigid_length(nx: int, slip: np.ndarray, dx: float = 1.0) -> int:
    """Rigid samples along ``x`` needed so that the patch never meets re-used surface:
    ``nx + ceil(max(slip, 0) - min(slip, 0))`` (slip in L*)."""
    s = np.asarray(slip, dtype=float) / dx
    span = max(float(s.max()), 0.0) - min(float(s.min()), 0.0)
    return int(nx + math.ceil(span - 1e-9))


def check_slip_budget(mx: int, nx: int, slip: np.ndarray, dx: float = 1.0) -> None:
    """Raise :class:`ParameterError` before running if the rigid surface is too short."""
    need = required_rigid_length(nx, slip, dx)
    if mx < need:
        s = np.asarray(slip, dtype=float)
        raise ParameterError(
            f"rigid surface is too short: {mx} samples along x, but a patch of nx = {nx} sliding over the slip "
            f"range [{min(s.min(), 0):g}, {max(s.max(), 0):g}] um needs at least {need} samples "
            f"({need * dx:g} um); generate a longer rigid surface (mx >= {need}) or pass allow_wrap=True")


@dataclass(frozen=True)
class SlidingOptions:
    r"""Options of a sliding run (:func:`run_sliding`).

    Attributes
    ----------
    nx, ny : int, optional
        Patch size (default: ``my x my``, i.e. square, as in the paper; a :class:`RigidSurface`
        brings its own).
    W : float, optional
        Constant load [F*] (default ``protocol.normal_force / F*``).
    s_max : float
        Largest slip per step [L*] (default 0.25, ours).
    hold_dt : float
        Step during zero-velocity segments [T*].
    shift : {"cubic", "fourier"}
        Interpolation of the shifted heights (paper: cubic spline).
    allow_wrap : bool
        Allow the patch to reach rigid surface it covered before (periodic wrap). Off by
        default: a too-short surface raises before the run, naming the length needed.
    snapshot_times : tuple of float
        Times [T*] at which force maps (and, viscoplastic, ``u_p`` and the deformed surface
        :math:`u^p + h`) are stored (first step end at or after; 0 = loaded state).
    probes : tuple of (i, j)
        Elements whose force :math:`F_i=-p_i`, length change :math:`u_i` and gap :math:`d_i`
        are recorded at every step (Fig. 9; one extra operator product per step).
    pdf_bins, pdf_after_slip : optional
        Pool the force PDF (normalised as Sect. 5.2 reads it) over all steps with slip >= this value [L*].
    vp_max_dup : float
        Viscoplastic substepping: :math:`\max|\Delta u^p|\le` ``vp_max_dup`` σ per substep.
    sigma : float
        The surface's rms height σ [L*] of that substep control.
    every : int
        Record every ``every``-th step (jumps and the last step are always recorded).
    warm_start : bool
        Start every solve from the previous solution (default). False: cold starts (a check;
        same results to the solver tolerance, more iterations).
    warm_extrapolate : bool
        In steady sliding, start from the linear extrapolation in slip of the last two
        solutions, :math:`p_n + (p_n - p_{n-1})\,\Delta s_{n+1}/\Delta s_n` (default), instead of
        :math:`p_n`. Not across velocity jumps. Measured at 128^2 (v = 10, tol 1e-6; plain PK):
        16.8 instead of 18.0 iterations per step. Relative L1 distance of the start from the
        converged forces (same runs, issue 17): previous forces 13.6 %, extrapolated 3.8-4.1 %
        (~20 contact elements differing), shifted with the surface (linear, 0.25 element)
        8.2-8.5 %, shifted and extrapolated 7.7-8.0 %; a cubic shift was worse (25.9 it/step).
        Contact spots are a few elements wide, so a quarter-element slip changes the load
        distribution at their edges whatever the start; what bounds the iterations is the
        conditioning of the operator on the contact spots, which the solver's cluster
        preconditioner removes (6-7 iterations per step at 128^2-256^2, see
        :func:`~frictionlab.contact.rough.solver.pk_solve`).
    numerics : SolverOptions, optional
        Contact solver, tolerances, backend and FFT settings of a new contact state (default
        :class:`~frictionlab.contact.rough.numerics.SolverOptions`); a given ``sim`` keeps its own.
    """

    nx: int | None = None
    ny: int | None = None
    W: float | None = None
    s_max: float = 0.25
    hold_dt: float = 0.25
    shift: str = "cubic"
    allow_wrap: bool = False
    snapshot_times: tuple = ()
    probes: tuple = ()
    pdf_bins: np.ndarray | None = None
    pdf_after_slip: float | None = None
    vp_max_dup: float = 0.02
    sigma: float = 1.0
    every: int = 1
    warm_start: bool = True
    warm_extrapolate: bool = True
    numerics: SolverOptions | None = None

    def __post_init__(self) -> None:
        if int(self.every) < 1:
            raise ParameterError(f"sliding.every = {self.every!r} must be >= 1")
        if self.shift not in ("cubic", "fourier"):
            raise ParameterError(f"sliding.shift = {self.shift!r} is not one of ['cubic', 'fourier']")


class SlidingRun:
    r"""One sliding run: the contact state (:class:`RoughContactSim`, which owns the time, the
    slip and the forces), the rigid surface under the patch, the step plan and the records
    (:class:`~frictionlab.contact.rough.sliding_record.SlidingRecord`). :meth:`run` takes the
    plan's steps one by one (:meth:`step`) and returns the dataset.

    A given ``sim`` (a loaded state) continues from its time and slip; otherwise the patch is
    loaded at :math:`t = 0^+` over the surface at zero slip.
    """

    def __init__(self, model: RoughContact, surface: RigidSurface, plan: SlidingPlan, options: SlidingOptions,
                 sim: RoughContactSim | None = None):
        self.model, self.surface, self.plan, self.options = model, surface, plan, options
        nx, ny = surface.nx, surface.ny
        x0 = sim.xbar if sim is not None else 0.0
        if not options.allow_wrap:
            check_slip_budget(surface.mx, nx, x0 + plan.slip, model.kernel_parameters().dx)
        if sim is None:
            sim = RoughContactSim(model, surface(0.0), plan.W0, numerics=options.numerics)
            sim.initial_load()
        elif (sim.nx, sim.ny) != (nx, ny):
            raise ParameterError(f"sim has patch {(sim.nx, sim.ny)} but the rigid surface sampler is for {(nx, ny)}")
        self.sim = sim
        self.t0, self.x0 = sim.t, x0
        self.jumps = set(int(k) for k in plan.jumps)
        self.last_ds = 0.0  # slip of the last (sub)step, for the warm-start extrapolation
        self.record = SlidingRecord(sim, probes=options.probes, snapshot_times=options.snapshot_times,
                                    pdf_bins=options.pdf_bins, pdf_after_slip=options.pdf_after_slip,
                                    W_max=float(plan.W.max()))

    def substeps(self, dt: float) -> int:
        """Viscoplastic substeps of a step of ``dt`` [T*]: the plastic increment per substep at most
        ``vp_max_dup`` σ at the current rate (at most 200)."""
        sim, opts = self.sim, self.options
        if sim.vp is None:
            return 1
        Fy = sim.vp.yield_force(sim.u_acc)
        rate = float(sim.be.to_numpy(-sim.vp.rate(sim.p, Fy)).max())
        if rate * dt > opts.vp_max_dup * opts.sigma:
            return min(int(math.ceil(rate * dt / (opts.vp_max_dup * opts.sigma))), 200)
        return 1

    def step(self, k: int) -> None:
        """Step ``k`` of the plan: the direct effect at a velocity jump (no solve, Sect. 5.5), the
        solves, the records."""
        sim, plan, opts, rec = self.sim, self.plan, self.options, self.record
        v = float(plan.v[k])
        if k in self.jumps:
            rec.jump(sim, float(plan.v[k - 1]), v)
        dt = float(plan.t[k + 1] - plan.t[k])
        ds = float(plan.ds[k])
        nsub = self.substeps(dt)
        # warm start: linear extrapolation of the last two solutions -- in slip while sliding
        # (steps of equal slip: 2 p_n - p_{n-1}), in time during holds (so that v = 0 reproduces
        # the static model exactly); tolerance per use (SolverOptions.tol_sliding / tol)
        steady = v != 0.0 and k > 0 and k not in self.jumps and self.last_ds * ds > 0
        extrapolate = v == 0.0 or (opts.warm_extrapolate and steady)
        for _ in range(nsub):
            ratio = (ds / nsub) / self.last_ds if (v != 0.0 and steady) else None
            self.last_ds = ds / nsub
            res = sim.advance(dt / nsub, slip=ds / nsub, heights_at=self.surface, W=float(plan.W[k]),
                              sliding=v != 0.0, warm_start=opts.warm_start, extrapolate=extrapolate, warm_ratio=ratio)
            rec.count(res.iterations, res.products + sim.history_products)
        sim.snap_to(self.t0 + float(plan.t[k + 1]), self.x0 + float(plan.slip[k + 1]))
        rec.pool_pdf(sim, sim.xbar - self.x0)
        if (k + 1) % opts.every == 0 or k == plan.n_steps - 1 or (k + 1) in self.jumps:
            rec.record(sim, v, nsub)
        rec.snapshots(sim, sim.t - self.t0, self.surface)

    def run(self) -> xr.Dataset:
        """Every step of the plan; the records as a dataset (paper units)."""
        self.record.record(self.sim, float(self.plan.v[0]), 0)
        self.record.snapshots(self.sim, self.sim.t - self.t0, self.surface)
        for k in range(self.plan.n_steps):
            self.step(k)
        return self.record.dataset(self.sim, self.attrs())

    def attrs(self) -> dict[str, Any]:
        """The run's parameters, solver settings and sizes (dataset attributes)."""
        out = {k: (str(v) if isinstance(v, (bool, str)) else (np.asarray(v, dtype=float) if isinstance(v, tuple) else v))
               for k, v in self.model.to_dict().items()}
        out.update(self.sim.numerics.attrs())
        out.update({"W": float(self.plan.W[-1]), "nx": self.surface.nx, "ny": self.surface.ny,
                    "rigid_mx": self.surface.mx, "s_max": self.options.s_max, "shift": self.surface.method,
                    "model": "rough_contact", "n_steps": self.plan.n_steps,
                    "units_note": "non-dimensional: L*=1 um, T*=1 s, F*=0.2513 N (paper eq. 6)"})
        return out


def run_sliding(model: RoughContact, rigid: np.ndarray | RigidSurface, protocol: AbstractProtocol,
                options: SlidingOptions | None = None, *, sim: RoughContactSim | None = None,
                return_sim: bool = False, **fields: Any) -> Any:
    r"""Slide the patch over the rigid surface under a velocity protocol.

    Parameters
    ----------
    model : RoughContact
        Parameters (SI: interaction, material, :math:`\bar\tau_S`, :math:`\alpha`, recorded in ``attrs``;
        the kernel reads their :meth:`~RoughContact.kernel_parameters`); the solver is ``options.numerics``.
    rigid : ndarray (mx, my) or RigidSurface
        Rigid heights [L*], periodic in ``x``; the patch starts over rows ``0..nx-1``.
    protocol : AbstractProtocol
        Core protocol, SI units (m/s, s, N); negative velocity = reverse sliding.
    options : SlidingOptions, optional
        Patch size, load, step control, records, warm starts and solver settings; ``fields``
        (keywords named as its attributes: ``W=..., s_max=0.5``) replace single ones.
    sim : RoughContactSim, optional
        Continue from an existing (loaded) state, at its time and slip, instead of loading at :math:`t=0^+`.
    return_sim : bool
        Also return the :class:`RoughContactSim` (final state; pass it back as ``sim`` to continue).

    The solver tolerance is ``numerics.tol_sliding`` on sliding steps and ``numerics.tol`` in holds
    (and the FFT precision ``numerics.precision_for(sliding)``: the loading and holds in
    ``fft_precision``, the sliding steps single with ``sliding_fft_precision = "single"``);
    the PK iterations and operator products of every recorded step are returned as
    ``solver_iterations`` and ``solver_products`` (summed over the steps since the previous
    record).

    Returns
    -------
    xarray.Dataset
        Over ``time`` [s]: ``slip`` [um], ``slip_velocity`` [um/s], ``friction_coefficient``,
        ``shear_force`` [F*], ``normal_force`` [F*], ``dilatation`` [um], ``contact_area``
        [um^2], ``area_fraction``, ``n_clusters``, ``mean_contact_radius`` [um], solver
        ``iterations`` and residuals; over ``jump``: ``jump_time``, ``jump_slip``, ``v_old``,
        ``v_new``, ``mu_before``, ``mu_after``, ``area_at_jump``, ``direct_effect_expected``;
        optional ``probe_force``/``probe_length_change``/``probe_gap`` (``probe``, ``time``),
        snapshot maps and the pooled ``force_pdf``.

    Raises
    ------
    ParameterError
        Bad step controls, a too-short rigid surface (before running), mismatched sizes, an
        unknown option.
    IntegrationError
        Solver failure or NaN, naming the step and time.
    """
    if not isinstance(model, (RoughContact, KernelParameters)):
        raise ParameterError(f"model must be a RoughContact, got {type(model).__name__}")
    if not isinstance(protocol, AbstractProtocol):
        raise ParameterError(f"protocol must be a frictionlab protocol, got {type(protocol).__name__}")
    unknown = sorted(set(fields) - {f.name for f in dataclasses.fields(SlidingOptions)})
    if unknown:
        raise ParameterError(f"run_sliding has no option {unknown[0]!r}; the options are the fields of SlidingOptions")
    opts = dataclasses.replace(options or SlidingOptions(), **fields)
    if isinstance(rigid, RigidSurface):
        surf = rigid
    else:
        r = np.asarray(rigid, dtype=float)
        if r.ndim != 2:
            raise DataError(f"rigid surface must be a 2-D array, got shape {r.shape}")
        ny = int(opts.ny or r.shape[1])
        surf = RigidSurface(r, int(opts.nx or ny), ny, model.kernel_parameters().dx, opts.shift)
    plan = plan_steps(protocol, s_max=opts.s_max, hold_dt=opts.hold_dt, W=opts.W)
    run = SlidingRun(model, surf, plan, opts, sim)
    ds = run.run()
    return (ds, run.sim) if return_sim else ds


def steady_mean(ds: xr.Dataset, var: str, slip_lo: float, slip_hi: float, frac: float = 0.5) -> float:
    """Mean of ``var`` over the last ``frac`` of the slip window ``[slip_lo, slip_hi]`` (our steady-state window)."""
    s = ds.slip.values
    lo = slip_hi - frac * (slip_hi - slip_lo)
    a, b = min(lo, slip_hi), max(lo, slip_hi)
    sel = (s >= a - 1e-9) & (s <= b + 1e-9)
    if not sel.any():
        raise DataError(f"no samples of {var!r} with slip in [{a:g}, {b:g}]")
    return float(np.mean(ds[var].values[sel]))


from numba import njit  # noqa: E402


@njit(cache=True)
def _nb_spline_rows(c, k, f, out):  # pragma: no cover - compiled
    """``out[i] = ((c0 f + c1) f + c2) f + c3`` of the spline rows ``(i + k) mod mx``."""
    mx = c.shape[1]
    nx, ny = out.shape
    for i in range(nx):
        r = (i + k) % mx
        for j in range(ny):
            out[i, j] = ((c[0, r, j] * f + c[1, r, j]) * f + c[2, r, j]) * f + c[3, r, j]
