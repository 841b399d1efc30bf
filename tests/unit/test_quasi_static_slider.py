"""The quasi-static spring-slider (system ``quasi_static``, driver ``quasi_static`` of rate_state)."""

from __future__ import annotations

import numpy as np
import pytest

from frictionlab import simulate
from frictionlab.core.errors import ConfigError, IntegrationError
from frictionlab.laws import RateState, RateState2
from frictionlab.plot import displacement_plot, phase_plane
from frictionlab.protocols import VelocitySteps
from frictionlab.solve.config import run_config
from frictionlab.solve.drivers import default_driver, drivers_for
from frictionlab.systems import PrescribedSlip, QuasiStaticSlider, spring_slider

RSF = dict(mu0=0.6, a=0.01, b=0.015, dc=1e-5, v0=1e-6, v_init=1e-6)
STEPS = VelocitySteps(velocities=(1e-6, 1e-5), distances=(1e-4, 4e-4), normal_force_value=1.0)


def _end_of_segments(ds, protocol):
    return [float(ds.friction_coefficient.sel(time=t, method="nearest")) for t in protocol.edges[1:]]


def test_driver_is_registered_and_default_only_for_the_quasi_static_system():
    m = RateState(**RSF)
    assert "quasi_static" in drivers_for(m)
    assert default_driver(m, QuasiStaticSlider()).name == "quasi_static"
    assert default_driver(m, PrescribedSlip()).name == "rk4"
    assert default_driver(m, spring_slider(1.0, 1e3)).name == "rk4"


@pytest.mark.parametrize("law", ["aging", "slip"])
def test_steady_state_after_a_velocity_step(law):
    """Delta mu_ss = (a - b) ln(V2/V1) (Ruina 1983, eq. 8) after 40 Dc at the new velocity."""
    m = RateState(**RSF, law=law)
    ds = simulate(m, STEPS, system=QuasiStaticSlider(stiffness=1e3))
    mu1, mu2 = _end_of_segments(ds, STEPS)
    assert mu1 == pytest.approx(0.6, abs=1e-9)  # starts steady and stays there
    assert mu2 - mu1 == pytest.approx((0.01 - 0.015) * np.log(10), abs=2e-5)
    assert float(ds.slip_velocity[-1]) == pytest.approx(1e-5, rel=5e-3)  # slip law: slowly decaying oscillation
    for name, unit in (("friction_coefficient", "1"), ("slip_velocity", "m/s"), ("state_theta", "s"),
                       ("slip", "m"), ("driver_position", "m")):
        assert ds[name].attrs["units"] == unit
    # load point: starts mu N / k ahead of the slider (spring in equilibrium), then moves by integral V_lp
    assert float(ds.driver_position[0]) == pytest.approx(0.6 / 1e3, rel=1e-12)
    assert float(ds.driver_position[-1] - ds.driver_position[0]) == pytest.approx(5e-4, rel=1e-9)
    # slip law: the peak after the step is higher than with the aging law at this stiffness
    assert float(ds.friction_coefficient.max()) > mu1 + 0.01 * np.log(10) * 0.5


def test_matches_the_inertial_spring_slider_at_tiny_mass():
    m = RateState(**RSF)
    k = 1e3
    qs = simulate(m, STEPS, system=QuasiStaticSlider(stiffness=k), save_dt=0.2)
    dyn = simulate(m, STEPS, system=spring_slider(mass=1e-7, stiffness=k, preload=0.6, v0=1e-6),
                   integrator="radau", dt=1e-4, save_dt=0.2, rtol=1e-9, atol=1e-13)
    diff = np.abs(qs.friction_coefficient.values - dyn.friction_coefficient.values)
    assert diff.max() < 1e-6, diff.max()  # inertia sqrt(m/k) = 1e-5 s against Dc/V = 1 s (measured 3.7e-9)
    np.testing.assert_allclose(qs.slip.values[-1], dyn.slip.values[-1], rtol=1e-3)


