"""
One protocol, many models: a velocity step
==========================================

:func:`frictionlab.analysis.compare.compare` runs one protocol object through several models
(one plain ``frictionlab.simulate`` call each) and returns one Dataset with a ``model`` dimension on a common time grid. Here a prescribed
velocity step 0.1 -> 1 mm/s (1 N normal load; 0.3 MPa for the stress-based subloading model)
goes through a few cheap models: Coulomb, the static Stribeck curve and LuGre (Canudas de Wit
et al. 1995), the Dieterich-Ruina rate-and-state law (aging law; Dieterich 1979, Ruina 1983),
the Kloss law (Martinez Molina 2025) and subloading friction (Ozaki, Matsuura & Maegawa 2020).

The static laws jump onto their curves at once -- Stribeck down (its weakening branch), Kloss
up (its strengthening branch below :math:`v_{max0}` = 10 mm/s); LuGre relaxes through its bristle
state onto the same Stribeck curve; rate-and-state shows the direct effect
:math:`a\\ln(V_2/V_1)` followed by the evolution over :math:`D_c`; subloading friction rises
slightly at the step (a positive direct effect), then relaxes towards its steady curve.

The rate-and-state law is then fitted to every model's response (closed form under prescribed
slip, with seeded noise of 1e-4 in friction), which gives a common vocabulary
:math:`(a, b, D_c)` for models that do not share one. The full version over every model is
the ``classic/compare-velocity-step`` scenario; the same comparison from the command line::

    frictionlab compare velocity_steps --set velocities=[1e-4,1e-3] --set durations=[1,1] \\
        --models coulomb,stribeck,lugre,rate_state,kloss,subloading --noise 1e-4 --out out/
"""

from frictionlab.analysis.compare import compare, format_table
from frictionlab.plot.compare import plot_compare
from frictionlab.protocols import VelocitySteps

protocol = VelocitySteps(velocities=(1e-4, 1e-3), durations=(1.0, 1.0), normal_force_value=1.0)
models = ["coulomb", "stribeck", "lugre", "rate_state", "kloss", "subloading"]
ds = compare(protocol, models, quick=True, n_grid=1001, fit_noise=1e-4, seed=0)

print(ds.status.to_series().to_string())
print(format_table(ds))
fig = plot_compare(ds, title="One velocity step 0.1 -> 1 mm/s (prescribed slip)", table=format_table(ds))

# each model against its own expectations: the jump with the state frozen at the step, the steady curve
print(ds[["direct_effect", "direct_expected", "steady_after_step", "steady_expected"]].to_dataframe().to_string())
