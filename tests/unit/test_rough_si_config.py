"""Rough contact in SI at its public surface (issue 31): the scenarios' configurations are SI, their
``[protocol]`` a library protocol, a former key (um, um/s, MPa, or a scenario key in [protocol]) is refused
with a pointer to the new one, and the paper-unit conversion lives in one module."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from frictionlab.core.errors import ConfigError
from frictionlab.scenarios import get_scenario, load_scenario

SRC = Path(__file__).resolve().parents[2] / "src" / "frictionlab"


@pytest.mark.parametrize("name, old, new", [
    ("rough-contact/fig4", "protocol.pressure_MPa", "protocol.normal_force_value [N]"),
    ("rough-contact/fig4", "protocol.t_end", "protocol.duration_s [s]"),
    ("rough-contact/fig4", "protocol.snapshots", "integrator.snapshot_times [s]"),
    ("rough-contact/fig5", "protocol.footnote_velocity_um_s", "analysis.footnote_velocity [m/s]"),
    ("rough-contact/fig5", "protocol.t_end_c", "runs.blue/green/red.protocol.duration_s [s]"),
    ("rough-contact/fig5", "sweep.sets", "runs.blue, runs.green and runs.red"),
    ("rough-contact/fig4", "sweep.seeds", "runs.realisations.axes.model.surface_seed"),
    ("rough-contact/fig6", "protocol.meanfield_n", "runs.meanfield.model.patch_nx"),
    ("rough-contact/fig6", "analysis.meanfield_n", "runs.meanfield.model.patch_nx"),
    ("rough-contact/fig7", "protocol.A_cr", "axes.model.A_cr"),
    ("rough-contact/fig8", "protocol.pressures_MPa", "axes.analysis.pressure [Pa]"),
    ("rough-contact/fig8", "analysis.meanfield_size", "runs.meanfield_large.axes.model.patch_nx"),
    ("rough-contact/fig3", "protocol.R", "analysis.R [m]"),
    ("rough-contact/fig9", "protocol.v", "protocol.velocities [m/s]"),
    ("rough-contact/fig9", "protocol.n_probes", "analysis.n_probes"),
    ("rough-contact/fig10", "protocol.run_in", "analysis.run_in [m]"),
    ("rough-contact/fig12", "protocol.slip", "protocol.distances [m]"),
    ("rough-contact/fig13", "protocol.map_velocities", "analysis.map_velocities [m/s]"),
    ("rough-contact/fig14", "protocol.seg", "protocol.distances [m]"),
    ("rough-contact/fig14", "protocol.sets", "analysis.sets"),
    ("rough-contact/fig14", "sweep.interactions", "axes.model.interaction"),
    ("rough-contact/fig14", "reference", "analysis.reference (beta [m]"),
    ("rough-contact/fig13", "sweep.extra_sets", "analysis.sets"),
    ("rough-contact/fig15", "protocol.A_cr", "axes.model.A_cr"),
    ("rough-contact/fig16", "protocol.pressure_MPa", "protocol.normal_force_value [N]"),
    ("rough-contact/fig17", "protocol.control", "runs.viscoelastic"),
])
def test_a_former_key_is_refused_with_a_pointer_to_the_new_one(name, old, new):
    with pytest.raises(ConfigError, match=re.escape(f"{name} has no {old} any more") + ".*" + re.escape(new)):
        get_scenario(name).resolved_config({old: 1.0})


def test_a_scenario_file_with_a_former_key_is_refused(tmp_path):
    f = tmp_path / "fig12.toml"
    f.write_text('scenario = "rough-contact/fig12"\n[protocol]\npressure_MPa = 50.0\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"protocol\.pressure_MPa.*protocol\.normal_force_value"):
        load_scenario(str(f))


def test_a_velocity_axis_leaves_no_protocol_velocity_to_set():
    """fig11, fig12 and fig13 (studies) run one velocity per point of axes.protocol.velocities: a base velocity is
    never read."""
    for name in ("rough-contact/fig11", "rough-contact/fig12", "rough-contact/fig13"):
        sc = get_scenario(name)
        never_read = r"protocol\.velocities = \[1e-06\] is never read: axes\.protocol\.velocities"
        with pytest.raises(ConfigError, match=never_read):
            sc.study(sc.resolved_config({"protocol.velocities": [1e-6]})).points()
        assert all(len(v) == 1 and v[0] < 1e-2 for v in sc.config["axes"]["protocol"]["velocities"])  # m/s
        with pytest.raises(ConfigError, match=r"sweep\.velocities.*axes\.protocol\.velocities"):
            sc.resolved_config({"sweep.velocities": [1e-6]})


def test_the_paper_unit_conversion_lives_in_one_module():
    """Only contact/rough/units.py defines the paper's scales; no scenario or fit module uses them or a
    conversion of a whole result (the former to_paper_units / to_si of the driver)."""
    defined = [p for p in (SRC / "contact" / "rough").glob("*.py")
               if re.search(r"^(L|T|V|F|STRESS)_STAR\s*=", p.read_text(encoding="utf-8"), re.M)]
    assert [p.name for p in defined] == ["units.py"]
    users = sorted(SRC.glob("scenarios/rough_contact/*.py")) + [SRC / "fit" / "rsf_rough.py"]
    for p in users:
        text = p.read_text(encoding="utf-8")
        assert not re.search(r"\b(L|T|V|F|STRESS)_STAR\b|to_paper_units|sliding_to_si|hold_to_si", text), p.name
    assert "to_paper_units" not in (SRC / "contact" / "rough" / "driver.py").read_text(encoding="utf-8")


def test_fig6_refuses_a_mean_field_hold_at_another_pressure():
    """fig6's mean-field run has its own patch and load: a load that is not the Boussinesq hold's nominal pressure
    on that patch is refused (the two holds compare the same material at the same pressure)."""
    small = {"model.patch_nx": 8, "model.patch_ny": 8, "model.surface_mx": 8, "model.surface_beta": 2.0,
             "protocol.normal_force_value": 1e8 * 8 * 8 * 1e-12, "integrator.per_decade": 2,
             **{f"runs.meanfield.model.{k}": 8 for k in ("patch_nx", "patch_ny", "surface_mx")}}
    with pytest.raises(ConfigError, match=r"run 'meanfield': this hold runs at 50 MPa, the base at 100 MPa"):
        get_scenario("rough-contact/fig6").execute(
            {**small, "runs.meanfield.protocol.normal_force_value": 0.5e8 * 64e-12}, quick=True)


def test_fig15_reference_must_slide_the_jump_runs_path():
    """fig15's reference run carries its own protocol (constant v over the jump run's path): a jump protocol changed
    without it is refused before anything runs, naming the reference's keys."""
    sc = get_scenario("rough-contact/fig15")
    with pytest.raises(ConfigError, match=r"run 'reference'.*it must slide the jump run's path: "
                                          r"runs\.reference\.protocol\.velocities = \[[0-9.e-]+\], distances = \[0\.00012"):
        sc.study(sc.resolved_config({"protocol.distances": [30e-6] * 4}, quick=True)).points()
    assert len(sc.study(sc.resolved_config({"protocol.distances": [30e-6] * 4,
                                            "runs.reference.protocol.distances": [120e-6]}, quick=True)).points()) == 6
