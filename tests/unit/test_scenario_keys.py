"""Every key read or refused: a key a scenario's run does not read is a ConfigError before anything
runs -- from ``--set``, a scenario TOML file, a sweep ``--grid`` and the Python API -- naming the key,
the keys that exist and the nearest one. The read-tracking test proves the other half: a quick run
reads every key its config declares."""

from __future__ import annotations

import dataclasses
import sys

import pytest

from frictionlab.core.errors import ConfigError
from frictionlab.scenarios.base import Scenario, get_scenario, scenario_names
from frictionlab.solve.config import SECTIONS, flatten
from frictionlab.scenarios.key_reads import ReadLog

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _cli_call import call  # noqa: E402

#: the overrides that exit 0 on the old code and whose value no run read
IGNORED_BEFORE = [
    ("classic/stribeck-curve", "integrator.dt", 1e-3),
]


def test_integrator_key_once_ignored_now_reaches_every_run():
    """control/canudas1995-position ignored integrator.t_end (exit 0, unread); as a study every run reads it."""
    sc = get_scenario("control/canudas1995-position")
    points = sc.study(sc.resolved_config({"integrator.t_end": 3.0}, quick=True)).validate()
    assert [p.config["integrator"]["t_end"] for p in points] == [3.0] * 4


def _boom(cfg, quick):  # a run that must never start
    raise AssertionError("the scenario ran although a key was refused")


def _no_run(sc: Scenario) -> Scenario:
    """``sc`` whose run fails the test, keeping the sections it reads whole (its key policy)."""
    return dataclasses.replace(sc, run=_boom, open_sections=sc.library_sections())


def _bogus_keys(sc: Scenario) -> list[str]:
    """A bogus key in every section of the config (quick profile included), and the integrator's
    dt and t_end where the scenario does not read them."""
    declared = sc.declared_keys()
    sections = {k.split(".", 1)[0] for k in declared} | set(SECTIONS)
    keys = [f"{s}.bogus_key" for s in sorted(sections)]
    tables = {k.rsplit(".", 1)[0] for k in declared if k.count(".") >= 2}  # nested tables ([x.y])
    keys += [f"{t}.bogus_key" for t in sorted(tables)]
    if "integrator" not in sc.library_sections():
        keys += [k for k in ("integrator.dt", "integrator.t_end", "integrator.save_dt") if k not in declared]
    return keys


@pytest.mark.parametrize("name, key, value", IGNORED_BEFORE)
def test_ignored_override_refused_by_cli(name, key, value, capsys, tmp_path):
    """Fails on the old code: these exited 0 and ran without reading the key."""
    code, out = call(["run", name, "--quick", "--set", f"{key}={value}", "--out", tmp_path], capsys)
    assert code == 2, out
    # refused either as a key no run reads (with a suggestion) or as one the scenario computes itself
    assert out.count("\n") == 1 and ((f"does not read {key}" in out and "did you mean" in out)
                                     or f"sets {key} itself" in out), out
    assert not list(tmp_path.glob("*.nc"))


@pytest.mark.parametrize("name", scenario_names())
def test_bogus_key_in_every_section_refused(name):
    sc = _no_run(get_scenario(name))
    for key in _bogus_keys(sc):
        with pytest.raises(ConfigError, match=r"bogus_key|integrator\.(dt|t_end|save_dt)") as err:
            sc.execute({key: 1.0}, quick=True)
        assert "\n" not in str(err.value)


@pytest.mark.parametrize("name", scenario_names())
def test_declared_keys_accepted(name):
    """The other side: every key the config declares is accepted by ``--set`` (its own value)."""
    sc = get_scenario(name)
    cfg = sc.resolved_config(quick=True)
    values = {k: v for k, v in flatten(cfg).items() if k not in sc.derived and not any(
        k.startswith(d + ".") for d in sc.derived)}
    sc.refuse_derived(values, "--set")
    sc.resolved_config(values, quick=True)


