"""
Friction in a python-control loop: a PID position servo against LuGre friction
================================================================================

:func:`frictionlab.control.to_control` turns a rate law into a python-control ``nlsys``
(input: slip velocity; output: friction force; states: the law's). Here it closes a loop built
entirely from python-control blocks: a 1 kg mass pushed by a PID controller towards a 1 mm
position step, with the LuGre friction of Canudas de Wit et al. (1995, the ``canudas1995``
preset: Coulomb level 1 N, stiction 1.5 N) opposing its velocity.

Without friction the loop settles on the set point. With friction the mass sticks short of
it (the static friction holds it while the controller force is below 1.5 N); the integral
action builds the force up until the mass breaks free, slides past the set point at the lower
Coulomb level, sticks again on the other side, and so on: *hunting*, the stick-slip limit
cycle of integral control with stiction that Olsson et al. (1998) discuss, which friction
compensation removes (see :doc:`/control`).
"""

import control as ct
import matplotlib.pyplot as plt
import numpy as np

from frictionlab.control import to_control
from frictionlab.core.registry import make_model

mass = 1.0  # [kg]
plant = ct.ss([[0.0, 1.0], [0.0, 0.0]], [[0.0, 0.0], [1.0 / mass, -1.0 / mass]], np.eye(2), 0.0,
              inputs=["u", "friction_force"], outputs=["x", "slip_velocity"], states=["x", "v"], name="mass")
kp, ki, kd, tf = 800.0, 4000.0, 60.0, 2e-3  # PID gains [N/m, N/(m s), N s/m] and derivative filter [s]
pid = ct.tf2ss(ct.tf([kd + kp * tf, kp + ki * tf, ki], [tf, 1.0, 0.0]), inputs="e", outputs="u", name="pid")
error = ct.summing_junction(inputs=["r", "-x"], output="e")

lugre = make_model("lugre", "canudas1995")
friction = to_control(lugre)  # slip_velocity -> friction_force, state bristle_deflection
no_friction = ct.ss([], [], [], [[0.0]], inputs="slip_velocity", outputs="friction_force", name="none")

T = np.linspace(0.0, 6.0, 3001)
R = np.full_like(T, 1e-3)  # 1 mm step [m]
runs = {}
for label, block in (("LuGre friction", friction), ("no friction", no_friction)):
    loop = ct.interconnect([plant, block, pid, error], inplist=["r"], outlist=["x", "friction_force", "u"])
    runs[label] = ct.input_output_response(loop, T, R, X0=0.0, solve_ivp_method="LSODA",
                                           solve_ivp_kwargs={"rtol": 1e-8, "atol": 1e-12})

fig, (ax, ax2) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
for label, r in runs.items():
    ax.plot(r.time, r.outputs[0] * 1e3, label=label)
    ax2.plot(r.time, r.outputs[1], label=f"friction force ({label})")
ax2.plot(runs["LuGre friction"].time, runs["LuGre friction"].outputs[2], "k:", lw=0.8, label="PID force (LuGre run)")
ax.axhline(1.0, color="k", lw=0.5)
ax.set_ylabel("position [mm]")
ax.legend()
ax2.set_xlabel("time [s]")
ax2.set_ylabel("force [N]")
ax2.set_ylim(-3.0, 3.0)  # the PID's derivative kick at t = 0 is off the scale
ax2.legend(fontsize=8)
ax.set_title("PID position step, 1 kg mass, LuGre (canudas1995)")
fig.tight_layout()

for label, r in runs.items():
    err = np.abs(r.outputs[0] - 1e-3)
    late = T > 3.0
    print(f"{label}: largest position error after 3 s {err[late].max() * 1e6:.1f} um")
