"""The beam-network scenarios' quick profiles: no claim fails; the deviations of the paper are the listed ones.

Claims of the beam-network paper (doi:10.1115/1.4042247) that its own equations and parameters do not give are
``deviation`` verdicts with evidence computed in the same run (closed-form stability of the unit beam, runs
from rest, the LBNM with column-mean loads); the test pins which claims they are, that their evidence
passes, and that every other check passes.
"""

import pytest

from frictionlab.scenarios.base import get_scenario

DEVIATIONS = {
    # the MLBNM's column lumping discards the load variation inside a column (LBNM with column-mean loads)
    "MLBNM ~ LBNM in steady period t_ss (Fig. 8c)",
    # VF40 parameters are not printed; the printed set is stable at 1.25e-4 m/s for every load and c_b
    "vf40: stick-slip disappears above a critical velocity v_c ~ 0.00075 m/s",
    "vf40: amplitude increases with normal load (Fig. 12c/g)",
    "vf40: period increases with normal load (Fig. 12d/h)",
    "vf40: smooth sliding below a minimum load",
    # beta = -v g'/g -> 0 as v -> 0: linearly stable at the lowest velocities
    "stick-slip persists at the lowest velocities for high loads (Fig. 14: region below the line)",
    # the printed Table 3 gives no stick-slip at 7.5e-4 m/s for any c_b, so no pattern I/II
    "c_b = 590 N s/m gives pattern I (Fig. 13)",
    "c_b = 148 N s/m gives pattern II (Fig. 13)",
    "sigma(590)/sigma(7.4) as in the paper (204/2.6 = 78)",
    # the printed parameters do not stick-slip (the reason for the calibrated preset)
    "printed Table 3 (per beam): stick-slip at 88 N, 7.5e-4 m/s (Fig. 8)",
    "text's lumped reading (k_b^i = k_b/N, sigma^i = sigma/N): friction reaches mu_S F_z in the 20 mm stroke (Fig. 8a)",
}


def _run(name):
    sc = get_scenario(name)
    ds, cfg = sc.execute(quick=True)
    return sc.evaluate(ds, cfg)


def _assert(checks):
    assert checks
    for c in checks:
        if c.claim in DEVIATIONS:
            assert c.status in ("deviation", "pass"), f"{c.claim}: {c.status} ({c.explanation})"
            assert all(e.passed for e in c.evidence)
        else:
            assert c.status == "pass", f"{c.claim}: expected {c.expected}, measured {c.measured}"


def test_fig13_quick():
    _assert(_run("beam-network/fig13"))


@pytest.mark.slow(reason="LBNM and MLBNM quick profiles, about 2-3 min on one core")
@pytest.mark.parametrize("name", ["beam-network/fig8", "beam-network/fig9", "beam-network/fig11",
                                  "beam-network/fig12", "beam-network/fig14", "beam-network/calibration"])
def test_scenario_quick(name):
    _assert(_run(name))
