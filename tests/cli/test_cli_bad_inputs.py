"""The bad-input matrix: what a careless or hurried user types, one class of mistake at a time.

Every case runs the real CLI in-process (``frictionlab.cli.main(argv)``) and asserts the
outcome a user must see: one plain ``error:`` line and exit 2 for a bad input, exit 130
and one line for Ctrl-C, exit 1 when the run's own checks fail, and never a traceback.
A few cases go through a real subprocess (a real SIGINT; the exit codes of the console
entry point).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import xarray as xr

from frictionlab.cli import main
from frictionlab.core.errors import ConfigError, DataError, ParameterError
from frictionlab.core.result import make_dataset
from frictionlab.scenarios import base as scenario_base
from frictionlab.scenarios.base import Scenario, check

RSF = "classic/rsf-velocity-step"


def assert_one_line_error(code: int, err: str, *needles: str, exit_code: int = 2) -> str:
    assert code == exit_code, err
    assert "Traceback" not in err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("error:"), lines[0]
    for n in needles:
        assert n in lines[0], (n, lines[0])
    return lines[0]


# ---------------------------------------------------------------------------------- toys
def _toy_run(cfg, quick):
    x = float(cfg["toy"]["x"])
    t = np.linspace(0.0, 1.0, 11)
    return make_dataset(t, {"friction_force": x * (1 - np.exp(-t))}, attrs={"x": x})


def _toy_checks(ds, cfg):
    final = float(ds.friction_force[-1])
    return [check("final friction [N] equals x (1 - 1/e)", "[0.63, 0.64] N", final, 0.63 < final < 0.64)]


TOY = Scenario("toy/cli", "instant toy scenario for the CLI tests", {"toy": {"x": 1.0}}, run=_toy_run,
               checks=_toy_checks)


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(scenario_base._SCENARIOS, TOY.name, TOY)
    return TOY


# ------------------------------------------------------------ 1. usage errors (typer's click)
@pytest.mark.parametrize("argv, needle", [
    (["--sett"], "No such option: --sett"),
    (["run"], "Missing argument"),
    (["run", RSF, "--sett", "model.a=1"], "--sett"),
    (["fit", "kloss", "a.csv", "--x", "v", "--y", "f", "--xmin", "abc"], "--xmin"),
    (["sweep", RSF, "--workers", "two"], "--workers"),
    (["list", "models", "extra"], "unexpected extra argument"),
])
def test_usage_errors_are_one_line_exit_2(argv, needle, cli):
    code, _, err = cli(argv)
    assert_one_line_error(code, err, needle)


def test_no_arguments_prints_help_not_a_traceback(cli):
    code, out, err = cli([])
    assert code == 2
    assert "Usage" in out + err and "Traceback" not in out + err


def test_debug_shows_the_traceback(capsys):
    with pytest.raises(ConfigError):
        main(["--debug", "run", "classic/rsf-velocity-stp"])
    with pytest.raises(ConfigError):  # --debug after the command works too
        main(["run", "classic/rsf-velocity-stp", "--debug"])


def test_internal_error_is_one_line_exit_1(toy, monkeypatch, cli, tmp_path):
    def boom(ds, cfg):
        raise ZeroDivisionError("division by zero in a check")

    monkeypatch.setattr(TOY, "checks", boom)
    code, _, err = cli(["run", "toy/cli", "--out", tmp_path])
    assert code == 1 and "Traceback" not in err
    assert err.strip().startswith("internal error: ZeroDivisionError") and len(err.strip().splitlines()) == 1


# ------------------------------------------------------------------------ 2. Ctrl-C
def test_ctrl_c_in_run_exits_130_and_leaves_no_half_written_csv(toy, monkeypatch, cli, tmp_path):
    import pandas as pd

    real = pd.DataFrame.to_csv

    def cut(self, path, *a, **k):  # write a third of the rows, then the user presses Ctrl-C
        real(self.iloc[: len(self) // 3], path, *a, **k)
        raise KeyboardInterrupt

    monkeypatch.setattr(pd.DataFrame, "to_csv", cut)
    code, _, err = cli(["run", "toy/cli", "--out", tmp_path])
    assert code == 130
    line = err.strip()
    assert len(line.splitlines()) == 1 and line.startswith("interrupted")
    assert "toy__cli.nc" in line and str(tmp_path) in line
    assert (tmp_path / "toy__cli.nc").exists()
    assert not (tmp_path / "toy__cli.csv").exists()          # no cut CSV under the final name
    assert not (tmp_path / "toy__cli.png").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temp file left


def test_ctrl_c_in_a_command_without_its_own_handler_exits_130(monkeypatch, cli):
    import frictionlab.core.registry as reg

    def interrupted():
        raise KeyboardInterrupt

    monkeypatch.setattr(reg, "model_names", interrupted)
    code, _, err = cli(["list", "models"])
    assert code == 130 and err.strip().startswith("interrupted") and "Traceback" not in err


def test_interrupted_reproduce_report_names_the_scenarios_not_run(monkeypatch, cli, tmp_path):
    import importlib

    rep = importlib.import_module("frictionlab.report.reproduce")

    calls = []

    def fake_run_one(sc, out, quick, overrides=None, debug=False, dest=None):
        calls.append(sc.name)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return rep.ScenarioOutcome(sc.name, sc.description, checks=[check("claim", "1", 1.0, True)], seconds=0.1)

    monkeypatch.setattr(rep, "run_one", fake_run_one)
    code, _, err = cli(["reproduce", "classic", "--quick", "--out", tmp_path])
    assert code == 130
    assert "interrupted during" in err and "did not run" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "report.md").exists()  # the run's report goes to OUT only when it is complete
    md = (tmp_path / "in-progress" / "report.md").read_text()
    html_ = (tmp_path / "in-progress" / "report.html").read_text()
    names = [s.name for s in scenario_base.select(["classic"])]
    assert "INCOMPLETE" in md and "interrupted" in md and "INCOMPLETE" in html_
    for name in names[1:]:  # the interrupted one and every later one are named as not run
        assert f"- {name}" in md
    assert "badge pass'>pass</span></h1>" not in html_    # the report as a whole does not pass


def test_report_written_while_running_says_what_is_left(tmp_path):
    from frictionlab.report.reproduce import ScenarioOutcome, write_report

    done = [ScenarioOutcome("classic/a", "a", checks=[check("c", "1", 1.0, True)])]
    md, _ = write_report(done, tmp_path, not_run=["classic/b", "kloss/c"])
    text = md.read_text()
    assert "2 scenario(s) did not run" in text and "- kloss/c" in text
    md, _ = write_report(done, tmp_path)
    assert "did not run" not in md.read_text()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_real_sigint_exits_130_with_one_line(tmp_path, ctrl_c_child):
    """A real SIGINT to a running ``frictionlab run`` (its scenario waits): exit 130, one line, no outputs.

    The parent sends the signal once the child says it is inside the run (``ready`` on stderr,
    read by a thread so that every wait has a deadline); the deadlines are generous, for a loaded
    machine. The run waits in short sleeps (as a computation checks for signals between steps),
    never longer than the deadlines: a child that ignored the signal would not exit 130 in time."""
    import threading

    code = (
        "import sys, time\n"
        "from frictionlab.scenarios import base\n"
        "from frictionlab.core.result import make_dataset\n"
        "import numpy as np\n"
        "def run(cfg, quick):\n"
        "    print('ready', file=sys.stderr, flush=True)\n"
        "    t_end = time.monotonic() + 900\n"
        "    while time.monotonic() < t_end:\n"
        "        time.sleep(0.05)\n"
        "    return make_dataset(np.arange(3.0), {'friction_force': np.zeros(3)})\n"
        "base.register_scenario(base.Scenario('toy/slow', 'waits', {'toy': {}}, run=run))\n"
        "from frictionlab.cli import main\n"
        f"main(['run', 'toy/slow', '--out', {str(tmp_path)!r}])\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=ctrl_c_child)
    before: list[str] = []  # stderr up to and with the ready line
    after: list[str] = []   # stderr after it
    ready = threading.Event()

    def read_stderr():
        for line in proc.stderr:
            (after if ready.is_set() else before).append(line)
            if not ready.is_set() and line.strip() == "ready":
                ready.set()

    reader = threading.Thread(target=read_stderr, daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 600
        while not ready.wait(0.1):
            assert proc.poll() is None, "the child exited before its run started: " + "".join(before)
            assert time.monotonic() < deadline, "no 'ready' from the child in 600 s: " + "".join(before)
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=300)
        reader.join(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    err = "".join(after)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("interrupted") and "no output written" in lines[0]
    assert not list(tmp_path.glob("toy__slow*"))


# ------------------------------------------------- 3. `run` exits 1 when its own checks fail
def test_run_exits_1_when_a_check_fails(toy, cli, tmp_path):
    code, out, _ = cli(["run", "toy/cli", "--out", tmp_path])
    assert code == 0 and "pass" in out
    code, out, err = cli(["run", "toy/cli", "--set", "toy.x=2.0", "--out", tmp_path])
    assert code == 1 and "FAIL" in out and "1/1 checks of toy/cli failed" in err
    assert (tmp_path / "toy__cli.nc").exists()  # the results are still written


# ------------------------------------------------------------------------ 4. bad --out
@pytest.mark.parametrize("make_out, needle", [
    (lambda p: (p / "file.txt").write_text("x") and p / "file.txt", "is an existing file"),
    (lambda p: (p / "file.txt").write_text("x") and p / "file.txt" / "sub", "which is a file"),
    (lambda p: Path("/proc/frictionlab-no-such-dir/out"), "not writable"),
])
def test_bad_out_fails_before_the_computation(make_out, needle, toy, monkeypatch, cli, tmp_path):
    def must_not_run(*a, **k):
        raise AssertionError("the scenario ran before --out was checked")

    monkeypatch.setattr(TOY, "run", must_not_run)
    code, _, err = cli(["run", "toy/cli", "--out", make_out(tmp_path)])
    assert_one_line_error(code, err, "--out", needle)


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root ignores directory permissions")
def test_out_without_write_permission(toy, cli, tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        code, _, err = cli(["run", "toy/cli", "--out", ro])
    finally:
        ro.chmod(0o700)
    assert_one_line_error(code, err, "not writable")


# ------------------------------------------------------------ 5. messages are plain text
def test_brackets_in_messages_are_printed_not_parsed(cli, tmp_path):
    code, _, err = cli(["run", "classic/rsf-stability", "--set", "model.law=[/x]", "--out", tmp_path])
    assert_one_line_error(code, err, "'[/x]'", "is not one of")
    toml = tmp_path / "nomodel.toml"
    toml.write_text('[protocol]\ntype = "constant_velocity"\n')
    code, _, err = cli(["run", toml, "--out", tmp_path])
    assert_one_line_error(code, err, "[model]")


def test_units_in_brackets_survive_in_listings(monkeypatch, cli):
    sc = Scenario("toy/units", "slip velocity [m/s] against [/x] time", {"toy": {}}, run=_toy_run)
    monkeypatch.setitem(scenario_base._SCENARIOS, sc.name, sc)
    code, out, _ = cli(["list", "scenarios"])
    assert code == 0 and "[m/s] against [/x]" in out


def test_data_path_with_markup_in_fit(cli, tmp_path):
    d = tmp_path / "a[" / "x]b"  # the path holds '[/x]', a closing tag to rich
    d.mkdir(parents=True)
    code, _, err = cli(["fit", "kloss", d / "missing.csv", "--x", "v", "--y", "f", "--out", tmp_path])
    assert_one_line_error(code, err, "a[/x]b", "does not exist")


# ------------------------------------------------------------ 6. config and data crashes
def _toml(tmp_path, text: str | bytes, name="s.toml") -> Path:
    p = tmp_path / name
    (p.write_bytes if isinstance(text, bytes) else p.write_text)(text)
    return p


CFG = '[model]\nname = "lugre"\n[protocol]\ntype = "constant_velocity"\n'


@pytest.mark.parametrize("content, needle", [
    (b"\xff\xfe[model]\nname = 1\n", "not UTF-8"),
    ("a = " + "[" * 3000 + "]" * 3000 + "\n", "nested deeper"),
    ("scenario = 5\n", "scenario = 5"),
    ("scenario = \"" + RSF + "\"\nmodel = 3\n", "model = 3"),
    ('[model]\nname = 5\n[protocol]\ntype = "constant_velocity"\n', "model name must be a string"),
    ('[model]\nname = "lugre"\npreset = 3\n[protocol]\ntype = "constant_velocity"\n', "preset must be a string"),
    ('[model]\nname = "lugre"\n[protocol]\ntype = 1\n', "protocol type must be a string"),
    ('[model]\nname = "lugre"\n[protocol]\ntype = "constant_velocity"\n[system]\ntype = ["mass"]\n',
     "system type must be a string"),
    (CFG + '[integrator]\ndt = "1 ms"\n', "integrator.dt = '1 ms' must be a number"),
    (CFG + "[integrator]\nsave_dt = 1e-3\nmax_points = 0\n", "max_points"),
    ('[model]\nname = "lugre"\nsigma0 = [1.0, 2.0]\n[protocol]\ntype = "constant_velocity"\n',
     "must be a single number"),
    ('[model]\nname = "lugre"\nsigma0 = 1' + "0" * 400 + '\n[protocol]\ntype = "constant_velocity"\n',
     "too large"),
])
def test_bad_scenario_files(content, needle, cli, tmp_path):
    code, _, err = cli(["run", _toml(tmp_path, content), "--out", tmp_path / "o"])
    assert_one_line_error(code, err, needle)


def test_directory_as_scenario_file(cli, tmp_path):
    (tmp_path / "dir.toml").mkdir()
    code, _, err = cli(["run", tmp_path / "dir.toml"])
    assert_one_line_error(code, err, "is a directory")


@pytest.mark.parametrize("setting, needle", [
    ("integrator.dt.x=1", "integrator.dt is a value"),
    ("protocol=0", "it is a table"),
    ("model.a=[" * 40 + "1" + "]" * 40, "nested deeper"),
    ("model.a=1" + "0" * 400, "401 digits"),
    ("model.a=[0.01, 0.02]", "must be a single number"),
    ("=1", "dotted names"),
    ("model..a=1", "dotted names"),
])
def test_bad_set_values(setting, needle, cli, tmp_path):
    code, _, err = cli(["run", RSF, "--set", setting, "--out", tmp_path])
    assert_one_line_error(code, err, needle)


def test_list_for_a_scalar_parameter_refused_in_the_library():
    from frictionlab.laws import LuGre

    with pytest.raises(ParameterError, match="sigma0 must be a single number"):
        LuGre(sigma0=[1.0, 2.0])
    with pytest.raises(ParameterError, match="too large"):
        LuGre(sigma0=10 ** 400)


def _xy_csv(tmp_path, name="d.csv", header="v,f", rows=None, prefix=b"") -> Path:
    rows = rows or [f"{v:.3f},{1 - np.exp(-v / 0.1):.6f}" for v in np.linspace(0.01, 1.0, 25)]
    p = tmp_path / name
    p.write_bytes(prefix + ("\n".join([header, *rows]) + "\n").encode())
    return p


@pytest.mark.parametrize("extra, needle", [
    (["--where", "v=abc"], "'abc' is not a number"),
    (["--fix", "f_max=abc"], "--fix f_max=abc"),
    (["--start", "zeta=x"], "--start zeta=x"),
])
def test_bad_fit_options(extra, needle, cli, tmp_path):
    code, _, err = cli(["fit", "kloss", _xy_csv(tmp_path), "--x", "v", "--y", "f", "--out", tmp_path, *extra])
    assert_one_line_error(code, err, needle)


def test_csv_field_over_the_csv_limit(cli, tmp_path):
    p = _xy_csv(tmp_path, rows=["1.0," + "9" * 200_000, "2.0,1.0", "3.0,2.0"])
    code, _, err = cli(["fit", "kloss", p, "--x", "v", "--y", "f", "--out", tmp_path])
    assert_one_line_error(code, err, "malformed CSV")


def test_utf8_bom_is_not_part_of_the_first_column_name(tmp_path):
    from frictionlab.fit.data import load_xy

    d = load_xy(_xy_csv(tmp_path, prefix=b"\xef\xbb\xbf"), "v", "f")
    assert d.x.size == 25 and d.x[0] == pytest.approx(0.01)


def test_text_in_the_rsf_normal_stress_column(cli, tmp_path):
    t = np.arange(60.0)
    slip = np.where(t < 30, t, 30 + 3 * (t - 30))
    mu = 0.6 + 0.01 * np.exp(-np.abs(t - 30) / 5.0)
    rows = [f"{a},{b:.6f},{c},abc" for a, b, c in zip(t, mu, slip)]
    p = _xy_csv(tmp_path, header="time_s,friction,slip_um,sigma_n_MPa", rows=rows)
    code, _, err = cli(["fit", "rsf", p, "--x", "time_s", "--y", "friction", "--out", tmp_path])
    assert_one_line_error(code, err, "sigma_n_MPa", "not numeric")


# ---------------------------------------------------------------- 7. sizes checked up front
@pytest.mark.parametrize("setting, needle", [
    ("integrator.dt=1e-15", "of memory"),
    ("integrator.save_dt=inf", "save_dt = inf must be finite"),
    ("integrator.max_points=0", "max_points = 0 must be >= 2"),
])
def test_sizes_refused_before_the_run(setting, needle, cli, tmp_path):
    code, _, err = cli(["run", RSF, "--set", setting, "--out", tmp_path])
    assert_one_line_error(code, err, needle)
    assert not list(tmp_path.glob("*.nc"))


def test_check_run_settings_memory_estimate_and_tolerances():
    from frictionlab.core.validation import check_run_settings
    from frictionlab.laws import LuGre
    from frictionlab.protocols import make_protocol
    from frictionlab.systems.prescribed_slip import PrescribedSlip

    law, sys_ = LuGre(), PrescribedSlip()
    proto = make_protocol({"type": "constant_velocity", "v": 1e-3, "duration_s": 10.0})
    # 1e6 steps of the compiled loop hold ~128 B each: fits in 1 GiB, not in 10 MiB
    check_run_settings(law, proto, sys_, "rk4", dt=1e-5, memory=2 ** 30)
    with pytest.raises(ParameterError, match=r"1e\+06 steps of dt = 1e-05 s .* more than the 10 MiB available"):
        check_run_settings(law, proto, sys_, "rk4", dt=1e-5, memory=10 * 2 ** 20)
    check_run_settings(law, proto, sys_, "radau", dt=1e-5, memory=10 * 2 ** 20)  # adaptive: saved samples only
    check_run_settings(law, proto, sys_, "step", dt=1e-5, memory=10 * 2 ** 20)   # stepping loop: likewise
    for kw, needle in [({"rtol": -1e-6}, "rtol = -1e-06 must lie in"), ({"rtol": 1.0}, "rtol = 1 must lie in"),
                       ({"atol": -1.0}, "atol = -1 must be >= 0"), ({"save_dt": 0.0}, "save_dt = 0 s must be > 0"),
                       ({"max_points": 2.5}, "whole number"), ({"dt": "1 ms"}, "must be a number in s"),
                       ({"t_end": float("nan")}, "must be finite")]:
        with pytest.raises(ParameterError, match=needle):
            check_run_settings(law, proto, sys_, "rk4", **kw)


def test_negative_rtol_refused_through_simulate():
    from frictionlab.solve import simulate
    from frictionlab.laws import LuGre
    from frictionlab.protocols import make_protocol

    proto = make_protocol({"type": "constant_velocity", "v": 1e-3, "duration_s": 1.0})
    with pytest.raises(ParameterError, match="rtol"):
        simulate(LuGre(), proto, integrator="radau", rtol=-1.0)


def test_huge_grid_refused_before_allocating(cli, tmp_path):
    code, _, err = cli(["sweep", RSF, "--grid", "model.a=0.001:0.02:100000000000", "--store", tmp_path / "s",
                        "--scheduler", "serial"])
    assert_one_line_error(code, err, "1e+11 points", "more than the 1,000,000")


# ------------------------------------------------------------------------ 9. sweep store
def _toy_sweep_store(tmp_path, **kw):
    from frictionlab.sweep import run_sweep

    return run_sweep(TOY, ["toy.x=1:4:4"], store=tmp_path / "s", scheduler="serial", **kw)


def test_sweep_cli_says_which_points_it_repaired(toy, cli, tmp_path):
    """A flipped bit in a stored result is found on --resume, said, and that point computed again."""
    from frictionlab.sweep import SweepStore

    args = ["sweep", "toy/cli", "--grid", "toy.x=1:3:3", "--store", tmp_path / "s", "--scheduler", "serial"]
    assert cli(args)[0] == 0
    (seg,) = (tmp_path / "s" / "segments").glob("*.seg")
    key, rec = next(iter(SweepStore.read_index(tmp_path / "s")["points"].items()))
    data = bytearray(seg.read_bytes())
    data[rec["off"] + rec["len"] - 1] ^= 0x01
    seg.write_bytes(bytes(data))
    code, out, err = cli([*args, "--resume"])
    assert code == 0 and f"1 damaged stored point(s) or record(s), their points run again: {key} " \
                         "(checksum mismatch)" in out + err
    assert "3/3 points finished" in out and "2 of 3 points stored, 1 to run" in out + err
    assert SweepStore(tmp_path / "s", "toy/cli").load_point(key).friction_force.size == 11


def test_sweep_plot_to_an_unknown_figure_type_is_one_line(toy, cli, tmp_path):
    """Issue 30: ``sweep plot STORE --out x.xyz`` was an internal error (exit 1)."""
    assert cli(["sweep", "toy/cli", "--grid", "toy.x=1:2:2", "--store", tmp_path / "s", "--scheduler", "serial"])[0] == 0
    code, _, err = cli(["sweep", "plot", tmp_path / "s", "--out", tmp_path / "x.xyz"])
    assert_one_line_error(code, err, "--out", "x.xyz", ".png, .pdf or .svg")
    code, _, err = cli(["sweep", "toy/cli", "--grid", "toy.x=1:2:2", "--store", tmp_path / "t", "--traces", "some"])
    assert_one_line_error(code, err, "--traces 'some'")


def test_second_writer_refused_naming_the_holder(tmp_path, cli, toy):
    import socket

    from frictionlab.sweep import SweepStore

    store = tmp_path / "s"
    store.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        (store / "sweep.lock").write_text(json.dumps({"pid": holder.pid, "host": socket.gethostname(),
                                                       "started": "2026-01-01T00:00:00", "command": "frictionlab sweep"}))
        with pytest.raises(ConfigError, match=rf"in use by another sweep \(pid {holder.pid} on "):
            SweepStore(store, "toy/cli").open(resume=True)
        code, _, err = cli(["sweep", "toy/cli", "--grid", "toy.x=[1.0]", "--store", store, "--scheduler", "serial"])
        assert_one_line_error(code, err, f"pid {holder.pid}", "sweep.lock")
    finally:
        holder.kill()
        holder.wait()
    # the holder is gone: its lock is stale and taken over; the lock is released at the end
    _toy_sweep_store(tmp_path)
    assert not (store / "sweep.lock").exists()


def test_stray_temp_files_are_removed_on_open(tmp_path):
    from frictionlab.sweep import SweepStore

    _toy_sweep_store(tmp_path)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    segs = tmp_path / "s" / "segments"
    stray = [segs / f".s0123456789abcdef.{dead.pid}.tmp", tmp_path / "s" / f".index.json.{dead.pid}.tmp"]
    for p in stray:
        p.write_bytes(b"half")
    live = segs / f".sfedcba9876543210.{os.getppid()}.tmp"  # a live process's file stays
    live.write_bytes(b"busy")
    SweepStore(tmp_path / "s", "toy/cli", grid={"toy.x": []}, config=TOY.config).open(resume=True).close()
    assert not any(p.exists() for p in stray) and live.exists()


# ------------------------------------------------------------------------ 10. degenerate fits
@pytest.mark.parametrize("values, needle", [
    (np.full(25, 0.7), "is constant"),
    (1e300 * np.linspace(1.0, 2.0, 25), "rescale it"),
])
def test_degenerate_fits_refused_and_nothing_written(values, needle, cli, tmp_path):
    rows = [f"{v:.3f},{float(y)!r}" for v, y in zip(np.linspace(0.01, 1.0, 25), values)]
    p = _xy_csv(tmp_path, rows=rows)
    code, _, err = cli(["fit", "kloss", p, "--x", "v", "--y", "f", "--out", tmp_path / "o"])
    assert_one_line_error(code, err, needle)
    assert not list((tmp_path / "o").glob("*.json"))


def test_fit_json_never_holds_nan_or_infinity(tmp_path):
    from frictionlab.fit.fitter import Fitter

    v = np.linspace(0.01, 1.0, 30)
    y = 2.0 * (1 - np.exp(-v / 0.1))
    f = Fitter("kloss", kind="static", n_starts=2).fit((v, y))
    f.stderr_ = {k: float("nan") for k in f.stderr_}  # as for parameters stopped at a bound
    f.rmse_ = float("inf")
    text = f.write_json(tmp_path / "f.json").read_text()
    assert "NaN" not in text and "Infinity" not in text
    data = json.loads(text)
    assert data["rmse"] is None and all(v is None for v in data["stderr"].values())
    assert data["params"]["f_max"] == pytest.approx(f.params_["f_max"]) and data["fit_percent"] > 99


def test_degenerate_data_in_the_library():
    from frictionlab.fit.fitter import Fitter

    v = np.linspace(0.01, 1.0, 30)
    with pytest.raises(DataError, match="constant"):
        Fitter("kloss", kind="static").fit((v, np.zeros(30)))