def test_the_generic_integrators_run_it_with_a_preload():
    m = RateState(**RSF)
    sys = QuasiStaticSlider(stiffness=1e3, start_steady=False, preload=0.6)
    a = simulate(m, STEPS, system=sys, save_dt=1.0)
    b = simulate(m, STEPS, system=sys, integrator="radau", dt=1e-3, save_dt=1.0)  # bisection kernel
    np.testing.assert_allclose(a.friction_coefficient.values, b.friction_coefficient.values, atol=1e-5)
    with pytest.raises(ConfigError, match="start_steady"):
        simulate(m, STEPS, system=QuasiStaticSlider(), integrator="rk4", dt=1e-2)


def test_two_state_variables_steady_state():
    m = RateState2(mu0=0.6, a=0.01, b1=0.008, dc1=1e-5, b2=0.006, dc2=5e-5, v0=1e-6, v_init=1e-6)
    pr = VelocitySteps(velocities=(1e-6, 1e-5), distances=(1e-4, 1.5e-3), normal_force_value=1.0)
    ds = simulate(m, pr, system=QuasiStaticSlider(stiffness=1e4))
    mu1, mu2 = _end_of_segments(ds, pr)
    assert mu2 - mu1 == pytest.approx((0.01 - 0.008 - 0.006) * np.log(10), abs=3e-5)
    assert {"state_theta1", "state_theta2"} <= set(ds.data_vars)


def test_from_a_config_and_refused_options():
    cfg = {"model": {"name": "rate_state", "preset": "granite-typical"},
           "protocol": {"type": "velocity_steps", "velocities": [1e-6, 1e-5], "distances": [1e-4, 2e-4]},
           "system": {"type": "quasi_static", "stiffness": 1e3},
           "integrator": {"driver": "quasi_static", "rtol": 1e-8}}
    ds = run_config(cfg, strict=True)
    assert ds.attrs["integrator"] == "quasi_static" and ds.attrs["rtol"] == 1e-8
    with pytest.raises(ConfigError):
        simulate(RateState(**RSF), STEPS, system=QuasiStaticSlider(), integrator="quasi_static", newmark_beta=0.3)
    with pytest.raises(ConfigError, match="solver"):
        simulate(RateState(**RSF), STEPS, system=QuasiStaticSlider(), solver="euler")


def test_plot_helpers_return_figures():
    from matplotlib.figure import Figure

    ds = simulate(RateState(**RSF), STEPS, system=QuasiStaticSlider(stiffness=1e3))
    f1, f2 = phase_plane(ds), displacement_plot(ds)
    assert isinstance(f1, Figure) and isinstance(f2, Figure)
    assert len(f2.axes) == 3 and f2.axes[0].lines[0].get_xdata().max() == pytest.approx(500, rel=1e-6)
    import matplotlib.pyplot as plt

    plt.close("all")


def _rhs_array_form(model, bs, dcs, asinh_form, slip_law, kn):
    """The right-hand side as the driver wrote it before issue 19 (array form of (mu, x/Dc1, ln theta)),
    the reference."""
    from frictionlab.laws.rate_state_drivers import _velocity

    dc1 = float(dcs[0])

    def rhs(t, y, vlp):
        lnth = y[2:]
        v = _velocity(model, y[0], lnth, bs, dcs, asinh_form)
        omega = abs(v) * np.exp(lnth) / dcs
        dlnth = -(abs(v) / dcs) * np.log(np.maximum(omega, 1e-300)) if slip_law else np.exp(-lnth) - abs(v) / dcs
        return np.concatenate([[kn * (vlp - v), v / dc1], dlnth])

    return rhs


MODELS = [RateState(**RSF), RateState(**RSF, law="slip"), RateState(**RSF, form="arcsinh"), RateState2(),
          RateState2(law="slip")]


def _ids(m):
    return f"{m.name}-{m.law}-{getattr(m, 'form', '')}"


def _states(n_theta, seed=19, size=200):
    rng = np.random.default_rng(seed)
    return np.column_stack([rng.uniform(0.55, 0.7, size), rng.normal(np.log(10.0), 2.0, (size, n_theta))])


