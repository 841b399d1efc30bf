"""
Rough-surface contact: a sphere on Boussinesq elements
======================================================

The rough-surface ensemble (Hulikal, Lapusta & Bhattacharya 2015) discretises the surface
into elements coupled elastically by the Boussinesq solution (an FFT convolution). Its first
test (``rough-contact/fig3``, quick profile): a sphere pressed on a flat follows Hertz once the
elastic interaction is on, and does not without it.
"""

from frictionlab.scenarios import get_scenario

scenario = get_scenario("rough-contact/fig3")
ds, config = scenario.execute(quick=True)
fig = scenario.figure(ds)

for c in scenario.evaluate(ds, config):
    print(f"{'pass' if c.passed else 'FAIL'}  {c.claim}: expected {c.expected}, measured {c.measured}")
