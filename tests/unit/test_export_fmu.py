"""FMUs of the rate laws, loaded and run by an independent importer (FMPy), against ``simulate``.

Co-simulation: the FMU holds the inputs over each communication step and takes RK4 steps of
``internal_step``; with both equal to ``simulate``'s ``dt`` and a velocity programme that jumps
only at step boundaries, the two runs do the same arithmetic. At a jump instant FMPy records the
outputs before it applies the new input (FMI semantics: the output of the step that ends there),
``simulate`` after; ``friction_force`` is compared away from those instants, the states everywhere.
"""

import zipfile

import numpy as np
import pytest

from frictionlab import simulate
from frictionlab.core.errors import ConfigError
from frictionlab.core.registry import make_model
from frictionlab.export.fmu import export_fmu, find_compiler
from frictionlab.protocols.velocity import VelocitySteps

fmpy = pytest.importorskip("fmpy", reason="FMPy (pip install 'frictionlab[fmu]') is the independent FMI importer")
pytestmark = pytest.mark.skipif(find_compiler() is None, reason="no C compiler (cc, gcc or $CC) to build the FMU")

TOL = 1e-6  # relative, the acceptance bound; the runs agree to ~1e-15

# name, preset, overrides, velocities [m/s], normal load [N], dt [s]
STATEFUL = {
    "lugre": ("lugre", "canudas1995", {}, (1e-3, -2e-3, 5e-4), 1.0, 1e-4),
    "gms": ("gms", "four-element", {}, (1e-3, -2e-3, 5e-4), 1.0, 1e-4),
    "dahl": ("dahl", "unit", {}, (1e-3, -2e-3, 5e-4), 1.0, 1e-4),
    "rate_state-aging": ("rate_state", "granite-typical", {}, (1e-6, 1e-5, 1e-6), 10.0, 1e-2),
    "rate_state-slip": ("rate_state", "granite-typical", {"law": "slip"}, (1e-6, 1e-5, 1e-6), 10.0, 1e-2),
    "rate_state2": ("rate_state2", None, {}, (1e-6, 1e-5, 1e-6), 10.0, 1e-2),
    "kloss_dynamic": ("kloss_dynamic", None, {"normal_scaling": True}, (1e-2, -2e-2, 5e-3), 2.0, 1e-4),
}
STATIC = {
    "stribeck": ("stribeck", "canudas1995", {}, (1e-3, -2e-3, 5e-4), 1.0, 1e-4),
    "coulomb": ("coulomb", "steel-steel-dry", {}, (1e-4, -2e-4, 5e-5), 3.0, 1e-4),
    "kloss": ("kloss", None, {}, (1e-2, -2e-2, 5e-3), 1.0, 1e-4),
}


def _input_table(prot, fn):
    """FMPy's input: one row per segment end, a repeated time at each jump (left, then right value)."""
    e, vs = prot.edges, prot.velocities
    rows = [(0.0, vs[0], fn)]
    for k in range(1, len(vs)):
        rows += [(e[k], vs[k - 1], fn), (e[k], vs[k], fn)]
    rows.append((e[-1], vs[-1], fn))
    return np.array(rows, dtype=[("time", float), ("slip_velocity", float), ("normal_force", float)])


def _run_both(case, tmp_path, *, kind="both", fmi_type="CoSimulation", integrator="rk4", start_values=None,
              **overrides):
    name, preset, kw, vs, fn, dt = case
    model = make_model(name, preset, **{**kw, **overrides})
    prot = VelocitySteps(velocities=vs, durations=(100 * dt,) * len(vs), normal_force_value=fn)
    ds = simulate(model, prot, integrator=integrator, dt=dt, save_dt=dt)
    base = make_model(name, preset, **kw)  # the FMU keeps the preset; overrides go in as start values
    path = export_fmu(base if start_values else model, tmp_path / f"{name}.fmu", kind=kind, step=dt)
    res = fmpy.simulate_fmu(str(path), start_time=0.0, stop_time=prot.duration, step_size=dt, output_interval=dt,
                            input=_input_table(prot, fn), fmi_type=fmi_type, solver="Euler",
                            start_values=start_values or {}, output=["friction_force", *model.state_names])
    return model, prot, ds, res, path


def _rel(a, b):
    return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-300))


