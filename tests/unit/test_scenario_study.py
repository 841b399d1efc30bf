"""Scenarios are studies run by the library (issue 31): the ones still carrying a hand-written
``run(config, quick)`` are listed here, and the list only shrinks."""

from __future__ import annotations

import pytest

from frictionlab.scenarios.base import get_scenario, scenario_names
from frictionlab.solve.study import STUDY_SECTIONS

#: the vocabulary of a ported scenario's config: the study's sections, what post/checks read, a fit's data
VOCABULARY = (*STUDY_SECTIONS, "analysis", "data")

#: scenarios not yet ported to a study (a hand-written run); remove a name when it is ported
NOT_YET_PORTED = frozenset({
    "beam-network/calibration",
    "beam-network/fig12",
    "beam-network/fig13",
    "beam-network/fig14",
    "classic/compare-slide-hold-slide",
    "classic/compare-velocity-step",
    "kloss/amontons",
    "kloss/eq5-eq6",
    "kloss/fig10",
    "kloss/fig12",
    "kloss/fig13",
    "kloss/fig14",
    "kloss/fig4a",
    "kloss/fig4b",
    "kloss/fig6",
    "kloss/fig7",
    "kloss/fig8",
    "kloss/naca0012-fit",
    "kloss/pstar-fit",
    "kloss/stick-slip",
    "kloss/tyre-mf52-fit",
    "rough-contact/fig10",
    "rough-contact/fig11",
    "rough-contact/fig12",
    "rough-contact/fig13",
    "rough-contact/fig14",
    "rough-contact/fig15",
    "rough-contact/fig16",
    "rough-contact/fig17",
    "rough-contact/fig3",
    "rough-contact/fig4",
    "rough-contact/fig5",
    "rough-contact/fig6",
    "rough-contact/fig7",
    "rough-contact/fig8",
    "rough-contact/fig9",
    "subloading/fig5",
})


@pytest.mark.parametrize("name", scenario_names())
def test_a_scenario_is_a_study_unless_listed_as_not_yet_ported(name):
    sc = get_scenario(name)
    if sc.run is not None:
        assert name in NOT_YET_PORTED, f"{name} has a hand-written run: make it a study (solve/study.py)"
        return
    extra = sorted(set(sc.config) - set(VOCABULARY))
    assert not extra, f"{name}: config sections {extra} are not in the vocabulary {VOCABULARY}"


def test_the_vocabulary_has_at_most_eight_sections():
    assert len(VOCABULARY) <= 8
