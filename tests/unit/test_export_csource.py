"""The C twins of the law kernels (frictionlab.laws.c_kernels), compiled and called through ctypes,
equal the numba kernels at random states and inputs; the layout rebuilds every param_vector."""

import ctypes
import subprocess

import numpy as np
import pytest

from frictionlab.core.base import AbstractLaw
from frictionlab.core.errors import ConfigError
from frictionlab.core.registry import discover, get_model_class, make_model, model_names
from frictionlab.export.csource import c_source
from frictionlab.export.fmu import find_compiler
from frictionlab.export.layout import param_entries
from frictionlab.laws.c_kernels import C_KERNELS, REFUSED

CC = find_compiler()
needs_cc = pytest.mark.skipif(CC is None, reason="no C compiler (cc, gcc or $CC) on this machine")

# every option branch of every law with a C form
VARIANTS = [
    ("lugre", "canudas1995", {}), ("lugre", None, {"delta": 1.5, "normal_scaling": True}),
    ("gms", "four-element", {}), ("gms", "single-element", {"normal_scaling": True}),
    ("dahl", "unit", {}), ("dahl", None, {"alpha": 0.7, "normal_scaling": True}),
    ("rate_state", "granite-typical", {}), ("rate_state", None, {"law": "slip"}),
    ("rate_state", None, {"form": "arcsinh"}), ("rate_state", None, {"law": "slip", "form": "arcsinh"}),
    ("rate_state2", None, {}), ("rate_state2", None, {"law": "slip", "b2": -0.003}),
    ("kloss_dynamic", None, {}), ("kloss_dynamic", None, {"normal_scaling": True, "zeta": 1.2}),
    ("kloss", None, {}), ("kloss", None, {"normal_scaling": True}),
    ("coulomb", None, {"v_reg": 0.0}), ("coulomb", "steel-steel-dry", {}),
    ("stribeck", "canudas1995", {}), ("stribeck", "canudas1995-regularised", {"normal_scaling": True,
                                                                               "viscous_exponent": 0.6}),
]


def test_every_rate_law_has_a_c_form_or_a_reason():
    discover()
    laws = {n for n in model_names() if issubclass(get_model_class(n), AbstractLaw)}
    assert laws == set(C_KERNELS) | set(REFUSED), "a new rate law needs a C form (laws/c_kernels.py) or a reason"
    assert not set(C_KERNELS) & set(REFUSED)


@pytest.mark.parametrize("name,preset,kw", VARIANTS)
def test_layout_rebuilds_param_vector(name, preset, kw):
    m = make_model(name, preset, **kw)
    entries = param_entries(m)
    assert [e.value for e in entries] == m.param_vector().tolist()
    tunable = {e.name for e in entries if e.tunable}
    # every tunable entry carries the units the parameter declares
    for e in entries:
        if e.tunable:
            assert e.units == type(m).units()[e.name.split("[")[0]]
    assert tunable  # every law has numbers to tune


def test_refused_laws_name_their_reason():
    with pytest.raises(ConfigError, match="subloading"):
        c_source(make_model("subloading_rate", "common"))
    with pytest.raises(ConfigError, match="not a rate law"):
        c_source(make_model("subloading", "common"))


def _inputs(m, rng, n=200):
    """Random (state, v, fn) around the law's steady states: both signs, v = 0, tiny and large speeds."""
    v0 = float(m.typical_inputs["v"])
    out = []
    for k in range(n):
        v = 0.0 if k % 17 == 0 else float(rng.choice([-1, 1]) * v0 * 10 ** rng.uniform(-3, 2))
        fn = float(rng.uniform(0.2, 5.0))
        ss = m._steady_state(v if v else v0, fn)
        if name_is_rsf(m):
            x = ss * 10 ** rng.uniform(-2, 2, ss.size)
        else:
            x = ss * rng.uniform(-1.5, 1.5, ss.size)
        out.append((np.ascontiguousarray(x, dtype=float), v, fn))
    return out


def name_is_rsf(m):
    return m.name.startswith("rate_state")


@needs_cc
def test_c_kernels_equal_the_numba_kernels(tmp_path):
    rng = np.random.default_rng(7)
    dp = ctypes.POINTER(ctypes.c_double)
    worst = 0.0
    for i, (name, preset, kw) in enumerate(VARIANTS):
        m = make_model(name, preset, **kw)
        ident = f"law{i}"
        for fname, text in c_source(m, ident).items():
            (tmp_path / fname).write_text(text)
        lib = tmp_path / f"{ident}.so"
        subprocess.run([CC, "-std=c99", "-O2", "-shared", "-fPIC", "-o", str(lib), str(tmp_path / f"{ident}.c"), "-lm"],
                       check=True)
        so = ctypes.CDLL(str(lib))
        rates, friction = getattr(so, f"{ident}_rates"), getattr(so, f"{ident}_friction")
        rates.argtypes = [dp, ctypes.c_double, ctypes.c_double, dp, dp]
        friction.argtypes = [dp, ctypes.c_double, ctypes.c_double, dp]
        friction.restype = ctypes.c_double
        p = m.param_vector()
        nr, nf = m.kernels()
        nx = len(m.state_names)
        for x, v, fn in _inputs(m, rng):
            xs = x if nx else np.zeros(1)
            dc, dn = np.zeros(max(nx, 1)), np.zeros(max(nx, 1))
            rates(xs.ctypes.data_as(dp), v, fn, p.ctypes.data_as(dp), dc.ctypes.data_as(dp))
            fc = friction(xs.ctypes.data_as(dp), v, fn, p.ctypes.data_as(dp))
            if nx:
                nr(x, v, fn, p, dn)
            f_ref = nf(x, v, fn, p)
            scale_f = max(abs(f_ref), 1e-300)
            assert fc == pytest.approx(f_ref, rel=1e-12, abs=1e-300), (name, kw, x, v, fn)
            worst = max(worst, abs(fc - f_ref) / scale_f)
            for a, b in zip(dc[:nx], dn[:nx]):
                assert a == pytest.approx(b, rel=1e-12, abs=1e-12 * max(np.abs(dn[:nx]).max(), 1e-300)), \
                    (name, kw, x, v, fn)
    assert worst < 1e-12
