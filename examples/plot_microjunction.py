"""
Microjunction creep: contact growth under load and hold-time friction
======================================================================

The microjunction model (Goedecke 2013, *Transient Effects in Friction: Fractal Asperity
Creep*, Appendix A) treats each asperity contact as a Jackson-Green elastic-plastic
hemisphere whose interference :math:`\\delta` creeps under a constant normal force, so that the
real contact area :math:`A` -- and with it the friction :math:`F = \\tau A` -- grows with time.

Left: the ``microjunction/constant-load-creep`` scenario (quick profile): one demo-steel
hemisphere ramped in 1 ms to the normalised loads :math:`F^* = 0.5` (elastic), 5, 20
(elastic-plastic) and 1000 (fully plastic), then held for 10 s; the area grows monotonically
while the mean pressure relaxes. Right: the ``microjunction/hold-time-friction`` scenario
(quick profile): slide-hold-slide, the static friction on reslide rising with the hold time
(ageing) for one junction and for a Greenwood-Williamson ensemble of 200 junctions (the
scenario slows the creep coefficient :math:`C_1` by :math:`10^4` and renews the junctions on
each slide: assumptions of the scenario, not of the source). The
printed checks include the comparison with the log-linear ageing of rate-and-state, which
this creep law does not follow over the holds (it stays flat, then rises faster).
"""

import matplotlib.pyplot as plt

from frictionlab.scenarios import get_scenario

creep = get_scenario("microjunction/constant-load-creep")
ds_c, cfg_c = creep.execute(quick=True)
hold = get_scenario("microjunction/hold-time-friction")
ds_h, cfg_h = hold.execute(quick=True)

fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9, 3.8))
for i, f in enumerate(ds_c.load_star.values):
    a = ds_c.contact_area.isel(held_load=i)
    ax1.semilogx(ds_c.time, a / a[0], label=f"$F^*$ = {f:g} ({float(ds_c.held_load[i]):.2g} N)")
ax1.set_xlabel("time [s]")
ax1.set_ylabel(r"contact area $A(t)/A(1\,\mathrm{ms})$ [1]")
ax1.set_title("constant-load creep")
ax1.legend(fontsize="small")

ax2.semilogx(ds_h.hold, ds_h.static_friction_single, "o-", label="single junction")
ax2.semilogx(ds_h.hold, ds_h.static_friction_ensemble, "s--", label="GW ensemble")
ax2.set_xlabel("hold time [s]")
ax2.set_ylabel(r"static friction coefficient $\mu_s$ [1]")
ax2.set_title("slide-hold-slide ageing")
ax2.legend(fontsize="small")
fig.tight_layout()

for sc, ds, cfg in ((creep, ds_c, cfg_c), (hold, ds_h, cfg_h)):
    for c in sc.evaluate(ds, cfg):
        print(f"{'pass' if c.passed else 'FAIL'}  {c.claim}: expected {c.expected}, measured {c.measured}")
