"""Quick profiles of the rough-contact scenarios and their checks."""

import pytest

from frictionlab.scenarios.base import get_scenario

# Checks that do not reproduce at the quick (<= 128^2) sizes; explained in the scenario docstrings:
# finite-size bias of the mean field at <= 128^2 (converges at 512^2), and the paper's Fig. 8 claim
# of pressure independence, which the D17 closed form contradicts (spec R16).
KNOWN_QUICK_FAILURES = {
    "rough-contact/fig6": ("meanfield: log-linear: growth per decade",),
    "rough-contact/fig8": ("Mean-field slope", "independent of pressure and size"),
}


def _run(name):
    sc = get_scenario(name)
    ds, cfg = sc.execute(quick=True)
    failed = [c for c in sc.evaluate(ds, cfg) if not c.passed]
    allowed = KNOWN_QUICK_FAILURES.get(name, ())
    unexpected = [c for c in failed if not any(a in c.claim for a in allowed)]
    assert not unexpected, [(c.claim, c.expected, c.measured) for c in unexpected]


def test_fig3_quick():
    _run("rough-contact/fig3")


@pytest.mark.slow(reason="static holds of the quick profiles take 10-40 s each")
@pytest.mark.parametrize("name", ["rough-contact/fig4", "rough-contact/fig5", "rough-contact/fig6",
                                  "rough-contact/fig7", "rough-contact/fig8"])
def test_quick_profiles(name):
    _run(name)
