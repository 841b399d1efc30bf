"""RoughContact model and static driver: limits, closed forms, outputs, bad input (spec §6.3-6.7)."""

import numpy as np
import pytest

from frictionlab.contact.rough.elasticity import BoussinesqFFT, StepOperator
from frictionlab.contact.rough.model import (TAU_S_BAR, RoughContact, RoughContactSim, contact_clusters,
                                             load_from_pressure, run_static)
from frictionlab.contact.rough.numerics import SolverOptions
from frictionlab.contact.rough.solver import meanfield_solve, pk_solve
from frictionlab.contact.rough.surface import make_surface, shift_x
from frictionlab.core.errors import ConfigError, ParameterError
from frictionlab.core.registry import make_model
from frictionlab.reference.boussinesq import meanfield_mu


@pytest.fixture(scope="module")
def surf():
    return make_surface(40, 40, beta_x=5.0, seed=11)


def test_static_hold_limits_match_direct_solves(surf):
    W = load_from_pressure(100e6, 40, 40)
    m = RoughContact(lams=(1.0,), As=(0.2,))
    num = SolverOptions(tol=1e-12)
    ds = run_static(m, surf, W, t_end=50.0, per_decade=10, numerics=num)
    op = BoussinesqFFT(40, 40)
    r0 = pk_solve(StepOperator(op), surf, W, tol=1e-12)
    rinf = pk_solve(StepOperator(op, c=1.2), surf, W, tol=1e-12)
    assert ds.dilatation.values[0] == pytest.approx(r0.d, rel=1e-9)
    assert ds.dilatation.values[-1] == pytest.approx(rinf.d, rel=1e-6)
    assert ds.n_contact_elements.values[-1] == (rinf.p > 0).sum()
    assert ds.n_contact_elements.values[0] == (r0.p > 0).sum()
    # invariants at every step: load balance, residuals
    assert np.allclose(-ds.normal_force.values, W, rtol=1e-12)
    assert np.all(ds.gap_residual.values < 1e-7)
    assert np.all(ds.min_free_gap.values > -1e-7)
    # mu = tau_s A / W
    assert np.allclose(ds.friction_coefficient, TAU_S_BAR * ds.contact_area / W, rtol=1e-14)
    for v in ds.data_vars:
        assert "units" in ds[v].attrs


def test_meanfield_matches_closed_form_d17():
    # spec §6.5: mean field at t=0+ vs the i.i.d. Gaussian closed form on 512^2; 4 realisations,
    # tolerance 3 % or 3 standard errors of the seed mean (one 512^2 seed scatters by ~2-3 %)
    n = 512
    hs = [make_surface(n, n, seed=s) for s in range(4)]
    for P in (50e6, 100e6, 200e6):
        W = load_from_pressure(P, n, n)
        mus = np.array([TAU_S_BAR * (meanfield_solve(h, W, 16.0).p > 0).sum() / W for h in hs])
        cf = meanfield_mu(P / 2.513274e11, TAU_S_BAR)
        tol = max(0.03 * cf, 3 * mus.std(ddof=1) / 2)
        assert abs(mus.mean() - cf) < tol


def test_clusters_and_outputs():
    mask = np.zeros((8, 8), bool)
    mask[1, 1] = mask[1, 2] = True  # one 4-connected cluster
    mask[3, 3] = mask[4, 4] = True  # diagonal: two 4-clusters, one 8-cluster
    assert contact_clusters(mask, 4)[0] == 3
    assert contact_clusters(mask, 8)[0] == 2


def test_snapshots_and_pdf_moments(surf):
    W = load_from_pressure(100e6, 40, 40)
    ds = run_static(RoughContact(), surf, W, t_end=10.0, per_decade=4, snapshot_times=(0.0, 10.0))
    assert ds.sizes["snapshot"] == 2
    m0 = (ds.force_pdf * ds.force_bin_width).sum("force_bin").values
    assert np.allclose(m0, ds.area_fraction.values[[0, -1]], rtol=1e-12)


def test_sliding_building_block_accepts_shifted_heights(surf):
    W = load_from_pressure(100e6, 40, 40)
    sim = RoughContactSim(RoughContact(), surf, W)
    sim.initial_load()
    r = sim.step(0.25, heights=shift_x(surf, 0.25))
    assert r.iterations > 0 and np.isclose(sim.p.sum(), W, rtol=1e-12)


def test_registry_and_presets():
    m = make_model("rough_contact", "fig6")
    assert m.lams == (1.0, 0.1, 0.01, 0.001)
    assert m.viscoelastic().relaxed_factor == pytest.approx(1.2, rel=1e-12)


def test_bad_model_input(surf):
    with pytest.raises(ParameterError, match="W"):
        RoughContactSim(RoughContact(), surf, W=-1.0)
    bad = surf.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ParameterError, match="NaN"):
        RoughContactSim(RoughContact(), bad, W=1.0)
    with pytest.raises(ParameterError, match="pressure"):
        load_from_pressure(-1e6, 4, 4)
    with pytest.raises(ParameterError, match="dt"):
        RoughContactSim(RoughContact(), surf, W=1.0).step(-1.0)
    with pytest.raises(ParameterError, match="lams"):
        RoughContact(lams=(-1.0,))


