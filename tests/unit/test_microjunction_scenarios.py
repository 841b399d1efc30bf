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
    # checks tagged with an ambiguity compare with claims outside the source (RSF log-linear
    # ageing): they are reported honestly and documented as failing; all others must pass
    failed = [c.claim for c in checks if not c.passed and not c.ambiguity]
    assert not failed, failed
    if name.endswith("hold-time-friction"):
        loglin = [c for c in checks if c.ambiguity]
        assert len(loglin) == 2 and all(not c.passed for c in loglin)  # known: faster-than-log ageing
        assert ds.attrs["log_slope_single"] > 0 and ds.attrs["log_slope_ensemble"] > 0
