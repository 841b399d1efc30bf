"""Microjunction model: JG normalisations, area/force laws, hardness, creep law, closed forms."""

from __future__ import annotations

import math

import numpy as np
import pytest

from frictionlab.contact.microjunction import (
    Microjunction, area_jg, creep_delta_rate, darea_jg, dforce_jg, force_jg, hardness_ratio, hardness_ratio_at,
    junction_rates, normalisation, pressure_rate,
)
from frictionlab.contact.microjunction.jackson_green import _dforce_jg, _force_jg
from frictionlab.core.errors import ParameterError
from frictionlab.core.registry import make_model, presets_of
from frictionlab.reference import microjunction as ref

M = Microjunction()  # spec section 5 material (demo steel)
C = M.constants


def test_normalisation_regression_values():
    # spec section 5, relative tolerance 1e-4
    expected = {"cnu": 1.614961, "b": 0.157062, "delta_c": 1.33225e-9, "area_c": 4.18539e-14, "force_c": 4.50617e-5}
    for k, v in expected.items():
        assert C[k] == pytest.approx(v, rel=1e-4), k
    assert C["force_c"] / (C["area_c"] * M.sigma_y) == pytest.approx(1.076641, rel=1e-5)
    assert C["force_c"] / (C["area_c"] * M.sigma_y) == pytest.approx(ref.critical_force_identity(C["cnu"]), rel=1e-12)
    # F_c is the Hertz force at delta_c
    assert float(ref.hertz_force_dimensional(C["delta_c"], M.e, M.nu, M.r)) == pytest.approx(C["force_c"], rel=1e-12)
    # a/R at delta* = 1.9 and H_G there
    ar = C["ar_coef"] * math.sqrt(1.9)
    assert ar == pytest.approx(0.015910, rel=1e-4)
    assert float(hardness_ratio(ar)) == pytest.approx(2.84000, rel=1e-5)


def test_yield_onset_pressure_and_hertz_limit():
    assert float(force_jg(1.0, C["b"], C["cnu"], C["ar_coef"])) == 1.0
    assert 1.5 * float(ref.hertz_pressure_star(1.0, C["cnu"])) == pytest.approx(C["cnu"], rel=1e-14)
    d = np.linspace(0.01, 1.9, 50)
    np.testing.assert_allclose(force_jg(d, C["b"], C["cnu"], C["ar_coef"]), d ** 1.5, rtol=1e-14)
    np.testing.assert_allclose(area_jg(d, C["b"]), d, rtol=1e-14)
    np.testing.assert_allclose(dforce_jg(d, C["b"], C["cnu"], C["ar_coef"]), 1.5 * np.sqrt(d), rtol=1e-14)


def test_jg_continuity_at_kink():
    lo, hi = 1.9, 1.9 * (1 + 1e-12)
    assert float(area_jg(hi, C["b"])) == pytest.approx(float(area_jg(lo, C["b"])), rel=1e-11)
    assert float(darea_jg(lo, C["b"])) == 1.0
    assert float(darea_jg(hi, C["b"])) == pytest.approx(1 + C["b"], rel=1e-10)
    f_lo, f_hi = (float(force_jg(x, C["b"], C["cnu"], C["ar_coef"])) for x in (lo, hi))
    assert f_lo == pytest.approx(2.61897, rel=1e-5)
    assert f_hi == pytest.approx(2.63139, rel=1e-5)
    assert 0 < f_hi / f_lo - 1 < 0.01
    assert (f_lo, f_hi) == pytest.approx(ref.jg_force_jump_at_kink(C["cnu"]), rel=1e-5)
    s_lo, s_hi = (float(dforce_jg(x, C["b"], C["cnu"], C["ar_coef"])) for x in (lo, hi))
    assert s_lo == pytest.approx(2.0676, rel=1e-4)
    assert s_hi == pytest.approx(1.9576, rel=1e-4)


def test_hardness_continuity_and_limit():
    eps = 1e-12
    h1, h2 = float(hardness_ratio(0.41)), float(hardness_ratio(0.41 + eps))
    assert h1 == pytest.approx(2.2254, abs=1e-4) and h2 == pytest.approx(2.2291, abs=1e-4)
    assert abs(h2 / h1 - 1) < 2e-3
    assert float(hardness_ratio(1.0)) == pytest.approx(1.02, rel=1e-12)  # polynomial 1.02 vs 1: the 2 % jump
    assert float(hardness_ratio(1.0 + eps)) == 1.0
    assert float(hardness_ratio(1e-8)) == pytest.approx(2.84, rel=1e-12)
    assert float(hardness_ratio(5.0)) == 1.0


