"""
Rate-and-state friction: a velocity step
========================================

The Dieterich-Ruina law (Dieterich 1979; Ruina 1983) with the ``granite-typical`` preset
(:math:`\\mu_0 = 0.6`, :math:`a = 0.010`, :math:`b = 0.015`, :math:`D_c = 10\\,\\mu m`) is driven
at 1 um/s, stepped to 10 um/s and back. The friction jumps by the direct effect
:math:`a \\ln(v_2/v_1)` and relaxes over a slip of order :math:`D_c` to the new steady state
:math:`\\mu_{ss} = \\mu_0 + (a - b) \\ln(v/v_0)`. The aging and slip evolution laws are run
side by side, and the simulated steady states are compared with the closed form.
"""

import matplotlib.pyplot as plt

from frictionlab import make_model, simulate
from frictionlab.protocols import VelocitySteps
from frictionlab.reference.rate_state import direct_effect, steady_mu

protocol = VelocitySteps(velocities=(1e-6, 1e-5, 1e-6), distances=(1e-4, 1e-4, 1e-4))
fig, ax = plt.subplots(figsize=(7, 3.5))
for law in ("aging", "slip"):
    model = make_model("rate_state", "granite-typical", law=law)
    ds = simulate(model, protocol, integrator="rk4", dt=5e-3, save_dt=5e-2)
    ax.plot(ds.slip * 1e6, ds.friction_coefficient, label=f"{law} law")

# closed forms: the steady states and the direct effect of the up-step
mu_fast = float(steady_mu(1e-5, model.mu0, model.a, model.b, model.v0))
ax.axhline(mu_fast, color="grey", ls=":", label="steady state at 10 um/s")
ax.set_xlabel("slip [um]")
ax.set_ylabel("friction coefficient [1]")
ax.legend()
fig.tight_layout()

mu_end_fast = float(ds.friction_coefficient.sel(time=109.99, method="pad"))  # end of the 10 um/s segment
print(f"steady state at 10 um/s: closed form {mu_fast:.6f}, simulated {mu_end_fast:.6f}")
print(f"direct effect a ln(10) = {direct_effect(1e-6, 1e-5, model.a):.5f}")
assert abs(mu_end_fast - mu_fast) < 1e-4 * mu_fast
