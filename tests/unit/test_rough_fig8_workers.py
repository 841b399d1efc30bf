"""rough-contact/fig8 takes its worker count from ``[parallel] workers`` like Figs. 13 and 14, so that
``frictionlab reproduce --workers N`` reaches it; its former ``protocol.workers`` is refused with a
pointer. The seed solves are not run here: ``run_parallel`` is replaced by a spy that stops."""

from __future__ import annotations

import pytest

from frictionlab.core.errors import ConfigError
from frictionlab.scenarios import checkpoint, get_scenario, load_scenario
from frictionlab.scenarios.rough_contact import fig8

FIG8 = "rough-contact/fig8"


class Stop(Exception):
    pass


@pytest.fixture
def spy(monkeypatch):
    """Records ``(parallel.workers, task keys)`` of every call of fig8's parallel map, then stops the run."""
    seen: list[tuple[int, list[str]]] = []

    def run_parallel(fn, tasks, cfg):
        seen.append((cfg["parallel"]["workers"], [checkpoint.task_key(fn, t) for t in tasks]))
        raise Stop("stopped before the seed solves")

    monkeypatch.setattr(fig8, "run_parallel", run_parallel)
    return seen


def test_reproduce_workers_reaches_the_parallel_map(spy, tmp_path, cli):
    code, out, err = cli(["reproduce", FIG8, "--quick", "--workers", "2", "--out", tmp_path / "a"])
    assert code == 2 and "stopped before the seed solves" in " ".join(out.split()), out + err
    assert f"--workers 2: parallel.workers = 2 for {FIG8}" in " ".join(out.split())
    code, out, err = cli(["reproduce", FIG8, "--quick", "--out", tmp_path / "b"])
    assert code == 2 and "stopped before the seed solves" in " ".join(out.split()), out + err
    assert [w for w, _ in spy] == [2, 1]  # --workers 2, then the default 1
    assert spy[0][1] == spy[1][1] and len(set(spy[0][1])) == len(spy[0][1])  # a resume may change the count


def test_run_set_parallel_workers_reaches_the_parallel_map(spy, tmp_path, cli):
    code, out, err = cli(["run", FIG8, "--quick", "--set", "parallel.workers=3", "--out", tmp_path])
    assert code == 1 and "stopped before the seed solves" in err, out + err
    assert [w for w, _ in spy] == [3]


def test_parallel_section_as_figs_13_and_14():
    sc = get_scenario(FIG8)
    for other in ("rough-contact/fig13", "rough-contact/fig14"):
        assert sc.resolved_config()["parallel"] == get_scenario(other).resolved_config()["parallel"] == {"workers": 1}
    assert sc.resolved_config(quick=True)["parallel"] == {"workers": 1}
    assert "protocol" not in sc.resolved_config()  # direct solves: no protocol, its former keys moved


def test_former_protocol_workers_is_refused_with_a_pointer(tmp_path):
    sc = get_scenario(FIG8)
    with pytest.raises(ConfigError, match=r"protocol\.workers.*parallel\.workers"):
        sc.resolved_config({"protocol.workers": 2})
    f = tmp_path / "fig8.toml"
    f.write_text('scenario = "rough-contact/fig8"\n[protocol]\nworkers = 2\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"protocol\.workers.*parallel\.workers"):
        load_scenario(str(f))
    cfg = sc.resolved_config(quick=True)
    cfg["protocol"] = {"workers": 2}  # an API caller handing run() the old key
    with pytest.raises(ConfigError, match=r"protocol\.workers.*parallel\.workers"):
        fig8.run(cfg, True)
    # the other keys of the former [protocol] point to where they went, in SI
    with pytest.raises(ConfigError, match=r"protocol\.pressures_MPa.*sweep\.pressures \[Pa\]"):
        sc.resolved_config({"protocol.pressures_MPa": [100.0]})
