"""Thread budget: FFT threads by size, FRICTIONLAB_THREADS and ``frictionlab --threads``."""

from __future__ import annotations

import os

import numba
import pytest
from typer.testing import CliRunner

from frictionlab.cli import app
from frictionlab.contact.rough.elasticity import FFT_THREAD_CROSSOVER, BoussinesqFFT, resolve_fft_workers
from frictionlab.core.errors import ConfigError
from frictionlab.core.threads import thread_limit


def test_auto_is_one_thread_below_the_crossover_and_the_budget_from_it(monkeypatch):
    ncpu = os.cpu_count() or 1
    monkeypatch.delenv("FRICTIONLAB_THREADS", raising=False)
    assert resolve_fft_workers("auto", FFT_THREAD_CROSSOVER - 1) == 1
    assert resolve_fft_workers("auto", FFT_THREAD_CROSSOVER) == min(2, ncpu)
    monkeypatch.setenv("FRICTIONLAB_THREADS", "1")
    assert resolve_fft_workers("auto", 4 * FFT_THREAD_CROSSOVER) == 1
    monkeypatch.setenv("FRICTIONLAB_THREADS", "64")
    assert resolve_fft_workers("auto", FFT_THREAD_CROSSOVER) == ncpu
    assert resolve_fft_workers("auto", FFT_THREAD_CROSSOVER - 1) == 1  # below it one thread, budget or not
    assert resolve_fft_workers(3, 10) == 3  # an explicit count is used as given
    # 512^2 solves, periodic and padded (2^20 transform points), stay on one thread (issue 17:
    # the one-thread transposed product beats two scipy threads up to a padded 2048^2)
    assert BoussinesqFFT(512, 512, periodic=True).workers == 1
    assert BoussinesqFFT(512, 512, periodic=False).workers == 1
    assert FFT_THREAD_CROSSOVER > 4 * 2048 * 2048


@pytest.mark.parametrize("raw", ["0", "-2", "two", "1.5"])
def test_a_bad_budget_is_refused(monkeypatch, raw):
    monkeypatch.setenv("FRICTIONLAB_THREADS", raw)
    with pytest.raises(ConfigError, match="FRICTIONLAB_THREADS"):
        thread_limit()
    with pytest.raises(ConfigError, match="FRICTIONLAB_THREADS"):
        resolve_fft_workers("auto", FFT_THREAD_CROSSOVER)


def test_cli_threads_sets_the_budget(monkeypatch):
    monkeypatch.setenv("FRICTIONLAB_THREADS", "")
    before = numba.get_num_threads()
    try:
        res = CliRunner().invoke(app, ["--threads", "1", "list", "--kind", "model"])
        assert res.exit_code == 0, res.output
        assert os.environ["FRICTIONLAB_THREADS"] == "1"
        assert numba.get_num_threads() == 1
        assert thread_limit() == 1
    finally:
        numba.set_num_threads(before)
    res = CliRunner().invoke(app, ["--threads", "0", "list"])
    assert isinstance(res.exception, ConfigError) and "threads = 0" in str(res.exception)  # main(): one line, exit 2
