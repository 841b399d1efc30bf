"""rough-contact/fig8 takes its worker count from the execution (``frictionlab run|reproduce --workers N``,
``executor.runs_on``) like Figs. 13 and 14, not from its config; its former ``protocol.workers`` and
``parallel.workers`` are refused with a pointer. The study's points are not run here: the executor's
``run_tasks`` (what its study map, ``parallel_map``, hands the points to) is replaced by a spy that stops."""

from __future__ import annotations

import re

import pytest

from frictionlab.core.errors import ConfigError, FrictionLabError
from frictionlab.scenarios import checkpoint, get_scenario, load_scenario
from frictionlab.scenarios import executor
from frictionlab.scenarios.executor import local_workers

FIG8 = "rough-contact/fig8"


class Stop(Exception):
    pass


@pytest.fixture
def spy(monkeypatch):
    """Records ``(worker count, task keys)`` of every call of fig8's parallel map, then stops the run."""
    seen: list[tuple[int, list[str]]] = []

    def run_tasks(fn, tasks, keyed=None, **kw):
        assert all("parallel" not in cfg for cfg, in keyed)  # the keys hash each point's full config
        seen.append((local_workers(), [checkpoint.task_key(fn, t) for t in keyed]))
        raise Stop("stopped before the seed solves")

    monkeypatch.setattr(executor, "run_tasks", run_tasks)
    return seen


def test_reproduce_workers_reaches_the_parallel_map(spy, tmp_path, cli):
    code, out, err = cli(["reproduce", FIG8, "--quick", "--workers", "2", "--out", tmp_path / "a"])
    assert code == 2 and "stopped before the seed solves" in " ".join(out.split()), out + err
    assert f"--workers 2: 2 processes run the independent runs of {FIG8}" in " ".join(out.split())
    code, out, err = cli(["reproduce", FIG8, "--quick", "--out", tmp_path / "b"])
    assert code == 2 and "stopped before the seed solves" in " ".join(out.split()), out + err
    assert [w for w, _ in spy] == [2, 1]  # --workers 2, then the default 1
    assert spy[0][1] == spy[1][1] and len(set(spy[0][1])) == len(spy[0][1])  # a resume may change the count


def test_run_workers_reaches_the_parallel_map(spy, tmp_path, cli):
    code, out, err = cli(["run", FIG8, "--quick", "--workers", "3", "--out", tmp_path])
    assert code == 1 and "stopped before the seed solves" in err, out + err
    assert [w for w, _ in spy] == [3]
    code, out, err = cli(["run", FIG8, "--quick", "--set", "parallel.workers=3", "--out", tmp_path])
    assert code == 2 and "--workers N" in " ".join((out + err).split()), out + err
    assert len(spy) == 1  # refused before anything ran


def test_run_workers_is_refused_where_nothing_runs_in_parallel(tmp_path, cli):
    code, out, err = cli(["run", "rough-contact/fig3", "--quick", "--workers", "2", "--out", tmp_path])
    assert code == 2 and "not made of independent runs" in " ".join((out + err).split()), out + err


def test_no_parallel_section_as_figs_13_and_14():
    for name in (FIG8, "rough-contact/fig13", "rough-contact/fig14"):
        sc = get_scenario(name)
        assert "parallel" not in sc.resolved_config() and "parallel" not in sc.resolved_config(quick=True)
    # its [protocol] is the hold whose loaded and relaxed states each point solves: its former keys moved
    assert get_scenario(FIG8).resolved_config()["protocol"] == {"type": "constant_velocity", "v": 0.0,
                                                                "duration_s": 100.0}


def test_former_protocol_workers_is_refused_with_a_pointer(tmp_path):
    sc = get_scenario(FIG8)
    with pytest.raises(ConfigError, match=r"protocol\.workers.*--workers N"):
        sc.resolved_config({"protocol.workers": 2})
    f = tmp_path / "fig8.toml"
    f.write_text('scenario = "rough-contact/fig8"\n[protocol]\nworkers = 2\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"protocol\.workers.*--workers N"):
        load_scenario(str(f))
    cfg = sc.resolved_config(quick=True)
    cfg["protocol"]["workers"] = 2  # an API caller handing the study the old key: refused before anything runs
    with pytest.raises(FrictionLabError, match=r"run 'figure'.*no parameter 'workers'"):
        sc.run_study(cfg)
    # the other keys of the former [protocol] and [sweep] point to where they went, in SI
    with pytest.raises(ConfigError, match=r"protocol\.pressures_MPa.*axes\.analysis\.pressure \[Pa\]"):
        sc.resolved_config({"protocol.pressures_MPa": [100.0]})
    for old, new in (("sweep.seeds", "axes.model.surface_seed"), ("analysis.t_eval", "protocol.duration_s"),
                     ("analysis.iid_seeds", "runs.meanfield_iid.axes.model.surface_seed"),
                     ("integrator.per_decade", "runs.stepped.integrator.per_decade")):
        with pytest.raises(ConfigError, match=re.escape(new)):
            sc.resolved_config({old: 1})