def _mutation_keys(path: str) -> set[str]:
    """The dotted keys of the ``Mutation(what, {...})`` literals in a source file."""
    import ast

    keys = set()
    for node in ast.walk(ast.parse(open(path, encoding="utf-8").read())):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Mutation" and len(node.args) == 2 \
                and isinstance(node.args[1], ast.Dict):
            keys |= {k.value for k in node.args[1].keys if isinstance(k, ast.Constant)}
    return keys


def test_mutations_set_read_keys():
    """A mutation's overrides (``Mutation`` literals in the scenario's module) are keys its scenario
    reads, else it would kill nothing; checked without running (``reproduce --mutations`` runs them)."""
    checked = 0
    for name in scenario_names():
        sc = get_scenario(name)
        code = sc.run or sc.post or sc.checks
        if code is None:
            continue
        keys = _mutation_keys(sys.modules[code.__module__].__file__)
        sc.refuse_derived(sorted(keys), f"mutation of {name}:")
        checked += len(keys)
    assert checked > 40


def test_scenario_file_key_refused(tmp_path, capsys):
    path = tmp_path / "s.toml"
    # kloss/fig14 reads its [integrator] whole now (a study): a section it no longer has is refused with its pointer
    path.write_text('scenario = "kloss/fig14"\n[launch]\nmass = 1.0\n')
    code, out = call(["run", path, "--quick", "--out", tmp_path], capsys)
    assert code == 2 and "launch.mass: kloss/fig14 has no launch any more" in out and str(path) in out, out


def test_grid_key_refused(tmp_path, capsys):
    code, out = call(["sweep", "kloss/fig14", "--quick", "--grid", "launch.mass=1,2", "--store",
                      tmp_path / "s"], capsys)
    assert code == 2 and "--grid launch.mass: kloss/fig14 has no launch any more: " in out and "system.mass" in out, out
    assert not (tmp_path / "s").exists()


def test_message_names_keys_and_suggestion():
    # a study's [protocol] goes whole to the protocol: its keys are the protocol's fields
    with pytest.raises(ConfigError) as err:
        get_scenario("subloading/fig6").resolved_config({"protocol.duration_s": 3.0})
    assert str(err.value) == "unknown key 'protocol.duration_s'; known: type, times, loads, v"
    with pytest.raises(ConfigError, match=r"unknown key 'protocol.time' \(did you mean 'times'"):
        get_scenario("subloading/fig6").resolved_config({"protocol.time": [0.0, 1.0]})
    # a key no section knows keeps the section's own message (its keys, its suggestion)
    with pytest.raises(ConfigError, match=r"unknown key 'analysis.relaxation_timez' \(did you mean 'relaxation_times'\?\)"):
        get_scenario("classic/stribeck-curve").resolved_config({"analysis.relaxation_timez": 3.0})


def test_optional_key_accepted_and_library_fields_open():
    sc = dataclasses.replace(get_scenario("kloss/fig14"), optional={"integrator.t_end": "end time"})
    assert sc.resolved_config({"integrator.t_end": 1e-3})["integrator"]["t_end"] == 1e-3
    sc = get_scenario("classic/stribeck-curve")
    # [model] goes whole to make_model: any LuGre field is read, a non-field is refused by the model
    assert sc.resolved_config({"model.sigma1": 2.0})["model"]["sigma1"] == 2.0
    with pytest.raises(ConfigError, match="unknown key 'model.sigmaa'"):
        sc.resolved_config({"model.sigmaa": 2.0})


def test_read_log_counts_lookups_and_whole_tables():
    import copy

    log = ReadLog()
    cfg = log.track({"model": {"name": "x", "a": 1}, "integrator": {"dt": 1.0, "t_end": 2.0}, "s": {"q": {"r": 1}}})
    dict(cfg["model"])
    copy.deepcopy(cfg)["integrator"].get("dt")
    cfg["s"].items()
    assert log.unread(["model.a", "model.name", "integrator.dt", "integrator.t_end", "s.q", "s.q.r"]) == [
        "integrator.t_end", "s.q.r"]
    assert log.whole == {"model", "s"}


