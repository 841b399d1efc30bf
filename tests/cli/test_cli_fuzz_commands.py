"""Fuzz the commands a user types: ``run SCENARIO --set ...``, ``sweep SCENARIO --grid ... --set ...``
and ``show SCENARIO --set ...``, through :func:`frictionlab.cli.main` as the shell calls it.

Whatever the settings, a command must end with exit 0, or with exit 2 and one line ``error: ...``
on stderr (a long value cut: under 2,000 characters); never ``internal error`` (exit 1) nor a
traceback. test_cli_fuzz_loaders.py fuzzes the parsers alone; this goes further along the command:
the scenario's own checks, the memory estimate, the grid's validation, the messages' markup.

Nothing is integrated: ``run`` stops once :func:`frictionlab.core.validation.check_run_settings`
has accepted a run's settings (the last check before the integrator starts), ``sweep`` once the
store would be opened (every check of the sweep's settings done). Both stops are an error of the
project (exit 2) that says so and is counted. The default suite runs a fixed sample
(``derandomize``); the ``slow`` variant runs 2,000 inputs to each command (fixed too;
``FRICTIONLAB_FUZZ_EXAMPLES`` sets another count).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from frictionlab.core.errors import ConfigError

from _fuzz_inputs import command_grid, command_setting

#: scenarios whose runs all go through ``simulate`` (so that ``run`` stops before integrating)
SCENARIOS = ["classic/rsf-velocity-step", "classic/spring-slider-stick-slip", "classic/rsf-stability",
             "classic/rsf-slide-hold-slide", "classic/dahl-hysteresis", "classic/stribeck-curve"]
_N_SLOW = int(os.environ.get("FRICTIONLAB_FUZZ_EXAMPLES", "2000"))
_STOP = "fuzz: stopped before the run"


def _settings(n: int):
    return settings(max_examples=n, deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck))


class _Stopped(ConfigError):
    """Raised where the run would start: every check before it passed."""


@pytest.fixture
def stops(monkeypatch):
    """Stop ``run`` after the run settings are checked and ``sweep`` before its store opens; counts the stops."""
    from frictionlab.core import validation
    from frictionlab.sweep.store import SweepStore

    count = {"run": 0, "sweep": 0}
    real = validation.check_run_settings

    def checked_then_stop(*args, **kwargs):
        real(*args, **kwargs)
        count["run"] += 1
        raise _Stopped(_STOP)

    def stop_open(self, *args, **kwargs):
        count["sweep"] += 1
        raise _Stopped(_STOP)

    monkeypatch.setattr(validation, "check_run_settings", checked_then_stop)
    monkeypatch.setattr(SweepStore, "open", stop_open)
    yield count
    print(f"inputs that reached the run: {count['run']}, the sweep's store: {count['sweep']}")  # pytest -rP shows it


def _argv(items: list[str]) -> list[str]:
    return [a.replace("\x00", "") for a in items]  # a shell cannot pass a NUL byte


def check_command(cli, argv: list[str]) -> str:
    """Run ``frictionlab ARGV``; assert it ended as a command must; return stderr's one line ('' on exit 0)."""
    code, out, err = cli(argv)
    assert "Traceback" not in out + err and "internal error" not in err, (argv, err[-2000:])
    assert code in (0, 2), (argv, code, err[-2000:])
    if code == 0:
        return ""
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), (argv, err[-2000:])
    assert len(lines[0]) < 2000, (argv, len(lines[0]))
    return lines[0]


def _sets(items: list[str]) -> list[str]:
    return [a for item in _argv(items) for a in ("--set", item)]


def check_run(cli, tmp_path, scenario: str, items: list[str], quick: bool) -> None:
    check_command(cli, ["run", scenario, *_sets(items), "--out", tmp_path / "out", "--csv", "none",
                        *(["--quick"] if quick else [])])


def check_sweep(cli, tmp_path, scenario: str, grid: list[str], items: list[str], extra: list[str]) -> None:
    check_command(cli, ["sweep", scenario, *[a for g in _argv(grid) for a in ("--grid", g)], *_sets(items),
                        "--store", tmp_path / "store", *_argv(extra)])


def check_show(cli, scenario: str, items: list[str]) -> None:
    check_command(cli, ["show", scenario, *_sets(items)])


scenario = st.sampled_from(SCENARIOS)
sweep_options = st.lists(st.sampled_from([["--workers", "0"], ["--workers", "100000"], ["--quick"], ["--traces", "x"],
                                          ["--traces", "none"], ["--metric", "steady_friction"], ["--metric", "[red]"],
                                          ["--metric", "stick_slip_amplitude"], ["--plot", "x.xyz"], ["--chunk", "0"],
                                          ["--scheduler", "serial"], ["--verify"]]), max_size=3).map(
    lambda opts: [a for o in opts for a in o])


@_settings(60)
@given(scenario, st.lists(command_setting, max_size=3), st.booleans())
def test_fuzz_run(cli, tmp_path, stops, scenario, items, quick):
    check_run(cli, tmp_path, scenario, items, quick)


@_settings(60)
@given(scenario, st.lists(command_grid, min_size=1, max_size=2), st.lists(command_setting, max_size=1), sweep_options)
def test_fuzz_sweep(cli, tmp_path, stops, scenario, grid, items, extra):
    check_sweep(cli, tmp_path, scenario, grid, items, extra)


@_settings(40)
@given(scenario, st.lists(command_setting, max_size=3))
def test_fuzz_show(cli, scenario, items):
    check_show(cli, scenario, items)


def test_fuzz_stops_are_reached(cli, tmp_path, stops):
    """The stops themselves: a valid setting reaches them (the fuzzers test the commands, not only the parsers)."""
    line = check_command(cli, ["run", SCENARIOS[0], "--set", "model.a=0.011", "--out", tmp_path / "o"])
    assert line.endswith(_STOP) and stops["run"] == 1
    line = check_command(cli, ["sweep", SCENARIOS[0], "--grid", "model.a=0.005:0.015:3", "--store", tmp_path / "s"])
    assert line.endswith(_STOP) and stops["sweep"] == 1


@pytest.mark.slow  # reason: 2,000 inputs to each of run, sweep and show: minutes
@_settings(_N_SLOW)
@given(scenario, st.lists(command_setting, max_size=4), st.booleans(), st.lists(command_grid, min_size=1, max_size=3),
       sweep_options)
def test_fuzz_commands_long(cli, tmp_path, stops, scenario, items, quick, grid, extra):
    check_run(cli, tmp_path, scenario, items, quick)
    check_sweep(cli, tmp_path, scenario, grid, items[:1], extra)  # fewer fixed settings: more sweeps validate
    check_show(cli, scenario, items)
