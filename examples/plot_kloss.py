"""
Kloss friction law: the static curve
====================================

The Kloss-formula friction law (Martinez Molina 2025) borrows the torque-slip law of the
induction motor: a Stribeck-like hump up to :math:`F_{max}` at :math:`v_{max}`, a Coulomb-like
plateau and a viscous slope at zero. This runs the ``kloss/fig4a`` scenario (quick profile)
and prints its checks against the closed forms.
"""

from frictionlab.scenarios import get_scenario

scenario = get_scenario("kloss/fig4a")
ds, config = scenario.execute(quick=True)
fig = scenario.figure(ds)

for c in scenario.evaluate(ds, config):
    print(f"{'pass' if c.passed else 'FAIL'}  {c.claim}: expected {c.expected}, measured {c.measured}")
