"""Bad input gives one clear error naming the field (ARCHITECTURE section 7)."""

import math
import subprocess
import sys

import numpy as np
import pytest

from frictionlab.solve.convergence import check_convergence
from frictionlab.core.errors import ConfigError, ParameterError
from frictionlab.core.registry import make_model
from frictionlab.solve import simulate
from frictionlab.laws import GMS, Dahl, LuGre, RateState, Stribeck
from frictionlab.protocols import ConstantVelocity
from frictionlab.scenarios import get_scenario
from frictionlab.solve.config import apply_overrides
from frictionlab.systems import MassSystem, spring_slider


@pytest.mark.parametrize("kwargs, field", [({"mass": 0.0}, "mass"), ({"mass": -1.0}, "mass"),
                                           ({"stiffness": -5.0}, "stiffness"), ({"damping": -1.0}, "damping")])
def test_negative_or_zero_mass_and_stiffness(kwargs, field):
    with pytest.raises(ParameterError, match=rf"MassSystem\.{field}"):
        MassSystem(**kwargs)


@pytest.mark.parametrize("cls, kwargs, field", [
    (LuGre, {"sigma0": 0.0}, "sigma0"), (LuGre, {"sigma0": -1e5}, "sigma0"), (Dahl, {"sigma0": 0.0}, "sigma0"),
    (GMS, {"k": (1e4, 0.0), "alpha": (0.5, 0.5)}, "k"), (Stribeck, {"vs": 0.0}, "vs"), (RateState, {"dc": 0.0}, "dc"),
])
def test_non_positive_law_stiffness_and_scales(cls, kwargs, field):
    with pytest.raises(ParameterError, match=rf"\.{field}"):
        cls(**kwargs)


@pytest.mark.parametrize("cls, field", [(LuGre, "fc"), (Stribeck, "sigma2"), (Dahl, "fc"), (RateState, "a"), (GMS, "c")])
def test_nan_parameter(cls, field):
    with pytest.raises(ParameterError, match=rf"{field} must be finite"):
        cls(**{field: math.nan})
    with pytest.raises(ParameterError, match=field):
        cls(**{field: math.inf})


@pytest.mark.parametrize("dt", [0.0, -1e-3, math.nan])
def test_bad_dt(dt):
    with pytest.raises(ParameterError, match="dt"):
        simulate(LuGre(), ConstantVelocity(v=1e-3, duration_s=1.0), dt=dt)
    with pytest.raises(ParameterError, match="dt"):
        check_convergence(LuGre(), ConstantVelocity(v=1e-3, duration_s=1.0), dt=dt)


def test_unknown_field_suggests_the_closest_name():
    with pytest.raises(ParameterError, match=r"no parameter 'sigma_0' \(did you mean 'sigma0'"):
        LuGre.from_dict({"sigma_0": 1e5})
    with pytest.raises(ParameterError, match=r"did you mean 'alpha'"):
        make_model("dahl", "unit", alpah=2.0)
    cfg = get_scenario("classic/stribeck-curve").config
    with pytest.raises(ConfigError, match=r"did you mean 'sigma1'"):
        apply_overrides(cfg, {"model.sigma_1": 3.0})


def test_unknown_scenario_and_preset():
    with pytest.raises(ConfigError, match=r"did you mean 'classic/dahl-hysteresis'"):
        get_scenario("classic/dahl-hysteresys")
    with pytest.raises(ConfigError, match=r"no preset 'four-elements' \(did you mean 'four-element'"):
        make_model("gms", "four-elements")


def test_wrong_type_in_toml_overrides():
    cfg = get_scenario("classic/spring-slider-stick-slip").config
    with pytest.raises(ConfigError, match="model.fc|wrong type"):
        apply_overrides({**cfg, "model": {**cfg["model"], "fc": 1.0}}, {"model.fc": "one"})
    with pytest.raises(ConfigError, match="wrong type"):
        apply_overrides(cfg, {"integrator.dt": "small"})
    with pytest.raises(ConfigError, match="must be a non-empty list"):
        apply_overrides(cfg, {"axes.protocol.v": 0.1})


def test_gms_state_length_mismatch_is_a_parameter_error():
    with pytest.raises(ParameterError, match="alpha"):
        GMS.from_dict({"k": [1e4, 2e4, 3e4], "alpha": [0.5, 0.5]})
    assert GMS.from_dict({"k": [1e4], "alpha": [1.0]}).initial_state().shape == (1,)
    assert isinstance(spring_slider(1.0, 1.0), MassSystem)
    assert np.isfinite(Dahl().friction(0.0, np.array([0.2]), 1.0, 1.0))


def _cli(*args):
    return subprocess.run([sys.executable, "-c", "from frictionlab.cli import main; main()", *args],
                          capture_output=True, text=True)


@pytest.mark.parametrize("setting, text", [("model.sigma0=-1", "Dahl.sigma0"), ("model.sigm0=1", "did you mean 'sigma0'"),
                                           ("model.fc=abc", "Dahl.fc must be a number")])
def test_cli_bad_set_exits_2_with_one_line(tmp_path, setting, text):
    r = _cli("run", "classic/dahl-hysteresis", "--set", setting, "--out", str(tmp_path))
    assert r.returncode == 2
    lines = [ln for ln in (r.stdout + r.stderr).splitlines() if ln.strip()]
    assert len(lines) == 1, lines
    assert text in lines[0]
    assert "Traceback" not in r.stdout + r.stderr