def _compare(model, prot, ds, res, dt):
    # model exchange: FMPy records an input event's instant twice (before and after it); keep the after
    last = np.r_[np.diff(res["time"]) > 0, True]
    res = res[last]
    assert res["time"] == pytest.approx(ds["time"].values, abs=1e-9 * dt)
    jumps = np.isin(np.round(ds["time"].values / dt).astype(int), np.round(prot.edges[1:-1] / dt).astype(int))
    errs = {"friction_force": _rel(res["friction_force"][~jumps], ds["friction_force"].values[~jumps])}
    errs.update({s: _rel(res[s], ds[s].values) for s in model.state_names})
    return errs


@pytest.mark.parametrize("case", sorted(STATEFUL), ids=str)
def test_cosimulation_fmu_matches_simulate(case, tmp_path):
    model, prot, ds, res, path = _run_both(STATEFUL[case], tmp_path)
    errs = _compare(model, prot, ds, res, STATEFUL[case][-1])
    assert max(errs.values()) < TOL, errs
    # the states moved: the comparison is not between two constants
    for s in model.state_names:
        assert np.ptp(ds[s].values) > 1e-3 * np.max(np.abs(ds[s].values))
    assert fmpy.validation.validate_fmu(str(path)) == []


@pytest.mark.parametrize("case", sorted(STATIC), ids=str)
def test_static_curve_fmu_matches_simulate(case, tmp_path):
    model, prot, ds, res, path = _run_both(STATIC[case], tmp_path, kind="cs")
    assert _compare(model, prot, ds, res, STATIC[case][-1])["friction_force"] < TOL
    md = fmpy.read_model_description(str(path))
    assert md.coSimulation is not None and md.modelExchange is None
    assert [v.name for v in md.modelVariables if v.causality == "output"] == ["friction_force"]


def test_model_exchange_fmu_matches_simulate_euler(tmp_path):
    # FMPy's fixed-step Euler on the model-exchange interface is the "euler" driver's scheme
    case = STATEFUL["lugre"]
    model, prot, ds, res, _ = _run_both(case, tmp_path, kind="me", fmi_type="ModelExchange", integrator="euler")
    errs = _compare(model, prot, ds, res, case[-1])
    assert max(errs.values()) < TOL, errs


def test_parameters_set_in_the_importer_are_used(tmp_path):
    # sigma0 and the initial bristle deflection set through FMPy give simulate's run of that model
    case = STATEFUL["lugre"]
    model, prot, ds, res, path = _run_both(case, tmp_path, sigma0=2.5e5,
                                           start_values={"sigma0": 2.5e5})
    assert model.sigma0 == 2.5e5
    assert max(_compare(model, prot, ds, res, case[-1]).values()) < TOL
    md = fmpy.read_model_description(str(path))
    params = {v.name: v for v in md.modelVariables if v.causality == "parameter"}
    assert params["sigma0"].unit == "N/m" and float(params["sigma0"].start) == 1e5
    assert params["sigma1"].unit == "N s/m" and params["vs"].unit == "m/s"
    assert "normal_scaling" not in params  # an option is fixed at export, not a parameter
    units = {u.name: u for u in md.unitDefinitions}
    assert units["N/m"].baseUnit.kg == 1 and units["N/m"].baseUnit.s == -2


def test_a_communication_step_is_split_into_internal_steps(tmp_path):
    # communication every 10 dt, internal_step = dt: simulate's rk4 at dt, saved every 10 dt
    name, preset, kw, vs, fn, dt = STATEFUL["rate_state-aging"]
    model = make_model(name, preset, **kw)
    prot = VelocitySteps(velocities=vs, durations=(100 * dt,) * len(vs), normal_force_value=fn)
    ds = simulate(model, prot, integrator="rk4", dt=dt, save_dt=10 * dt)
    path = export_fmu(model, tmp_path / "rsf.fmu", kind="cs", step=10 * dt)
    common = dict(start_time=0.0, stop_time=prot.duration, step_size=10 * dt, output_interval=10 * dt,
                  input=_input_table(prot, fn), fmi_type="CoSimulation", output=["state_theta"])
    fine = fmpy.simulate_fmu(str(path), start_values={"internal_step": dt}, **common)
    coarse = fmpy.simulate_fmu(str(path), **common)
    assert _rel(fine["state_theta"], ds.state_theta.values) < 1e-12
    assert _rel(coarse["state_theta"], ds.state_theta.values) > 1e-9  # one RK4 step of 10 dt is another run


