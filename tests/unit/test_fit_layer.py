"""The generic fitting layer: synthetic recovery within 3 standard errors, determinism, data errors, CLI."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from frictionlab.core.errors import ConfigError, DataError, FrictionLabError
from frictionlab.fit import Fitter, TimeSeries, XYData, fit_percent, load_timeseries, load_xy
from frictionlab.fit.rsf import detect_step, fit_velocity_step, simulate_qs_slider, VelocityStep
from frictionlab.laws.kloss import kloss, kloss_lift, kloss_slip


def _within(f: Fitter, truth: dict, n_sigma: float = 3.0) -> None:
    for k, v in truth.items():
        assert abs(f.params_[k] - v) <= n_sigma * f.stderr_[k], (k, f.params_[k], v, f.stderr_[k])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kloss_velocity_fit_recovers_truth(seed):
    rng = np.random.default_rng(seed)
    v = np.linspace(-0.5, 0.5, 300)
    truth = {"f_max": 1.0, "v_max0": 0.01, "zeta": 0.5}
    y = kloss(v, **truth) + rng.normal(0, 0.01, v.size)
    f = Fitter("kloss", n_starts=4, seed=0).fit(XYData(v, y))
    _within(f, truth)
    assert f.fit_percent_ > 99.0
    assert f.covariance_.shape == (3, 3)
    assert set(f.stderr_) == set(truth)


def test_lift_and_slip_fits_recover_truth():
    rng = np.random.default_rng(5)
    a = np.linspace(0, 14, 30)
    truth = {"c_max": 1.42, "alpha_max0": 25.38, "zeta1": 0.5, "zeta2": -0.135}
    f = Fitter("kloss-lift", n_starts=6).fit((a, kloss_lift(a, **truth) + rng.normal(0, 0.003, a.size)))
    _within(f, truth)
    s = np.linspace(-60, 60, 121)
    truth = {"f_max": 1.227, "s_max0": 5.55, "zeta": 0.46}
    f = Fitter("kloss-slip", n_starts=4).fit((s, kloss_slip(s, **truth) + rng.normal(0, 0.01, s.size)))
    _within(f, truth)


def test_deterministic_given_seed_and_sklearn_contract():
    rng = np.random.default_rng(0)
    v = np.linspace(0, 0.3, 80)
    y = kloss(v, 2.0, 0.02, 0.8) + rng.normal(0, 0.02, v.size)
    kw = dict(n_starts=5, seed=42, x0={"f_max": 1.0, "v_max0": 0.1, "zeta": 0.1})
    f1 = Fitter("kloss", **kw)
    assert f1.get_params()["seed"] == 42 and not hasattr(f1, "params_")
    assert f1.fit((v, y)) is f1
    f2 = Fitter("kloss", **kw).fit((v, y))
    assert f1.params_ == f2.params_
    with pytest.raises(FrictionLabError, match="not fitted"):
        Fitter("kloss").predict(v)


def test_fixed_parameters_and_bad_config():
    v = np.linspace(0, 0.3, 50)
    y = kloss(v, 1.0, 0.01, 0.5)
    f = Fitter("kloss", fixed={"zeta": 0.5}, n_starts=2).fit((v, y))
    assert f.free_ == ("f_max", "v_max0") and f.params_["zeta"] == 0.5
    assert f.params_["f_max"] == pytest.approx(1.0, rel=1e-6)
    with pytest.raises(ConfigError, match="zetta"):
        Fitter("kloss", fixed={"zetta": 0.5}).fit((v, y))
    with pytest.raises(ConfigError, match="did you mean"):
        Fitter("klos").fit((v, y))
    with pytest.raises(DataError, match="cannot determine"):
        Fitter("kloss").fit((v[:3], y[:3]))


def test_registered_law_static_fit():
    from frictionlab.core.registry import make_model

    law = make_model("lugre", "canudas1995")
    v = np.geomspace(1e-5, 1e-1, 60)
    y = law.friction_curve(v)
    f = Fitter("lugre", kind="static", free=["fc", "fs", "sigma2"], n_starts=2,
               x0={"fc": 0.8, "fs": 1.2, "sigma2": 0.2}).fit((v, y))
    assert f.params_["fc"] == pytest.approx(1.0, rel=1e-4) and f.params_["fs"] == pytest.approx(1.5, rel=1e-4)


def test_dynamic_time_series_fit_recovers_lag():
    from frictionlab.solve import simulate
    from frictionlab.fit import RecordedInput
    from frictionlab.laws.kloss import KlossDynamic

    t = np.linspace(0, 1.0, 401)
    v = 0.02 * np.sin(2 * np.pi * 2 * t)
    truth = KlossDynamic(f_max=1.0, v_max0=0.01, zeta=0.5, t_f=0.03)
    proto = RecordedInput(times=tuple(t), velocities=tuple(v), normal_forces=tuple(np.ones_like(t)))
    ds = simulate(truth, proto, integrator="rk4", dt=(t[1] - t[0]) / 4, max_points=10 ** 6)
    y = np.interp(t, ds.time.values, ds.friction_force.values) + np.random.default_rng(0).normal(0, 0.005, t.size)
    f = Fitter("kloss_dynamic", kind="dynamic", free=["f_max", "t_f"], fixed={"v_max0": 0.01, "zeta": 0.5},
               x0={"f_max": 0.7, "t_f": 0.01}, n_starts=1).fit(TimeSeries(t, v, y))
    _within(f, {"f_max": 1.0, "t_f": 0.03})


def test_rsf_inversion_recovers_synthetic_step():
    t = np.linspace(0, 40.0, 801)
    ts_, v1, v2 = 10.0, 1e-6, 1e-5
    vlp = np.where(t < ts_, v1, v2)
    truth = {"mu_ref": 0.6, "a": 0.008, "b": 0.011, "dc": 2e-5, "k": 2e3}
    mu = simulate_qs_slider(t, vlp, v_ref=v1, **truth) + np.random.default_rng(1).normal(0, 2e-4, t.size)
    disp = np.cumsum(np.concatenate([[0.0], vlp[:-1] * np.diff(t)]))
    t_step, e1, e2 = detect_step(t, disp)
    assert t_step == pytest.approx(ts_, abs=0.1) and e1 == pytest.approx(v1, rel=1e-6) and e2 == pytest.approx(v2, rel=1e-6)
    f = fit_velocity_step(VelocityStep(TimeSeries(t, vlp, mu), t_step, v1, v2), n_starts=2)
    _within(f, truth)


def _write(tmp_path, text, name="d.csv"):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_data_errors(tmp_path):
    good = _write(tmp_path, "# comment\n# more\nx,y\n0,0\n1,1\n2,4\n3,9\n")
    d = load_xy(good, "x", "y")
    assert d.x.tolist() == [0, 1, 2, 3]
    with pytest.raises(DataError, match="no column 'z'"):
        load_xy(good, "x", "z")
    with pytest.raises(DataError, match="NaN"):
        load_xy(_write(tmp_path, "x,y\n0,0\n1,\n2,4\n3,1\n", "n.csv"), "x", "y")
    with pytest.raises(DataError, match="not monotone"):
        load_xy(_write(tmp_path, "x,y\n0,0\n2,1\n1,4\n3,1\n", "m.csv"), "x", "y")
    with pytest.raises(DataError, match="at least 3"):
        load_xy(_write(tmp_path, "x,y\n0,0\n1,1\n", "s.csv"), "x", "y")
    with pytest.raises(DataError, match="strictly increasing"):
        load_timeseries(_write(tmp_path, "t,v,y\n0,1,0\n1,1,1\n1,1,1\n2,1,1\n3,1,1\n", "t.csv"), "t", "y", velocity="v")
    with pytest.raises(DataError, match="does not exist"):
        load_xy(tmp_path / "missing.csv", "x", "y")


def test_fit_percent():
    y = np.array([1.0, 2.0, 3.0])
    assert fit_percent(y, y) == 100.0
    assert fit_percent(y, np.full(3, 2.0)) == pytest.approx(0.0)


def test_cli_fit_and_bad_input(tmp_path):
    a = np.linspace(0, 14, 15)
    rows = "\n".join(f"{x},{y}" for x, y in zip(a, kloss_lift(a, 1.42, 25.38, 0.5, -0.135)))
    data = _write(tmp_path, "# synthetic\nalpha,cl\n" + rows + "\n")
    out = tmp_path / "out"
    argv = ["frictionlab", "fit", "kloss-lift", str(data), "--x", "alpha", "--y", "cl", "--out", str(out), "--n-starts", "3"]
    r = subprocess.run([sys.executable, "-c", f"import sys; from frictionlab.cli import main; sys.argv={argv!r}; main()"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "FIT =" in r.stdout
    res = json.loads((out / f"{data.stem}_kloss-lift.json").read_text())
    assert res["params"]["c_max"] == pytest.approx(1.42, rel=1e-6)
    assert res["fit_percent"] > 99.999
    assert (out / f"{data.stem}_kloss-lift.png").is_file()
    bad = subprocess.run([sys.executable, "-c", "import sys; from frictionlab.cli import main; sys.argv=['frictionlab','fit','kloss-lift',"
                          f"'{data}','--x','alpha','--y','cll']; main()"], capture_output=True, text=True)
    assert bad.returncode == 2 and "no column 'cll'" in bad.stderr and "Traceback" not in bad.stderr
