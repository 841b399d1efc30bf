"""Shared helpers of the ``rough-contact/*`` scenarios (surfaces, models, decade metrics)."""

from __future__ import annotations

from typing import Any

import numpy as np
import xarray as xr

from ...contact.rough.model import RoughContact, load_from_pressure, run_static
from ...contact.rough.surface import make_surface
from ...core.errors import ConfigError
from ...core.registry import make_model

SURFACE = {"n": 512, "sigma": 1.0, "beta": 10.0, "acf": "gaussian", "seed": 0}
MODEL = {"name": "rough_contact", "preset": "table1"}


def build_model(cfg: dict[str, Any], **over: Any) -> RoughContact:
    m = dict(cfg["model"])
    m.pop("name", None)
    preset = m.pop("preset", None)
    m.update(over)
    return make_model("rough_contact", preset, **m)


def surface(cfg: dict[str, Any], seed: int | None = None, n: int | None = None) -> np.ndarray:
    s = cfg["surface"]
    n = int(n or s["n"])
    return make_surface(n, n, sigma=s["sigma"], beta_x=s["beta"], acf=s["acf"],
                        seed=int(s["seed"] if seed is None else seed))


def hold(cfg: dict[str, Any], model: RoughContact, h: np.ndarray, t_end: float, **kw: Any) -> xr.Dataset:
    n = h.shape[0]
    W = load_from_pressure(cfg["protocol"]["pressure_MPa"] * 1e6, n, n, model.dx)
    return run_static(model, h, W, t_end=t_end, per_decade=static_steps(cfg), **kw)


def static_steps(cfg: dict[str, Any]) -> int:
    """``[integrator] per_decade``, the log-spaced steps per decade of a static hold (as the
    ``"hold"`` driver of :func:`frictionlab.simulate`); any other integrator key is refused."""
    integ = dict(cfg["integrator"])
    unknown = sorted(set(integ) - {"per_decade"})
    if unknown:
        raise ConfigError(f"the rough-contact static-hold scenarios step log-spaced in time and take the integrator "
                          f"key per_decade only; got {', '.join(unknown)}")
    return int(integ["per_decade"])


def value_at(ds: xr.Dataset, var: str, t: float) -> float:
    """Value at the first recorded time >= t."""
    tt = ds.time.values
    i = min(int(np.searchsorted(tt, t * (1 - 1e-9))), len(tt) - 1)
    return float(ds[var].values[i])


def growth_span_decades(t: np.ndarray, mu: np.ndarray, lo: float = 0.02, hi: float = 0.98) -> float:
    """Decades of log-time between ``lo`` and ``hi`` fractions of the total growth of ``mu``
    (t = 0 excluded); linear interpolation in log t."""
    sel = t > 0
    t, mu = t[sel], mu[sel]
    f = (mu - mu[0]) / (mu[-1] - mu[0]) if mu[-1] != mu[0] else np.zeros_like(mu)
    lt = np.log10(t)
    fm = np.maximum.accumulate(f)
    return float(np.interp(hi, fm, lt) - np.interp(lo, fm, lt))


def monotone(x: np.ndarray, sign: int, rtol: float = 1e-9) -> bool:
    dx = np.diff(x) * sign
    return bool(np.all(dx >= -rtol * np.max(np.abs(x))))


def growth_fraction(t: np.ndarray, mu: np.ndarray, t_lo: float, t_hi: float) -> float:
    """Fraction of the total growth of ``mu`` (from t=0+ to the end) that happens in [t_lo, t_hi]."""
    total = mu[-1] - mu[0]
    if total == 0:
        return 0.0
    return float((np.interp(t_hi, t, mu) - np.interp(t_lo, t, mu)) / total)


#: ``parallel`` section of the long rough-contact scenarios: independent runs (velocities,
#: material sets, interactions) go to ``workers`` processes; each process uses one FFT thread
PARALLEL = {"workers": 1}


def _one_fft_thread() -> None:
    """Worker initialiser: ``fft_workers = 0`` (auto) means one FFT thread in every process,
    so that ``workers`` processes use ``workers`` cores."""
    from ...contact.rough import elasticity

    elasticity.FFT_THREAD_CROSSOVER = 1 << 62


def run_parallel(fn: Any, tasks: list[tuple], cfg: dict[str, Any]) -> list[Any]:
    """``[fn(*t) for t in tasks]``, over ``cfg["parallel"]["workers"]`` forked processes when > 1.

    ``fn`` must be a module-level function (it is pickled by reference); results come back in
    task order. The processes use one FFT thread each (``fft_workers = 0``, auto). Each run is independent and deterministic, so the results equal the serial ones.
    """
    from ...core.errors import ConfigError

    w = cfg.get("parallel", {}).get("workers", 1)
    if isinstance(w, bool) or not isinstance(w, int) or w < 1:
        raise ConfigError(f"parallel.workers = {w!r} must be a positive integer")
    if w == 1 or len(tasks) <= 1:
        return [fn(*t) for t in tasks]
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=min(w, len(tasks)), mp_context=mp.get_context("fork"),
                             initializer=_one_fft_thread) as ex:
        futs = [ex.submit(fn, *t) for t in tasks]
        return [f.result() for f in futs]
