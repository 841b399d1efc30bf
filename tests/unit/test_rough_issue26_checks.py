"""The rough-contact checks fixed for issue 26, on small synthetic records (no simulation)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import xarray as xr

from frictionlab.contact.rough.elasticity import SQUARE_SELF_COEF
from frictionlab.scenarios.base import get_scenario
from frictionlab.scenarios.rough_contact import fig3, fig8, fig13, fig14


def _jump_record(area: list[float], jumps: list[float]) -> xr.Dataset:
    """Contact elements per step, one um of slip per step (SI: slip in m)."""
    slip = np.arange(len(area), dtype=float) * 1e-6
    return xr.Dataset({"n_contact_elements": ("step", np.asarray(area, float)), "slip": ("step", slip),
                       "jump_slip": ("jump", np.asarray(jumps, float) * 1e-6)})


def test_fig14_continuity_bound_leaves_out_the_post_jump_steps():
    """The bound a post-jump step is compared with used to be the largest step of the whole record,
    the post-jump step included, so the check held by construction (issue 26)."""
    # ordinary steps change A by 1; the step after the jump at slip 3 changes it by 10
    rec = _jump_record([0, 1, 2, 3, 13, 14, 15], [3.0])
    got = fig14._step_area_changes(rec)
    assert got["jump_step_area_change"][1] == [10.0]
    assert got["max_step_area_change"][1] == 1.0  # not 10: the jump step is not its own bound
    assert got["next_step_area_change"][1] == [1.0]


def test_fig14_reference_paths_are_ten_memory_lengths():
    """At v = 1000 and lambda = 1 the memory is 1000 um; the former 400 um periodic path fed each element
    its own past (issue 26): the path is now >= 10 memory lengths, 10^4 um (SI: metres)."""
    path, memory = fig14.reference_path(fig14.CONFIG)
    assert memory == pytest.approx(1000e-6)
    assert path >= 10 * memory * (1 - 1e-12) and path == pytest.approx(1e-2)
    slow = {**fig14.CONFIG, "analysis": {**fig14.CONFIG["analysis"], "sets": {"x": [0.5, 1.0]}},
            "axes": {**fig14.CONFIG["axes"], "analysis": {"set": ["x"]}}}
    assert fig14.reference_path(slow) == pytest.approx((2e-2, 2e-3))


def test_fig3_self_term_is_a_deviation_from_loves_value():
    quad = fig3._love_centre_quadrature()
    assert quad == pytest.approx(4 * math.log1p(math.sqrt(2)), rel=1e-12)
    printed = fig3._self_term_checks(xr.Dataset(attrs={"love_centre_quadrature": quad, "self_coef": 3.8}))
    assert printed[0].kind == "verification" and printed[0].status == "pass"
    assert printed[1].status == "deviation" and "+7.8 %" in printed[1].measured
    assert printed[1].mutations[0].overrides == {"analysis.self_coef": SQUARE_SELF_COEF}
    exact = fig3._self_term_checks(xr.Dataset(attrs={"love_centre_quadrature": quad, "self_coef": SQUARE_SELF_COEF}))
    assert exact[1].status == "pass" and exact[1].claim == printed[1].claim  # same claim, so a mutation can judge it


def test_fig3_has_no_check_that_reports_its_input():
    claims = [c.claim for c in fig3.checks(*_fig3_tiny())]
    assert not any("reported" in c for c in claims)


def _fig3_tiny():
    cfg = {"analysis": {"self_coef": 3.8, "R": 1e-6, "delta_min": 0.03e-6, "delta_max": 0.1e-6, "n_delta": 3,
                        "inv_dx": [16, 32], "profiles": ["paraboloid"], "tol": 1e-8}}
    return get_scenario("rough-contact/fig3").run_study(cfg), cfg


def test_fig8_caption_check_names_the_points_outside_one_sd():
    sizes, P = [128, 256], [25e6, 100e6, 400e6]  # Pa
    z = np.random.default_rng(0).standard_normal(15)
    z = (z - z.mean()) / z.std(ddof=1)  # exactly mean 0, standard deviation 1
    means = np.array([[0.50, 0.50, 0.49], [0.50, 0.50, 0.48]])
    sds = np.array([[0.03, 0.03, 0.03], [0.01, 0.01, 0.01]])  # 128^2 scatters most
    x = means[..., None] + sds[..., None] * z
    ds = xr.Dataset(coords={"size": sizes, "pressure": P, "seed": np.arange(15)})
    da = xr.DataArray(x, dims=("size", "pressure", "seed"), coords=ds.coords)
    c = fig8._caption_check(ds, da, "boussinesq", "t=0+", 256, [])
    # grand mean at 256^2: 0.4933; only 256^2 at 400 MPa is more than one standard deviation (0.01) away
    assert c.status == "fail"
    assert c.measured.startswith("outside: 256^2 at 400 MPa (1.33 SD) (max 1.33 SD")


def test_fig13_invariance_in_contact_elements_and_the_papers_sets_apart():
    names = fig13._set_names([True, True, True, False])
    assert names == ["Fig. 13a set 1", "Fig. 13a set 2", "Fig. 13a set 3", "our set 1"]
    assert fig13._set_names([True, False, True]) == ["Fig. 13a set 1", "our set 1", "Fig. 13a set 2"]
    v = [1.0, 10.0, 100.0]
    area = np.array([[1.5, 1.46, 1.45], [2.1, 1.6, 1.46], [1.6, 1.46, 1.45], [8.0, 2.5, 1.6]]) / 100
    radius = np.array([[3.0, 3.1, 3.0], [3.0, 3.2, 3.1], [3.2, 3.1, 3.0], [5.0, 3.5, 3.0]])
    ds = xr.Dataset({"contact_area": (("set", "v"), area), "mean_contact_radius": (("set", "v"), radius)},
                    coords={"set": names, "lam": ("set", [1.0, 1.0, 0.1, 1.0]), "A": ("set", [0.1, 1.0, 0.1, 10.0]),
                            "v": v, "paper_set": ("set", [True, True, True, False])},
                    attrs={"invariance_pairs": 2, "invariance_max_elements": 1.0})
    cfg = {"analysis": {"sets": {"fig13a_1": [1.0, 0.1], "fig13a_2": [1.0, 1.0], "fig13a_3": [0.1, 0.1],
                                 "ours_1": [1.0, 10.0]}}}
    out = {c.claim: c for c in fig13.checks(ds, cfg)}
    inv = next(c for k, c in out.items() if k.startswith("(1, 1) and (0.1, 0.1)"))
    assert inv.status == "fail" and "exact" in inv.expected  # double precision: one element is a difference
    ds.attrs["precision_control_steps"] = 40  # single-precision products: up to 2 elements allowed
    inv = next(c for c in fig13.checks(ds, cfg) if c.claim.startswith("(1, 1) and (0.1, 0.1)"))
    assert inv.status == "pass"
    radius_checks = [c for c in out.values() if c.claim.startswith("Mean contact radius")]
    assert [(c.kind, c.status) for c in radius_checks] == [("paper", "pass"), ("extension", "fail")]
    larger = [c for c in out.values() if c.claim.startswith("lambda = 1: larger A/lambda")]
    assert [c.kind for c in larger] == ["paper", "extension"] and "(1, 10)" not in larger[0].measured
