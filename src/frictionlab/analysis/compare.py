r"""One protocol, many models: run the same input programme through every model and compare.

:func:`compare` runs one protocol object (:class:`~frictionlab.protocols.VelocitySteps`,
:class:`~frictionlab.protocols.SlideHoldSlide`, :class:`~frictionlab.protocols.ConstantVelocity`,
...) through a registry of model *adapters* and returns one :class:`xarray.Dataset` with a
``model`` dimension, every model interpolated onto a common time grid (segment by segment, so
that no interpolated sample straddles a velocity jump; the grid contains the jump times):

* ``friction_coefficient`` [1], ``friction_force`` [model units], ``slip`` [m],
  ``slip_velocity`` [m/s], ``normal_force`` [model units] over ``(model, time)``;
* ``status`` over ``model``: ``"ok"`` or the reason the adapter failed (a model whose adapter
  raises is kept, filled with NaN, and reported -- never silently dropped);
* per-model diagnostics measured on each model's *own* output (before interpolation):
  ``direct_effect`` (the instantaneous jump of :math:`\mu` at the first velocity change),
  ``peak_after_step`` (largest rise of :math:`\mu` over the first 5 % of the new segment),
  ``steady_after_step`` (:math:`\mu` at the end of that segment) and ``steady_expected``
  (the model's own steady-state curve at the new velocity, where it has one),
  ``hold_peaks`` over ``(model, hold)`` for slide-hold-slide (peak :math:`\mu` on reslide
  minus :math:`\mu` just before the hold) and ``mu_reference`` (:math:`\mu` just before the
  first velocity change or hold);
* a table of rate-and-state parameters fitted to each model's response
  (:func:`fit_rsf`): ``rsf_mu_ref``, ``rsf_a``, ``rsf_b``, ``rsf_dc`` and their standard
  errors ``*_stderr`` plus ``rsf_fit_percent`` over ``model``.

Adapters are callables ``adapter(protocol, quick) -> xarray.Dataset`` holding the standard
variables; :data:`ADAPTERS` maps names to :class:`ModelAdapter` records (add one with
:func:`register_adapter`). The rate laws and the subloading return-mapping model run through
:func:`frictionlab.solve.simulate` under prescribed slip; the microjunction
ensemble runs its own driver (normal-load history only); the MLBNM beam network runs its own
driver at one constant stage velocity (other protocols report themselves unsupported); the
rough-contact model runs its sliding driver (:func:`frictionlab.contact.rough.sliding.run_sliding`)
on a small periodic patch.

Rate-and-state fit
------------------
Under prescribed, piecewise-constant slip velocity the Dieterich-Ruina law has a closed form.
Starting at steady state at the velocity :math:`V_0` of the fit window's first sample
(:math:`\theta = D_c/V_0`), on a segment of constant velocity :math:`V_k` from :math:`t_k`

.. math::
    \theta(t) = \frac{D_c}{V_k} + \Big(\theta_k - \frac{D_c}{V_k}\Big)e^{-V_k (t-t_k)/D_c}
    \quad\text{(aging law; } \theta_k + (t - t_k) \text{ when } V_k = 0),

    \ln\frac{V_k\theta(t)}{D_c} = \ln\frac{V_k\theta_k}{D_c}\,e^{-V_k(t-t_k)/D_c}
    \quad\text{(slip law; } \theta \text{ frozen when } V_k = 0),

    \mu(t) = \mu_{ref} + a\ln\frac{V_k}{V_0} + b\ln\frac{V_0\,\theta(t)}{D_c}.

:func:`fit_rsf` fits :math:`(\mu_{ref}, a, b, D_c)` with the generic
:class:`frictionlab.fit.Fitter` (bounded multi-start least squares, Jacobian standard errors)
through the small :class:`PrescribedSlipRSF` fit model. The laboratory inversion of
:mod:`frictionlab.fit.rsf` models an elastic apparatus (load point + spring); here the slip
itself is prescribed, so that closed form is the exact forward model.

References
----------
Dieterich, J. H. (1979). J. Geophys. Res. 84(B5), 2161-2168 (aging law);
Ruina, A. (1983). J. Geophys. Res. 88(B12), 10359-10370 (slip law);
Marone, C. (1998). Annu. Rev. Earth Planet. Sci. 26, 643-696 (velocity steps, slide-hold-slide).
"""

from __future__ import annotations

import dataclasses
import math
import time as _time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import xarray as xr
from numpy.typing import NDArray

from ..core.errors import ConfigError, FrictionLabError, ParameterError, suggest
from ..protocols.base import AbstractProtocol

__all__ = ["ModelAdapter", "ADAPTERS", "register_adapter", "adapter_names", "run_model", "compare",
           "fit_rsf", "PrescribedSlipRSF", "rsf_prescribed_mu", "rsf_table", "format_table", "plot_compare",
           "DEFAULT_MODELS", "model_coverage_check", "rsf_recovery_checks", "steady_checks", "direct_effect_checks",
           "healing_checks"]

#: variables every adapter returns (over ``time``)
STANDARD = ("slip", "slip_velocity", "friction_force", "normal_force", "friction_coefficient")


@dataclass(frozen=True)
class ModelAdapter:
    """How one model runs a protocol.

    Parameters
    ----------
    name : str
        Registry name (``"lugre"``, ``"rate_state"``, ...).
    run : callable
        ``run(protocol, quick) -> xarray.Dataset`` with the :data:`STANDARD` variables over ``time``.
    description : str
        Model, parameter set and driver used (shown in reports).
    steady : callable, optional
        ``steady(v, protocol) -> mu`` -- the model's own steady-state friction coefficient at
        slip velocity ``v`` [m/s] (None when the model has no steady state under sliding).
    direct_effect : callable, optional
        ``direct_effect(ds, protocol, i_before, i_step) -> float`` -- closed-form instantaneous
        jump of :math:`\\mu` at the first velocity change, from the model's state just before it.
    rate_strengthening : bool, optional
        True when the model has a positive (rate-strengthening) direct effect, so that
        :math:`\\mu` rises right after a velocity increase; None when not applicable.
    heals : bool, optional
        True when friction grows during a hold at zero slip rate (time-dependent healing),
        False when the state cannot evolve at zero slip rate, None when not asserted.
    run_system : callable, optional
        ``run_system(protocol, system, quick) -> xarray.Dataset``: the model hosted in a
        :mod:`frictionlab.systems` system (e.g. a spring-slider); None when unsupported.
    """

    name: str
    run: Callable[[AbstractProtocol, bool], xr.Dataset]
    description: str = ""
    steady: Callable[[float, AbstractProtocol], float] | None = None
    direct_effect: Callable[[xr.Dataset, AbstractProtocol, int, int], float] | None = None
    rate_strengthening: bool | None = None
    heals: bool | None = None
    run_system: Callable[[AbstractProtocol, Any, bool], xr.Dataset] | None = None


