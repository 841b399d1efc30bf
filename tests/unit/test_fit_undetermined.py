"""Fits report what the data cannot determine, and never guess the slip unit."""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest

from frictionlab.core.errors import ConfigError
from frictionlab.core.registry import make_model
from frictionlab.fit.data import XYData, slip_scale
from frictionlab.fit.fitter import Fitter


def test_steady_curve_cannot_determine_bristle_parameters():
    """The LuGre steady curve does not depend on sigma0, sigma1: they are 'not determined', with no overflow."""
    m = make_model("lugre", "canudas1995")
    v = np.geomspace(1e-4, 1.0, 40)
    y = m.friction_curve(v) * (1 + 0.01 * np.random.default_rng(1).standard_normal(v.size))
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # no overflow in exp(u)
        f = Fitter("lugre", kind="static", seed=0).fit(XYData(v, y))
    assert {"sigma0", "sigma1"} <= set(f.undetermined_)
    d = f.to_dict()
    assert d["stderr"]["sigma0"] is None and d["stderr"]["sigma1"] is None
    assert "fc" not in f.undetermined_ and d["stderr"]["fc"] > 0
    assert f.params_["sigma0"] < 1e100


@pytest.mark.parametrize("column, scale", [("slip_um", 1e-6), ("disp_mm", 1e-3), ("slip_m", 1.0),
                                           ("slip [um]", 1e-6), ("slip (mm)", 1e-3)])
def test_slip_unit_from_column_name(column, scale):
    assert slip_scale(column) == scale


def test_slip_unit_explicit_or_refused():
    assert slip_scale("disp", "mm") == 1e-3
    with pytest.raises(ConfigError, match="--slip-units"):
        slip_scale("disp")
    with pytest.raises(ConfigError, match="expected one of um, mm, m"):
        slip_scale("disp", "inch")


def test_cli_fit_rsf_unknown_slip_unit_exits_2(tmp_path):
    src = "src/frictionlab/datasets/rsf_velstep_sepiolite_tr2_exp013_0p2to2ums.csv"
    text = open(src).read().replace("time_s,slip_um,", "time_s,disp,")
    p = tmp_path / "rec.csv"
    p.write_text(text)
    argv = ["frictionlab", "fit", "rsf", str(p), "--x", "time_s", "--y", "friction", "--slip", "disp", "--out", str(tmp_path)]
    r = subprocess.run([sys.executable, "-c", f"import sys; from frictionlab.cli import main; sys.argv={argv!r}; main()"],
                       capture_output=True, text=True)
    assert r.returncode == 2
    assert "--slip-units" in r.stderr + r.stdout and "Traceback" not in r.stderr