def _compiled(model, kn=1e3):
    """The compiled kernels' parameter vector for ``model`` and the arguments of the array form."""
    from frictionlab.laws.rate_state_drivers import _constants
    from frictionlab.laws.rate_state_qs_kernels import param_vector

    bs, dcs, asinh_form = _constants(model)
    args = (model, bs, dcs, asinh_form, model.law == "slip", kn)
    return param_vector(model.mu0, model.a, model.v0, kn, bs, dcs, asinh_form, model.law == "slip"), args


@pytest.mark.parametrize("model", MODELS, ids=_ids)
def test_the_right_hand_side_and_velocities_match_the_array_form(model):
    """The compiled right-hand side of (mu, ln theta) equals the array form's mu and ln theta rows (up to
    numpy's and math's exp differing in the last bit); its velocity is bit for bit the driver's scalar
    :func:`_velocity` (the steady start uses its inverse)."""
    from frictionlab.laws import rate_state_qs_kernels as qk
    from frictionlab.laws.rate_state_drivers import _velocity

    p, args = _compiled(model)
    ref = _rhs_array_form(*args)
    ys = _states(args[1].size)
    out = np.empty(ys.shape[1])
    for y in ys:
        full = ref(1.0, np.concatenate([[y[0], 7.0], y[1:]]), 3e-6)
        qk._rhs(y, 3e-6, p, out)
        np.testing.assert_allclose(out, np.delete(full, 1), rtol=1e-14, atol=0)
        assert qk._velocity(y, p) == _velocity(*args[:1], y[0], y[1:], *args[1:4])


@pytest.mark.parametrize("model", MODELS, ids=_ids)
def test_the_jacobian_matches_central_differences(model):
    from frictionlab.laws import rate_state_qs_kernels as qk

    p, args = _compiled(model)

    def rhs(y):
        out = np.empty(y.size)
        qk._rhs(y, 3e-6, p, out)
        return out

    for y in _states(args[1].size, seed=7, size=20):
        J = np.empty((y.size, y.size))
        qk._jac(y, p, J)
        Jfd = np.empty_like(J)
        for j in range(y.size):
            h = 1e-6 * max(1.0, abs(y[j]))
            e = np.zeros(y.size)
            e[j] = h
            Jfd[:, j] = (rhs(y + e) - rhs(y - e)) / (2 * h)
        np.testing.assert_allclose(J, Jfd, rtol=1e-6, atol=1e-8 * np.abs(J).max())


@pytest.mark.parametrize("model", MODELS, ids=_ids)
def test_the_interpreted_kernels_give_the_compiled_numbers(model):
    """A process's first short run interprets the kernels (no numba import); its numbers are the
    compiled kernels' bit for bit (velocity steps 1 -> 10 -> 3 um/s, 2308 samples, ~500 steps)."""
    from frictionlab.core.lazy import interpreted
    from frictionlab.laws import rate_state_qs_kernels as qk

    p, args = _compiled(model, kn=1e4)
    y0 = np.array([0.6, *np.log(np.asarray(model.initial_state()))])
    times = np.linspace(0.0, 30.0, 2308)
    runs = []
    for run in (interpreted(qk.__name__).run_pieces, qk.run_pieces):
        Y, slip, vel, info = np.empty((times.size, y0.size)), np.empty(times.size), np.empty(times.size), np.zeros(6)
        stop = run(y0, p, np.array([0.0, 10.0, 20.0, 30.0]), np.array([1e-6, 1e-5, 3e-6]), times, 1e-9, 1e-11, 0.0,
                   qk.MAX_STEPS, Y, slip, vel, info)
        runs.append((stop, Y, slip, vel, info))
    assert runs[0][0] == runs[1][0] == -1 and runs[0][4][3] > 100
    for a, b in zip(runs[0][1:], runs[1][1:]):
        np.testing.assert_array_equal(a, b)