ADAPTERS: dict[str, ModelAdapter] = {}


def register_adapter(adapter: ModelAdapter) -> ModelAdapter:
    """Add (or replace) an adapter in :data:`ADAPTERS`."""
    ADAPTERS[adapter.name] = adapter
    return adapter


def adapter_names() -> list[str]:
    return list(ADAPTERS)


# --------------------------------------------------------------------------- helpers
def _first_velocity(protocol: AbstractProtocol) -> float:
    return float(protocol.velocity(np.array([0.0]))[0])


def _n_steps(protocol: AbstractProtocol, quick: bool) -> int:
    return 10_000 if quick else 40_000


def _dt(protocol: AbstractProtocol, quick: bool) -> float:
    """Fixed step: the largest 1, 2 or 5 x 10^k below ``duration / n`` on which every protocol
    breakpoint falls (so that jumps land on steps), else ``duration / n``."""
    target = float(protocol.duration) / _n_steps(protocol, quick)
    edges = np.asarray((0.0, *protocol.breakpoints, float(protocol.duration)))
    k = math.floor(math.log10(target))
    for dt in sorted((m * 10.0 ** e for e in (k - 1, k) for m in (1.0, 2.0, 5.0)), reverse=True):
        if dt <= target * (1 + 1e-12) and np.all(np.abs(edges / dt - np.round(edges / dt)) < 1e-6):
            return dt
    return target


def _with_normal(protocol: AbstractProtocol, value: float) -> AbstractProtocol:
    if not any(f.name == "normal_force_value" for f in dataclasses.fields(protocol)):
        raise ConfigError(f"protocol {protocol.type_name!r} has no constant 'normal_force_value' to replace by a stress")
    return dataclasses.replace(protocol, normal_force_value=float(value))


def _law_adapter(name: str, make: Callable[[AbstractProtocol], Any], description: str, *,
                 stress: bool = False, steady: str | None = "curve", direct: str | None = None,
                 rate_strengthening: bool | None = None, heals: bool | None = None) -> ModelAdapter:
    """Adapter of a registered law or stepped model run by :func:`simulate` under prescribed slip."""

    def run(protocol: AbstractProtocol, quick: bool) -> xr.Dataset:
        return run_system(protocol, None, quick)

    def run_system(protocol: AbstractProtocol, system: Any, quick: bool) -> xr.Dataset:
        from ..solve import simulate

        model = make(protocol)
        if stress and system is not None:
            raise ConfigError(f"{name} is stress-based (Pa); it does not run in the force-based system "
                              f"{system.type_name!r} (use its own oscillator driver)")
        proto = _with_normal(protocol, model.fn_init) if stress else protocol
        dt = _dt(protocol, quick)
        n = int(round(float(protocol.duration) / dt))
        ds = simulate(model, proto, system=system, dt=dt, max_points=n + 2)  # the model's default driver
        ds.attrs["compare_model_repr"] = repr(model)
        return ds

    steady_fn = None
    if steady == "curve":
        def steady_fn(v: float, protocol: AbstractProtocol) -> float:
            m = make(protocol)
            return float(m.friction_curve(np.array([v]), 1.0)[0])
    elif steady == "subloading":
        def steady_fn(v: float, protocol: AbstractProtocol) -> float:
            m = make(protocol)
            return float(np.asarray(m.steady_stress(v, m.fn_init)) / m.fn_init)

    direct_fn = None
    if direct == "static":
        def direct_fn(ds, protocol, i0, i1):  # a static law jumps onto its curve at once
            v0, v1 = float(ds.slip_velocity[i0]), float(ds.slip_velocity[i1])
            return steady_fn(v1, protocol) - steady_fn(v0, protocol)
    elif direct == "zero":
        def direct_fn(ds, protocol, i0, i1):
            return 0.0
    elif direct == "rate_state":
        def direct_fn(ds, protocol, i0, i1):
            m = make(protocol)
            return m.a * math.log(float(ds.slip_velocity[i1]) / float(ds.slip_velocity[i0]))
    elif direct == "lugre":
        def direct_fn(ds, protocol, i0, i1):
            # F = s0 z + s1 dz/dt + s2 v with z continuous: jump = s1 (zdot+ - zdot-) + s2 (v+ - v-)
            m = make(protocol)
            z = np.array([float(ds[m.state_names[0]][i0])])
            v0, v1 = float(ds.slip_velocity[i0]), float(ds.slip_velocity[i1])
            zd = [float(m.rates(0.0, z, v, 1.0)[0]) for v in (v0, v1)]
            return m.sigma1 * (zd[1] - zd[0]) + m.sigma2 * (v1 - v0)
    elif direct == "viscous":
        def direct_fn(ds, protocol, i0, i1):  # element forces continuous, only sigma2 v jumps
            m = make(protocol)
            return m.sigma2 * (float(ds.slip_velocity[i1]) - float(ds.slip_velocity[i0]))
    return ModelAdapter(name, run, description, steady_fn, direct_fn, rate_strengthening, heals, run_system)


def _make(name: str, preset: str | None = None, **kw: Any) -> Callable[[AbstractProtocol], Any]:
    def make(protocol: AbstractProtocol) -> Any:
        from ..core.registry import make_model

        return make_model(name, preset, **kw)
    return make


def _make_rate_state(protocol: AbstractProtocol) -> Any:
    from ..core.registry import make_model

    v = abs(_first_velocity(protocol))
    kw: dict[str, Any] = {"form": "arcsinh", "law": "aging"}
    if v > 0:
        kw["v_init"] = v
    return make_model("rate_state", "granite-typical", **kw)


