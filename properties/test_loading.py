"""Property-based tests (Hypothesis) for configuration and data loading.

* TOML: arbitrary nested configurations survive ``dump_toml`` -> ``tomllib.loads``, and
  ``apply_overrides`` is idempotent and commutes with the round trip.
* CSV (``frictionlab.fit.data``): generated well-formed files load with their values intact;
  malformed ones (missing column, NaN/inf/empty cells, too few points, non-numeric cells,
  ragged rows, only ``#`` comments, non-monotone abscissae) raise a ``DataError`` and never
  another exception.
"""

from __future__ import annotations

import csv
import io
import math
import tomllib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from frictionlab.core.errors import ConfigError, DataError
from frictionlab.fit.data import load_timeseries, load_xy, read_table
from frictionlab.solve.config import _clean, apply_overrides, dump_toml

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

# --------------------------------------------------------------------------- TOML

_floats = st.floats(allow_nan=False, allow_infinity=False)
_scalars = st.one_of(st.booleans(), st.integers(-(2**63), 2**63 - 1), _floats, st.text(max_size=16))
# keys that need quoting in TOML too: spaces, dots, dashes, unicode, digits first
_keys = st.one_of(st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=8),
                  st.text(min_size=1, max_size=8))
_arrays = st.one_of(st.lists(_floats, max_size=5), st.lists(st.integers(-1000, 1000), max_size=5),
                    st.lists(st.text(max_size=6), max_size=4), st.lists(st.booleans(), max_size=4),
                    st.lists(st.lists(_floats, max_size=3), max_size=3))
_leaf = st.one_of(_scalars, _arrays, st.none())
_configs = st.recursive(st.dictionaries(_keys, _leaf, max_size=5),
                        lambda children: st.dictionaries(_keys, st.one_of(_leaf, children), max_size=4),
                        max_leaves=20)


