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
    ("rough-contact/fig5", "protocol.t_end_c", "sweep.sets_duration_s [s]"),
    ("rough-contact/fig6", "protocol.meanfield_n", "analysis.meanfield_n"),
    ("rough-contact/fig7", "protocol.A_cr", "sweep.A_cr"),
    ("rough-contact/fig8", "protocol.pressures_MPa", "sweep.pressures [Pa]"),
    ("rough-contact/fig3", "protocol.R", "analysis.R [m]"),
    ("rough-contact/fig9", "protocol.v", "protocol.velocities [m/s]"),
    ("rough-contact/fig9", "protocol.n_probes", "analysis.n_probes"),
    ("rough-contact/fig10", "protocol.run_in", "analysis.run_in [m]"),
    ("rough-contact/fig12", "protocol.slip", "protocol.distances [m]"),
    ("rough-contact/fig13", "protocol.map_velocities", "analysis.map_velocities [m/s]"),
    ("rough-contact/fig14", "protocol.seg", "protocol.distances [m]"),
    ("rough-contact/fig14", "protocol.sets", "sweep.sets"),
    ("rough-contact/fig15", "protocol.A_cr", "sweep.A_cr"),
    ("rough-contact/fig16", "protocol.pressure_MPa", "protocol.normal_force_value [N]"),
    ("rough-contact/fig17", "protocol.control", "analysis.control"),
])
def test_a_former_key_is_refused_with_a_pointer_to_the_new_one(name, old, new):
    with pytest.raises(ConfigError, match=re.escape(f"{name} has no {old} any more") + ".*" + re.escape(new)):
        get_scenario(name).resolved_config({old: 1.0})


def test_a_scenario_file_with_a_former_key_is_refused(tmp_path):
    f = tmp_path / "fig12.toml"
    f.write_text('scenario = "rough-contact/fig12"\n[protocol]\npressure_MPa = 50.0\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"protocol\.pressure_MPa.*protocol\.normal_force_value"):
        load_scenario(str(f))


def test_a_swept_velocity_is_set_in_sweep_not_in_the_protocol():
    """fig11-13 run one velocity at a time: the protocol's velocities are set per run from sweep.velocities."""
    for name in ("rough-contact/fig11", "rough-contact/fig12", "rough-contact/fig13"):
        sc = get_scenario(name)
        with pytest.raises(ConfigError, match=r"sets protocol\.velocities itself.*sweep\.velocities"):
            sc.resolved_config({"protocol.velocities": [1e-6]})
        assert all(v < 1e-2 for v in sc.config["sweep"]["velocities"])  # m/s (0.001-1 mm/s), not the former um/s


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