def _run_microjunction(protocol: AbstractProtocol, quick: bool) -> xr.Dataset:
    """Microjunction ensemble (200 / 1000 junctions) through ``simulate`` (driver ``"ensemble"``)."""
    from ..core.registry import make_model
    from ..solve import simulate

    dur = float(protocol.duration)
    ds = simulate(make_model("microjunction"), protocol, integrator="ensemble", n_junctions=200 if quick else 1000,
                  save_dt=dur / (2000 if quick else 8000))
    ds.attrs["compare_note"] = "friction = tau A(t) from creep under the normal load only; slip-independent"
    return ds


def _run_mlbnm(protocol: AbstractProtocol, quick: bool) -> xr.Dataset:
    """MLBNM (vf60-calibrated) through ``simulate``: one constant stage velocity at the preset's 88 N."""
    from ..core.registry import make_model
    from ..solve import simulate

    dur = float(protocol.duration)
    ds = simulate(make_model("beam_network", "vf60-calibrated"), protocol, save_dt=dur / (1000 if quick else 4000))
    ds.attrs["compare_note"] = "stage (driver) velocity and displacement"
    return ds


def _run_rough(protocol: AbstractProtocol, quick: bool) -> xr.Dataset:
    """Rough-contact sliding (Hulikal et al. 2015, part 2) through ``simulate`` on a small periodic surface.

    Quick: a 32 x 32 patch on a 256 x 32 rigid surface (correlation length 5, wrapping
    allowed, 1 um of slip per step); full: 64 x 64 on 512 x 64, 0.5 um per step; ``table1``
    parameters, the protocol's normal force (1 N on the quick patch is about 1 GPa nominal).
    The patch is small, so the friction carries roughness noise of several percent.
    """
    from ..core.registry import make_model
    from ..solve import simulate

    n, mx, s_max = (32, 256, 1.0) if quick else (64, 512, 0.5)
    model = make_model("rough_contact", "table1", patch_nx=n, patch_ny=n, surface_mx=mx, surface_beta=5.0,
                       surface_wrap=True)
    ds = simulate(model, protocol, s_max=s_max)
    if ds.sizes.get("jump", 0) and np.isfinite(ds.direct_effect_expected.values[0]):
        # the driver evaluates the jump on the unchanged state (paper Sec. 5.5)
        ds.attrs["compare_direct_effect"] = float(ds.mu_after.values[0] - ds.mu_before.values[0])
        ds.attrs["compare_direct_expected"] = float(ds.direct_effect_expected.values[0])
    ds.attrs["compare_note"] = f"{n}x{n} patch on a {mx}x{n} periodic rigid surface (wrapping allowed)"
    return ds


# --------------------------------------------------------------------------- registry
register_adapter(_law_adapter("coulomb", _make("coulomb"), "Coulomb mu = 0.5 (exact sign law)",
                              direct="static", rate_strengthening=False, heals=False))
register_adapter(_law_adapter("stribeck", _make("stribeck", "canudas1995", normal_scaling=True),
                              "static Stribeck curve, Canudas de Wit et al. 1995 values (normal-scaled)",
                              direct="static", rate_strengthening=False, heals=False))
register_adapter(_law_adapter("dahl", _make("dahl", "unit", normal_scaling=True),
                              "Dahl (1968), sigma0 = 1e5 N/m, fc = 1 (normal-scaled)", direct="zero",
                              rate_strengthening=False, heals=False))
register_adapter(_law_adapter("lugre", _make("lugre", "canudas1995", normal_scaling=True),
                              "LuGre, Canudas de Wit et al. 1995 values (normal-scaled)", direct="lugre",
                              rate_strengthening=False, heals=False))
register_adapter(_law_adapter("gms", _make("gms", "four-element", normal_scaling=True),
                              "generalised Maxwell-slip, four elements (normal-scaled); element forces are "
                              "frozen at zero slip rate", direct="viscous",
                              rate_strengthening=True, heals=False))
register_adapter(_law_adapter("rate_state", _make_rate_state,
                              "Dieterich-Ruina aging law, granite-typical (a 0.010, b 0.015, Dc 10 um), "
                              "arcsinh form, steady at the first velocity",
                              direct="rate_state", rate_strengthening=True, heals=True))
register_adapter(_law_adapter("kloss", _make("kloss", "fig4a", normal_scaling=True),
                              "Kloss law, Martinez Molina 2025 Fig. 4(a) (f_max 1, v_max0 0.01 m/s, zeta 0.5)",
                              direct="static", rate_strengthening=None, heals=False))
register_adapter(_law_adapter("subloading", _make("subloading", "common"),
                              "subloading friction (Ozaki et al. 2020) Sec. 4 set, return mapping, "
                              "f_n = fn_init = 0.3 MPa", stress=True, steady="subloading",
                              rate_strengthening=True, heals=True))
register_adapter(ModelAdapter("microjunction", _run_microjunction,
                              "creeping Jackson-Green microjunction ensemble (Goedecke 2013), 200/1000 junctions"))
register_adapter(ModelAdapter("beam_network", _run_mlbnm, "MLBNM beam network (vf60-calibrated), constant velocity only"))
register_adapter(ModelAdapter("rough_contact", _run_rough,
                              "rough-contact asperity ensemble sliding (Hulikal et al. 2015), table1, 100 MPa; "
                              "32^2 patch (quick) / 64^2 (full) on a periodic surface", rate_strengthening=True))

#: models run by default (every registered adapter)
DEFAULT_MODELS: tuple[str, ...] = tuple(ADAPTERS)


def run_model(name: str, protocol: AbstractProtocol, quick: bool = True, system: Any = None) -> xr.Dataset:
    """Run one adapter (in ``system`` when given) and check that it returned the standard variables."""
    if name not in ADAPTERS:
        raise ConfigError(f"unknown model {name!r} for compare{suggest(name, ADAPTERS)}; known: {', '.join(ADAPTERS)}")
    ad = ADAPTERS[name]
    if system is None:
        ds = ad.run(protocol, quick)
    elif ad.run_system is None:
        raise ConfigError(f"{name}: this adapter runs only under prescribed slip, not in system {system.type_name!r}")
    else:
        ds = ad.run_system(protocol, system, quick)
    if "friction_coefficient" not in ds and "friction_force" in ds and "normal_force" in ds:
        ds["friction_coefficient"] = ds.friction_force / ds.normal_force
    missing = [v for v in ("friction_coefficient", "slip", "slip_velocity") if v not in ds]
    if missing:
        raise FrictionLabError(f"adapter {name!r} returned no {', '.join(missing)}")
    return ds


