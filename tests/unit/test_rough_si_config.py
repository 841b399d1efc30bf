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
    small = {"model.patch_nx": 8, "model.patch_ny": 8, "model.surface_mx": 8, "model.surface_beta": 2e-6,
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


def test_the_model_parameters_are_si_and_the_kernel_gets_the_papers_values():
    """RoughContact's parameters are SI (m, m/s, N, Pa, m/N, 1/m); kernel_parameters() gives the kernel the
    paper's Table 1 values in its units (eq. 6), bit for bit where the SI default is the paper value times
    the scale, and the sim computes with them."""
    import numpy as np

    from frictionlab.contact.rough.model import TAU_S_BAR, RoughContact, RoughContactSim

    m = RoughContact()
    units = RoughContact.units()
    assert {k: units[k] for k in ("C0", "dx", "A_cr", "Fy0", "B", "tau_s", "alpha", "surface_sigma", "surface_beta",
                                  "lams", "As")} == {
        "C0": "m/N", "dx": "m", "A_cr": "m/s", "Fy0": "N", "B": "1/m", "tau_s": "Pa", "alpha": "Pa",
        "surface_sigma": "m", "surface_beta": "m", "lams": "1/s", "As": "1/s"}
    assert (m.dx, m.A_cr, m.tau_s, m.surface_sigma) == (1e-6, 1e-10, 2.5e9, 1e-6)
    assert m.surface_beta == pytest.approx(1e-5, rel=1e-15)
    assert m.C0 == pytest.approx(6.3662e-5, rel=1e-4)  # 16 um per F* = 0.2513 N
    assert m.Fy0 == pytest.approx(4.0212e-3, rel=1e-4)  # 0.016 F*
    assert m.alpha == pytest.approx(5.0265e7, rel=1e-4)  # 2e-4 F*/um^2
    k = m.kernel_parameters()
    assert (k.C0, k.dx, k.A_cr, k.Fy0, k.B, k.tau_s, k.surface_sigma, k.surface_beta, k.lams, k.As) == \
        (16.0, 1.0, 1e-4, 0.016, 0.0, TAU_S_BAR, 1.0, 10.0, (1.0,), (0.2,))
    assert k.alpha == pytest.approx(2e-4, rel=1e-15)  # (2e-4 S)/S: one ulp off, below tau_s's ulp in tau_s + alpha ln v
    assert k.kernel_parameters() is k
    sim = RoughContactSim(m.replace(dx=0.5e-6, material="viscoplastic", A_cr=1e-9), np.ones((4, 4)), 1.0)
    assert (sim.model.dx, sim.model.A_cr, sim.base.diag) == (0.5, 1e-3, 3.8 / 0.5)
    assert sim.vp.A_cr == 1e-3 and sim.vp.Fy0 == 0.016


@pytest.mark.parametrize("field, paper_value, si", [
    ("dx", 1.0, "1e-06 m"), ("C0", 16.0, "6.366e-05 m/N"), ("A_cr", 1e-4, "1e-10 m/s"),
    ("surface_sigma", 1.0, "1e-06 m"), ("surface_beta", 10.0, "1e-05 m"),
    ("tau_s", 9.947e-3, "2.5 GPa"), ("alpha", 2e-4, "5.027e+07 Pa"),
])
def test_a_paper_unit_value_given_by_habit_is_refused_with_the_si_value(field, paper_value, si):
    """dx = 1.0 meaning 1 um (the paper's units) is not a 1 m grid: it is refused, naming SI and the paper value in
    SI, from Python and from a scenario's configuration."""
    from frictionlab.core.errors import FrictionLabError, ParameterError
    from frictionlab.core.registry import make_model

    with pytest.raises(ParameterError, match=rf"{field} .*SI.*{re.escape(si)}"):
        make_model("rough_contact", "table1", **{field: paper_value})
    with pytest.raises(FrictionLabError, match=rf"{field}.*SI"):
        get_scenario("rough-contact/fig4").execute({f"model.{field}": paper_value}, quick=True)


def test_every_model_mutation_of_the_rough_scenarios_is_an_si_value():
    """A mutation's model value is SI (in range, so it runs): the paper-unit values a mutation was written in
    before (Fy0 = 1.6, alpha = 2e-3, surface_beta = 50, B = 1e4) would be refused or mean something else."""
    import importlib

    from frictionlab.contact.rough.model import RoughContact
    from frictionlab.contact.rough.units import paper_unit
    from frictionlab.scenarios.base import Mutation

    seen, units = {}, RoughContact.units()
    for p in sorted((SRC / "scenarios" / "rough_contact").glob("fig*.py")):
        mod = importlib.import_module(f"frictionlab.scenarios.rough_contact.{p.stem}")
        for mu in (v for v in vars(mod).values() if isinstance(v, Mutation)):
            for key, value in mu.overrides.items():
                field = key.split(".")[-1]
                if key.split(".")[-2] == "model" and paper_unit(units.get(field, "")) != units.get(field, ""):
                    RoughContact(material="viscoplastic", **{field: value})  # in the SI range
                    seen[field] = RoughContact(material="viscoplastic", **{field: value}).kernel_parameters()
    assert {f: getattr(k, f) for f, k in seen.items() if f in ("Fy0", "surface_beta", "B")} == \
        {"Fy0": 1.6, "surface_beta": 50.0, "B": 1e4}
    assert seen["alpha"].alpha in (0.0, 2e-3)
