r"""``subloading/eq3-reduction``: the contact-area laws (eqs. 7, 8; Appendix eqs. 44-48) give eq. (3).

Ozaki et al. (2020), Appendix: with S_r decaying exponentially with plastic slip (eq. 44, whose
rate is eq. 7 / 45) and recovering exponentially in time by creep (eq. 46, rate eq. 8 / 47),
substituting into the consistency condition (eq. 43) gives eq. (48), and with eqs. (1) and (4)
"we can finally obtain the evolution law of the friction coefficient as Eq. (3)":

.. math::
    \dot\mu = -\frac{1}{\kappa}(\mu - \mu_{min})\|v^p\| + \frac{1}{\xi}(\mu_{max} - \mu),

with :math:`\mu = S_r\tau/f_n`, :math:`\mu_{min,max} = S_{min,max}\tau/f_n` at constant
:math:`\tau` and :math:`f_n` (Sec. 2: the shear strength does not vary at constant sliding
velocity; here c = 0 so that it does not vary at all).

The scenario runs the model (eqs. 7, 8 in the return mapping) through a slide-hold-slide at a
constant normal stress (Fig. 4 set, c = 0; 0.1 mm/s, 5 s slides, a 2 s hold: both terms act,
and the hold exercises eq. 46 alone) and integrates eq. (3) independently along the run's own
plastic slip u_p(t) and time, with the paper's kappa = 0.14 mm, xi = 2.5 s, S_min = 0.5,
S_max = 1, tau0 = 0.1 MPa. Each step of eq. (3) is integrated exactly (its rates are constant
over a step). The tolerance is the first-order error bound of the model's backward-Euler steps,
h (mu_max - mu_min) with h = du_max / kappa + dt_max / xi, from the integrator's settings.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ..base import Mutation, Scenario, check, register_scenario
from ._common import MM, MODEL_NAME, MPA, REFERENCE, models

CONFIG = {
    # the Fig. 4 set with c = 0 (tau = tau0 at every speed)
    "model": {"name": "subloading", "preset": "fig4", "c": 0.0},
    "protocol": {"type": "slide_hold_slide", "v": 0.1 * MM, "slide_duration": 5.0, "holds": [2.0],
                 "hold_velocity": 0.0, "normal_force_value": 0.3 * MPA},
    # slip increment du_max [m] per step (1e-5 mm), at most dt_max [s]
    "integrator": {"driver": "prescribed", "du_max": 1e-5 * MM, "dt_max": 1e-3},
}
#: what the paper prints for Secs. 4.1-4.3 (Fig. 4): kappa [m], xi [s], S_min, S_max, tau0 [Pa]
PRINTED = {"kappa": 0.14 * MM, "xi": 2.5, "s_min": 0.5, "s_max": 1.0, "tau0": 0.1 * MPA}
_KAPPA = Mutation("kappa read as 0.014 mm (a tenth of the printed 0.14 mm)", {"model.kappa": 1.4e-5})
_XI = Mutation("xi read as 25 s (ten times the printed 2.5 s)", {"model.xi": 25.0})


def eq3(mu0: float, t: np.ndarray, up: np.ndarray, mu_min: float, mu_max: float, kappa: float,
        xi: float) -> np.ndarray:
    """Eq. (3) integrated along a given plastic-slip history ``up(t)``, exactly over each interval
    (the rates |du_p|/kappa and dt/xi are constant within it)."""
    mu = np.empty_like(t)
    mu[0] = mu0
    for i in range(1, t.size):
        a = abs(up[i] - up[i - 1]) / kappa
        b = (t[i] - t[i - 1]) / xi
        h = a + b
        if h <= 0.0:
            mu[i] = mu[i - 1]
            continue
        target = (mu_min * a + mu_max * b) / h
        mu[i] = target + (mu[i - 1] - target) * np.exp(-h)
    return mu


def post(result, cfg: dict) -> xr.Dataset:
    """The run's mu = S_r tau / f_n and plastic slip (what eq. 3 is integrated along)."""
    m, _ = models(cfg)
    d = result.combine()
    fn = d.normal_stress.values
    return xr.Dataset(
        {"mu_model": ("time", d.sliding_surface.values / fn, {"units": "1", "long_name": "S_r tau / f_n of the run"}),
         "plastic_slip": ("time", d.plastic_slip.values, {"units": "m"}),
         "slip_velocity": ("time", d.slip_velocity.values, {"units": "m/s"})},
        coords={"time": ("time", d.time.values, {"units": "s"})},
        attrs={"normal_stress": float(fn[0]), "tau": float(d.shear_strength.values[0]), "c": float(m.c)})


def checks(ds: xr.Dataset, cfg: dict) -> list:
    fn = float(ds.attrs["normal_stress"])
    mu_min, mu_max = PRINTED["s_min"] * PRINTED["tau0"] / fn, PRINTED["s_max"] * PRINTED["tau0"] / fn
    t, up, mu = ds.time.values, ds.plastic_slip.values, ds.mu_model.values
    mu3 = eq3(float(mu[0]), t, up, mu_min, mu_max, PRINTED["kappa"], PRINTED["xi"])
    integ = cfg["integrator"]
    h = float(integ["du_max"]) / PRINTED["kappa"] + float(integ["dt_max"]) / PRINTED["xi"]
    tol = h * (mu_max - mu_min)
    err = float(np.max(np.abs(mu - mu3)))
    hold = np.abs(ds.slip_velocity.values) == 0.0
    err_hold = float(np.max(np.abs(mu - mu3)[hold])) if hold.any() else float("nan")
    out = [check("the contact-area laws of eqs. 7-8 (Appendix eqs. 44-47) reduce to the friction-coefficient law of "
                 "eq. (3) (Appendix, eq. 48): S_r tau / f_n of the run against eq. (3) integrated along its plastic "
                 "slip", f"max |mu - mu_eq3| < h (mu_max - mu_min) = {tol:.2g}",
                 f"{err:.2e} (hold alone, eq. 46: {err_hold:.2e})", err < tol,
                 ambiguity="mu = S_r tau / f_n at constant tau (c = 0) and f_n; eq. (3) with the paper's kappa, xi, "
                           "S_min, S_max, tau0 (the Sec. 4.1 set of Fig. 4)",
                 mutations=(_KAPPA, _XI))]
    moved = float(np.ptp(mu))
    out.append(check("the run exercises both terms of eq. (3): mu moves by many tolerances", f"> 100 x {tol:.2g}",
                     moved, moved > 100 * tol, fmt=".3g", kind="verification"))
    return out


def plot(ds: xr.Dataset):
    from ...plot import plt

    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.plot(ds.time, ds.mu_model, label="S_r tau / f_n (model, eqs. 7-8)")
    ax.set(xlabel="time [s]", ylabel="mu")
    return fig


register_scenario(Scenario(
    name="subloading/eq3-reduction",
    description="""Ozaki et al. 2020 Appendix: the contact-area laws (eqs. 7-8, 44-47) give eq. (3) for mu = S_r tau / f_n;
        Fig. 4 set with c = 0, slide-hold-slide at 0.1 mm/s and 0.3 MPa (ours), eq. (3) integrated along the run's
        plastic slip.""",
    config=CONFIG, post=post, checks=checks, plot=plot, derived=MODEL_NAME,
    references=[REFERENCE],
))
