"""Fit quality: the CLI's data-driven start, exit 1 for poor or undetermined fits, units for
every parameter, the fit report (text and HTML), and the lift form's warning past stall."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from typer.testing import CliRunner

from frictionlab.cli import app
from frictionlab.core.registry import make_model
from frictionlab.fit import Fitter, load_xy
from frictionlab.fit.fitter import MIN_FIT, FitWarning
from frictionlab.laws.kloss import kloss

NACA = "naca0012_ladson_re6e6_tripped_cl_cd"


def _csv(path, x, y, header="v,F"):
    path.write_text(header + "\n" + "\n".join(f"{float(a)!r},{float(b)!r}" for a, b in zip(x, y)) + "\n")
    return path


def _clean_kloss(sign=1.0):
    v = np.linspace(0.5, 100.0, 200)
    return sign * v, sign * kloss(v, 100.0, 5.0, 0.5)


def _fit(args, tmp_path):
    return CliRunner().invoke(app, ["fit", *map(str, args), "--out", str(tmp_path / "o"), "--quiet"])


@pytest.mark.parametrize("sign", [1.0, -1.0], ids=["positive", "mirrored"])
def test_cli_uses_the_data_driven_start_and_fits_mirrored_data(sign, tmp_path):
    """Old code: the CLI passed x0={} and skipped guess(): FIT -0.000 % (mirrored: far below), exit 0."""
    p = _csv(tmp_path / "k.csv", *_clean_kloss(sign))
    res = _fit(["kloss", p, "--x", "v", "--y", "F", "--n-starts", "2"], tmp_path)
    assert res.exit_code == 0, res.output
    out = json.loads((tmp_path / "o" / "k_kloss.json").read_text())
    assert out["fit_percent"] > 99.99 and out["problems"] == []
    assert out["params"]["f_max"] == pytest.approx(100.0, rel=1e-6)
    assert out["params"]["v_max0"] == pytest.approx(5.0, rel=1e-6)


def test_empty_start_mapping_is_no_start_of_its_own():
    x, y = _clean_kloss(-1.0)
    f = Fitter("kloss", n_starts=2, x0={}).fit((x, y))
    assert f.fit_percent_ > 99.99


def test_poor_fit_exits_1_and_says_why(tmp_path):
    """One start at the model's defaults, far from this curve: the fit stays near FIT 0 %."""
    p = _csv(tmp_path / "k.csv", *_clean_kloss())
    res = _fit(["kloss", p, "--x", "v", "--y", "F", "--n-starts", "1"], tmp_path)
    assert res.exit_code == 1, res.output
    assert "poor fit" in res.stderr and f"below the floor of {MIN_FIT:g} %" in res.stderr
    out = json.loads((tmp_path / "o" / "k_kloss.json").read_text())  # the outputs are still written
    assert out["fit_percent"] < MIN_FIT and out["min_fit"] == MIN_FIT and out["problems"]
    # the floor is the user's: a lower one accepts the same fit unless parameters are undetermined
    res = _fit(["kloss", p, "--x", "v", "--y", "F", "--n-starts", "1", "--min-fit", "-1e9"], tmp_path)
    assert ("below the floor" not in res.stderr) and (res.exit_code == 0 or "not determined" in res.stderr)


def test_undetermined_parameters_exit_1(tmp_path):
    """The LuGre steady curve does not hold sigma0, sigma1 (test_fit_undetermined.py): FIT is high, exit 1."""
    v = np.geomspace(1e-4, 1.0, 40)
    y = make_model("lugre", "canudas1995").friction_curve(v) * (1 + 0.01 * np.random.default_rng(1).standard_normal(40))
    p = _csv(tmp_path / "l.csv", v, y, "v_m/s,F_N")
    res = _fit(["lugre", p, "--x", "v_m/s", "--y", "F_N"], tmp_path)
    assert res.exit_code == 1, res.output
    assert "sigma0 is not determined by the data" in res.stderr and "sigma1 is not determined" in res.stderr
    assert "below the floor" not in res.stderr
    out = json.loads((tmp_path / "o" / "l_lugre.json").read_text())
    assert out["units"]["sigma0"] == "N/m" and out["units"]["fc"] == "N" and out["fit_percent"] > 99


def test_help_states_the_floor():
    res = CliRunner().invoke(app, ["fit", "--help"], terminal_width=200)
    assert "--min-fit" in res.output and "default 50" in res.output
    from frictionlab.cli.fit import DEFAULT_MIN_FIT

    assert DEFAULT_MIN_FIT == MIN_FIT


