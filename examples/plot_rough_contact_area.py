"""
Rough contact: real contact area vs load, and the linear law
=============================================================

A self-affine surface (Hurst exponent 0.8, Persson's power spectrum
:math:`C(q)\\propto q^{-2(1+H)}` above the roll-off) of rms slope 0.1 on a 256 um square
(1 um pixels) is pressed onto an elastic half-space (:math:`E` = 1 GPa, :math:`\\nu` = 0.3) at
a list of loads, in one call (:func:`frictionlab.contact.rough.solve_contact`, FFT
Boussinesq operator + Polonsky-Keer solver).

At small load the real contact area grows in proportion to the load,
:math:`A/A_0 = \\kappa\\,p/(E^* h'_\\mathrm{rms})`, with :math:`\\kappa` between Persson's
:math:`\\sqrt{8/\\pi}` and Bush, Gibson & Thomas's :math:`\\sqrt{2\\pi}` (numerical studies,
e.g. Hyun et al., Phys. Rev. E 70 (2004) 026117, find :math:`\\kappa\\approx 2`). The right
panel shows the contact patches at the largest load.
"""

import matplotlib.pyplot as plt
import numpy as np

from frictionlab.contact.rough import rms_slope, self_affine_surface, solve_contact

a = 1e-6  # pixel size [m]
n = 256
E, nu = 1e9, 0.3
e_star = E / (1 - nu**2)
h = self_affine_surface(n, a, hurst=0.8, rms_slope=0.1, q_rolloff=4 * 2 * np.pi / (n * a),
                        q_short=2 * np.pi / (8 * a), seed=1)
slope = rms_slope(h, a)
p_nom = np.geomspace(1e-3, 3e-2, 6) * e_star * slope  # nominal pressures [Pa]
sols = solve_contact(h, a, youngs_modulus=E, poisson_ratio=nu, pressure=p_nom)
frac = np.array([s.contact_fraction for s in sols])
kappa = frac * e_star * slope / p_nom
print("kappa measured:", np.round(kappa, 3))

fig, (ax, ax2) = plt.subplots(1, 2, figsize=(10, 4.2))
x = p_nom / (e_star * slope)
ax.loglog(x, frac, "o-", label="FFT Boussinesq + Polonsky-Keer")
for k, name in ((np.sqrt(8 / np.pi), "Persson"), (np.sqrt(2 * np.pi), "Bush et al.")):
    ax.loglog(x, k * x, "--", label=rf"{name}: $\kappa$ = {k:.2f}")
ax.set(xlabel=r"$p / (E^* h'_\mathrm{rms})$", ylabel=r"$A / A_0$", title="real contact area vs load")
ax.legend()
s = sols[-1]
ax2.imshow(np.where(s.cluster_labels > 0, s.cluster_labels % 17 + 1, 0).T, origin="lower", cmap="tab20",
           extent=(0, n * a * 1e6, 0, n * a * 1e6), interpolation="nearest")
ax2.set(xlabel="x [um]", ylabel="y [um]",
        title=f"{s.n_clusters} patches, A/A0 = {s.contact_fraction:.3f} at {s.load * 1e3:.2f} mN")
fig.tight_layout()