def test_direct_effect_identity(surf):
    # spec §6.6: at a velocity jump with the contact set unchanged,
    # mu(v_new) - mu(v_old) = alpha ln(v_new/v_old) A / W, to round-off
    W = load_from_pressure(100e6, 40, 40)
    sim = RoughContactSim(RoughContact(), surf, W)
    sim.initial_load()
    A = float((sim.p > 0).sum())
    jump = sim.friction_coefficient(10.0) - sim.friction_coefficient(1.0)
    assert jump == pytest.approx(2e-4 * np.log(10.0) * A / W, rel=1e-12)
    assert sim.friction_coefficient(0.0) == pytest.approx(TAU_S_BAR * A / W, rel=1e-14)


@pytest.mark.parametrize("solver", ["alg1_consistent", "pk"])
def test_solver_modes_agree_in_a_hold(surf, solver):
    W = load_from_pressure(100e6, 40, 40)
    ref = run_static(RoughContact(), surf, W, t_end=10.0, per_decade=3, numerics=SolverOptions(solver="pk", tol=1e-12))
    ds = run_static(RoughContact(), surf, W, t_end=10.0, per_decade=3, numerics=SolverOptions(solver=solver, tol=1e-12))
    assert np.allclose(ds.dilatation.values, ref.dilatation.values, rtol=1e-8)
    assert np.array_equal(ds.n_contact_elements.values, ref.n_contact_elements.values)


def test_meanfield_pk_and_exact_agree_in_a_hold(surf):
    W = load_from_pressure(100e6, 40, 40)
    a = run_static(RoughContact(interaction="meanfield"), surf, W, t_end=10.0, per_decade=3,
                   numerics=SolverOptions(solver="exact"))
    b = run_static(RoughContact(interaction="meanfield"), surf, W, t_end=10.0, per_decade=3,
                   numerics=SolverOptions(solver="pk", tol=1e-13))
    assert np.allclose(a.dilatation.values, b.dilatation.values, rtol=1e-9)
    assert np.array_equal(a.n_contact_elements.values, b.n_contact_elements.values)


def test_paper_alg1_lagged_mode_runs_and_stays_close(surf):
    W = load_from_pressure(100e6, 40, 40)
    ref = run_static(RoughContact(), surf, W, t_end=10.0, per_decade=5)
    lag = run_static(RoughContact(), surf, W, t_end=10.0, per_decade=5, numerics=SolverOptions(solver="alg1"))
    # one-step lag of the contact set (spec R22): same trend, small deviations
    assert lag.friction_coefficient.values[-1] == pytest.approx(ref.friction_coefficient.values[-1], rel=0.05)


def test_static_hold_converges_when_steps_are_halved():
    # halving the log-step size changes the contact forces at t = 1 by < 1e-3 of the largest
    # force, and by less each time. (The dilatation itself is insensitive: the total history
    # sum_i q_i = (A/lambda) W (1 - e^{-lambda t}) is integrated exactly by both schemes.)
    h = make_surface(64, 64, beta_x=6.0, seed=2)
    W = load_from_pressure(100e6, 64, 64)
    ps = [run_static(RoughContact(), h, W, t_end=1.0, per_decade=k, snapshot_times=(1.0,),
                     numerics=SolverOptions(tol=1e-13)).contact_force.values[0].astype(float) for k in (5, 10, 20)]
    e1 = np.abs(ps[1] - ps[0]).max()
    e2 = np.abs(ps[2] - ps[1]).max()
    assert e2 < e1
    assert e2 < 1e-3 * ps[2].max()


@pytest.mark.parametrize("material,field,value", [
    ("viscoelastic", "Fy0", 7.5e-3), ("viscoelastic", "A_cr", 1e-9), ("viscoelastic", "n_cr", 2.0),
    ("viscoelastic", "B", 1e5), ("viscoelastic", "m_h", 2.0), ("viscoelastic", "vp_scheme", "explicit"),
    ("elastic", "Fy0", 7.5e-3),
    ("elastic", "lams", (0.5,)), ("elastic", "As", (0.1,)), ("elastic", "ve_scheme", "constant"),
])
def test_parameter_the_material_ignores_is_refused(material, field, value):
    """A parameter set away from its default must act: the viscoplastic ones only act with
    material = "viscoplastic", the relaxation ones not with the elastic material."""
    with pytest.raises(ParameterError, match=rf"{field} .*no effect with material = '{material}'.*material = "):
        RoughContact(material=material, **{field: value})
    with pytest.raises(ParameterError, match=field):
        make_model("rough_contact", "table1", material=material, **{field: value})
    RoughContact(material=material, **{field: RoughContact.__dataclass_fields__[field].default})  # the default: fine
    if field not in ("lams", "As", "ve_scheme"):
        RoughContact(material="viscoplastic", **{field: value})  # used there
    else:
        RoughContact(material="viscoelastic", **{field: value})
    make_model("rough_contact", "fig6", material="viscoelastic")  # a preset's relaxation rates act on a VE material


@pytest.mark.parametrize("name", ["tol", "solver", "max_iter", "backend"])
def test_solver_option_in_constructor_points_to_integrator(name):
    """RoughContact(tol=...) says where the option goes, as the config path does (not a bare TypeError)."""
    with pytest.raises(ConfigError, match=rf"'{name}' is a solver option.*\[integrator\] {name} = .*SolverOptions"):
        RoughContact(**{name: 1})
    with pytest.raises(ConfigError, match=rf"'{name}' is a solver option.*\[integrator\] {name}"):
        make_model("rough_contact", "table1", **{name: 1})
    with pytest.raises(TypeError, match="unexpected keyword argument 'not_a_field'"):
        RoughContact(not_a_field=1)