def test_a_long_first_run_goes_to_the_compiled_kernels(monkeypatch):
    """The interpreted first run stops at INTERPRETED_STEPS and the compiled kernels redo it: the same result."""
    from frictionlab.laws import rate_state_drivers as drv

    ref = simulate(RateState(**RSF), STEPS, system=QuasiStaticSlider(stiffness=1e3), save_dt=0.5)
    monkeypatch.setattr(drv, "_FIRST_RUN", [True])
    monkeypatch.setattr(drv, "INTERPRETED_STEPS", 10)
    monkeypatch.setattr(drv, "_numba_imported", lambda: False)  # as in a fresh process
    ds = simulate(RateState(**RSF), STEPS, system=QuasiStaticSlider(stiffness=1e3), save_dt=0.5)
    assert drv._FIRST_RUN == [False]
    np.testing.assert_array_equal(ds.friction_coefficient.values, ref.friction_coefficient.values)


@pytest.mark.parametrize("model", MODELS[:2] + MODELS[3:4], ids=_ids)
def test_rodas4_default_agrees_with_scipys_stiff_solvers(model):
    """Velocity step 1 -> 10 um/s, sampled every 0.01 s (dense output): the default Rodas4 and LSODA
    at the default tolerances against Radau at rtol 1e-11 (stiffness 1e4 N/m keeps the slip law stable)."""
    pr = VelocitySteps(velocities=(1e-6, 1e-5), distances=(1e-5, 2e-4), normal_force_value=1.0)
    sys = QuasiStaticSlider(stiffness=1e4)
    runs = {s: simulate(model, pr, system=sys, save_dt=0.01, solver=s) for s in ("Rodas4", "LSODA")}
    ref = simulate(model, pr, system=sys, save_dt=0.01, solver="Radau", rtol=1e-11, atol=1e-13)
    assert runs["Rodas4"].attrs["solver"] == "Rodas4"
    errs = {s: float(np.abs(ds.friction_coefficient - ref.friction_coefficient).max()) for s, ds in runs.items()}
    for s, ds in runs.items():
        np.testing.assert_allclose(ds.slip.values, ref.slip.values, rtol=1e-8, atol=1e-12)  # mu error / (k/N)
        np.testing.assert_allclose(ds.slip_velocity.values, ref.slip_velocity.values, rtol=1e-6)
    # measured: Rodas4 1.1e-10 .. 2.5e-10, LSODA 2.2e-9 (both at rtol 1e-9, atol 1e-11)
    assert errs["LSODA"] < 1e-8 and errs["Rodas4"] < 5e-10, errs


def test_a_dynamic_instability_stops_with_the_time_reached():
    """Slip law, 10x velocity step at k = 2 k_c: the inertia-free slider runs away (Gu et al. 1984's
    large-perturbation instability); Radau stops at the same time (11.355 s)."""
    m = RateState(mu0=0.6, a=0.005, b=0.01, dc=1e-5, v0=1e-6, v_init=1e-6, law="slip")
    pr = VelocitySteps(velocities=(1e-6, 1e-5), distances=(1e-5, 3e-4), normal_force_value=1.0)
    with pytest.raises(IntegrationError, match=r"Rodas4\) failed at t = 11\.35\d* s: the step size") as info:
        simulate(m, pr, system=QuasiStaticSlider(stiffness=1e3), save_dt=0.01)
    assert "raise the stiffness" in str(info.value) and info.value.time == pytest.approx(11.355, abs=1e-3)


def test_a_varying_load_point_velocity_is_refused():
    """The driver holds V_lp constant between breakpoints; before this check a sinusoid ran with its
    midpoint velocity (slip 1.5e-4 m at the end of two cycles of a 1e-5 m amplitude)."""
    from frictionlab.protocols.cyclic import Sinusoidal

    with pytest.raises(ConfigError, match="velocity must be constant between the protocol's breakpoints"):
        simulate(RateState(**RSF), Sinusoidal(amplitude=1e-5, frequency=1.0, cycles=2.0),
                 system=QuasiStaticSlider(stiffness=1e3, start_steady=False, preload=0.6))
