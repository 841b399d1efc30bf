"""Every Kloss scenario (and classic/rsf-data-fit) runs its quick profile and its checks pass.

The deviations of the paper are pinned with their evidence: kloss/fig6 (the paper's Euler 1 ms is
not converged during the oscillation; eq. (23)'s printed sign runs away) and kloss/fig14 (the
printed v(0) does not give the caption's entrance LET), kloss/fig5 (the block creeps, it never stops) and
kloss/amontons (the gap law that gives eq. 27 does not give Fig. 9's e_2 = 2 e_1).
"""

from __future__ import annotations

import pytest

from frictionlab.scenarios import get_scenario, scenario_names

DEVIATIONS = set()
#: deviations whose evidence has two checks: the entrance force of eq. 11 at the printed v(0) is not the printed LET;
#: Fig. 6's Euler 1 ms is not converged (a step study); eq. (23)'s printed sign runs away (its growth rate)
DEVIATIONS_2 = {("kloss/fig14", "entrance LET 1.162"), ("kloss/fig14", "peak/entrance ratio"),
                ("kloss/fig6", "Fig. 6's integration (explicit Euler at 1 ms)"),
                ("kloss/fig6", "eq. (23) as printed"), ("kloss/fig5", "the block stops"),
                ("kloss/amontons", "the gap that gives the first law")}
#: extension checks that fail, as computed (issue 26: a real bar, no hard-coded pass): the Kloss velocity law
#: fitted to PSTAR S(beta) gives a Bragg curve far from PSTAR's (FIT -36 %), and the three-parameter slip form
#: reaches 97.1 % on the truck tyre's longitudinal MF 5.2 curve, below the paper's 98.9 % bar
EXTENSION_FAILS = {("kloss/pstar-fit", "the fitted law's Bragg curve"),
                   ("kloss/tyre-mf52-fit", "three-parameter Kloss slip form vs MF 5.2 pure longitudinal")}
NAMES = [n for n in scenario_names() if n.startswith("kloss/")] + ["classic/rsf-data-fit"]


@pytest.mark.slow(reason="runs every Kloss scenario's quick profile (~1-2 min)")
@pytest.mark.parametrize("name", NAMES)
def test_quick_profile_checks(name):
    sc = get_scenario(name)
    ds, cfg = sc.execute(quick=True)
    checks = sc.evaluate(ds, cfg)
    assert checks, name
    for c in checks:
        if any(name == n and c.claim.startswith(p) for n, p in DEVIATIONS):
            assert c.status == "deviation" and len(c.evidence) == 3, f"{name}: {c.claim}: {c.status}"
        elif any(name == n and c.claim.startswith(p) for n, p in DEVIATIONS_2):
            assert c.status == "deviation" and len(c.evidence) == 2, f"{name}: {c.claim}: {c.status}"
        elif any(name == n and c.claim.startswith(p) for n, p in EXTENSION_FAILS):
            assert c.kind == "extension" and c.status == "fail", f"{name}: {c.claim}: {c.status}"
        elif c.status == "not testable":
            assert c.explanation, f"{name}: {c.claim}"
        else:
            assert c.passed, f"{name}: {c.claim}: expected {c.expected}, measured {c.measured}"


def test_fast_scenarios_pass():
    """The cheap curve scenarios, unmarked so the fast suite covers scenario wiring."""
    for name in ("kloss/fig4a", "kloss/fig10", "kloss/fig12", "kloss/fig13", "kloss/eq5-eq6"):
        sc = get_scenario(name)
        ds, cfg = sc.execute(quick=True)
        assert all(c.passed or c.status == "not testable" for c in sc.evaluate(ds, cfg)), name