def _same(a, b) -> bool:
    """Equality that also tells -0.0 from 0.0 (a round trip must keep the sign)."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float):
        return isinstance(b, float) and a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    return type(a) is type(b) and a == b


@SETTINGS
@given(cfg=_configs, name=st.one_of(st.none(), st.text(alphabet="abc-/", min_size=1, max_size=12)))
def test_toml_round_trip_of_nested_configs(cfg, name):
    assume("scenario" not in cfg or name is None)
    back = tomllib.loads(dump_toml(cfg, scenario=name))
    if name:
        assert back.pop("scenario") == name
    assert _same(back, _clean(cfg))
    # a second trip is the identity
    assert _same(tomllib.loads(dump_toml(back)), back)


def _paths(cfg: dict, prefix: tuple = ()) -> list[tuple[tuple, object]]:
    out = []
    for k, v in cfg.items():
        if isinstance(v, dict):
            out += _paths(v, prefix + (k,))
        elif "." not in k:
            out.append((prefix + (k,), v))
    return out


def _like(old) -> st.SearchStrategy:
    """A new value of the same TOML type as ``old`` (what a strict override accepts)."""
    if isinstance(old, bool):
        return st.booleans()
    if isinstance(old, (int, float)):
        return st.one_of(st.integers(-1000, 1000), _floats)
    if isinstance(old, str):
        return st.text(max_size=8)
    if isinstance(old, list):
        return st.lists(_floats, max_size=3)
    return st.none()


@st.composite
def _config_and_overrides(draw):
    cfg = draw(_configs.filter(lambda c: all("." not in k for k in c)))
    leaves = [(p, v) for p, v in _paths(cfg) if all("." not in part for part in p)]
    chosen = draw(st.lists(st.sampled_from(leaves), unique_by=lambda pv: pv[0], max_size=4)) if leaves else []
    overrides = {".".join(p): draw(_like(v)) for p, v in chosen}
    return cfg, overrides


@SETTINGS
@given(data=_config_and_overrides())
def test_apply_overrides_is_idempotent_and_commutes_with_the_round_trip(data):
    cfg, overrides = data
    once = apply_overrides(cfg, overrides)
    assert _same(apply_overrides(once, overrides), once)
    # the input is not mutated
    assert _same(cfg, apply_overrides(cfg, {}))
    # each override landed where its dotted key points
    for key, value in overrides.items():
        node = once
        for part in key.split("."):
            node = node[part]
        assert _same(node, value)
    # override then dump/load == dump/load then override (None leaves drop out of TOML)
    via_toml = apply_overrides(tomllib.loads(dump_toml(cfg)), {k: v for k, v in overrides.items() if v is not None},
                               strict=False)
    assert _same(_clean(via_toml), _clean(once))


@SETTINGS
@given(cfg=st.dictionaries(st.sampled_from(["model", "system", "map"]),
                           st.dictionaries(st.sampled_from(["a", "b", "c"]), st.integers(0, 9), min_size=1),
                           min_size=1),
       key=st.text(alphabet="xyz", min_size=1, max_size=4))
def test_strict_overrides_refuse_unknown_keys_with_a_config_error(cfg, key):
    section = sorted(cfg)[0]
    assume(section != "model")  # model keys are checked against a registered model's fields
    with pytest.raises(ConfigError):
        apply_overrides(cfg, {f"{section}.{key}": 1})
    with pytest.raises(ConfigError):
        apply_overrides(cfg, {f"{section}.{sorted(cfg[section])[0]}": "not a number"})


# --------------------------------------------------------------------------- CSV

_names = st.lists(st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=8), min_size=2, max_size=4,
                  unique=True)
_values = st.floats(min_value=-1e12, max_value=1e12, allow_nan=False, allow_infinity=False)


@st.composite
def _tables(draw, min_rows: int = 3, max_rows: int = 25):
    """(column names, {name: values}) with the first column strictly increasing (the abscissa)."""
    names = draw(_names)
    n = draw(st.integers(min_rows, max_rows))
    x = np.cumsum(draw(st.lists(st.floats(1e-3, 1e3), min_size=n, max_size=n)))
    x = np.unique(x + draw(st.floats(-1e3, 1e3)))
    assume(x.size == n)
    cols = {names[0]: x.tolist()}
    for name in names[1:]:
        cols[name] = draw(st.lists(_values, min_size=n, max_size=n))
    return names, cols


def _write(path: Path, names, cols, comments=(), blank_lines=False, cells=None) -> Path:
    buf = io.StringIO()
    for c in comments:
        buf.write(f"# {c}\n")
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(names)
    n = len(cols[names[0]])
    for i in range(n):
        row = [repr(float(cols[k][i])) for k in names]
        if cells:
            for (ri, cj), text in cells.items():
                if ri == i:
                    row[cj] = text
        w.writerow(row)
        if blank_lines and i % 3 == 0:
            buf.write("\n")
    path.write_text(buf.getvalue())
    return path


_comments = st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=20), max_size=3)


@SETTINGS
@given(table=_tables(), comments=_comments, blank=st.booleans())
def test_well_formed_csv_values_round_trip(tmp_path, table, comments, blank):
    names, cols = table
    p = _write(tmp_path / "ok.csv", names, cols, comments, blank)
    raw = read_table(p)
    assert list(raw) == names
    for k in names:
        np.testing.assert_array_equal(raw[k], np.asarray(cols[k]))
    xy = load_xy(p, names[0], names[1])
    np.testing.assert_array_equal(xy.x, cols[names[0]])
    np.testing.assert_array_equal(xy.y, cols[names[1]])
    ts = load_timeseries(p, names[0], names[1], velocity=names[-1], min_points=3)
    np.testing.assert_array_equal(ts.time, cols[names[0]])
    np.testing.assert_array_equal(ts.velocity, cols[names[-1]])


def _expect_data_error(fn, *args, **kwargs) -> DataError:
    """Call ``fn``; it must raise a DataError (any other exception fails the test)."""
    with pytest.raises(DataError) as info:
        fn(*args, **kwargs)
    assert str(info.value)
    return info.value


@SETTINGS
@given(table=_tables(), missing=st.text(alphabet="ABCDEFGHIJ", min_size=1, max_size=6), which=st.sampled_from("xy"))
def test_missing_column_is_a_data_error(tmp_path, table, missing, which):
    names, cols = table
    p = _write(tmp_path / "m.csv", names, cols)
    args = (missing, names[1]) if which == "x" else (names[0], missing)
    err = _expect_data_error(load_xy, p, *args)
    assert missing in str(err)
    _expect_data_error(load_timeseries, p, names[0], names[1], velocity=missing, min_points=3)


@SETTINGS
@given(table=_tables(), bad=st.sampled_from(["nan", "NaN", "inf", "-inf", "", " "]), data=st.data())
def test_nan_inf_or_empty_cells_are_a_data_error(tmp_path, table, bad, data):
    names, cols = table
    n = len(cols[names[0]])
    row = data.draw(st.integers(0, n - 1))
    col = data.draw(st.integers(0, 1))
    p = _write(tmp_path / "nan.csv", names, cols, cells={(row, col): bad})
    _expect_data_error(load_xy, p, names[0], names[1])
    _expect_data_error(load_timeseries, p, names[0], names[1], velocity=names[1], min_points=3)


@SETTINGS
@given(table=_tables(min_rows=1, max_rows=6), extra=st.integers(1, 5))
def test_too_few_points_is_a_data_error(tmp_path, table, extra):
    names, cols = table
    n = len(cols[names[0]])
    p = _write(tmp_path / "few.csv", names, cols)
    _expect_data_error(load_xy, p, names[0], names[1], min_points=n + extra)
    _expect_data_error(load_timeseries, p, names[0], names[1], velocity=names[1], min_points=n + extra)


_garbage = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters=",\"\r\n"),
                   min_size=1, max_size=10)


def _not_a_float(s: str) -> bool:
    try:
        float(s.strip())
    except ValueError:
        return s.strip() != ""
    return False


@SETTINGS
@given(table=_tables(), cell=_garbage.filter(_not_a_float), data=st.data())
def test_non_numeric_cells_are_a_data_error(tmp_path, table, cell, data):
    assume(not cell.lstrip().startswith("#"))
    names, cols = table
    n = len(cols[names[0]])
    row, col = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, 1))
    p = _write(tmp_path / "txt.csv", names, cols, cells={(row, col): cell})
    err = _expect_data_error(load_xy, p, names[0], names[1])
    assert names[col] in str(err)
    _expect_data_error(load_timeseries, p, names[0], names[1], velocity=names[1], min_points=3)


@SETTINGS
@given(comments=_comments.filter(bool), blank=st.booleans())
def test_only_comment_lines_is_a_data_error(tmp_path, comments, blank):
    p = tmp_path / "c.csv"
    p.write_text("".join(f"# {c}\n" + ("\n" if blank else "") for c in comments))
    _expect_data_error(read_table, p)
    _expect_data_error(load_xy, p, "x", "y")


@SETTINGS
@given(table=_tables(), data=st.data())
def test_ragged_rows_are_a_data_error(tmp_path, table, data):
    names, cols = table
    n = len(cols[names[0]])
    row = data.draw(st.integers(0, n - 1))
    text = _write(tmp_path / "r.csv", names, cols).read_text().splitlines()
    fields = text[row + 1].split(",")
    cut = data.draw(st.booleans())
    text[row + 1] = ",".join(fields[:-1]) if cut else ",".join(fields + ["1.0"])
    p = tmp_path / "r.csv"
    p.write_text("\n".join(text) + "\n")
    _expect_data_error(load_xy, p, names[0], names[1])


@SETTINGS
@given(table=_tables(min_rows=3), data=st.data())
def test_non_monotone_abscissa_is_a_data_error(tmp_path, table, data):
    names, cols = table
    x = list(cols[names[0]])
    i = data.draw(st.integers(1, len(x) - 2))
    x[i], x[i + 1] = x[i + 1], x[i]
    cols = {**cols, names[0]: x}
    p = _write(tmp_path / "nm.csv", names, cols)
    _expect_data_error(load_xy, p, names[0], names[1])
    _expect_data_error(load_timeseries, p, names[0], names[1], velocity=names[1], min_points=3)


@SETTINGS
@given(text=st.text(max_size=300), x=st.sampled_from(["x", "a", "#"]))
def test_arbitrary_text_never_raises_anything_but_a_data_error(tmp_path, text, x):
    p = tmp_path / "t.csv"
    p.write_text(text, encoding="utf-8")
    try:
        load_xy(p, x, "y", min_points=1)
    except DataError:
        pass


@SETTINGS
@given(blob=st.binary(min_size=1, max_size=300))
def test_arbitrary_bytes_never_raise_anything_but_a_data_error(tmp_path, blob):
    p = tmp_path / "b.csv"
    p.write_bytes(blob)
    try:
        load_xy(p, "x", "y", min_points=1)
    except DataError:
        pass


def test_missing_file_is_a_data_error(tmp_path):
    _expect_data_error(load_xy, tmp_path / "nope.csv", "x", "y")
