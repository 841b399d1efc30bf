"""The three verdicts of a paper claim: pass, fail, deviation (only with passing evidence)."""

import pytest

from frictionlab.scenarios.base import Check, check, deviation


def test_pass_and_fail_follow_passed():
    assert check("c", "e", 1.0, True).status == "pass"
    assert check("c", "e", 1.0, False).status == "fail"


def test_deviation_with_passing_evidence_is_kept_and_not_a_failure():
    ev = check("closed form", "growth rate < 0", -0.3, True)
    d = deviation("stick-slip at printed values", "stick-slip", "none", [ev], "paper claims X; its equations give Y")
    assert d.status == "deviation" and d.ok and not d.passed


@pytest.mark.parametrize("evidence, explanation", [([], "x"), ([check("e", "e", 0, False)], "x"),
                                                   ([check("e", "e", 0, True)], "")])
def test_deviation_without_sound_evidence_is_a_failure(evidence, explanation):
    d = deviation("c", "e", 1.0, evidence, explanation)
    assert d.status == "fail" and not d.ok and "deviation refused" in d.explanation


def test_unknown_status_refused():
    with pytest.raises(ValueError):
        Check("c", "e", "1", True, status="maybe")
