"""Lazy imports: ``import frictionlab`` and ``frictionlab --help`` load no heavy dependency, and
every public name still resolves (issue 19). Behaviour tests on fresh processes, never on time."""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import subprocess
import sys

import pytest

import frictionlab

HEAVY = ("xarray", "pandas", "numba", "scipy", "matplotlib", "dask", "distributed")

#: packages whose ``__init__`` exports names lazily (``frictionlab.core.lazy``)
LAZY_PACKAGES = ("frictionlab", "frictionlab.core", "frictionlab.fit", "frictionlab.sweep", "frictionlab.analysis",
                 "frictionlab.laws", "frictionlab.systems", "frictionlab.solve", "frictionlab.protocols",
                 "frictionlab.export", "frictionlab.control")


def _heavy_after(code: str, heavy: tuple[str, ...] = HEAVY) -> list[str]:
    """Heavy modules (by top-level package) loaded in a fresh interpreter after running ``code``."""
    probe = (f"{code}\nimport json, sys\n"
             f"print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & set({list(heavy)!r}))))")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_import_frictionlab_loads_no_heavy_dependency():
    assert _heavy_after("import frictionlab", (*HEAVY, "numpy")) == []


def test_cli_help_loads_no_heavy_dependency():
    code = ("import contextlib, io\nfrom frictionlab.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
            "    try:\n        main(['--help'])\n    except SystemExit as e:\n        assert not e.code, e.code\n"
            "assert 'reproduce' in out.getvalue() and 'sweep' in out.getvalue(), out.getvalue()")
    assert _heavy_after(code, (*HEAVY, "numpy")) == []


@pytest.mark.parametrize("command", ["fit", "sweep", "compare", "data", "export"])
def test_command_help_loads_no_heavy_dependency(command):
    code = ("import contextlib, io\nfrom frictionlab.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    try:\n        main([{command!r}, '--help'])\n    except SystemExit as e:\n        assert not e.code\n")
    assert _heavy_after(code) == []


def test_a_public_name_imports_its_module_on_first_use():
    # ``simulate`` no longer imports xarray itself (the result types do, when built): the module is the probe
    assert "frictionlab.solve.simulate" not in _modules_after("import frictionlab")
    assert "frictionlab.solve.simulate" in _modules_after("import frictionlab\nfrictionlab.simulate")
    assert "numpy" in _heavy_after("import frictionlab\nfrictionlab.simulate", (*HEAVY, "numpy"))


@pytest.mark.parametrize("package", LAZY_PACKAGES)
def test_every_public_name_resolves(package):
    mod = importlib.import_module(package)
    for name in mod.__all__:
        value = getattr(mod, name)
        assert value is not None, name
        assert name in dir(mod)
    star: dict = {}
    exec(f"from {package} import *", star)
    assert set(mod.__all__) <= set(star)


def test_names_are_the_defining_modules_objects():
    from frictionlab.core.base import AbstractLaw
    from frictionlab.core.errors import ConfigError
    from frictionlab.solve import simulate

    assert frictionlab.simulate is simulate
    assert frictionlab.ConfigError is ConfigError and frictionlab.core.AbstractLaw is AbstractLaw
    assert frictionlab.laws.LuGre.name == "lugre"
    assert isinstance(frictionlab.citations(), (list, tuple, dict, str))


def test_submodules_are_reachable_as_attributes():
    """What the eager ``__init__``s made reachable after ``import frictionlab`` still is (imported on access)."""
    code = ("import frictionlab as fl\n"
            "assert callable(fl.solve.drivers.drivers_for) and callable(fl.core.result.make_dataset)\n"
            "assert fl.fit.rsf.__name__ == 'frictionlab.fit.rsf' and fl.protocols.base.segment_kind\n"
            "assert {'laws', 'protocols', 'systems', 'simulate'} <= set(dir(fl))")
    _heavy_after(code)


def test_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'simulat'"):
        frictionlab.simulat  # noqa: B018
    with pytest.raises(ImportError):
        exec("from frictionlab import simulat", {})


