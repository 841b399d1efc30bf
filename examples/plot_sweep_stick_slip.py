"""
Sweep metrics: stick-slip amplitude against drive velocity
==========================================================

A LuGre spring-block (Canudas de Wit et al. 1995, the ``canudas1995`` preset; mass 1 kg,
spring 2 N/m) driven at constant velocity sticks and slips at low drive velocity and slides
steadily at high velocity. :func:`frictionlab.sweep.run_sweep` runs it at every drive velocity
and reduces each run to the chosen metrics: the named ones (``stick_slip_amplitude``,
``stick_slip_period``, ``steady_friction``; the list is
in :doc:`/sweeps`) and a custom one, any function ``ds -> float`` (its ``units`` attribute
gives the units). The configuration is a plain run configuration (``[model]``,
``[protocol]``, ``[system]``, ``[integrator]``), so every point is one
:func:`frictionlab.simulate` call. The stick-slip metrics read the spring force (the force a
load cell measures); an amplitude is NaN where the run has no whole stick-slip cycle, and the
``regime`` column says why (``steady``, ``unresolved``: a period longer than the run, ...).

From the command line, with the same configuration in ``slider.toml``::

    frictionlab sweep slider.toml --grid "protocol.v=[0.05, 0.1, 1.0]" \\
        --metric stick_slip_amplitude --metric stick_slip_period --plot slider.png
"""

import tempfile

import matplotlib.pyplot as plt
import numpy as np

from frictionlab.scenarios import Scenario
from frictionlab.sweep import run_sweep

slider = Scenario("classic/lugre-slider", "LuGre spring-block driven at constant velocity", {
    "model": {"name": "lugre", "preset": "canudas1995"},
    "protocol": {"type": "constant_velocity", "v": 0.1, "duration_s": 40.0, "normal_force_value": 1.0},
    "system": {"type": "mass", "mass": 1.0, "stiffness": 2.0},
    "integrator": {"driver": "rk4", "dt": 1e-5, "save_dt": 2e-3},  # at 1 m/s the bristle rate sigma0 |v| / g(v) ~ 1e5 1/s: RK4 at 2e-5 s is on its stability limit (refused)
})


def spring_force_swing(ds):
    """Peak-to-peak spring force over the last 40 % of the run [N] (a custom metric)."""
    tail = ds.spring_force.where(ds.time >= 0.6 * float(ds.time[-1]), drop=True)
    return float(tail.max() - tail.min())


spring_force_swing.units = "N"

ds = run_sweep(slider, ["protocol.v=[0.05, 0.1, 1.0]"], store=tempfile.mkdtemp(prefix="sweep-example-"),
               scheduler="serial", metrics=["stick_slip_amplitude", "stick_slip_period", spring_force_swing])
print(ds[["stick_slip_amplitude", "stick_slip_period", "spring_force_swing", "regime"]].to_dataframe())

v = ds["protocol.v"].values
fig, ax = plt.subplots(figsize=(6, 3.5))
ax.semilogx(v, ds.spring_force_swing, "o-", label="spring force swing (custom metric)")
ax.semilogx(v, ds.stick_slip_amplitude, "s--", label="stick-slip amplitude (mean drop per cycle)")
ax.set_xlabel("drive velocity [m/s]")
ax.set_ylabel("[N]")
ax.legend()
fig.tight_layout()
assert ds.attrs["n_failed"] == 0, ds.error.values
# stick-slip at the low drive velocities, steady sliding at 1 m/s
assert np.all(np.isfinite(ds.stick_slip_amplitude.values[:2])) and np.isnan(ds.stick_slip_amplitude.values[-1])
assert ds.regime.values.tolist() == ["stick-slip", "stick-slip", "steady"]
assert ds.spring_force_swing.values[-1] < ds.spring_force_swing.values[0]