# --------------------------------------------------------------------------- RSF closed form + fit
def _segments(protocol: AbstractProtocol) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Edges [s] and the velocity on each segment of a piecewise-constant velocity protocol."""
    segs = protocol.segments()
    if any(s.velocity is None for s in segs):
        raise ConfigError(f"the rate-and-state fit needs a piecewise-constant velocity protocol "
                          f"(velocity_steps, slide_hold_slide, constant_velocity); got {protocol.type_name!r}")
    edges = np.array([s.t_start for s in segs] + [segs[-1].t_end], dtype=float)
    return edges, np.abs(np.array([s.velocity for s in segs], dtype=float))


def rsf_prescribed_mu(t: NDArray[np.float64], edges: NDArray[np.float64], velocities: NDArray[np.float64],
                      mu_ref: float, a: float, b: float, dc: float, law: str = "aging") -> NDArray[np.float64]:
    r"""Friction of the Dieterich-Ruina law under prescribed piecewise-constant slip (closed form).

    Parameters
    ----------
    t : sample times [s], increasing; the law starts at steady state at ``t[0]``.
    edges : segment boundaries [s]; ``velocities`` [m/s] on each segment (>= 0).
    mu_ref : steady friction at the velocity of ``t[0]`` [1]; a, b [1]; dc [m].
    law : ``"aging"`` or ``"slip"``.

    Returns
    -------
    :math:`\mu(t)` [1] (see module docstring); NaN where the velocity is zero.
    """
    t = np.asarray(t, dtype=float)
    # segment index of each sample (a sample on an edge takes the new segment, as the protocols do)
    k_of = np.clip(np.searchsorted(edges, t + 1e-12 * np.maximum(1.0, np.abs(t)), side="right") - 1, 0,
                   velocities.size - 1)
    k0 = int(k_of[0])
    v_ref = float(velocities[k0])
    if v_ref <= 0:
        raise ParameterError("rsf_prescribed_mu: the fit window must start while sliding (velocity > 0)")
    # log(v_ref theta / dc) at the start of each segment, then inside
    theta0 = np.empty(velocities.size)  # theta at segment start [s]
    theta0[k0] = dc / v_ref
    starts = edges[:-1].copy()
    starts[k0] = t[0]
    for k in range(k0, velocities.size - 1):
        vk = velocities[k]
        dur = edges[k + 1] - starts[k]
        theta0[k + 1] = _theta_after(theta0[k], vk, dur, dc, law)
    vk = velocities[k_of]
    th = _theta_after(theta0[k_of], vk, t - starts[k_of], dc, law)
    with np.errstate(divide="ignore", invalid="ignore"):
        mu = mu_ref + a * np.log(vk / v_ref) + b * np.log(v_ref * th / dc)
    return np.where(vk > 0, mu, np.nan)


def _theta_after(theta, v, dt, dc, law):
    theta = np.asarray(theta, dtype=float)
    v = np.asarray(v, dtype=float)
    dt = np.asarray(dt, dtype=float)
    vs = np.where(v > 0, v, 1.0)
    if law == "slip":
        x0 = np.log(vs * theta / dc)
        moving = dc / vs * np.exp(x0 * np.exp(-vs * dt / dc))
        return np.where(v > 0, moving, theta)
    moving = dc / vs + (theta - dc / vs) * np.exp(-vs * dt / dc)
    return np.where(v > 0, moving, theta + dt)


def PrescribedSlipRSF(protocol: AbstractProtocol, law: str = "aging", *, dc_max: float = 1.0) -> Any:
    """A :class:`frictionlab.fit.FitModel` of the closed-form RSF law under ``protocol``'s velocity.

    Parameters ``mu_ref`` [1], ``a`` [1], ``b`` [1], ``dc`` [m]; data are
    :class:`frictionlab.fit.XYData` with ``x`` = time [s] and ``y`` = friction coefficient.
    """
    from ..fit.data import XYData
    from ..fit.models import FitModel

    edges, vels = _segments(protocol)

    @dataclass
    class _RSF(FitModel):
        def predict(self, params: Mapping[str, float], data: Any) -> NDArray[np.float64]:
            x = data.x if isinstance(data, XYData) else np.asarray(data, dtype=float)
            return rsf_prescribed_mu(x, edges, vels, params["mu_ref"], params["a"], params["b"], params["dc"], law)

    return _RSF(f"rsf-prescribed-slip-{law}", ("mu_ref", "a", "b", "dc"),
                {"mu_ref": 0.5, "a": 0.01, "b": 0.01, "dc": 1e-5},
                {"mu_ref": (-10.0, 10.0), "a": (1e-7, 10.0), "b": (1e-7, 10.0), "dc": (1e-10, dc_max)},
                ("a", "b", "dc"), "Dieterich-Ruina law under prescribed slip (closed form)", "time", "friction coefficient")


def fit_rsf(ds: xr.Dataset, protocol: AbstractProtocol, *, law: str = "aging", t_start: float | None = None,
            n_starts: int = 6, seed: int = 0, max_points: int = 6000, noise: float = 0.0) -> Any:
    """Fit the RSF law (closed form under prescribed slip) to one model's ``friction_coefficient``.

    The window starts at ``t_start`` (default: the middle of the first segment, after any
    initial presliding transient) and keeps only sliding samples (v > 0). ``noise`` > 0 adds
    seeded Gaussian noise of that standard deviation [1] to the record first (a synthetic
    measurement, so that the standard errors are statistical rather than round-off). Returns the fitted
    :class:`frictionlab.fit.Fitter` (``params_``, ``stderr_``, ``fit_percent_``).
    """
    from ..fit import Fitter
    from ..fit.data import XYData

    edges, vels = _segments(protocol)
    if vels.size < 2:
        raise ConfigError("rate-and-state fit: a single constant-velocity segment has no transient; "
                          "b and D_c are not identifiable (use velocity steps or slide-hold-slide)")
    if t_start is None:
        t_start = 0.5 * (edges[0] + edges[1])
    t = ds.time.values
    mu = ds.friction_coefficient.values
    v = np.abs(protocol.velocity(t))
    sel = (t >= t_start - 1e-12) & (v > 0) & np.isfinite(mu)
    t, mu = t[sel], mu[sel]
    if t.size < 8:
        raise ConfigError(f"rate-and-state fit: only {t.size} sliding samples after t = {t_start:g} s")
    if t.size > max_points:
        idx = np.unique(np.linspace(0, t.size - 1, max_points).round().astype(int))
        t, mu = t[idx], mu[idx]
    if noise < 0 or not math.isfinite(noise):
        raise ParameterError(f"fit noise = {noise!r} must be a finite standard deviation >= 0")
    if noise > 0:
        mu = mu + np.random.default_rng(seed).normal(0.0, noise, mu.size)
    slip_total = float(np.sum(vels * np.diff(edges)))
    fm = PrescribedSlipRSF(protocol, law, dc_max=max(slip_total, 1e-9))
    x0 = {"mu_ref": float(mu[0]), "a": 0.01, "b": 0.01, "dc": slip_total / 50.0}
    # with a single sliding velocity in the window (slide-hold-slide) the direct effect never
    # acts: a is not identifiable and is held at 0 (reported as NaN)
    v_win = np.unique(np.abs(protocol.velocity(t)).round(15))
    fixed = {"a": 0.0} if np.count_nonzero(v_win > 0) < 2 else None
    f = Fitter(fm, x0=x0, n_starts=n_starts, seed=seed, fixed=fixed)
    return f.fit(XYData(t, mu, "time", "friction_coefficient"))


# --------------------------------------------------------------------------- diagnostics
def _first_change(protocol: AbstractProtocol) -> tuple[float, float, float] | None:
    """(time, v_before, v_after) of the first velocity change between two sliding segments, if any."""
    try:
        edges, vels = _segments(protocol)
    except ConfigError:
        return None
    for k in range(vels.size - 1):
        if vels[k] > 0 and vels[k + 1] > 0 and vels[k + 1] != vels[k]:
            return float(edges[k + 1]), float(vels[k]), float(vels[k + 1])
    return None


def _diagnostics(name: str, ds: xr.Dataset, protocol: AbstractProtocol) -> dict[str, Any]:
    ad = ADAPTERS[name]
    out: dict[str, Any] = {}
    t = ds.time.values
    mu = ds.friction_coefficient.values
    ch = _first_change(protocol)
    if ch is not None:
        t_step, v0, v1 = ch
        edges, _ = _segments(protocol)
        k = int(np.searchsorted(edges, t_step + 1e-12 * max(1.0, t_step)) - 1)
        t_next = float(edges[min(k + 1, edges.size - 1)])
        i1 = int(np.searchsorted(t, t_step - 1e-9 * max(1.0, t_step)))
        i0 = i1 - 1
        if 0 <= i0 and i1 < t.size:
            out["direct_effect"] = float(mu[i1] - mu[i0])
            win = (t >= t[i1]) & (t <= t_step + 0.05 * (t_next - t_step))
            out["peak_after_step"] = float(np.max(mu[win]) - mu[i0])
            if ad.direct_effect is not None:
                out["direct_expected"] = float(ad.direct_effect(ds, protocol, i0, i1))
        if "compare_direct_effect" in ds.attrs:  # the driver's own record of the jump (same state, new v)
            out["direct_effect"] = float(ds.attrs["compare_direct_effect"])
            out["direct_expected"] = float(ds.attrs.get("compare_direct_expected", math.nan))
        i_end = int(np.searchsorted(t, t_next - 1e-9 * max(1.0, t_next))) - 1
        out["steady_after_step"] = float(mu[max(i_end, 0)])
        if ad.steady is not None:
            out["steady_expected"] = float(ad.steady(v1, protocol))
    windows = _hold_windows(protocol)
    t_ref = float(windows[0][0]) if windows else (ch[0] if ch is not None else None)
    if t_ref is not None:
        before = t < t_ref - 1e-9 * max(1.0, t_ref)
        if before.any():
            out["mu_reference"] = float(mu[before][-1])
    if windows:
        peaks = []
        for (h0, h1) in windows:
            before = t < h0 - 1e-9 * max(1.0, h0)
            slide = _after_hold(protocol, h1, h1 - h0)
            after = (t >= h1 - 1e-9 * max(1.0, h1)) & (t <= h1 + 0.5 * slide)
            if before.any() and after.any():
                peaks.append(float(np.max(mu[after]) - mu[before][-1]))
            else:
                peaks.append(math.nan)
        out["hold_peaks"] = peaks
    return out


# --------------------------------------------------------------------------- compare
def _interp_segments(grid: NDArray[np.float64], t: NDArray[np.float64], y: NDArray[np.float64],
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


def _grid(protocol: AbstractProtocol, n: int) -> NDArray[np.float64]:
    g = np.linspace(0.0, float(protocol.duration), n)
    return np.unique(np.concatenate([g, np.asarray(protocol.breakpoints, dtype=float)]))


def compare(protocol: AbstractProtocol, models: Sequence[str] | None = None, quick: bool = True, *,
            fit: bool = True, law: str = "aging", n_grid: int | None = None, fit_noise: float = 0.0,
            seed: int = 0, system: Any = None) -> xr.Dataset:
    """Run ``protocol`` through each model of ``models`` (default all of :data:`ADAPTERS`).

    Parameters
    ----------
    protocol : a protocol object, shared unchanged by every model
    models : adapter names; unknown names raise :class:`ConfigError` with suggestions
    quick : shorter integration (1e4 steps instead of 4e4; smaller ensembles)
    fit : fit the RSF law to each model's response (needs a piecewise-constant velocity)
    law : evolution law of the fitted RSF model (``"aging"`` or ``"slip"``)
    n_grid : points of the common time grid (default 2001 quick, 8001 full)
    fit_noise, seed : standard deviation [1] of seeded Gaussian noise added to each record
        before the RSF fit (0: fit the noise-free output), and its seed
    system : host the models in this system (e.g. ``frictionlab.systems.spring_slider(...)``)
        instead of prescribed slip; the protocol velocity then drives the load point. Only
        force-based rate laws run there; the RSF fit and the step diagnostics (which assume
        prescribed slip) are skipped.

    Returns
    -------
    xarray.Dataset over ``(model, time)`` (see module docstring); ``attrs["failed"]`` lists
    the models whose adapter raised, with the reason also in ``status``.
    """
    if not isinstance(protocol, AbstractProtocol):
        raise ConfigError(f"compare needs a protocol object, got {type(protocol).__name__}")
    names = list(models) if models is not None else list(ADAPTERS)
    if not names:
        raise ConfigError("compare: empty model list")
    for n in names:
        if n not in ADAPTERS:
            raise ConfigError(f"unknown model {n!r} for compare{suggest(n, ADAPTERS)}; known: {', '.join(ADAPTERS)}")
    if law not in ("aging", "slip"):
        raise ConfigError(f"compare: law = {law!r} must be 'aging' or 'slip'")
    grid = _grid(protocol, n_grid or (2001 if quick else 8001))
    seg_edges = np.asarray((0.0, *protocol.breakpoints, float(protocol.duration)))
    nm, ng = len(names), grid.size
    arrays = {v: np.full((nm, ng), np.nan) for v in STANDARD}
    units = {v: "1" for v in STANDARD}
    units.update(slip="m", slip_velocity="m/s", friction_force="N", normal_force="N")
    status, descr, seconds = [], [], np.full(nm, np.nan)
    diag_keys = ("direct_effect", "direct_expected", "peak_after_step", "steady_after_step", "steady_expected",
                 "mu_reference")
    diags = {k: np.full(nm, np.nan) for k in diag_keys}
    n_holds = len(_hold_windows(protocol))
    hold_peaks = np.full((nm, max(n_holds, 1)), np.nan)
    fit_keys = ("mu_ref", "a", "b", "dc")
    fits = {f"rsf_{k}": np.full(nm, np.nan) for k in fit_keys}
    fits.update({f"rsf_{k}_stderr": np.full(nm, np.nan) for k in fit_keys})
    fits["rsf_fit_percent"] = np.full(nm, np.nan)
    fit_status = []
    force_units = []
    for i, name in enumerate(names):
        descr.append(ADAPTERS[name].description)
        t0 = _time.perf_counter()
        try:
            ds = run_model(name, protocol, quick, system)
        except Exception as exc:  # noqa: BLE001 - reported per model, never dropped
            status.append(f"failed: {type(exc).__name__}: {exc}")
            fit_status.append("not run")
            force_units.append("")
            continue
        seconds[i] = _time.perf_counter() - t0
        status.append("ok")
        t = ds.time.values
        for v in STANDARD:
            if v in ds:
                arrays[v][i] = _interp_segments(grid, t, ds[v].values, seg_edges)
        force_units.append(str(ds.friction_force.attrs.get("units", "N")) if "friction_force" in ds else "")
        d = _diagnostics(name, ds, protocol) if system is None else {}
        for k in diag_keys:
            if k in d:
                diags[k][i] = d[k]
        if "hold_peaks" in d:
            hold_peaks[i, :len(d["hold_peaks"])] = d["hold_peaks"]
        if fit and system is not None:
            fit_status.append("skipped: the RSF closed form assumes prescribed slip")
        elif fit:
            try:
                f = fit_rsf(ds, protocol, law=law, noise=fit_noise, seed=seed)
                for k in fit_keys:
                    if k in f.free_:
                        fits[f"rsf_{k}"][i] = f.params_[k]
                        fits[f"rsf_{k}_stderr"][i] = f.stderr_[k]
                fits["rsf_fit_percent"][i] = f.fit_percent_
                fit_status.append("ok")
            except Exception as exc:  # noqa: BLE001
                fit_status.append(f"failed: {type(exc).__name__}: {exc}")
        else:
            fit_status.append("not requested")
    out = xr.Dataset(coords={"model": ("model", names), "time": ("time", grid, {"units": "s"})})
    for v in STANDARD:
        out[v] = (("model", "time"), arrays[v], {"units": units[v]})
    out["friction_force"].attrs["units"] = "N (Pa for stress-based models, see force_units)"
    out["normal_force"].attrs["units"] = "N (Pa for stress-based models, see force_units)"
    out["force_units"] = ("model", force_units)
    out["status"] = ("model", status)
    out["description"] = ("model", descr)
    out["run_seconds"] = ("model", seconds, {"units": "s"})
    diag_units = {k: "1" for k in diag_keys}
    for k in diag_keys:
        out[k] = ("model", diags[k], {"units": diag_units[k]})
    if n_holds:
        out = out.assign_coords(hold=("hold", np.asarray(protocol.holds, dtype=float), {"units": "s"}))
        out["hold_peaks"] = (("model", "hold"), hold_peaks, {"units": "1"})
    for k, arr in fits.items():
        u = "m" if k.startswith("rsf_dc") else ("%" if k.endswith("percent") else "1")
        out[k] = ("model", arr, {"units": u})
    out["rsf_fit_status"] = ("model", fit_status)
    ch = _first_change(protocol)
    out.attrs.update({
        "protocol": protocol.type_name, "system": "prescribed_slip" if system is None else system.type_name,
        "quick": int(bool(quick)), "rsf_law": law, "rsf_fit_noise": fit_noise,
        "rsf_fit_seed": seed,
        "failed": ", ".join(n for n, s in zip(names, status) if s != "ok"),
        **{f"protocol.{k}": v for k, v in _flat_attrs(protocol).items()},
    })
    if ch is not None:
        out.attrs.update({"step_time": ch[0], "v_before": ch[1], "v_after": ch[2], "ref_time": ch[0]})
    windows = _hold_windows(protocol)
    if windows:
        out.attrs["ref_time"] = float(windows[0][0])
    return out


def _hold_windows(protocol: AbstractProtocol) -> list[tuple[float, float]]:
    """(start, end) [s] of every hold segment of ``protocol``."""
    return [(s.t_start, s.t_end) for s in protocol.segments() if s.kind == "hold"]


def _after_hold(protocol: AbstractProtocol, t_end_hold: float, fallback: float) -> float:
    """Duration [s] of the segment that starts when a hold ends (``fallback`` at the end)."""
    for s in protocol.segments():
        if abs(s.t_start - t_end_hold) <= 1e-9 * max(1.0, t_end_hold):
            return s.duration
    return fallback


def _flat_attrs(protocol: AbstractProtocol) -> dict[str, Any]:
    out = {}
    for k, v in protocol.attrs().items():
        if isinstance(v, (tuple, list)):
            out[k] = np.asarray(v, dtype=float) if len(v) else "()"
        else:
            out[k] = v
    return out


def rsf_table(ds: xr.Dataset) -> list[dict[str, Any]]:
    """The fitted RSF parameters as rows ``{model, a, a_stderr, b, ..., fit_percent, status}``."""
    rows = []
    for i, m in enumerate(ds.model.values):
        row: dict[str, Any] = {"model": str(m), "status": str(ds.status.values[i]),
                               "fit": str(ds.rsf_fit_status.values[i])}
        for k in ("mu_ref", "a", "b", "dc"):
            row[k] = float(ds[f"rsf_{k}"].values[i])
            row[f"{k}_stderr"] = float(ds[f"rsf_{k}_stderr"].values[i])
        row["fit_percent"] = float(ds.rsf_fit_percent.values[i])
        rows.append(row)
    return rows


def format_table(ds: xr.Dataset) -> str:
    """Plain-text table of the RSF fit (value ± standard error)."""
    lines = [f"{'model':<14} {'a':>22} {'b':>22} {'D_c [um]':>24} {'FIT %':>8}  status"]
    for r in rsf_table(ds):
        if r["status"] != "ok" or r["fit"] != "ok":
            why = r["status"] if r["status"] != "ok" else "fit " + r["fit"]
            lines.append(f"{r['model']:<14} {'-':>22} {'-':>22} {'-':>24} {'-':>8}  {why[:110]}")
            continue
        lines.append(f"{r['model']:<14} {_pm(r['a'], r['a_stderr'], 1e-7):>22} {_pm(r['b'], r['b_stderr'], 1e-7):>22} "
                     f"{_pm(r['dc'] * 1e6, r['dc_stderr'] * 1e6, 1e-4):>24} {_pct(r['fit_percent']):>8}  ok")
    return "\n".join(lines)


def _pm(x: float, se: float, lower: float | None = None) -> str:
    if not math.isfinite(x):
        return "n/a (fixed)"
    if lower is not None and x <= lower * 1.0001:
        return f"<= {lower:.0e} (at bound)"
    if not (math.isfinite(se) and se > 0):
        return f"{x:.4g} (not determined)"
    return f"{x:.4g} ± {se:.2g}"


def _pct(x: float) -> str:
    return f"{x:.2f}" if math.isfinite(x) and x > -1e4 else "n/a"


def plot_compare(ds: xr.Dataset, title: str = ""):
    """All models together: friction coefficient, its change since a reference instant, the RSF table.

    The abscissa is time, or slip for protocols with holds (the holds then collapse onto
    the reslide points). Samples at zero slip rate are not drawn. The reference instant is
    just before the first velocity change or the first hold. The lower panel's range follows
    the models whose change (after half the reference time) stays within 5 times the median
    range; the others are named as clipped.
    """
    from ..plot import plt

    fig = plt.figure(figsize=(11, 9))
    gs = fig.add_gridspec(3, 1, height_ratios=[3, 3, 2.2])
    ax0, ax1, ax2 = fig.add_subplot(gs[0]), fig.add_subplot(gs[1]), fig.add_subplot(gs[2])
    t = ds.time.values
    holds = "hold" in ds.dims
    i_ref = 0
    t_ref = float(ds.attrs.get("ref_time", t[0]))
    lines, ranges = {}, {}
    for i, m in enumerate(ds.model.values):
        if ds.status.values[i] != "ok":
            continue
        mu = ds.friction_coefficient.values[i].copy()
        v = ds.slip_velocity.values[i]
        x = ds.slip.values[i] * 1e3 if holds else t
        mu[v == 0] = np.nan
        ref = float(ds.mu_reference.values[i]) if "mu_reference" in ds else math.nan
        d = mu - (ref if math.isfinite(ref) else mu[i_ref])
        ax0.plot(x, mu, lw=1.2, label=str(m))
        lines[str(m)] = ax1.plot(x, d, lw=1.2, label=str(m))[0]
        fin = d[np.isfinite(d) & (t >= 0.5 * t_ref)]
        ranges[str(m)] = float(np.ptp(fin)) if fin.size else 0.0
    if ranges:
        med = float(np.median([r for r in ranges.values() if r > 0] or [1.0]))
        keep = [m for m, r in ranges.items() if r <= 5 * med]
        clipped = [m for m in ranges if m not in keep]
        late = t >= 0.5 * t_ref
        vals = np.concatenate([np.asarray(lines[m].get_ydata())[late & np.isfinite(lines[m].get_ydata())]
                               for m in keep] or [np.zeros(1)])
        vals = vals if vals.size else np.zeros(1)
        lo, hi = float(vals.min()), float(vals.max())
        pad = 0.05 * (hi - lo or 1.0)
        ax1.set_ylim(lo - pad, hi + pad)
        if clipped:
            ax1.set_title(f"clipped: {', '.join(clipped)}", fontsize=8, loc="right")
    xl = "slip [mm]" if holds else "time [s]"
    ax0.set_ylabel("friction coefficient [1]")
    ax1.set_ylabel("change since reference [1]")
    ax1.set_xlabel(xl)
    ax0.set_xlabel(xl)
    ax0.legend(fontsize=7, ncol=3)
    ax2.axis("off")
    txt = f"fitted rate-and-state ({ds.attrs.get('rsf_law', 'aging')} law) parameters:\n" + format_table(ds)
    ax2.text(0.0, 1.0, txt, va="top", ha="left", family="monospace", fontsize=6.5, wrap=False)
    if title:
        ax0.set_title(title, fontsize=10)
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------- scenario checks
def _row(ds: xr.Dataset, name: str) -> int | None:
    names = [str(m) for m in ds.model.values]
    return names.index(name) if name in names else None


def model_coverage_check(ds: xr.Dataset, requested: Sequence[str]):
    """Every requested model appears in the result, run or with the reason it could not run."""
    from ..scenarios.base import check

    names = [str(m) for m in ds.model.values]
    ok = [n for n, s in zip(names, ds.status.values) if s == "ok"]
    failed = [f"{n} ({str(s)[:60]})" for n, s in zip(names, ds.status.values) if s != "ok"]
    passed = sorted(names) == sorted(requested) and all(str(s) for s in ds.status.values)
    return check("every requested model is run or reported with the reason it failed (none dropped)",
                 f"{len(requested)} models", f"{len(ok)} ran; failed: {'; '.join(failed) or 'none'}", passed)


def rsf_recovery_checks(ds: xr.Dataset, protocol: AbstractProtocol) -> list:
    """The RSF law fitted to the ``rate_state`` model recovers its own a, b, D_c within 3 standard errors."""
    from ..scenarios.base import check

    i = _row(ds, "rate_state")
    if i is None:
        return []
    truth = _make_rate_state(protocol)
    out = []
    for k in ("a", "b", "dc"):
        val, se = float(ds[f"rsf_{k}"].values[i]), float(ds[f"rsf_{k}_stderr"].values[i])
        if not math.isfinite(val):
            out.append(check(f"RSF fit to the rate_state model: {k} not identifiable from this protocol "
                             "(single sliding velocity), held fixed", "fixed (n/a)", "fixed", True))
            continue
        exp = float(getattr(truth, k))
        err = abs(val - exp)
        out.append(check(f"RSF fit to the rate_state model recovers its own {k} within 3 standard errors",
                         f"{exp:.6g} ± 3 SE", f"{val:.8g} ± {se:.2g} (|err| = {err:.2g})",
                         err <= 3.0 * se))
    return out


def steady_checks(ds: xr.Dataset, rtol: float = 1e-3) -> list:
    """Friction at the end of the post-step segment equals the model's own steady-state curve."""
    from ..scenarios.base import check

    out = []
    for i, m in enumerate(ds.model.values):
        exp = float(ds.steady_expected.values[i])
        if ds.status.values[i] != "ok" or not math.isfinite(exp):
            continue
        got = float(ds.steady_after_step.values[i])
        out.append(check(f"{m}: friction at the end of the {ds.attrs['v_after']:g} m/s segment = its steady-state "
                         "curve", f"{exp:.6f} (rel {rtol:g})", got, abs(got - exp) <= rtol * max(abs(exp), 1e-3),
                         fmt=".6f"))
    return out