def test_a_parameter_outside_its_range_is_refused(tmp_path, capfd):
    path = export_fmu(make_model("lugre", "canudas1995"), tmp_path / "lugre.fmu")
    for fmi_type in ("CoSimulation", "ModelExchange"):
        with pytest.raises(Exception, match="fmi2ExitInitializationMode failed"):
            fmpy.simulate_fmu(str(path), stop_time=1e-3, start_values={"vs": -1.0}, fmi_type=fmi_type)
        assert "vs = -1 is outside its allowed range (0, inf]" in capfd.readouterr().out
    res = fmpy.simulate_fmu(str(path), stop_time=1e-3, start_values={"vs": 2e-3}, fmi_type="CoSimulation")
    assert len(res) > 1


def test_gms_elements_are_parameters_and_the_count_is_fixed(tmp_path):
    path = export_fmu(make_model("gms", "four-element"), tmp_path / "gms.fmu")
    md = fmpy.read_model_description(str(path))
    names = [v.name for v in md.modelVariables if v.causality == "parameter"]
    assert [n for n in names if n.startswith("k[")] == ["k[1]", "k[2]", "k[3]", "k[4]"]
    assert "4 k entries" in md.description
    with zipfile.ZipFile(path) as zf:
        listed = set(zf.namelist())
    assert {"modelDescription.xml", "sources/fmi2_wrapper.c", "sources/fl_config.h"} <= listed
    assert any(n.startswith("binaries/") for n in listed)


def test_export_is_deterministic_and_options_checked(tmp_path):
    m = make_model("dahl", "unit")
    a = fmpy.read_model_description(str(export_fmu(m, tmp_path / "a.fmu")))
    b = fmpy.read_model_description(str(export_fmu(m, tmp_path / "b.fmu")))
    c = fmpy.read_model_description(str(export_fmu(m.replace(sigma0=2e5), tmp_path / "c.fmu")))
    assert a.guid == b.guid != c.guid
    with pytest.raises(ConfigError, match="kind"):
        export_fmu(m, tmp_path / "x.fmu", kind="both-ways")
    with pytest.raises(ConfigError, match="step"):
        export_fmu(m, tmp_path / "x.fmu", step=0.0)
    with pytest.raises(ConfigError, match="is a directory"):
        export_fmu(m, tmp_path)


def test_cli_export_fmu_and_c(cli, tmp_path):
    code, out, err = cli(["export", "fmu", "kloss_dynamic", "--set", "t_f=0.02", "--out", tmp_path / "k.fmu",
                          "--kind", "cs", "--step", "1e-3"])
    assert code == 0, err
    md = fmpy.read_model_description(str(tmp_path / "k.fmu"))
    starts = {v.name: float(v.start) for v in md.modelVariables if v.causality == "parameter"}
    assert starts["t_f"] == 0.02 and starts["internal_step"] == 1e-3
    code, out, err = cli(["export", "c", "rate_state/granite-typical", "--set", "law=slip", "--out", tmp_path / "c"])
    assert code == 0, err
    text = (tmp_path / "c" / "rate_state.c").read_text()
    assert "rate_state_rk4_step" in text and "0.015" in text
    code, out, err = cli(["export", "fmu", "subloading", "--out", tmp_path / "s.fmu"])
    assert code == 2 and "not a rate law" in err
    code, out, err = cli(["export", "c", "lugre", "--kind", "me", "--out", tmp_path / "c2"])
    assert code == 2 and "export fmu" in err


def test_outputs_and_options_cannot_be_set(tmp_path):
    from fmpy import extract, read_model_description
    from fmpy.fmi2 import FMU2Slave

    path = export_fmu(make_model("lugre", "canudas1995"), tmp_path / "lugre.fmu", kind="cs")
    md = read_model_description(str(path))
    vr = {v.name: v.valueReference for v in md.modelVariables}
    fmu = FMU2Slave(guid=md.guid, unzipDirectory=extract(str(path)), modelIdentifier=md.coSimulation.modelIdentifier)
    fmu.instantiate()
    fmu.setupExperiment(startTime=0.0)
    fmu.enterInitializationMode()
    fmu.exitInitializationMode()
    fmu.setReal([vr["slip_velocity"]], [1e-3])
    fmu.doStep(0.0, 1e-4)
    z1 = fmu.getReal([vr["bristle_deflection"]])[0]
    assert z1 > 0
    for name in ("friction_force", "sigma0"):  # an output; a parameter after initialisation
        with pytest.raises(Exception, match="fmi2SetReal"):
            fmu.setReal([vr[name]], [1.0])
    fmu.terminate()
    fmu.freeInstance()
