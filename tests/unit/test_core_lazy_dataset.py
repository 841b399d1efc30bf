"""``LazyDataset``: a driver result that becomes the ``make_dataset`` Dataset on first use (issue 19)
and acts as it; ``KernelRef``: a class attribute naming a kernel imported on first read;
``lazy_njit``: a module's kernels built at the first use of one."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
import xarray as xr

from frictionlab.core.result import LazyDataset, make_dataset, write_csv

T = np.linspace(0.0, 1.0, 5)
DATA = {"slip": T * 2e-6, "slip_velocity": np.full(5, 2e-6), "state_theta": T + 1.0}
UNITS = {"state_theta": "s"}
ATTRS = {"model": "rate_state", "rtol": 1e-9, "flag": True}


def _lazy() -> LazyDataset:
    return LazyDataset(T, DATA, units=UNITS, attrs=ATTRS)


def test_it_is_the_dataset_make_dataset_builds():
    ds = _lazy()
    assert isinstance(ds, xr.Dataset)
    xr.testing.assert_identical(ds.to_dataset(), make_dataset(T, DATA, units=UNITS, attrs=ATTRS))
    assert ds.to_dataset() is ds.to_dataset()  # built once


def test_attribute_item_and_container_access_forward():
    ds = _lazy()
    assert float(ds.slip[-1]) == 2e-6 and ds["state_theta"].attrs["units"] == "s"
    assert ds.attrs["flag"] == "True" and ds.sizes["time"] == 5
    assert "slip" in ds and "friction_force" not in ds
    assert sorted(ds) == sorted(DATA) and len(ds) == 3
    assert float(ds.sel(time=0.5, method="nearest").slip) == pytest.approx(1e-6)
    assert "slip_velocity" in repr(ds) and "slip_velocity" in dir(ds)
    ds["slip2"] = ("time", 2 * DATA["slip"], {"units": "m"})
    assert float(ds.to_dataset().slip2[-1]) == 4e-6
    del ds["slip2"]
    assert "slip2" not in ds.to_dataset()


def test_copies_and_pickles_are_plain_datasets():
    ds = _lazy()
    for other in (pickle.loads(pickle.dumps(ds)), copy.deepcopy(ds), copy.copy(ds)):
        assert type(other) is xr.Dataset
        xr.testing.assert_identical(other, ds.to_dataset())


def test_writers_take_it(tmp_path):
    out = write_csv(_lazy(), tmp_path / "r.csv")
    assert out.read_text().splitlines()[0].startswith("time [s]")


def test_a_variable_without_units_is_refused_when_made():
    with pytest.raises(KeyError, match="no units known for result variable 'mystery'"):
        LazyDataset(T, {"mystery": T})


def test_kernel_refs_resolve_to_the_compiled_kernels():
    from frictionlab.laws import RateState
    from frictionlab.laws import rate_state_kernels
    from frictionlab.systems import QuasiStaticSlider
    from frictionlab.systems import kernels

    assert RateState._rates_kernel is rate_state_kernels._rates
    assert RateState.kernels() == (rate_state_kernels._rates, rate_state_kernels._friction)
    assert QuasiStaticSlider._rhs_kernel is kernels.quasi_static_rhs
    law = RateState()
    assert law.friction(0.0, np.array([law.dc / 1e-6]), 1e-6, 2.0) == pytest.approx(2.0 * law.mu0)


_LAZY_MODULE = '''
from frictionlab.core.lazy import lazy_njit

@lazy_njit(cache=False)
def inner(x):
    return 2.0 * x

@lazy_njit(cache=False)
def outer(x):
    return inner(x) + 1.0

@lazy_njit(cache=False)
def other(x):
    return x - 1.0
'''


def test_lazy_njit_builds_the_module_kernels_at_first_use(tmp_path, monkeypatch):
    """``lazy_njit``: placeholders until a kernel of the module is used; then every kernel of the
    module is a numba dispatcher in its namespace (a compiled caller finds its callee), except a
    name that was rebound meanwhile (a test's monkeypatch), which is left as it is."""
    import importlib
    import sys

    from frictionlab.core.lazy import LazyKernel, lazy_njit

    (tmp_path / "lazy_kernels_probe.py").write_text(_LAZY_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    mod = importlib.import_module("lazy_kernels_probe")
    try:
        assert isinstance(mod.outer, LazyKernel) and "not loaded" in repr(mod.outer)
        placeholder = mod.other
        monkeypatch.setattr(mod, "other", lambda x: "patched")
        assert mod.outer(3.0) == 7.0  # compiles outer, which calls inner as a dispatcher
        assert not isinstance(mod.inner, LazyKernel) and mod.inner.py_func.__name__ == "inner"
        assert mod.other(1.0) == "patched" and placeholder(1.0) == 0.0
        assert placeholder.py_func.__name__ == "other" and "built" in repr(placeholder)
    finally:
        sys.modules.pop("lazy_kernels_probe", None)
    with pytest.raises(TypeError, match="module-level"):
        def factory():
            @lazy_njit()
            def closure(x):
                return x
        factory()


def test_a_variable_read_before_the_dataset_is_the_dataarray():
    """``ds.slip`` of an unbuilt result reads the driver's array (``.values`` builds nothing) and is the
    DataArray for everything else: attributes, arithmetic, ufuncs, indexing, in-place changes."""
    from frictionlab.core.result import LazyVariable

    ds = _lazy()
    v = ds.slip
    assert type(v) is LazyVariable and v.values is DATA["slip"] and object.__getattribute__(ds, "_ds") is None
    assert np.asarray(ds["slip_velocity"]) is DATA["slip_velocity"] and len(v) == 5 and v.shape == (5,)
    assert np.array_equal(ds.time.values, T) and object.__getattribute__(ds, "_ds") is None
    ref = make_dataset(T, DATA, units=UNITS, attrs=ATTRS)
    assert isinstance(v, xr.DataArray) and v.attrs["units"] == "m"  # builds the Dataset
    xr.testing.assert_identical(ds.slip - ds.slip_velocity * 2, ref.slip - ref.slip_velocity * 2)
    xr.testing.assert_identical(np.abs(-v), np.abs(-ref.slip))
    assert float(v[-1]) == 2e-6 and float(v.sel(time=0.5, method="nearest")) == pytest.approx(1e-6)
    xr.testing.assert_identical(pickle.loads(pickle.dumps(v)), ref.slip)
    v += 1.0  # in place, as on the DataArray: the Dataset's variable changes
    assert float(ds.to_dataset().slip[0]) == 1.0


def test_a_variable_read_early_follows_the_dataset_once_built():
    ds = _lazy()
    v = ds.slip
    ds["slip"] = ("time", np.ones(5), {"units": "m"})  # builds and replaces the variable
    assert np.array_equal(v.values, np.ones(5))


def test_a_positional_selection_is_read_without_the_dataset():
    """``float(ds.friction_force[-1])``, ``ds.slip[1:3].values``, ``f"{ds.slip[-1]:.3g}"`` and ``.item()``
    answer from the driver's array as the DataArray would (issue 32: a first simulate whose result is
    read that way imports no xarray); anything else about the selection is the DataArray's selection."""
    from frictionlab.core.result import LazyVariable

    data = {"slip": T * 2e-6, "slip_velocity": np.full(5, 2e-6), "state_theta": T + 1.0}  # DATA as made (a test
    # above changes its arrays in place)
    ds = LazyDataset(T, data, units=UNITS, attrs=ATTRS)
    ref = make_dataset(T, {k: v.copy() for k, v in data.items()}, units=UNITS, attrs=ATTRS)
    last, part = ds.slip[-1], ds.state_theta[1:4:2]
    assert type(last) is LazyVariable and type(part) is LazyVariable
    assert float(last) == float(ref.slip[-1]) == 2e-6 and int(ds.state_theta[-1]) == 2 and bool(ds.slip[0]) is False
    assert complex(last) == complex(ref.slip[-1]) and last.item() == ref.slip[-1].item()
    assert f"{last:.3g}" == f"{ref.slip[-1]:.3g}" == "2e-06"
    assert last.values.shape == () and type(last.values) is np.ndarray  # a 0-d array, as the DataArray's values
    assert np.array_equal(part.values, ref.state_theta[1:4:2].values) and part.shape == (2,) and len(part) == 2
    assert np.shares_memory(part.values, data["state_theta"])  # a view, as the DataArray's selection
    assert ds.slip[np.int64(2)].item() == 1e-6 and last.name == "slip"
    with pytest.raises(IndexError):
        ds.slip[5]
    with pytest.raises(TypeError):
        len(last)
    assert object.__getattribute__(ds, "_ds") is None  # nothing above built the Dataset
    xr.testing.assert_identical(last.to_dataarray(), ref.slip[-1])  # the time coordinate of the selection
    assert last.attrs["units"] == "m" and float(last.time) == 1.0
    xr.testing.assert_identical(part * 2, ref.state_theta[1:4:2] * 2)
    with pytest.raises(NotImplementedError):  # a format spec on an array: the DataArray's refusal
        f"{part:.3g}"
    # other keys (labels, boolean masks, a selection of a selection) are the DataArray's
    xr.testing.assert_identical(ds.slip[[0, 2]], ref.slip[[0, 2]])
    xr.testing.assert_identical(part[1], ref.state_theta[1:4:2][1])


def test_wrapping_arrays_imports_no_dask_array_and_dask_still_works():
    """``make_dataset`` keeps xarray from importing dask.array to ask whether an array is a dask one
    (``core/dask_probe.py``); a dask array given later, and ``.chunk()``, are dask as before."""
    code = ("import sys, numpy as np\nfrom frictionlab.core.result import make_dataset\n"
            "ds = make_dataset(np.arange(4.0), {'slip': np.arange(4.0)})\n"
            "assert float(ds.slip.mean()) == 1.5 and ds.sel(time=slice(1, 2)).sizes['time'] == 2\n"
            "assert 'dask.array' not in sys.modules, 'dask.array imported'\n"
            "import dask.array as da, xarray as xr\n"
            "assert type(ds.chunk({'time': 2}).slip.data) is da.Array\n"
            "d = xr.Dataset({'a': ('x', da.ones(4, chunks=2))})\n"
            "assert type(d.a.data) is da.Array and float(d.a.sum()) == 4.0\n"
            "from xarray.namedarray.pycompat import array_type, mod_version\n"
            "assert array_type('dask') == (da.Array,) and str(mod_version('dask')) == __import__('dask').__version__\n")
    import os
    import subprocess
    import sys

    pytest.importorskip("dask.array")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
