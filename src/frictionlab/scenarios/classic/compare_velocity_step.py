"""``classic/compare-velocity-step``: one velocity step 0.1 -> 1 mm/s through every model.

The same :class:`~frictionlab.protocols.VelocitySteps` object (prescribed slip, 1 N normal
load; 0.3 MPa for the stress-based subloading models) runs through every registered model, one
named run each (the runs ``frictionlab compare`` makes, :mod:`._compare`); the rate-and-state law
(aging, closed form under prescribed slip) is fitted to each model's response.

Notes
-----
* The step 1e-4 -> 1e-3 m/s is a compromise between the models' velocity scales: rate-and-state
  (D_c = 10 um) relaxes over 10 ms, LuGre/Stribeck (v_s = 1 mm/s) sit on their weakening branch,
  Kloss (v_max0 = 10 mm/s) on its strengthening branch. It is not any paper's experiment.
* The RSF fit is made on each record plus seeded Gaussian noise of 1e-4 in friction (a
  laboratory-like resolution), so that the Jacobian standard errors are statistical: on the
  noise-free record of the rate_state model they would reflect round-off only (the recovery is
  exact to the optimiser tolerance, ~1e-9 relative), and "within 3 SE" would be meaningless.
* Steady-state and direct-effect expectations come from each model itself: its steady-state
  curve (``friction_curve``; the subloading models' ``steady_stress``), the friction of a rate
  law with its state frozen at the step evaluated at the new minus the old velocity (a ln(V2/V1)
  for rate-and-state, sigma1 dz/dt + sigma2 dv for LuGre, sigma2 dv for GMS, the curve
  difference for static laws), and the jump alpha ln(V2/V1) A/W the rough-contact driver
  records (Hulikal et al. 2015 Sec. 5.5); the beam network driver takes one constant velocity
  and says so in its row. The rough-contact run is a small periodic patch (32^2 quick), so its friction
  carries roughness noise and its fitted RSF parameters are rough estimates.
"""

from __future__ import annotations

import xarray as xr

from ._compare import common_checks, direct_effect_checks, register_compare, steady_checks

#: models with a positive direct effect (friction rises right after a velocity increase)
#: gms is not among them: with the element forces frozen at the step its jump is sigma2 dv plus the micro-damping
#: term sum(sigma1_i / k_i) C alpha_i (1 - s(v1) / s(v2)), negative wherever the Stribeck curve s falls between v1
#: and v2 (Al-Bender, Lampaert & Swevers 2005's damping; -0.8305 at the defaults, which the frozen-state check
#: verifies); the expectation of a rise was ours and wrong
RATE_STRENGTHENING = ("rate_state", "rate_state2", "subloading", "subloading_rate", "rough_contact")


def checks(ds: xr.Dataset, cfg: dict) -> list:
    return [*common_checks(ds, cfg), *steady_checks(ds), *direct_effect_checks(ds, RATE_STRENGTHENING)]


register_compare(
    "classic/compare-velocity-step",
    """One protocol, many models: a velocity step 0.1 -> 1 mm/s (1 s each, prescribed slip) run through every
        registered model (Coulomb, Stribeck, Dahl, LuGre, GMS, rate-and-state, Kloss, subloading, the microjunction
        ensemble, the rough-contact sliding model; the beam network, constant velocity only, says so in its row),
        with rate-and-state a, b, D_c fitted to each response.""",
    {"type": "velocity_steps", "velocities": [1e-4, 1e-3], "durations": [1.0, 1.0], "normal_force_value": 1.0},
    checks, "One velocity step 0.1 -> 1 mm/s, every model (prescribed slip)", n_grid=4001, quick_grid=2001,
    references=["Dieterich 1979", "Ruina 1983", "Marone 1998", "Hulikal, Lapusta & Bhattacharya 2015"],
)
