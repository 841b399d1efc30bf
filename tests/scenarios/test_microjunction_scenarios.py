"""The microjunction scenarios run in their quick profiles and their checks pass."""

from __future__ import annotations

import pytest

from frictionlab.scenarios import get_scenario

NAMES = ["microjunction/constant-load-creep", "microjunction/load-hold-unload", "microjunction/cyclic-load",
         "microjunction/hold-time-friction"]


@pytest.mark.parametrize("name", NAMES)
def test_quick_profile_checks_pass(name):
    sc = get_scenario(name)
    ds, cfg = sc.execute(quick=True)
    checks = sc.evaluate(ds, cfg)
    assert len(checks) >= 4
    failed = [c.claim for c in checks if not c.passed]
    assert not failed, failed
    if name.endswith("hold-time-friction"):
        # the comparison with RSF (not a claim of the source): faster-than-logarithmic ageing
        rsf = [c for c in checks if c.ambiguity]
        assert len(rsf) == 2 and all("faster than the log-linear" in c.claim for c in rsf)
        assert ds.attrs["log_slope_single"] > 0 and ds.attrs["log_slope_ensemble"] > 0
