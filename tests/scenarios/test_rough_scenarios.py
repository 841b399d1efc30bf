"""Quick profiles of the rough-contact scenarios and their checks."""

import pytest

from frictionlab.scenarios.base import get_scenario

# Claims the paper's own equations do not give are "deviation" verdicts with passing evidence
# (Fig. 8 mean field: closed form); a quick-profile check may "fail" only where listed here, with why.
EXPECTED_DEVIATIONS = {
    "rough-contact/fig8": ("meanfield (t=0+): mu_s nearly independent", "meanfield (t=100): mu_s nearly independent"),
}
#: claims that fail as measured (issue 26: a fail stays a fail): Fig. 5b's growth phase spans about 2 decades
#: (1.9 Boussinesq, 1.4 mean field), not "about 3"
EXPECTED_FAILS = {
    "rough-contact/fig5": ("boussinesq: a logarithmic growth phase of about 3 decades",
                           "meanfield: a logarithmic growth phase of about 3 decades"),
}


def _run(name):
    sc = get_scenario(name)
    ds, cfg = sc.execute(quick=True)
    verdicts = sc.evaluate(ds, cfg)
    expected_fails = EXPECTED_FAILS.get(name, ())
    failed = [c for c in verdicts if c.status == "fail" and not c.claim.startswith(expected_fails or "\0")]
    assert not failed, [(c.claim, c.expected, c.measured, c.explanation) for c in failed]
    for want in expected_fails:
        assert any(c.claim.startswith(want) and c.status == "fail" for c in verdicts), want
    devs = [c.claim for c in verdicts if c.status == "deviation"]
    for want in EXPECTED_DEVIATIONS.get(name, ()):
        assert any(d.startswith(want) for d in devs), (want, devs)


def test_fig3_quick():
    _run("rough-contact/fig3")


@pytest.mark.slow(reason="static holds of the quick profiles take 10-40 s each")
@pytest.mark.parametrize("name", ["rough-contact/fig4", "rough-contact/fig5", "rough-contact/fig6",
                                  "rough-contact/fig7", "rough-contact/fig8"])
def test_quick_profiles(name):
    _run(name)


def test_fig8_closed_form_check_needs_resolution():
    """The mean-field-vs-closed-form evidence states a resolution and fails without it (it used to
    pass with a tolerance of three standard errors over three seeds, about 0.36); a deviation
    resting on it is then refused."""
    sc = get_scenario("rough-contact/fig8")
    mf = {f"runs.{run}.axes.model.{k}": v for run in ("meanfield_large", "meanfield_iid")
          for k, v in (("patch_nx", [64]), ("surface_seed", [0, 1, 2]))}
    ds, cfg = sc.execute({"axes.model.patch_nx": [32], "axes.model.surface_seed": [0, 1], **mf,
                          "axes.analysis.pressure": [25e6, 100e6, 400e6]}, quick=True)
    verdicts = sc.evaluate(ds, cfg)
    cf = [c for c in verdicts if c.claim.startswith("mean field (")]
    assert len(cf) == 4 and all("3 SE" in c.expected for c in cf)
    assert any(c.status == "fail" for c in cf)
    mf = [c for c in verdicts if c.claim.startswith("meanfield (t=0+): mu_s nearly independent")]
    assert mf and mf[0].status in ("fail", "pass")
    direct = [c for c in verdicts if c.claim.startswith("direct relaxed solve")]
    assert direct and direct[0].status == "pass"