# one quick run each; the slowest take minutes (rough contact, beam network)
_SLOW_REASON = "runs every scenario's quick profile once (minutes in all)"

#: declared keys a quick run may leave unread, with the reason (read by the full run only)
READ_ONLY_SOMETIMES = {
    "classic/rsf-data-fit": ({"data.extensions", "data.ext_starts"},
                             "read only for a record whose single-state fit is not noise-limited; "
                             "the quick profile's one record is"),
}


def _derived(sc: Scenario, key: str) -> bool:
    return any(key == d or key.startswith(d + ".") for d in sc.derived)


@pytest.mark.slow  # reason: see _SLOW_REASON
@pytest.mark.parametrize("name", scenario_names())
def test_quick_run_reads_every_declared_key(name):
    """Read-tracking: the run and checks of the quick profile look up every key the config declares
    (but the ``derived`` ones, refused anyway), and hand the library sections
    (:meth:`Scenario.library_sections`) whole to the library."""
    sc = get_scenario(name)
    cfg = sc.resolved_config(quick=True)
    log = ReadLog()
    tracked = log.track(cfg)
    if sc.run is None:
        ds = sc.run_study(tracked)
    else:
        ds = sc.run(tracked, True)
    sc.evaluate(ds, tracked)
    sometimes = READ_ONLY_SOMETIMES.get(name, (set(), ""))[0]
    declared = {k for k in flatten(cfg) if not _derived(sc, k) and k not in sometimes}
    unread = log.unread(declared, [k for k in sc.optional if k not in declared])
    partial = [s for s in sc.library_sections() if s in cfg and s not in log.whole]
    assert (unread, partial) == ([], []), f"{name}: declared keys not read {unread}, library sections not " \
                                          f"handed over whole {partial}"


@pytest.mark.parametrize("name", [n for n in scenario_names() if n.split("/")[0] in ("subloading", "microjunction", "rough-contact")])
def test_model_name_of_a_one_model_family_refused(name):
    """These scenarios build their family's model whatever [model] name says: another name is refused
    (before this it was accepted and ignored); rough-contact/fig3 runs no model (direct solves) and refuses the
    section."""
    with pytest.raises(ConfigError, match=r"model\.name( = 'lugre': the .* scenarios run the|: \S+ does not read model\.name|: \S+ sets model\.name itself)"
                       r"|model\.name: rough-contact/fig3 has no model any more"):
        get_scenario(name).execute({"model.name": "lugre"}, quick=True)


def test_a_declared_table_set_whole_is_accepted():
    """rough-contact/fig14 declares analysis.sets.red/.blue; its mutations (and a user) set the table whole:
    refused before this fix ('does not read protocol.sets'), so two of its mutations could not run."""
    sc = get_scenario("rough-contact/fig14")
    sets = sc.config["analysis"]["sets"]
    sc.refuse_derived(["analysis.sets"], "--set")  # no error
    cfg = sc.resolved_config({"analysis.sets": dict(sets)}, quick=True)
    assert cfg["analysis"]["sets"] == sets
    with pytest.raises(ConfigError, match=r"analysis\.setz.*did you mean .sets."):
        sc.refuse_derived(["analysis.setz"], "--set")


def test_a_misspelt_key_inside_a_table_set_whole_is_refused():
    """Accepting a declared table set whole must not carry a misspelt key inside it along unread."""
    sc = get_scenario("rough-contact/fig14")
    sets = dict(sc.config["analysis"]["sets"])
    with pytest.raises(ConfigError, match="analysis.sets.gren"):
        sc.resolved_config({"analysis.sets": {**sets, "gren": sets["red"]}}, quick=True)


def test_an_unknown_key_of_a_scenario_section_names_where_it_came_from():
    """A misspelt ``[analysis]`` key of a study scenario names the option it came from (``--grid``, a file);
    the bare "unknown key" message left the user guessing which input held it."""
    with pytest.raises(ConfigError, match=r"^--grid analysis.t_end: unknown key 'analysis.t_end'; known: v_stop"):
        get_scenario("kloss/fig14").refuse_derived(["analysis.t_end"], "--grid")
