"""Self-describing outputs (issue 29): software, revision, command and CF metadata on every result
and file; a long name and units on every variable and coordinate."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import xarray as xr

import frictionlab as fl
from frictionlab import __version__
from frictionlab.core import provenance
from frictionlab.core.result import make_dataset, write_netcdf


def _lugre_run():
    from frictionlab.laws import LuGre
    from frictionlab.protocols import ConstantVelocity
    from frictionlab.systems import spring_slider

    return fl.simulate(LuGre(), ConstantVelocity(v=1e-3, duration_s=0.05), system=spring_slider(mass=1.0, stiffness=2e3),
                       integrator="rk4", dt=1e-5)


def _assert_described(ds: xr.Dataset) -> None:
    for name, var in ds.variables.items():
        assert var.attrs.get("units") is not None, f"{name} has no units"
        assert var.attrs.get("long_name"), f"{name} has no long_name"
    assert ds.time.attrs["standard_name"] == "time"


def test_simulate_result_names_software_call_and_conventions():
    ds = _lugre_run()
    assert ds.attrs["Conventions"] == provenance.CONVENTIONS == "CF-1.10"
    assert ds.attrs["frictionlab_version"] == __version__
    assert ds.attrs["source"].startswith(f"frictionlab {__version__}")
    call = ds.attrs["frictionlab_call"]
    assert call.startswith("frictionlab.simulate(lugre, constant_velocity, system=mass, integrator=rk4")
    assert "dt=1e-05" in call
    assert ds.attrs.get("git_revision") == provenance.git_revision()
    assert "date_created" not in ds.attrs  # the same code gives the same attributes: a file says when
    _assert_described(ds)
    assert ds.friction_force.attrs["long_name"] == "friction force"


def test_lazy_result_stays_lazy_and_carries_the_same_attributes():
    from frictionlab.laws import RateState
    from frictionlab.protocols import VelocitySteps
    from frictionlab.systems import QuasiStaticSlider

    ds = fl.simulate(RateState(a=0.01, b=0.015, dc=1e-5, v0=1e-6, v_init=1e-6),
                     VelocitySteps(velocities=(1e-6, 1e-5), distances=(1e-5, 1e-5)), system=QuasiStaticSlider(stiffness=1e4))
    from frictionlab.core.result import LazyDataset

    assert type(ds) is LazyDataset and object.__getattribute__(ds, "_ds") is None  # not built by the stamp
    assert ds.attrs["frictionlab_call"].startswith("frictionlab.simulate(rate_state, velocity_steps")
    assert ds.attrs["Conventions"] == "CF-1.10"
    _assert_described(ds.to_dataset())


def test_written_file_has_creation_time_history_and_descriptions(tmp_path):
    provenance.set_command("frictionlab run toy --out somewhere")
    try:
        path = write_netcdf(_lugre_run(), tmp_path / "r.nc")
        path2 = write_netcdf(xr.open_dataset(path).load(), tmp_path / "r2.nc")
    finally:
        provenance._COMMAND.clear()
    with xr.open_dataset(path) as ds:
        assert ds.attrs["frictionlab_version"] == __version__ and ds.attrs["Conventions"] == "CF-1.10"
        assert ds.attrs["history"].endswith(": frictionlab run toy --out somewhere")
        assert ds.attrs["date_created"].endswith("Z") and ds.attrs["history"].startswith(ds.attrs["date_created"])
        _assert_described(ds)
    with xr.open_dataset(path2) as ds:  # a re-write appends to the history (CF section 2.6.2)
        assert len(ds.attrs["history"].splitlines()) == 2


def test_written_file_of_any_dataset_gets_long_names_and_index_units(tmp_path):
    ds = make_dataset(np.arange(3.0), {"friction_force": np.ones(3)})
    ds = ds.expand_dims(case=np.arange(2))
    with xr.open_dataset(write_netcdf(ds, tmp_path / "c.nc")) as back:
        assert back.case.attrs == {"units": "1", "long_name": "case index"}
        _assert_described(back)


def test_cli_run_file_records_the_command(cli, tmp_path):
    code, _, err = cli(["run", "classic/stribeck-curve", "--quick", "--out", tmp_path])
    assert code == 0, err
    (nc,) = tmp_path.glob("*.nc")
    with xr.open_dataset(nc) as ds:
        assert "frictionlab run classic/stribeck-curve --quick --out" in ds.attrs["history"]
        assert ds.attrs["frictionlab_version"] == __version__
        for name, var in ds.variables.items():
            assert var.attrs.get("long_name"), f"{name} has no long_name"


def _fake_repo(root: Path, *, packed: bool) -> Path:
    g = root / ".git"
    (g / "refs" / "heads").mkdir(parents=True)
    (g / "HEAD").write_text("ref: refs/heads/main\n")
    sha = "0123456789abcdef0123456789abcdef01234567"
    if packed:
        (g / "packed-refs").write_text(f"# pack-refs with: peeled\n{sha} refs/heads/main\n")
    else:
        (g / "refs" / "heads" / "main").write_text(sha + "\n")
    return g


def test_revision_from_loose_packed_and_worktree_refs(tmp_path):
    sha = "0123456789abcdef0123456789abcdef01234567"
    _fake_repo(tmp_path / "a", packed=False)
    _fake_repo(tmp_path / "b", packed=True)
    (tmp_path / "a" / "src" / "pkg").mkdir(parents=True)
    assert provenance.revision_at(tmp_path / "a" / "src" / "pkg") == sha
    assert provenance.revision_at(tmp_path / "b") == sha
    # a worktree: .git is a file pointing into the main repository's worktrees/NAME, refs shared
    main = _fake_repo(tmp_path / "m", packed=False)
    wt_git = main / "worktrees" / "w"
    wt_git.mkdir(parents=True)
    (wt_git / "HEAD").write_text("ref: refs/heads/main\n")
    (wt_git / "commondir").write_text("../..\n")
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / ".git").write_text(f"gitdir: {wt_git}\n")
    assert provenance.revision_at(tmp_path / "w") == sha
    assert provenance.revision_at(Path("/")) is None
