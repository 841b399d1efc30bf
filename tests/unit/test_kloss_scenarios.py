"""Every Kloss scenario (and classic/rsf-data-fit) runs its quick profile and its checks pass.

The one known, documented failure is kloss/fig6's convergence check: the paper's Euler 1 ms
creep tail is a step-size artefact (see the scenario docstring); the test pins that finding.
"""

from __future__ import annotations

import pytest

from frictionlab.scenarios import get_scenario, scenario_names

KNOWN_FAILING = {("kloss/fig6", "Euler 1 ms result is dt-converged")}
NAMES = [n for n in scenario_names() if n.startswith("kloss/")] + ["classic/rsf-data-fit"]


@pytest.mark.slow(reason="runs every Kloss scenario's quick profile (~1-2 min)")
@pytest.mark.parametrize("name", NAMES)
def test_quick_profile_checks(name):
    sc = get_scenario(name)
    ds, cfg = sc.execute(quick=True)
    checks = sc.evaluate(ds, cfg)
    assert checks, name
    for c in checks:
        known = any(name == n and c.claim.startswith(p) for n, p in KNOWN_FAILING)
        if known:
            assert not c.passed, f"{name}: {c.claim} now passes; update KNOWN_FAILING"
        else:
            assert c.passed, f"{name}: {c.claim}: expected {c.expected}, measured {c.measured}"


def test_fast_scenarios_pass():
    """The cheap curve scenarios, unmarked so the fast suite covers scenario wiring."""
    for name in ("kloss/fig4a", "kloss/fig10", "kloss/fig12", "kloss/fig13"):
        sc = get_scenario(name)
        ds, cfg = sc.execute(quick=True)
        assert all(c.passed for c in sc.evaluate(ds, cfg)), name