@pytest.mark.parametrize("package", LAZY_PACKAGES)
def test_a_name_shadowed_by_a_submodule_is_declared(package):
    """A lazily exported name equal to a submodule's name must be exported from that submodule
    (``analysis.steady_state``), which ``lazy_exports`` then keeps from being replaced by the module."""
    mod = importlib.import_module(package)
    subs = {m.name for m in pkgutil.iter_modules(mod.__path__)}
    for name in (set(mod.__all__) - {"laws", "protocols", "systems"}) & subs:
        assert name in mod._same_name, name


def test_importing_a_same_named_submodule_keeps_the_function():
    """``from frictionlab.analysis.steady_state import ...`` (as scenarios do) before
    ``from frictionlab.analysis import steady_state`` still gives the function, as with eager imports."""
    code = ("from frictionlab.analysis.steady_state import SteadyState\n"
            "import frictionlab.analysis.stick_slip\n"
            "from frictionlab.analysis import steady_state, stick_slip\n"
            "import frictionlab.analysis as A\n"
            "assert callable(steady_state) and callable(stick_slip) and A.stick_slip is stick_slip, (steady_state, stick_slip)\n"
            "assert steady_state.__module__ == 'frictionlab.analysis.steady_state'")
    _heavy_after(code)


def test_recorded_protocol_registered_without_fit():
    """``type = "recorded"`` works in a fresh process that never imported frictionlab.fit (it used to be
    registered only as a side effect of importing the fit package)."""
    code = ("import sys\nfrom frictionlab.protocols import make_protocol\n"
            "p = make_protocol({'type': 'recorded', 'times': [0, 1], 'velocities': [1e-6, 1e-6], 'normal_forces': [1, 1]})\n"
            "assert p.duration == 1.0 and 'frictionlab.fit' not in sys.modules")
    _heavy_after(code)


@pytest.mark.parametrize("args", [["list"], ["list", "--paper", "kloss"], ["show", "lugre"],
                                  ["show", "rate_state/granite-typical"], ["show", "rough-contact/fig4", "--quick"]])
def test_list_and_show_load_no_heavy_dependency(args, tmp_path_factory, monkeypatch):
    """Once the index is built (first call of a source tree), `list` and `show MODEL|SCENARIO` read
    it: no numpy, numba, scipy, xarray or matplotlib, and no model or scenario module."""
    cache = tmp_path_factory.getbasetemp() / "lazy-index-cache"
    monkeypatch.setenv("FRICTIONLAB_CACHE_DIR", str(cache))
    code = ("import contextlib, io, sys\nfrom frictionlab.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    try:\n        main({args!r})\n    except SystemExit as e:\n        assert not e.code, e.code\n")
    if not (cache / "catalogue").is_dir():
        _heavy_after(code)  # builds the index
    assert _heavy_after(code, (*HEAVY, "numpy")) == []
    mods = _frictionlab_modules_after(code)
    assert not [m for m in mods if m.split(".")[1] in ("laws", "contact", "scenarios", "solve", "control", "systems",
                                                        "protocols")], mods


def _frictionlab_modules_after(code: str) -> list[str]:
    """frictionlab modules loaded in a fresh interpreter after ``code``."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(m for m in sys.modules if m.startswith('frictionlab.'))))"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _modules_after(code: str) -> set[str]:
    """Every module name loaded in a fresh interpreter after running ``code``."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return set(json.loads(proc.stdout.strip().splitlines()[-1]))


#: what a contact solve never needs: the result containers, the ODE integrators, the other model
#: packages, the simulate drivers (issue 19: a fresh-process solve paid 4.9 s of imports for them)
NOT_FOR_A_CONTACT_SOLVE = ("xarray", "pandas", "matplotlib", "dask", "scipy.integrate", "scipy.optimize",
                           "frictionlab.laws", "frictionlab.control", "frictionlab.solve",
                           "frictionlab.contact.beam_network", "frictionlab.contact.microjunction",
                           "frictionlab.contact.rough.model", "frictionlab.contact.rough.driver")


