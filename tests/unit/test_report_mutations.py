"""Mutation runs (issue 26): each paper check declares wrong models under which it must change its
verdict; ``reproduce --mutations`` reruns and counts killed and surviving mutations."""

from __future__ import annotations

import numpy as np
import pytest

from frictionlab.core.result import make_dataset
from frictionlab.report.mutations import mutation_markdown, run_mutations
from frictionlab.scenarios import base as scenario_base
from frictionlab.scenarios.base import Check, Mutation, Scenario, check, not_testable

PRINTED_SLOPE = 2.0
BAD_SLOPE = Mutation("slope read as 3", {"toy.slope": 3.0})


def _run(cfg, quick):
    t = np.linspace(0.0, 1.0, 11)
    return make_dataset(t, {"friction_force": cfg["toy"]["slope"] * t})


def _checks(ds, cfg):
    measured = float(ds.friction_force.values[-1])
    return [
        # compares the run with the printed value: a wrong slope fails it
        check("end force equals the printed slope", f"{PRINTED_SLOPE}", measured, abs(measured - PRINTED_SLOPE) < 1e-12,
              mutations=(BAD_SLOPE,)),
        # compares the run with its own configuration: cannot fail, whatever the slope (a defect)
        check("end force equals the configured slope", "config", measured,
              abs(measured - cfg["toy"]["slope"]) < 1e-12, mutations=(BAD_SLOPE,)),
        check("no mutation declared", "-", measured, True),
        check("a property of the formula", "-", 0.0, True, insensitive="zero at t = 0 for every slope"),
        check("numerics", "-", 0.0, True, kind="verification"),
        not_testable("the experiment of Fig. 9", "the paper does not print the measured data"),
    ]


TOY = Scenario("toy/slope", "a toy", {"toy": {"slope": PRINTED_SLOPE}}, run=_run, checks=_checks)


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(scenario_base._SCENARIOS, TOY.name, TOY)
    return TOY


def test_killed_survived_undeclared_insensitive(toy):
    ds, cfg = toy.execute()
    rep = run_mutations(toy, toy.evaluate(ds, cfg), quick=True)
    by_claim = {o.claim: o for o in rep.outcomes}
    assert by_claim["end force equals the printed slope"].killed
    assert by_claim["end force equals the printed slope"].after == "fail"
    assert not by_claim["end force equals the configured slope"].killed  # the tautology survives
    assert (rep.killed, rep.survived) == (1, 1)
    assert rep.undeclared == [("toy/slope", "no mutation declared")]
    assert rep.insensitive == [("toy/slope", "a property of the formula", "zero at t = 0 for every slope")]
    assert rep.line() == ("mutations: 1 killed, 1 survived; paper checks without a mutation: 1; "
                          "declared insensitive: 1")
    md = mutation_markdown(rep)
    assert "survived: toy/slope: end force equals the configured slope -- slope read as 3 (pass -> pass)" in md


def test_an_override_the_scenario_does_not_read_is_an_error_not_a_kill(toy):
    bad = Check("x", "-", "0", True, mutations=(Mutation("typo", {"toy.slop": 1.0}),))
    rep = run_mutations(toy, [bad], quick=True)
    (o,) = rep.outcomes
    assert not o.killed and o.error.startswith("ConfigError") and "ERROR" in o.line()


def test_kinds_and_not_testable_are_validated():
    with pytest.raises(ValueError, match="kind"):
        Check("x", "-", "0", True, kind="paperish")
    with pytest.raises(ValueError, match="reason"):
        Check("x", "-", "0", False, status="not testable")
    c = not_testable("claim", "no data")
    assert c.status == "not testable" and c.ok and not c.passed


