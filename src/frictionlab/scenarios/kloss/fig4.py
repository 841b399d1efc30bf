"""``kloss/fig4a`` and ``kloss/fig4b``: the static Kloss friction curve (Fig. 4).

F_max = 1, zeta = 0.5, v_max0 = 0.01 (a) and 1e-4 (b); relative velocity in [-1, 1] m/s
(range ours). The curve is the law run at constant velocity, one run per velocity of
``axes.protocol.v`` (a rate-independent law: the friction of each run is F(v) of eq. 11, bit for bit
the closed form), on a grid dense around 0 (log-spaced from v_max0/1000) and holding 0 and the
closed-form peak +-lambda_max of the printed parameters (eq. 12). A model set otherwise (``--set
model.v_max0=...``) runs on this grid unless ``axes.protocol.v`` is set too.
"""

from __future__ import annotations

import functools

import numpy as np
import xarray as xr

from ...laws.kloss import Kloss, kloss
from ...plot import plt
from ...reference import kloss as ref
from ..base import Mutation, Scenario, check, register_scenario
from ._common import REFS, curve_dataset, law_of


def velocities(v_max0: float, zeta: float, n_lin: int, n_log: int) -> list[float]:
    """The curve's slip velocities [m/s]: ``n_lin`` evenly over [-1, 1], ``n_log`` log-spaced magnitudes
    from v_max0/1000 to 1 in each direction, 0 and the peaks +-lambda_max (eq. 12), sorted."""
    lam = ref.peak_velocity(v_max0, zeta)
    logs = np.geomspace(v_max0 * 1e-3, 1.0, n_log)
    return np.unique(np.concatenate([np.linspace(-1.0, 1.0, n_lin), logs, -logs, [lam, -lam, 0.0]])).tolist()


def _config(v_max0: float) -> dict:
    return {"model": {"name": "kloss", "f_max": 1.0, "v_max0": v_max0, "zeta": 0.5},
            # each run is one step at its constant velocity: the law has no state, its friction is F(v) at once
            "protocol": {"type": "constant_velocity", "duration_s": 1.0},
            "integrator": {"dt": 1.0},
            "axes": {"protocol": {"v": velocities(v_max0, 0.5, 201, 301)}}}


def post(result, cfg: dict) -> xr.Dataset:
    """The curve F(v): the friction at the end of each constant-velocity run, by increasing v."""
    v = np.array(result.axis_values("protocol.v"), dtype=float)
    f = np.array([float(ds.friction_force.values[-1]) for ds in result.of_run()])
    order = np.argsort(v, kind="stable")
    return curve_dataset("slip_velocity", v[order], {"slip_velocity": "m/s", "friction_force": "N"},
                         {"friction_force": f[order]}, {**law_of(cfg).attrs(), "model": "kloss"})


#: the parameters Fig. 4 prints (Martinez Molina 2025, Sec. V.A): F_max = 1, zeta = 0.5, and
#: v_max0 = 0.01 (a) or 1e-4 (b); the paper checks compare the run with what these give
PRINTED = {"f_max": 1.0, "zeta": 0.5}

#: wrong readings or implementations the paper checks must see (reproduce --mutations)
_ZETA = Mutation("zeta read as 0.6 instead of the printed 0.5", {"model.zeta": 0.6})
_FMAX = Mutation("F_max read as 1.2 instead of the printed 1.0", {"model.f_max": 1.2})