def test_force_slope_is_derivative_of_force_law_at_fixed_hardness():
    k = 4 * 2.5 / C["cnu"]
    for d in (2.0, 5.0, 30.0, 200.0):
        h = 1e-6 * d
        num = (_force_jg(d + h, k) - _force_jg(d - h, k)) / (2 * h)
        assert _dforce_jg(d, k) == pytest.approx(num, rel=1e-7)


def test_closed_forms_equal_literal_formulas():
    rng = np.random.default_rng(4)
    for _ in range(20):
        e = rng.uniform(50e9, 300e9)
        nu = rng.uniform(0.05, 0.5)
        sy = rng.uniform(0.1e9, 2e9)
        r = rng.uniform(1e-6, 1e-4)
        n = normalisation(e, nu, sy, r)
        a, f = rng.uniform(0.1, 100), rng.uniform(0.1, 100)
        ac, dc, fc, ep = n["area_c"], n["delta_c"], n["force_c"], n["eprime"]
        m11 = 0.81 * 2 * ep / (math.pi * math.sqrt(r * dc)) * a ** -0.5 * dc / sy
        assert m11 == pytest.approx(0.81 * n["cnu"] / math.sqrt(a), rel=1e-12)
        m15 = 2 * ep * math.sqrt(a * ac / math.pi) * dc / fc
        assert m15 == pytest.approx(1.5 * math.sqrt(a), rel=1e-12)
        rres = 4 * ep / (3 * f * fc) * (a * ac / math.pi) ** 1.5
        assert rres / r == pytest.approx(a ** 1.5 / f, rel=1e-12)
        assert fc == pytest.approx(4 / 3 * ep * math.sqrt(r) * dc ** 1.5, rel=1e-12)


def test_creep_sign_and_constant_force_rates():
    rng = np.random.default_rng(0)
    for _ in range(50):
        d = rng.uniform(0.05, 300)
        a = float(area_jg(d, C["b"])) * rng.uniform(0.6, 1.0)
        f = rng.uniform(0.01, 1.0) * float(force_jg(d, C["b"], C["cnu"], C["ar_coef"]))
        dmax = d * rng.uniform(1.0, 2.0)
        dp = pressure_rate(f, a, dmax, M.e, M.c1, M.sigma_y, C["cnu"], C["b"], C["ar_coef"])
        assert dp < 0
        assert creep_delta_rate(f, a, d, dmax, M.e, M.c1, M.sigma_y, C["cnu"], C["b"], C["ar_coef"]) > 0
        dd, da = junction_rates(M, d, a, dmax, f, 0.0)
        assert dd > 0 and da >= 0
    # no creep when C1 = 0
    assert pressure_rate(5.0, 3.0, 3.0, M.e, 0.0, M.sigma_y, C["cnu"], C["b"], C["ar_coef"]) == 0.0


def test_creep_rate_scales_with_c1():
    r1 = creep_delta_rate(20.0, 10.4, 8.25, 8.25, M.e, M.c1, M.sigma_y, C["cnu"], C["b"], C["ar_coef"])
    r7 = creep_delta_rate(20.0, 10.4, 8.25, 8.25, M.e, 7 * M.c1, M.sigma_y, C["cnu"], C["b"], C["ar_coef"])
    assert r7 == pytest.approx(7 * r1, rel=1e-12)


def test_elastic_unloading_closed_form_matches_spec_numbers():
    d, a = ref.elastic_unloading(10.0, 20.0, 8.2481, 10.3872)
    assert float(d) == pytest.approx(5.952, abs=1e-3)
    assert float(a) == pytest.approx(6.544, abs=1e-3)


@pytest.mark.parametrize("field,value", [("sigma_y", 300e9), ("nu", 0.0), ("nu", 0.6), ("r", -1e-6),
                                         ("c1", -1.0), ("e", 0.0)])
def test_bad_parameters_name_the_field(field, value):
    with pytest.raises(ParameterError, match=field):
        Microjunction(**{field: value})


def test_presets_exist_and_build():
    ps = presets_of("microjunction")
    assert {"demo-steel", "mild-steel", "aluminium-6061-t6"} <= set(ps)
    for name, p in ps.items():
        m = make_model("microjunction", name)
        assert m.c1 == pytest.approx(2.84 * m.sigma_y / m.e)
        assert "assumption" in (p.note + p.source)
    assert hardness_ratio_at(1.9, C["b"], C["ar_coef"]) == pytest.approx(2.84, rel=1e-5)
