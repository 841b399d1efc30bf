"""Sweeps of the contact models from the CLI: run files through ``simulate``, metrics in the expected direction.

A run TOML (``[model]``, ``[protocol]``, ``[integrator]``, no scenario) is swept like a scenario:
each point is one :func:`frictionlab.simulate` call (the model's default driver).

* Microjunction (Goedecke 2013, Appendix A): a Jackson-Green hemisphere loaded into full
  plasticity has a contact area A ~ F / H with the hardness H ~ 2.8 sigma_Y, so doubling the
  yield stress about halves the area; the Bowden-Tabor friction tau A with tau = sigma_Y / sqrt 3
  then barely changes (tau / H is a constant).
* Rough contact (Hulikal et al., viscoplastic asperities): the real contact area grows with the
  normal load and shrinks with the asperities' yield force; friction tau_s A follows the area.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import xarray as xr

MICROJUNCTION = """
[model]
name = "microjunction"
preset = "demo-steel"

[protocol]
type = "normal_load"
times = [0.0, 0.1, 0.5]
loads = [1e-3, 1e-2, 1e-2]
v = 1e-6

[integrator]
save_dt = 0.01
"""

ROUGH = """
[model]
name = "rough_contact"
preset = "table1"
material = "viscoplastic"
patch_nx = 16
patch_ny = 16
surface_mx = 64
surface_beta = 3e-6

[protocol]
type = "constant_velocity"
v = 1e-6
duration_s = 2.0
normal_force_value = 0.1
"""


def _sweep(tmp_path: Path, toml: str, *args: str) -> xr.Dataset:
    f = tmp_path / "run.toml"
    f.write_text(toml)
    store = tmp_path / "store"
    cli = "import sys; from frictionlab.cli import main; sys.argv = ['frictionlab'] + sys.argv[1:]; main()"
    res = subprocess.run([sys.executable, "-c", cli, "sweep", str(f), "--store", str(store), "--scheduler", "serial",
                          *args], capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stdout + res.stderr
    with xr.open_dataset(store / "sweep.nc", engine="h5netcdf") as ds:
        out = ds.load()
    assert out.attrs["scenario"] == "file/run" and out.attrs["n_failed"] == 0
    return out


def test_microjunction_yield_stress_sweep(tmp_path):
    ds = _sweep(tmp_path, MICROJUNCTION, "--grid", "model.sigma_y=[5e8, 2e9]",
                "--metric", "final_contact_area", "--metric", "steady_friction_coefficient")
    area = ds.final_contact_area.values
    assert ds.final_contact_area.attrs["units"] == "m^2"
    assert np.all(np.diff(area) < 0)  # harder junction, smaller area
    np.testing.assert_allclose(area[0] / area[1], 4.0, rtol=0.1)  # A ~ F / H, H ~ sigma_Y
    mu = ds.steady_friction_coefficient.values
    assert np.ptp(mu) < 0.1 * mu.mean()  # tau A = (sigma_Y / sqrt 3) F / H: about independent of sigma_Y


def test_rough_contact_load_and_yield_force_sweep(tmp_path):
    ds = _sweep(tmp_path, ROUGH, "--grid", "protocol.normal_force_value=[0.05, 0.2]",
                "--grid", "model.Fy0=[1.0053e-3, 1.6085e-2]", "--metric", "final_contact_area", "--metric", "steady_friction")
    area = ds.final_contact_area.transpose("protocol.normal_force_value", "model.Fy0").values
    friction = ds.steady_friction.transpose("protocol.normal_force_value", "model.Fy0").values
    assert ds.final_contact_area.attrs["units"] == "1" and ds.steady_friction.attrs["units"] == "N"
    assert np.all(area[1, :] > area[0, :])  # more load, more real contact
    assert np.all(friction[1, :] > friction[0, :])
    # stronger asperities flatten less (at the low load of this 16 x 16 patch none yields: equal)
    assert np.all(area[:, 1] <= area[:, 0]) and area[1, 1] < area[1, 0]
    assert np.all(friction[:, 1] <= friction[:, 0]) and friction[1, 1] < friction[1, 0]