def test_cli_reproduce_mutations_counts_and_exit(toy, cli, tmp_path):
    code, out, err = cli(["reproduce", "toy/slope", "--quick", "--mutations", "--out", tmp_path])
    text = out + err
    assert "mutations: 1 killed, 1 survived" in text and code == 1  # a survivor is a defect
    assert (tmp_path / "mutations.md").exists()
    assert "claims of the papers: 4 pass, 0 deviation, 0 fail, 1 not testable" not in text  # insensitive left out
    assert "claims of the papers: 3 pass, 0 deviation, 0 fail, 1 not testable" in text
    page = (tmp_path / "validation.md").read_text()
    assert "Paper claims: **3 pass, 0 deviation, 0 fail, 1 not testable**" in page
    assert "### Not testable, and why" in page and "the paper does not print the measured data" in page
    assert "| pass | verification | toy/slope | numerics |" in page


#: the scenarios whose paper checks all declare mutations (issue 26 ports them paper by paper); the cheap ones run
#: in the fast suite, those whose mutated reruns take over ~5 s each in the slow tier
PORTED = ["kloss/fig4a", "kloss/fig4b", "kloss/fig7", "kloss/fig8", "kloss/fig10", "kloss/fig12", "kloss/fig13", "kloss/pstar-fit", "kloss/tyre-mf52-fit",
          "kloss/eq5-eq6", "kloss/amontons", "kloss/stick-slip",
          "microjunction/load-hold-unload", "microjunction/cyclic-load", "microjunction/hold-time-friction",
          "subloading/fig12", "subloading/fig6", "subloading/fig4", "subloading/fig7", "subloading/slide-hold-slide",
          "subloading/microslip-load", "subloading/eq3-reduction", "subloading/pressure-stick-slip",
          "classic/rsf-velocity-step", "classic/stribeck-curve",
          "classic/dahl-hysteresis", "classic/rsf-slide-hold-slide", "classic/rsf-data-fit",
          "beam-network/fig9", "beam-network/fig11", "beam-network/fig13"]
PORTED_SLOW = ["kloss/fig5", "kloss/fig6", "kloss/fig14", "kloss/naca0012-fit", "microjunction/constant-load-creep",
               "subloading/fig11", "subloading/fig5", "subloading/fig9", "subloading/stick-slip-map",
               "classic/rsf-stability", "classic/compare-velocity-step", "classic/compare-slide-hold-slide",
               "classic/rsf-stability-map", "classic/spring-slider-stick-slip", "control/canudas1995-position",
               "control/compensation-comparison", "control/kloss-online-estimation",
               "beam-network/fig8", "beam-network/fig12", "beam-network/fig14", "beam-network/calibration",
               # rough contact: quick runs of 5-35 s, each mutation reruns the scenario
               *(f"rough-contact/fig{n}" for n in range(3, 18))]


def _no_survivor(name: str) -> None:
    sc = scenario_base.get_scenario(name)
    ds, cfg = sc.execute(quick=True)
    checks = sc.evaluate(ds, cfg)
    rep = run_mutations(sc, checks, quick=True)
    judged = [c for c in checks if c.judged and not c.insensitive]
    assert len(rep.outcomes) >= len(judged), "every judged paper check has at least one mutation"
    assert rep.survived == 0, mutation_markdown(rep)
    assert rep.undeclared == []


@pytest.mark.parametrize("name", PORTED)
def test_ported_scenarios_kill_every_mutation(name):
    """Quick profile: every declared mutation kills its check, no paper check without one."""
    _no_survivor(name)


@pytest.mark.slow(reason="reruns a scenario of several seconds once per mutation (~20-60 s)")
@pytest.mark.parametrize("name", PORTED_SLOW)
def test_ported_scenarios_kill_every_mutation_slow(name):
    _no_survivor(name)


def test_every_scenario_is_judged_by_the_mutation_tests():
    """Every registered scenario is in PORTED or PORTED_SLOW, so a new scenario's paper checks cannot go without
    a mutation unnoticed (kloss/tyre-mf52-fit was the one left out: it has no paper check, and now says so)."""
    listed = set(PORTED) | set(PORTED_SLOW)
    assert len(listed) == len(PORTED) + len(PORTED_SLOW)  # none listed twice
    assert sorted(set(scenario_base.scenario_names()) - listed) == []