def test_units_of_curve_parameters_follow_the_data():
    d = load_xy(NACA, "alpha_deg", "cl", where={"trip_grit": 80}, xmin=0.0, xmax=17.13)
    f = Fitter("kloss-lift", n_starts=2).fit(d)
    assert f.units_ == {"c_max": "unit of cl", "alpha_max0": "deg", "zeta1": "1", "zeta2": "1/deg"}
    d = load_xy(NACA, "alpha_deg", "cl", where={"trip_grit": 80}, xmin=0.0, xmax=17.13, x_scale=np.pi / 180)
    u = Fitter("kloss-lift", n_starts=1).fit(d).units_
    assert u["alpha_max0"] == "deg x 0.0174533" and u["zeta2"] == "1/(deg x 0.0174533)"
    x, y = _clean_kloss()
    assert Fitter("magic-formula", n_starts=1).fit((x, y)).units_ == {"B": "1/(unit of x)", "C": "1",
                                                                     "D": "unit of y", "E": "1"}


def test_report_text_and_html():
    v = np.geomspace(1e-4, 1.0, 40)
    y = make_model("lugre", "canudas1995").friction_curve(v) * (1 + 0.01 * np.random.default_rng(1).standard_normal(40))
    f = Fitter("lugre", kind="static", fixed={"sigma2": 0.4}, seed=0).fit((v, y))
    text = f.report()
    lines = {ln.split("=")[0].strip(): ln for ln in text.splitlines() if " = " in ln and ln.startswith("    ")}
    assert "± " in lines["fc"] and lines["fc"].endswith("[N]")
    assert "not determined by the data" in lines["sigma0"] and lines["sigma0"].endswith("[N/m]")
    assert "(fixed)" in lines["sigma2"] and "[N s/m]" in lines["sigma2"]
    assert "[[Correlations]]" in text and "C(fs, delta) = -0.7" in text  # the static level and the Stribeck exponent
    r = f.correlation_
    i, j = f.free_.index("fs"), f.free_.index("delta")
    assert abs(r[i, j]) >= 0.1 and r[i, i] == pytest.approx(1.0) and np.isnan(r[f.free_.index("sigma0")]).all()
    assert "quality: poor: sigma0 is not determined" in text
    h = f._repr_html_()
    assert h.startswith("<div>") and "<table>" in h and "<td>[N/m]</td>" in h and "not determined" in h
    assert "Fitter('lugre'): not fitted" in Fitter("lugre")._repr_html_()


def test_lift_fit_warns_past_stall_and_not_before():
    """Martinez Molina 2025, Sec. VII.B / Fig. 13 fit C_L from zero to stall; Ladson's grit-80 data stall
    after 17.13 deg (FIT 93.97 % with the post-stall points, 99.998 % without)."""
    d = load_xy(NACA, "alpha_deg", "cl", where={"trip_grit": 80}, xmin=0.0)
    with pytest.warns(FitWarning, match=r"past stall.*17\.13.*--xmax 17\.13"):
        f = Fitter("kloss-lift", n_starts=8).fit(d)
    assert len(f.warnings_) == 1 and f.fit_percent_ < 95 and "warning: the data extend past stall" in f.report()
    d = load_xy(NACA, "alpha_deg", "cl", where={"trip_grit": 80}, xmin=0.0, xmax=17.13)
    with warnings.catch_warnings():
        warnings.simplefilter("error", FitWarning)
        f = Fitter("kloss-lift", n_starts=8).fit(d)
    assert f.warnings_ == [] and f.fit_percent_ > 99.99
    # mirrored (negative angles): the bound to give is --xmin
    d = load_xy(NACA, "alpha_deg", "cl", where={"trip_grit": 80}, xmin=0.0)
    with pytest.warns(FitWarning, match=r"--xmin -17\.13"):
        Fitter("kloss-lift", n_starts=2).fit((-d.x, -d.y))


def test_rsf_parameters_carry_units_and_k_says_what_it_is():
    from frictionlab.fit.data import find_data_file
    from frictionlab.fit.rsf import fit_velocity_step, load_velocity_step

    step = load_velocity_step(find_data_file("rsf_velstep_basalt_brava_b819_3to10ums.csv"), decimate=4)
    f = fit_velocity_step(step, n_starts=1)
    assert f.units_ == {"mu_ref": "1", "a": "1", "b": "1", "dc": "m", "k": "1/m"}
    k_line = next(ln for ln in f.report().splitlines() if ln.strip().startswith("k "))
    assert "[1/m]" in k_line and "K/F_n" in k_line and "N/m" in k_line
    d = f.to_dict()
    assert d["units"]["k"] == "1/m" and "K/F_n" in d["descriptions"]["k"]


@pytest.mark.parametrize("extra", [["--fix", "b=0"], ["--x-scale", "2"]])
def test_rsf_refuses_options_it_would_ignore(extra, tmp_path, capsys):
    from frictionlab.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["fit", "rsf", "rsf_velstep_basalt_brava_b819_3to10ums", "--x", "time_s", "--y", "friction",
              *extra, "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and f"fit rsf takes no {extra[0]}" in err.replace("\n", " ")