def direct_effect_checks(ds: xr.Dataset, rtol: float = 0.01) -> list:
    """Instantaneous jump at the step vs closed form; sign of the early response for rate-strengthening models."""
    from ..scenarios.base import check

    out = []
    for i, m in enumerate(ds.model.values):
        if ds.status.values[i] != "ok":
            continue
        exp = float(ds.direct_expected.values[i])
        got = float(ds.direct_effect.values[i])
        if math.isfinite(exp):
            out.append(check(f"{m}: instantaneous friction jump at the velocity step (closed form)",
                             f"{exp:+.6f} (rel {rtol:g}, abs 1e-6)", got,
                             abs(got - exp) <= max(rtol * abs(exp), 1e-6), fmt="+.6f"))
        if ADAPTERS.get(str(m)) is not None and ADAPTERS[str(m)].rate_strengthening:
            if math.isfinite(exp):  # an instantaneous jump exists: its sign
                out.append(check(f"{m}: positive direct effect (instantaneous rise at the velocity increase)",
                                 "> 0", got, got > 0, fmt="+.3g"))
            else:  # elastic models: no jump, the rise builds over a short slip
                peak = float(ds.peak_after_step.values[i])
                out.append(check(f"{m}: positive direct effect (friction rises within 5 % of the segment after "
                                 "the velocity increase)", "> 0", peak, peak > 0, fmt="+.3g"))
    return out


