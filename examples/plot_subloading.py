"""
Subloading friction: rate dependency
====================================

The subloading-friction model (Ozaki, Matsuura & Maegawa 2020) treats the static-kinetic
transition as an elasto-plastic process advanced by return mapping. This runs the
``subloading/fig4`` scenario (quick profile): sliding from rest at constant speeds, the peak
and steady friction rising with the logarithm of the speed.
"""

from frictionlab.scenarios import get_scenario

scenario = get_scenario("subloading/fig4")
ds, config = scenario.execute(quick=True)
fig = scenario.figure(ds)

for c in scenario.evaluate(ds, config):
    print(f"{'pass' if c.passed else 'FAIL'}  {c.claim}: expected {c.expected}, measured {c.measured}")
