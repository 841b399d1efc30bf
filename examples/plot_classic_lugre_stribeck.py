"""
LuGre: the steady-state Stribeck curve
======================================

The LuGre model (Canudas de Wit et al. 1995, preset ``canudas1995``) slides at a set of
constant velocities; the friction at the end of each run is the steady state, which the
closed form :math:`F_{ss}(v) = F_c + (F_s - F_c) e^{-(v/v_s)^2} + \\sigma_2 v` predicts. Each run
lasts twelve bristle relaxation times :math:`F_s / (\\sigma_0 v)`.
"""

import matplotlib.pyplot as plt
import numpy as np

from frictionlab import make_model, simulate
from frictionlab.protocols import ConstantVelocity
from frictionlab.reference.lugre import steady_friction

model = make_model("lugre", "canudas1995")
velocities = np.geomspace(1e-5, 1e-1, 9)
simulated = []
for v in velocities:
    # the bristles reach steady state after a slip of a few fs / sigma0: run 12 relaxation times
    tau = model.fs / (model.sigma0 * v)
    ds = simulate(model, ConstantVelocity(v=v, duration_s=12 * tau), integrator="rk4", dt=tau / 50)
    simulated.append(float(ds.friction_force[-1]))

v_fine = np.geomspace(1e-5, 1e-1, 200)
fig, ax = plt.subplots(figsize=(6, 3.8))
ax.semilogx(v_fine, steady_friction(v_fine, model.fc, model.fs, model.vs, model.sigma2), label="closed form")
ax.semilogx(velocities, simulated, "o", label="simulated (end of run)")
ax.set_xlabel("slip velocity [m/s]")
ax.set_ylabel("friction force [N]")
ax.legend()
fig.tight_layout()

err = np.max(np.abs(np.array(simulated) - steady_friction(velocities, model.fc, model.fs, model.vs, model.sigma2)))
print(f"largest difference from the closed-form Stribeck curve: {err:.2e} N")
assert err < 1e-3