def healing_checks(ds: xr.Dataset, protocol: AbstractProtocol, rtol: float = 0.01, atol_none: float = 1e-4) -> list:
    """Slide-hold-slide: RSF closed-form healing; no healing for memoryless laws; healing grows with hold."""
    from ..scenarios.base import check

    out = []
    holds = np.asarray(ds.hold.values, dtype=float)
    i = _row(ds, "rate_state")
    if i is not None and ds.status.values[i] == "ok":
        m = _make_rate_state(protocol)
        v = float(protocol.v)
        for k, th in enumerate(holds):
            exp = m.b * math.log(1.0 + v * th / m.dc)
            got = float(ds.hold_peaks.values[i, k])
            out.append(check(f"rate_state: reslide peak after a {th:g} s hold = b ln(1 + V t_h / D_c)",
                             f"{exp:.6f} (rel {rtol:g})", got, abs(got - exp) <= rtol * exp, fmt=".6f"))
    for j, name in enumerate(ds.model.values):
        ad = ADAPTERS.get(str(name))
        if ad is None or ds.status.values[j] != "ok" or ad.heals is None:
            continue
        peaks = ds.hold_peaks.values[j]
        if ad.heals:
            ok = bool(np.all(peaks > 0) and np.all(np.diff(peaks) > 0))
            out.append(check(f"{name}: friction heals during holds, more for longer holds",
                             "peaks > 0, increasing", ", ".join(f"{p:.4g}" for p in peaks), ok))
        else:
            worst = float(np.max(np.abs(peaks)))
            out.append(check(f"{name}: no healing (memoryless, or its state is frozen at zero slip rate)",
                             f"|peak| < {atol_none:g}", worst, worst < atol_none, fmt=".2g"))
    return out


def run_from_config(cfg: dict, quick: bool):
    """Run :func:`compare` from a scenario config (``protocol``, ``models``, ``law``, ``n_grid``,
    ``fit_noise``, ``seed``); shared by the ``classic/compare-*`` scenarios."""
    from ..protocols import make_protocol

    return compare(make_protocol(cfg["protocol"]), cfg["models"], quick, law=cfg["law"], n_grid=int(cfg["n_grid"]),
                   fit_noise=float(cfg["fit_noise"]), seed=int(cfg["seed"]))