def _loaded(mods: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(n for n in names if n in mods)


def test_a_contact_solve_loads_only_what_it_needs():
    code = ("import numpy as np\nfrom frictionlab.contact.rough import BoussinesqFFT, StepOperator, pk_solve, make_surface\n"
            "r = pk_solve(StepOperator(BoussinesqFFT(32, 32, periodic=True)), make_surface(32, 32, seed=1), 10.0, tol=1e-6)\n"
            "assert r.iterations > 0 and abs(float(np.sum(r.p)) - 10.0) < 1e-6")
    mods = _modules_after(code)
    assert _loaded(mods, NOT_FOR_A_CONTACT_SOLVE) == []
    # one FFT thread at this size: numpy.fft does the products, scipy.fft is not imported either
    assert _loaded(mods, ("scipy.fft", "scipy.ndimage")) == []


def test_solve_contact_in_si_units_loads_only_what_it_needs():
    code = ("from frictionlab.contact.rough import self_affine_surface, solve_contact\n"
            "h = self_affine_surface(32, 1e-6, hurst=0.8, rms_height=1e-7, seed=2)\n"
            "s = solve_contact(h, 1e-6, youngs_modulus=1e9, poisson_ratio=0.3, pressure=1e7)\n"
            "assert s.n_clusters >= 1 and 0 < s.contact_fraction < 1 and s.cluster_labels.max() == s.n_clusters")
    mods = _modules_after(code)
    assert _loaded(mods, NOT_FOR_A_CONTACT_SOLVE) == []
    # issue 19 ("fast start"): a one-shot solve up to 512^2 takes the array path (numpy.fft at one
    # thread, array labelling): neither numba nor scipy is imported
    assert _loaded(mods, ("numba", "scipy", "llvmlite")) == []
    # the compiled path: the clusters from a cached numba kernel (contact/rough/clusters.py), the
    # displacement's product from numpy.fft at one thread; numba itself imports scipy (and scipy.linalg)
    mods = _modules_after(code.replace("pressure=1e7)", "pressure=1e7, use_numba=True)"))
    assert _loaded(mods, ("numba",)) == ["numba"]
    assert _loaded(mods, ("scipy.fft", "scipy.ndimage", "scipy.special", "scipy.sparse")) == []


def test_rough_contact_modules_import_no_numba_until_a_kernel_runs():
    """The operator, solver, preconditioner and labelling modules define their kernels with
    ``core.lazy.lazy_njit``: numba is imported at the first call of one of them."""
    code = ("import frictionlab.contact.rough.physical, frictionlab.contact.rough.precond\n"
            "from frictionlab.contact.rough import solver, solver_compiled\n"
            "assert solver.pk_solve and 'not loaded' in repr(solver_compiled._nb_finish)")
    assert _loaded(_modules_after(code), ("numba", "scipy")) == []
    code += "\nimport numpy as np\nassert solver_compiled._nb_finish(np.ones(4), np.zeros(4), np.ones(4))[0] == -1.0"
    assert _loaded(_modules_after(code), ("numba",)) == ["numba"]


def test_the_drivers_of_simulate_need_no_unrelated_model_package():
    """``simulate`` of a rate-state law imports the modules declared to register drivers on its classes
    (``core.registry.declare_drivers``), not every model package."""
    code = ("from frictionlab.laws import RateState\nfrom frictionlab.solve import default_driver\n"
            "from frictionlab.systems import QuasiStaticSlider\n"
            "assert default_driver(RateState(), QuasiStaticSlider(stiffness=1e3)).name == 'quasi_static'")
    mods = _modules_after(code)
    assert _loaded(mods, ("frictionlab.contact", "frictionlab.scenarios", "frictionlab.fit")) == []
    # the default found on the model's own class: the generic drivers' modules are not needed
    assert _loaded(mods, ("frictionlab.solve.law_drivers", "frictionlab.control")) == []
    code = ("from frictionlab.laws import RateState\nfrom frictionlab.solve import drivers_for\n"
            "assert {'quasi_static', 'rk4', 'servo'} <= set(drivers_for(RateState()))")
    assert "frictionlab.control.driver" in _modules_after(code)  # the servo driver serves every rate law


#: what a process's first rate-and-state ``quasi_static`` run never needs (issue 19: a fresh process paid
#: about 1.2 s of imports for them): the Dataset stack, numba (a first short run interprets the kernels of
#: ``laws/rate_state_qs_kernels.py``), scipy (``scipy.integrate`` alone took ~1 s of a 1.3 s process), the
#: generic drivers
NOT_FOR_A_QUASI_STATIC_RUN = ("xarray", "pandas", "dask", "numba", "llvmlite", "matplotlib", "scipy",
                              "frictionlab.protocols.cyclic",
                              "frictionlab.solve.law_drivers", "frictionlab.control", "frictionlab.core.jitcache",
                              "frictionlab.laws.rate_state_kernels", "frictionlab.systems.kernels",
                              "frictionlab.systems.mass", "frictionlab.laws.lugre")


def test_a_rate_state_quasi_static_run_loads_only_what_it_needs():
    """The fresh-process RSF velocity step of ``bench_fresh`` (vs rsfmodel) imports numpy and the
    frictionlab modules of its path only; reading a result column (``ds.friction_coefficient.values``)
    imports no xarray; the result becomes a Dataset on any other use."""
    for how in ("integrator='quasi_static', ", ""):  # named, or the default driver found on RateState itself
        code = ("import json, sys\nfrom frictionlab.laws import RateState\nfrom frictionlab.protocols import VelocitySteps\n"
                "from frictionlab.solve import simulate\nfrom frictionlab.systems import QuasiStaticSlider\n"
                "ds = simulate(RateState(a=0.005, b=0.01), VelocitySteps(velocities=(1e-6, 1e-5), durations=(1.0, 2.0)),\n"
                f"              system=QuasiStaticSlider(stiffness=1e3), {how}save_dt=0.01)\n"
                "mu = ds.friction_coefficient.values\nassert mu.shape == (301,) and ds.slip_velocity.values[0] > 0\n"
                "print(json.dumps(sorted(sys.modules)))\n"
                "import xarray\nassert isinstance(ds, xarray.Dataset) and ds.attrs['integrator'] == 'quasi_static'\n"
                "assert ds.sizes['time'] == 301 and abs(float(ds.slip_velocity[0]) - 1e-6) < 1e-12\n"
                "assert float(ds.slip_velocity[-1]) > 2e-6")
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
        assert proc.returncode == 0, proc.stderr
        mods = set(json.loads(proc.stdout.strip().splitlines()[-1]))
        assert _loaded(mods, NOT_FOR_A_QUASI_STATIC_RUN) == [], how
        assert {"numpy", "frictionlab.laws.rate_state_qs_kernels", "frictionlab.laws.rate_state_drivers"} <= mods


def test_the_protocol_registry_is_complete_however_few_modules_were_imported():
    """``frictionlab.protocols`` exports lazily; a lookup by name still sees every protocol."""
    code = ("from frictionlab.protocols.base import _PROTOCOLS, make_protocol, protocol_names\n"
            "import sys\nassert 'frictionlab.protocols.cyclic' not in sys.modules\n"
            "assert 'sinusoidal' in _PROTOCOLS and make_protocol({'type': 'position_steps', 'positions': [0.0, 1e-6],"
            " 'times': [0.0, 1.0]}).type_name == 'position_steps'\n"
            "assert {'velocity_steps', 'recorded', 'pulsating_threshold'} <= set(protocol_names())")
    _modules_after(code)


#: what a process's first ``simulate`` of a rate law on the compiled fixed-step loops never needs while it
#: reads result values (issue 32: 4.5 s for a first LuGre simulate; the servo driver's module imported
#: xarray and the closed loop at every lookup of the generic drivers, and the Dataset built at once
#: imported xarray, pandas and dask.array); the servo's package (its driver is declared by
#: ``control/servo.py``: a run without a servo system never looks it up)
NOT_FOR_A_FIRST_LAW_RUN = ("xarray", "pandas", "dask", "matplotlib", "scipy.integrate", "scipy.optimize",
                           "frictionlab.control", "frictionlab.contact",
                           "frictionlab.scenarios", "frictionlab.fit", "frictionlab.laws.gms", "frictionlab.laws.dahl")


def _last_json(code: str) -> object:
    """The JSON printed on the last line by ``code`` run in a fresh interpreter."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("model", ["fl.laws.LuGre()", "fl.make_model('kloss')"])
def test_a_first_simulate_read_by_value_loads_only_what_it_needs(model):
    """``float(ds.friction_force[-1])``, ``ds.slip.values`` and a formatted value of a first ``simulate``
    (``frictionlab bench startup``) import no xarray, pandas or dask; ``make_model`` imports that model's
    module only (``core.registry.MODEL_MODULES``). Using the result as a Dataset builds it: xarray, but
    still no dask.array (``core/dask_probe.py``)."""
    code = ("import json, sys\nimport frictionlab as fl\n"
            f"ds = fl.simulate({model}, fl.protocols.ConstantVelocity(v=1e-3, duration_s=0.1), dt=1e-4)\n"
            "f = float(ds.friction_force[-1])\nassert ds.slip.values.shape == (1001,) and f > 0\n"
            "assert f'{ds.friction_force[-1]:.6e}' == f'{f:.6e}'\n"
            "print(json.dumps(sorted(sys.modules)))\n"
            "import xarray\nassert isinstance(ds, xarray.Dataset) and float(ds.friction_force.isel(time=-1)) == f\n")
    mods = set(_last_json(code))
    assert _loaded(mods, NOT_FOR_A_FIRST_LAW_RUN) == []
    assert {"numpy", "numba", "frictionlab.solve.law_drivers"} <= mods
    mods = _modules_after(code.replace("print(json.dumps(sorted(sys.modules)))\n", "")
                          + "assert float(ds.slip.mean()) > 0\n")
    assert "xarray" in mods and _loaded(mods, ("dask.array", "matplotlib")) == []


def test_the_model_modules_table_is_what_discovery_registers():
    """``core.registry.MODEL_MODULES`` names, for every model, each module that registers it or adds
    its presets (recorded during a full ``discover()``), and a lookup by name sees the same class and
    presets as after a full discovery."""
    code = ("import json, sys\nimport frictionlab.core.registry as R\n"
            "seen = {}\norig_reg, orig_add = R.register_model, R.add_presets\n"
            "def reg(cls):\n    seen.setdefault(cls.name, set()).add(cls.__module__)\n    return orig_reg(cls)\n"
            "def add(name, presets):\n    seen.setdefault(name, set()).add(sys._getframe(1).f_globals['__name__'])\n"
            "    return orig_add(name, presets)\n"
            "R.register_model, R.add_presets = reg, add\nR.discover()\n"
            "print(json.dumps({k: sorted(v) for k, v in seen.items()}))")
    seen = _last_json(code)
    from frictionlab.core.registry import MODEL_MODULES

    assert {k: sorted(v) for k, v in MODEL_MODULES.items()} == seen
    lookups = ("import json\nfrom frictionlab.core.registry import presets_of, get_model_class\n"
               "out = {n: [get_model_class(n).__module__, sorted(presets_of(n))] for n in %r}\n"
               "from frictionlab.core import registry\nassert not registry._DISCOVERED\n"
               "print(json.dumps(out))" % sorted(seen))
    from frictionlab.core.registry import get_model_class, presets_of

    assert _last_json(lookups) == {
        n: [get_model_class(n).__module__, sorted(presets_of(n))] for n in seen}