def checks(ds: xr.Dataset, cfg: dict, v0_printed: float) -> list:
    """The claims of Fig. 4 against the curve that ran; ``v0_printed``: the figure's printed v_max0."""
    m = cfg["model"]
    fmax, v0, z = m["f_max"], m["v_max0"], m["zeta"]
    v = ds.slip_velocity.values
    f = ds.friction_force.values
    lam = ref.peak_velocity(v0_printed, PRINTED["zeta"])  # eq. 12 at the printed parameters
    i = int(np.argmax(f))
    fc = ref.coulomb_level(PRINTED["f_max"], PRINTED["zeta"])  # eq. 13 at the printed parameters
    law = Kloss(f_max=fmax, v_max0=v0, zeta=z)
    f_far = float(law.friction_curve(np.array([1e9 * v0]))[0])  # the run's model far out: its Coulomb level
    h = v0 * 1e-6
    slope = float((kloss(np.array([h]), fmax, v0, z)[0] - kloss(np.array([-h]), fmax, v0, z)[0]) / (2 * h))
    odd = float(np.max(np.abs(f + np.interp(-v, v, f))))
    # scaling: eq. 11 depends on v/v_max0 only, so F(v; v_max0) = F(100 v; 100 v_max0)
    vv = np.linspace(-1, 1, 101)
    scale = float(np.max(np.abs(kloss(vv, fmax, v0, z) - kloss(100 * vv, fmax, 100 * v0, z))))
    f0 = float(f[np.searchsorted(v, 0.0)])
    return [
        check("Stribeck hump: maximum F_max at lambda_max = v_max0/(1 - zeta/2) (eq. 12, Fig. 4 parameters)",
              f"{PRINTED['f_max']:g} at {lam:.6g} m/s", f"{f[i]:.12g} at {v[i]:.6g} m/s",
              abs(f[i] - PRINTED["f_max"]) < 1e-12 and abs(v[i] - lam) <= 1e-12 + 1e-9 * lam,
              mutations=(_ZETA, _FMAX, Mutation("v_max0 read 10x larger", {"model.v_max0": 10 * v0_printed}))),
        check("Coulomb level zeta F_max/(1 + zeta^2/4) at high |v|, set by zeta (eq. 13; Sec. V.A on Fig. 4)",
              f"{fc:.6f} (abs 1e-6)", f_far, abs(f_far - fc) < 1e-6, fmt=".6f", mutations=(_ZETA, _FMAX)),
        check("well defined and zero at v = 0, a continuous curve (Sec. V.A on Fig. 4)", "0 exactly", f0, f0 == 0.0,
              insensitive="eq. 11 gives F(0) = 0 for every parameter value; no reading of the printed parameters "
                          "can move it"),
        check("|F| <= F_max everywhere (AM-GM on eq. 11)", "<= 1 + 1e-14", float(np.max(np.abs(f))) / fmax,
              np.max(np.abs(f)) <= fmax * (1 + 1e-14), fmt=".15g", kind="verification"),
        check("viscous slope 2 F_max / v_max0 at 0 (eq. 11 expanded at v = 0)", f"{2 * fmax / v0:.6g} (rel 1e-6)",
              slope, abs(slope - 2 * fmax / v0) < 1e-6 * 2 * fmax / v0, fmt=".6g", kind="verification"),
        check("odd: F(-v) = -F(v)", "max |F(v) + F(-v)| < 1e-12", odd, odd < 1e-12, kind="verification"),
        check("scaling: curves for different v_max0 coincide after rescaling v (eq. 11 depends on v/v_max0)",
              "< 1e-12", scale, scale < 1e-12, kind="verification"),
    ]


def plot(ds: xr.Dataset):
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 3.8))
    v, f = ds.slip_velocity.values, ds.friction_force.values
    a1.plot(v, f, "b-")
    a1.set(xlabel="relative velocity [m/s]", ylabel="friction / F_max")
    pos = v > 0
    a2.semilogx(v[pos], f[pos], "b-")
    a2.set_xlabel("relative velocity [m/s] (log)")
    fig.suptitle(f"Kloss friction law, v_max0 = {ds.attrs.get('v_max0'):g} m/s, zeta = {ds.attrs.get('zeta'):g}")
    return fig


for _tag, _v0 in (("fig4a", 0.01), ("fig4b", 1e-4)):
    register_scenario(Scenario(
        name=f"kloss/{_tag}",
        description=(f"Static Kloss friction F(v) (Fig. 4{_tag[-1]}): F_max = 1, zeta = 0.5, v_max0 = {_v0:g} m/s; "
                     "Stribeck hump to F_max, Coulomb plateau 0.4706, viscous at 0."),
        config=_config(_v0), post=post, checks=functools.partial(checks, v0_printed=_v0), plot=plot,
        quick={"axes.protocol.v": velocities(_v0, 0.5, 21, 61)}, references=REFS,
        moved={"curve": "the curve's velocities are axes.protocol.v = [...] (m/s), one constant-velocity run each"},
    ))
