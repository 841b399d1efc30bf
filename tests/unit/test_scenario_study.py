"""Scenarios are studies run by the library (issue 31): no registered scenario carries a hand-written
``run(config, quick)`` (the last five were ported in stop 36), and their configs use only the vocabulary."""

from __future__ import annotations

import pytest

from frictionlab.scenarios.base import get_scenario, scenario_names
from frictionlab.solve.study import STUDY_SECTIONS

#: the vocabulary of a ported scenario's config: the study's sections, what post/checks read, a fit's data
VOCABULARY = (*STUDY_SECTIONS, "analysis", "data")


@pytest.mark.parametrize("name", scenario_names())
def test_every_scenario_is_a_study(name):
    sc = get_scenario(name)
    assert sc.run is None, f"{name} has a hand-written run: make it a study (solve/study.py)"
    extra = sorted(set(sc.config) - set(VOCABULARY))
    assert not extra, f"{name}: config sections {extra} are not in the vocabulary {VOCABULARY}"


def test_the_vocabulary_has_at_most_eight_sections():
    assert len(VOCABULARY) <= 8


def test_a_refining_scenario_runs_the_rounds_its_refine_asks_for_and_post_sees_them_all():
    """``Scenario.refine``: each round's runs depend on the results so far (a bisection); a label run twice is refused."""
    from frictionlab.core.errors import ConfigError
    from frictionlab.scenarios.base import Scenario

    base = {"model": {"name": "lugre", "preset": "canudas1995"},
            "protocol": {"type": "constant_velocity", "duration_s": 0.02, "normal_force_value": 1.0},
            "axes": {"protocol": {"v": [1e-4, 1e-2]}}}
    rounds = []

    def refine(result, cfg):
        rounds.append(list(result.labels))
        if len(rounds) > 2:
            return None
        v = 10 ** (-3 - len(rounds))  # depends on how many rounds ran
        return {"runs": {f"round{len(rounds)}": {"protocol": {"v": v}}}}

    def post(result, cfg):
        import xarray as xr
        return xr.Dataset({"n": ((), len(result.points))}, attrs={"labels": ",".join(result.labels)})

    sc = Scenario("test/refine", "refinement", base, post=post, refine=refine)
    ds, _ = sc.execute()
    assert rounds == [[], ["round1"], ["round1", "round2"]]
    assert int(ds.n) == 4 and ds.attrs["labels"] == "round1,round2"

    again = Scenario("test/refine2", "refinement", base, post=post,
                     refine=lambda result, cfg: {"runs": {"same": {"protocol": {"v": 1e-3}}}})
    with pytest.raises(ConfigError, match="ran the run\\(s\\) same again"):
        again.execute()
