"""A Ctrl-C that surfaces as SystemError (numba loop returning with the interrupt flag set) stops
``run_one`` as a KeyboardInterrupt; on the old code it was recorded as the scenario's failure."""

import pytest

import importlib

rep = importlib.import_module("frictionlab.report.reproduce")
from frictionlab.scenarios import Scenario


def _run(*_a, **_k):
    try:
        raise KeyboardInterrupt
    except KeyboardInterrupt:
        raise SystemError("<built-in function loop> returned a result with an exception set")


def test_systemerror_carrying_ctrl_c_is_an_interrupt(tmp_path):
    sc = Scenario(name="test/interrupt", description="d", config={}, run=_run, checks=None, plot=None)
    with pytest.raises(KeyboardInterrupt):
        rep.run_one(sc, tmp_path, quick=True)


def test_plain_systemerror_is_still_a_failure():
    assert not rep._interrupted(SystemError("x"))
    assert rep._interrupted(SystemError("x").with_traceback(None)) is False


def test_cli_run_exits_130_on_a_ctrl_c_raised_as_systemerror(tmp_path, cli, monkeypatch):
    """``frictionlab run`` (not only reproduce): the catch-all turned it into exit 1 'internal error'."""
    from frictionlab.scenarios import base as scenario_base

    sc = Scenario(name="test/interrupt-run", description="d", config={}, run=_run, checks=None, plot=None)
    monkeypatch.setitem(scenario_base._SCENARIOS, sc.name, sc)
    code, _, err = cli(["run", sc.name, "--out", tmp_path])
    assert code == 130 and "interrupted" in err and "internal error" not in err
