"""rough-contact/fig8 takes its worker count from the execution (``frictionlab run|reproduce --workers N``,
``executor.runs_on``) like Figs. 13 and 14, not from its config; its former ``protocol.workers`` and
``parallel.workers`` are refused with a pointer. The seed solves are not run here: ``run_parallel`` is
replaced by a spy that stops."""

from __future__ import annotations

import pytest

from frictionlab.core.errors import ConfigError
from frictionlab.scenarios import checkpoint, get_scenario, load_scenario
from frictionlab.scenarios.executor import local_workers
from frictionlab.scenarios.rough_contact import fig8

FIG8 = "rough-contact/fig8"


class Stop(Exception):
    pass


@pytest.fixture
def spy(monkeypatch):
    """Records ``(worker count, task keys)`` of every call of fig8's parallel map, then stops the run."""
    seen: list[tuple[int, list[str]]] = []

    def run_parallel(fn, tasks, cfg):
        assert "parallel" not in cfg
        seen.append((local_workers(), [checkpoint.task_key(fn, t) for t in tasks]))
        raise Stop("stopped before the seed solves")

    monkeypatch.setattr(fig8, "run_parallel", run_parallel)
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
    assert "protocol" not in get_scenario(FIG8).resolved_config()  # direct solves: no protocol, its former keys moved


def test_former_protocol_workers_is_refused_with_a_pointer(tmp_path):
    sc = get_scenario(FIG8)
    with pytest.raises(ConfigError, match=r"protocol\.workers.*--workers N"):
        sc.resolved_config({"protocol.workers": 2})
    f = tmp_path / "fig8.toml"
    f.write_text('scenario = "rough-contact/fig8"\n[protocol]\nworkers = 2\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"protocol\.workers.*--workers N"):
        load_scenario(str(f))
    cfg = sc.resolved_config(quick=True)
    cfg["protocol"] = {"workers": 2}  # an API caller handing run() the old key
    with pytest.raises(ConfigError, match=r"protocol\.workers.*--workers N"):
        fig8.run(cfg, True)
    # the other keys of the former [protocol] point to where they went, in SI
    with pytest.raises(ConfigError, match=r"protocol\.pressures_MPa.*sweep\.pressures \[Pa\]"):
        sc.resolved_config({"protocol.pressures_MPa": [100.0]})
