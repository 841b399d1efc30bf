"""Fuzz the parsers a user's text reaches: ``--set``, ``--grid``, scenario TOML, data CSV.

Whatever the input, each must either work or raise the project's own error
(:class:`~frictionlab.core.errors.FrictionLabError`: ConfigError, ParameterError,
DataError); any other exception (TypeError, RecursionError, OverflowError, csv.Error, ...)
would reach the user as a traceback, and fails the test. The default suite runs a
time-bounded sample (about 30 s in all on a loaded 2-core machine); the ``slow`` variant
runs 50 times more examples.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from frictionlab.core.errors import FrictionLabError
from frictionlab.fit.data import load_timeseries, load_xy
from frictionlab.scenarios import get_scenario
from frictionlab.scenarios.config import apply_overrides, build, load_toml, parse_set
from frictionlab.sweep.grid import parse_grid

FAST = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=7500, deadline=None, database=None, suppress_health_check=list(HealthCheck))

_KEYS = ["model.a", "model.b", "model.dc", "model.law", "model.name", "model.preset", "model", "protocol",
         "protocol.type", "protocol.velocities", "protocol.durations", "system.type", "integrator.dt",
         "integrator.method", "integrator.save_dt", "integrator.max_points", "integrator.rtol", "integrator.dt.x",
         "toy", "", ".", "model..a", "a.b.c.d"]
_PIECES = ["[", "]", "{", "}", "=", ",", ".", ":", "\"", "'", "#", "\n", " ", "0", "1", "-1", "1e400", "1e-400",
           "inf", "nan", "-inf", "true", "false", "log", "lin", "aging", "slip", "[/x]", "\x00", "\ufeff", "1979-05-27",
           "1" + "0" * 400, "[" * 40, "]" * 40, "0x1F", "1_000", "é", "\\", "lugre", "rsf", "mass", "rk4"]

text = st.lists(st.sampled_from(_PIECES) | st.text(max_size=4), max_size=12).map("".join)
value = st.one_of(text, st.floats(allow_nan=True).map(repr), st.integers().map(str),
                  st.lists(st.floats().map(repr) | text, max_size=4).map(lambda xs: "[" + ", ".join(xs) + "]"))
setting = st.one_of(st.builds(lambda k, v: f"{k}={v}", st.sampled_from(_KEYS) | text, value), text)
grid_item = st.one_of(setting, st.builds(lambda k, a, b, n, s: f"{k}={a}:{b}:{n}{s}", st.sampled_from(_KEYS),
                                         value, value, st.integers(-3, 10 ** 13).map(str) | text,
                                         st.sampled_from(["", ":log", ":lin", ":x", ":log:1"])))

_RSF = get_scenario("classic/rsf-velocity-step").resolved_config(None, True)


def _must_be_ours(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except FrictionLabError:
        return None


def check_set(items: list[str]) -> None:
    overrides = _must_be_ours(parse_set, items)
    if overrides is not None:
        cfg = _must_be_ours(apply_overrides, _RSF, overrides)
        if cfg is not None:
            _must_be_ours(build, cfg)


def check_grid(items: list[str]) -> None:
    _must_be_ours(parse_grid, items, _RSF)


def _tmp_file(data: bytes, suffix: str) -> Path:
    fd, name = tempfile.mkstemp(suffix=suffix, prefix="frictionlab-fuzz-")
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    return Path(name)


def check_toml(data: bytes) -> None:
    path = _tmp_file(data, ".toml")
    try:
        cfg = _must_be_ours(load_toml, path)
        if cfg is not None:
            cfg.pop("scenario", None)
            _must_be_ours(build, cfg)
    finally:
        path.unlink()


def check_csv(data: bytes, cols: tuple[str, str]) -> None:
    path = _tmp_file(data, ".csv")
    try:
        _must_be_ours(load_xy, path, *cols, where={cols[0]: "1"})
        _must_be_ours(load_timeseries, path, *cols, slip=cols[1])
    finally:
        path.unlink()


toml_text = st.lists(st.sampled_from(["[model]\n", "[protocol]\n", "[integrator]\n", "[system]\n", "name = ",
                                      "type = ", "preset = ", "dt = ", "a = ", "scenario = ", "\"lugre\"",
                                      "\"constant_velocity\"", "\"mass\"", "1", "1e400", "[1, 2]", "\n", "model = 3\n",
                                      "[[model]]\n", "{ a = 1 }", "\"1 ms\"", "[" * 50, "]" * 50, "\xff", "\ufeff",
                                      "=", ".", "x.y.z = 1\n"]) | st.text(max_size=6), max_size=20).map("".join)
toml_bytes = st.one_of(toml_text.map(lambda s: s.encode("utf-8", "surrogatepass")), st.binary(max_size=200))
csv_text = st.lists(st.sampled_from(["v,f\n", "time,slip\n", "# c\n", "1,2\n", "2,3\n", "3,4\n", "1,\n", ",\n",
                                     "\"a\",\"b\n", "abc,1\n", "nan,1\n", "1e400,1\n", "1,2,3\n", "\x00", "\ufeff",
                                     "\n", ";", "\r\n", "9" * 200_000]) | st.text(max_size=6), max_size=30).map("".join)
csv_bytes = st.one_of(csv_text.map(lambda s: s.encode("utf-8", "surrogatepass")), st.binary(max_size=300))
columns = st.sampled_from([("v", "f"), ("time", "slip"), ("\ufeffv", "f"), ("", "")])


@FAST
@given(st.lists(setting, max_size=4))
def test_fuzz_set(items):
    check_set(items)


@FAST
@given(st.lists(grid_item, max_size=3))
def test_fuzz_grid(items):
    check_grid(items)


@FAST
@given(toml_bytes)
def test_fuzz_toml(data):
    check_toml(data)


@FAST
@given(csv_bytes, columns)
def test_fuzz_csv(data, cols):
    check_csv(data, cols)


@pytest.mark.slow  # reason: 50x the default sample, several minutes
@SLOW
@given(st.lists(setting, max_size=6), st.lists(grid_item, max_size=4), toml_bytes, csv_bytes, columns)
def test_fuzz_all_long(items, grid_items, toml_data, csv_data, cols):
    check_set(items)
    check_grid(grid_items)
    check_toml(toml_data)
    check_csv(csv_data, cols)
