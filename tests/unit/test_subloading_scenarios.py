"""The ``subloading/*`` scenarios: quick profiles run and every check passes."""

from __future__ import annotations

import pytest

from frictionlab.scenarios.base import get_scenario, scenario_names

NAMES = ["subloading/fig4", "subloading/fig5", "subloading/fig6", "subloading/fig7", "subloading/fig9",
         "subloading/fig11", "subloading/fig12", "subloading/slide-hold-slide"]


def test_all_figures_registered():
    names = scenario_names()
    for n in NAMES:
        assert n in names


@pytest.mark.slow(reason="the quick profiles of the eight subloading scenarios take ~40 s together")
@pytest.mark.parametrize("name", NAMES)
def test_quick_profile_checks_pass(name):
    sc = get_scenario(name)
    ds, cfg = sc.execute(quick=True)
    results = sc.evaluate(ds, cfg)
    assert results
    failed = [f"{c.claim}: expected {c.expected}, measured {c.measured}" for c in results if not c.passed]
    assert not failed, failed
    if sc.plot is not None:
        fig = sc.plot(ds)
        assert fig is not None


def test_fig12_quick_checks_fast():
    """A fast scenario run in the default (not slow) suite."""
    sc = get_scenario("subloading/fig12")
    ds, cfg = sc.execute(quick=True, overrides={"protocol.loads_n": [0.05, 0.5, 2.0], "protocol.velocities_mm_s": [0.1, 10.0]})
    assert all(c.passed for c in sc.evaluate(ds, cfg))
