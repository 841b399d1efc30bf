"""
Beam network (MLBNM): stick-slip of a soft-solid contact
=========================================================

The LuGre beam network ("A Stick-Slip Interactions Model of Soft-Solid Frictional Contacts",
J. Dyn. Sys. Meas. Control, doi:10.1115/1.4042247) splits a soft contact patch into bending
beams, each with a LuGre bristle at its tip, coupled to their neighbours by springs. Its
reduced form, the MLBNM, lumps every column of beams into one integrated unit beam (IUB):
9 IUBs for the 88 N patch.

This runs the MLBNM on the ``vf60-calibrated`` preset (88 N; Table 3 with the Stribeck
velocity re-calibrated to 1.5 mm/s, see the preset note) for 10 s at two stage velocities:
at 0.75 mm/s the total friction :math:`F_f` settles into steady stick-slip between the
Coulomb and static levels :math:`\\mu_C F_z` and :math:`\\mu_S F_z`; at 4.5 mm/s the same
contact slides smoothly. The lower panel shows which IUBs slip (Remark 1 rule: at the
Coulomb level and not loading) over the last two seconds of the stick-slip run.
"""

import matplotlib.pyplot as plt

from frictionlab.analysis.beam_patterns import steady_metrics
from frictionlab.contact.beam_network import run_mlbnm
from frictionlab.core.registry import make_model

p = make_model("beam_network", "vf60-calibrated")
fz = p.normal_load  # [N]
runs = {v: run_mlbnm(p, v, 10.0, save_dt=2e-3) for v in (7.5e-4, 4.5e-3)}  # stage velocity [m/s]

fig, (ax, ax2) = plt.subplots(2, 1, figsize=(7, 6), gridspec_kw={"height_ratios": [3, 2]})
for v, ds in runs.items():
    m = steady_metrics(ds.time.values, ds.friction_force.values)
    print(f"v = {v * 1e3:.2f} mm/s: stick-slip {m.stick_slip}, amplitude {m.amplitude:.2f} N, "
          f"period {m.period:.3f} s, kappa {m.kappa:.2f} (pattern {m.pattern})")
    ax.plot(ds.time, ds.friction_force, lw=0.8, label=f"{v * 1e3:.2f} mm/s")
for mu, name in ((p.mu_c, r"$\mu_C F_z$"), (p.mu_s, r"$\mu_S F_z$")):
    ax.axhline(mu * fz, color="k", ls=":", lw=0.8)
    ax.text(0.2, mu * fz + 0.8, name)
ax.set_xlabel("time [s]")
ax.set_ylabel("total friction $F_f$ [N]")
ax.set_title(f"MLBNM, vf60-calibrated, $F_z$ = {fz:g} N")
ax.legend(loc="lower right")

ds = runs[7.5e-4]
late = ds.sel(time=slice(8.0, None))
ax2.pcolormesh(late.time, late.iub_x * 1e3, late.iub_slip.values.T, cmap="Greys", shading="nearest")
ax2.set_xlabel("time [s]")
ax2.set_ylabel("IUB position x [mm]")
ax2.set_title("slipping IUBs (black), 0.75 mm/s")
fig.tight_layout()

assert steady_metrics(ds.time.values, ds.friction_force.values).stick_slip
