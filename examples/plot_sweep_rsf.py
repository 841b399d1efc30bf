"""
A parameter sweep: steady friction against a - b
================================================

:func:`frictionlab.sweep.run_sweep` runs a scenario at every point of a grid (one
dask task per point; here ``scheduler="serial"`` runs them in this process) and gathers the
summary metrics into one Dataset with the swept keys as dimensions. The
``classic/rsf-velocity-step`` scenario, swept over ``model.b``, shows the steady friction at
the fast velocity falling as :math:`a - b` becomes negative (velocity weakening).
The same sweep from the command line::

    frictionlab sweep classic/rsf-velocity-step --grid model.b=0.005:0.02:4 --store out/sweep-b
"""

import tempfile

import matplotlib.pyplot as plt
import numpy as np

from frictionlab.sweep import run_sweep

store = tempfile.mkdtemp(prefix="sweep-example-")
ds = run_sweep("classic/rsf-velocity-step", ["model.b=0.005:0.02:4"], store=store, scheduler="serial",
               overrides={"protocol.velocities": [1e-6, 1e-5], "protocol.distances": [1e-4, 1e-4]})
print(ds)

b = ds["model.b"].values
fig, ax = plt.subplots(figsize=(6, 3.5))
ax.plot(0.010 - b, ds["friction_force_final_aging"], "o-", label="simulated, aging law")
ax.plot(0.010 - b, 0.6 + (0.010 - b) * np.log(10), "k:", label=r"$\mu_0 + (a-b)\ln(v/v_0)$")
ax.set_xlabel("a - b [1]")
ax.set_ylabel("steady friction at 10 um/s [1]")
ax.legend()
fig.tight_layout()
assert ds.attrs["n_failed"] == 0, ds.error.values
