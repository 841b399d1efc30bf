"""The rough-contact ``"relaxed"`` driver (a hold's loaded and relaxed states by two direct solves) and the
i.i.d. surface ``surface_acf = "iid"``: what ``rough-contact/fig8`` runs at each point of its study."""

from __future__ import annotations

import numpy as np
import pytest

import frictionlab as fl
from frictionlab.contact.rough.model import RoughContact
from frictionlab.contact.rough.surface import make_surface
from frictionlab.core.errors import ConfigError, ParameterError
from frictionlab.protocols import ConstantVelocity, VelocitySteps

N = 32


def _model(**kw) -> RoughContact:
    return fl.make_model("rough_contact", "table1", patch_nx=N, patch_ny=N, surface_mx=N, surface_beta=3e-6, **kw)


def _hold(duration: float = 100.0, pressure: float = 400e6) -> ConstantVelocity:
    return ConstantVelocity(v=0.0, duration_s=duration, normal_force_value=pressure * N * N * 1e-12)


@pytest.mark.parametrize("interaction", ["boussinesq", "meanfield"])
def test_relaxed_states_are_the_time_stepped_holds_first_and_last(interaction):
    """t = 0+ is the hold's loaded state (the same solve, the same bits); at t = 100 s >> 1/lambda the stepped
    hold has reached the relaxed fixed point: the same contact set, so the same mu_s."""
    m = _model(interaction=interaction)
    direct = fl.simulate(m, _hold(), integrator="relaxed")
    stepped = fl.simulate(m, _hold(), integrator="hold", per_decade=4)
    assert list(direct.time.values) == [0.0, 100.0]
    assert direct.friction_coefficient.values[0] == stepped.friction_coefficient.values[0]
    assert direct.n_contact_elements.values[1] == stepped.n_contact_elements.values[-1]
    assert direct.friction_coefficient.values[1] == pytest.approx(stepped.friction_coefficient.values[-1], rel=1e-12)
    # ageing: the relaxed compliance 1.2 puts more elements in contact
    assert direct.n_contact_elements.values[1] > direct.n_contact_elements.values[0]
    assert direct.attrs["relaxed_compliance"] == pytest.approx(1.2, rel=1e-15)
    assert direct.normal_force.values == pytest.approx(400e6 * N * N * 1e-12, rel=1e-12)


def test_the_elastic_material_has_one_state():
    ds = fl.simulate(_model(material="elastic"), _hold(), integrator="relaxed")
    assert ds.attrs["relaxed_compliance"] == 1.0
    assert ds.friction_coefficient.values[0] == ds.friction_coefficient.values[1]


def test_refusals():
    m = _model()
    with pytest.raises(ParameterError, match="not long enough for the direct"):
        fl.simulate(m, _hold(duration=5.0), integrator="relaxed")  # exp(-5) is no round-off
    with pytest.raises(ConfigError, match="viscoplastic.*'hold' driver"):
        fl.simulate(fl.make_model("rough_contact", "fig7", patch_nx=N, patch_ny=N, surface_mx=N, surface_beta=3e-6),
                    _hold(), integrator="relaxed")
    steps = VelocitySteps(velocities=[1e-6], distances=[1e-6], normal_force_value=0.1)
    with pytest.raises(ConfigError, match="needs a hold at one constant normal force"):
        fl.simulate(m, steps, integrator="relaxed")
    with pytest.raises(ConfigError, match="save_dt is not supported"):
        fl.simulate(m, _hold(), integrator="relaxed", save_dt=1.0)
    with pytest.raises(ConfigError, match="no option 'per_decade'"):
        fl.simulate(m, _hold(), integrator="relaxed", per_decade=4)


def test_the_solver_tolerance_is_used():
    ds = fl.simulate(_model(), _hold(), integrator="relaxed", tol=1e-12)
    assert ds.attrs["tol"] == 1e-12
    loose = fl.simulate(_model(), _hold(), integrator="relaxed", tol=1e-3)
    assert loose.iterations.values[0] < ds.iterations.values[0]


def test_iid_heights_are_independent_normal_draws():
    """``acf = "iid"``: sigma times standard normal draws of the seed, not normalised to the sample (sigma is the
    ensemble's rms, the closed form's assumption) unless asked; the correlation length does not enter."""
    h = make_surface(64, 48, sigma=2.0, acf="iid", seed=3)
    assert np.array_equal(h, 2.0 * np.random.default_rng(3).standard_normal((64, 48)))
    assert h.std() != pytest.approx(2.0, rel=1e-6)
    hn = make_surface(64, 48, sigma=2.0, acf="iid", seed=3, normalize=True)
    assert hn.mean() == pytest.approx(0.0, abs=1e-12) and np.sqrt(np.mean(hn**2)) == pytest.approx(2.0, rel=1e-12)
    assert np.array_equal(make_surface(64, 48, sigma=2.0, beta_x=500.0, acf="iid", seed=3), h)
    # the correlated surfaces keep their default: normalised
    g = make_surface(64, sigma=2.0, beta_x=5.0, seed=3)
    assert np.sqrt(np.mean(g**2)) == pytest.approx(2.0, rel=1e-12)
    with pytest.raises(ParameterError, match="'gaussian', 'exponential', 'iid'"):
        make_surface(16, acf="white", beta_x=3.0)


def test_the_model_refuses_a_correlation_length_with_iid_heights():
    m = fl.make_model("rough_contact", "table1", surface_acf="iid", patch_nx=N, patch_ny=N, surface_mx=N)
    ds = fl.simulate(m.replace(interaction="meanfield"), _hold(), integrator="relaxed")
    assert ds.n_contact_elements.values[0] > 0
    with pytest.raises(ParameterError, match="surface_beta.*no effect with surface_acf = 'iid'"):
        m.replace(surface_beta=5e-6)


def test_a_surface_is_built_once_for_runs_on_it():
    """Runs at other loads or interactions on the same surface reuse it (read-only); another seed builds its own."""
    from frictionlab.contact.rough import relaxed

    relaxed._heights.cache_clear()
    m = _model()
    fl.simulate(m, _hold(pressure=100e6), integrator="relaxed")
    fl.simulate(m.replace(interaction="meanfield"), _hold(pressure=200e6), integrator="relaxed")
    assert relaxed._heights.cache_info().misses == 1 and relaxed._heights.cache_info().hits == 1
    fl.simulate(m.replace(surface_seed=1), _hold(), integrator="relaxed")
    assert relaxed._heights.cache_info().misses == 2
    h = relaxed._heights(N, N, N, 1.0, 3.0, "gaussian", 0, 1.0)
    assert not h.flags.writeable
    from frictionlab.contact.rough.driver import rigid_surface

    assert np.array_equal(h, rigid_surface(m)[:N])
