"""``kloss/fig4a`` and ``kloss/fig4b``: the static Kloss friction curve (Fig. 4).

F_max = 1, zeta = 0.5, v_max0 = 0.01 (a) and 1e-4 (b); relative velocity in [-1, 1] m/s
(range ours, spec A8), evaluated on a grid dense around 0 and at the closed-form peak.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...core.validation import CURVE_BYTES_PER_SAMPLE, check_count
from ...laws.kloss import Kloss, kloss
from ...plot import plt
from ...reference import kloss as ref
from ..base import Scenario, check, register_scenario
from ._common import REFS, curve_dataset


def _config(v_max0: float) -> dict:
    return {"model": {"name": "kloss", "f_max": 1.0, "v_max0": v_max0, "zeta": 0.5},
            "curve": {"v_min": -1.0, "v_max": 1.0, "n": 20001}}


def run(cfg: dict, quick: bool) -> xr.Dataset:
    m = cfg["model"]
    law = Kloss(f_max=m["f_max"], v_max0=m["v_max0"], zeta=m["zeta"])
    c = cfg["curve"]
    n = check_count("curve.n", c["n"], minimum=2, bytes_each=CURVE_BYTES_PER_SAMPLE)
    lin = np.linspace(c["v_min"], c["v_max"], n)
    logs = np.geomspace(law.v_max0 * 1e-3, max(abs(c["v_min"]), abs(c["v_max"])), 2001)
    v = np.unique(np.concatenate([lin, logs, -logs, [law.peak_velocity, -law.peak_velocity, 0.0]]))
    f = law.friction_curve(v)
    return curve_dataset("slip_velocity", v, {"slip_velocity": "m/s", "friction_force": "N"},
                         {"friction_force": f}, {**law.attrs(), "model": "kloss"})


def checks(ds: xr.Dataset, cfg: dict) -> list:
    m = cfg["model"]
    fmax, v0, z = m["f_max"], m["v_max0"], m["zeta"]
    v = ds.slip_velocity.values
    f = ds.friction_force.values
    lam = ref.peak_velocity(v0, z)
    i = int(np.argmax(f))
    fc = ref.coulomb_level(fmax, z)
    f_far = float(kloss(np.array([1e9]), fmax, v0, z)[0])
    h = v0 * 1e-6
    slope = float((kloss(np.array([h]), fmax, v0, z)[0] - kloss(np.array([-h]), fmax, v0, z)[0]) / (2 * h))
    odd = float(np.max(np.abs(f + np.interp(-v, v, f))))
    # K4 scaling: F(v; v_max0) = F(100 v; 100 v_max0)
    vv = np.linspace(-1, 1, 101)
    scale = float(np.max(np.abs(kloss(vv, fmax, v0, z) - kloss(100 * vv, fmax, 100 * v0, z))))
    f0 = float(f[np.searchsorted(v, 0.0)])
    return [
        check("maximum F_max at lambda_max = v_max0/(1 - zeta/2) (eq. 12)", f"{fmax:g} at {lam:.6g} m/s",
              f"{f[i]:.12g} at {v[i]:.6g} m/s", abs(f[i] - fmax) < 1e-12 and abs(v[i] - lam) <= 1e-12 + 1e-9 * lam),
        check("|F| <= F_max everywhere (AM-GM, spec K2)", "<= 1 + 1e-14", float(np.max(np.abs(f))) / fmax,
              np.max(np.abs(f)) <= fmax * (1 + 1e-14), fmt=".15g"),
        check("Coulomb plateau zeta F_max/(1 + zeta^2/4) as |v| -> inf (eq. 13)", f"{fc:.6f} (abs 1e-6)", f_far,
              abs(f_far - fc) < 1e-6, fmt=".6f"),
        check("well defined and zero at v = 0", "0 exactly", f0, f0 == 0.0),
        check("viscous slope 2 F_max / v_max0 at 0 (spec K1)", f"{2 * fmax / v0:.6g} (rel 1e-6)", slope,
              abs(slope - 2 * fmax / v0) < 1e-6 * 2 * fmax / v0, fmt=".6g"),
        check("odd: F(-v) = -F(v)", "max |F(v) + F(-v)| < 1e-12", odd, odd < 1e-12),
        check("scaling: curves for different v_max0 coincide after rescaling v (spec K4)", "< 1e-12", scale,
              scale < 1e-12),
    ]


def plot(ds: xr.Dataset):
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 3.8))
    v, f = ds.slip_velocity.values, ds.friction_force.values
    a1.plot(v, f, "b-")
    a1.set_xlabel("relative velocity [m/s]")
    a1.set_ylabel("friction / F_max")
    pos = v > 0
    a2.semilogx(v[pos], f[pos], "b-")
    a2.set_xlabel("relative velocity [m/s] (log)")
    fig.suptitle(f"Kloss friction law, v_max0 = {ds.attrs.get('v_max0'):g} m/s, zeta = {ds.attrs.get('zeta'):g}")
    fig.tight_layout()
    return fig


for _tag, _v0 in (("fig4a", 0.01), ("fig4b", 1e-4)):
    register_scenario(Scenario(
        name=f"kloss/{_tag}",
        description=(f"Static Kloss friction F(v) (Fig. 4{_tag[-1]}): F_max = 1, zeta = 0.5, v_max0 = {_v0:g} m/s; "
                     "Stribeck hump to F_max, Coulomb plateau 0.4706, viscous at 0."),
        config=_config(_v0), run=run, checks=checks, plot=plot, quick={"curve.n": 4001}, references=REFS,
    ))
