r"""Shared study, post step and checks of the ``classic/compare-*`` scenarios (one protocol through every model).

Each is a study of generated runs (:attr:`~frictionlab.scenarios.base.Scenario.runs_from`): one
named run per model of ``analysis.models`` (``["all"]``: every registered model), the run
:func:`frictionlab.analysis.compare.compare` makes of it (:func:`~frictionlab.analysis.compare.run_table`,
from the one table of per-model settings ``SETUPS``); a ``runs.MODEL`` table of the config changes
that model's run. A model that cannot take the protocol is recorded, not fatal (``failures =
"record"``): its row keeps the error. The post step is :func:`~frictionlab.analysis.compare.assemble`,
the same measurements and RSF fit as ``frictionlab compare``. The checks compare each model's
measured response with its own closed forms (of the model as its run ran it) and with what each
scenario states about the models (which are rate strengthening, which heal during holds).
"""

from __future__ import annotations

import copy
import functools
import math
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import numpy as np
import xarray as xr

from ...core.errors import ConfigError
from ..base import Scenario, check, register_scenario

__all__ = ["runs_from_config", "post", "requested_models", "model_coverage_check", "rsf_recovery_checks",
           "steady_checks", "direct_effect_checks", "healing_checks", "plot", "ANALYSIS", "QUICK", "MOVED",
           "register_compare", "common_checks"]

#: the ``[analysis]`` of both scenarios: the models compared (a list of names; ``["all"]``: every registered model), the
#: column of the per-model settings their runs take (:data:`frictionlab.analysis.compare.SETUPS`:
#: fixed steps, ensemble and patch sizes; ``"quick"`` or ``"full"``), the common time grid and the RSF fit
ANALYSIS = {"models": ["all"], "profile": "full", "fit": {"law": "aging", "noise": 1e-4, "seed": 0}}
#: the quick profile: the quick column of the per-model settings, a coarser common grid
QUICK = {"analysis.profile": "quick"}
#: where the keys of the hand-written run went
MOVED = {"models": "analysis.models", "law": "analysis.fit.law", "fit_noise": "analysis.fit.noise",
         "seed": "analysis.fit.seed", "n_grid": "analysis.n_grid"}


def requested_models(cfg: dict) -> list[str]:
    """``analysis.models``: a list of registered names, or ``["all"]`` (every registered model); an
    unknown name is a :class:`~frictionlab.core.errors.ConfigError` with a suggestion."""
    from ...analysis.compare import model_list

    return model_list(cfg["analysis"]["models"])


def _quick(cfg: dict) -> bool:
    profile = cfg["analysis"]["profile"]
    if profile not in ("quick", "full"):
        raise ConfigError(f"analysis.profile = {profile!r}: 'quick' or 'full' (the column of the per-model "
                          "settings, frictionlab.analysis.compare.SETUPS)")
    return profile == "quick"


def runs_from_config(cfg: dict, names: list[str] | None = None) -> dict[str, dict]:
    """One named run per model of ``analysis.models`` (or ``names``; its label the model's name): the run
    :func:`frictionlab.analysis.compare.compare` makes of it (:func:`~frictionlab.analysis.compare.run_table`:
    the model's preset and parameters, its driver and step, a stress-based model's normal stress)."""
    from ...analysis.compare import check_law, run_table
    from ...protocols import make_protocol

    check_law(cfg["analysis"]["fit"]["law"])
    protocol, quick = make_protocol(cfg["protocol"]), _quick(cfg)
    return {name: run_table(name, protocol, quick) for name in (requested_models(cfg) if names is None else names)}


def post(result: Any, cfg: dict) -> xr.Dataset:
    """The comparison Dataset (:func:`frictionlab.analysis.compare.assemble`) of the study's runs, a model
    whose run failed kept as a row with its error (the study records failures: ``failures="record"``)."""
    from ...analysis.compare import Outcome, assemble
    from ...protocols import make_protocol
    from ...solve.config import build

    outcomes = []
    for name in requested_models(cfg):
        failed = result.failure(name)
        if failed is not None:  # the row names the model: its status is the error as raised
            outcomes.append(Outcome(name, None, f"{type(failed.cause).__name__}: {failed.cause}"))
        else:  # the model and protocol of the run as it ran (the expectations are the model's own)
            model, protocol = build(result.point(name).config)[:2]
            outcomes.append(Outcome(name, result.pick(name), seconds=result.seconds_of(name), model=model,
                                    protocol=protocol))
    fit = cfg["analysis"]["fit"]
    return assemble(make_protocol(cfg["protocol"]), outcomes, _quick(cfg), law=fit["law"],
                    n_grid=int(cfg["analysis"]["n_grid"]), fit_noise=float(fit["noise"]), seed=int(fit["seed"]))


def register_compare(name: str, description: str, protocol: dict, checks: Any, title: str, n_grid: int,
                     quick_grid: int, references: list[str]) -> Scenario:
    """Register a ``classic/compare-*`` scenario: ``protocol`` through every model, as a study of
    generated runs (:func:`runs_from_config`) that records the runs that fail."""
    return register_scenario(Scenario(
        name=name, description=description,
        config={"protocol": protocol, "analysis": {**copy.deepcopy(ANALYSIS), "n_grid": n_grid}},
        runs_from=runs_from_config, failures="record", post=post, checks=checks,
        plot=functools.partial(plot, title=title), quick={**QUICK, "analysis.n_grid": quick_grid}, moved=dict(MOVED),
        references=references,
    ))


def plot(ds: xr.Dataset, title: str):
    from ...analysis.compare import format_table
    from ...plot.compare import plot_compare

    return plot_compare(ds, title=title, table=format_table(ds))


def _row(ds: xr.Dataset, name: str) -> int | None:
    names = [str(m) for m in ds.model.values]
    return names.index(name) if name in names else None


def _run_config(cfg: dict, name: str) -> dict:
    """The full config of model ``name``'s run: its generated run with the config's own ``runs.NAME`` over it."""
    from ...solve.study import merge_run, over_generated

    tables = over_generated(runs_from_config(cfg, [name]), {k: v for k, v in (cfg.get("runs") or {}).items()
                                                           if k == name})
    return merge_run({"protocol": cfg["protocol"]}, tables[name])


def _rate_state(cfg: dict) -> Any:
    """The ``rate_state`` model exactly as its run ran it."""
    from ...solve.config import build

    return build(_run_config(cfg, "rate_state"))[0]


# The comparison scenarios run one protocol through every model with each model's own parameters: no paper
# states these runs, so their checks are verification (each model against its own closed forms, the fit
# recovering the rate_state model) or extension (qualitative properties across models).


def common_checks(ds: xr.Dataset, cfg: dict) -> list:
    """The checks of both scenarios: no model dropped, and the RSF fit recovering the rate_state model."""
    return [model_coverage_check(ds, requested_models(cfg)), *rsf_recovery_checks(ds, cfg)]


def model_coverage_check(ds: xr.Dataset, requested: Sequence[str]):
    """Every requested model appears in the result, run or with the reason it could not run."""
    names = [str(m) for m in ds.model.values]
    ok = [n for n, s in zip(names, ds.status.values) if s == "ok"]
    failed = [f"{n} ({str(s).removeprefix('failed: ')})" for n, s in zip(names, ds.status.values) if s != "ok"]
    passed = sorted(names) == sorted(requested) and all(str(s) for s in ds.status.values)
    return check("every requested model is run or reported with the reason it failed (none dropped)",
                 f"{len(requested)} models", f"{len(ok)} ran; not run: {'; '.join(failed) or 'none'}", passed,
                 kind="verification")


def rsf_recovery_checks(ds: xr.Dataset, cfg: dict) -> list:
    """The RSF law fitted to the ``rate_state`` model recovers its own a, b, D_c within 3 standard errors."""
    i = _row(ds, "rate_state")
    if i is None:
        return []
    truth = _rate_state(cfg)
    out = []
    for k in ("a", "b", "dc"):
        val, se = float(ds[f"rsf_{k}"].values[i]), float(ds[f"rsf_{k}_stderr"].values[i])
        if not math.isfinite(val):
            out.append(check(f"RSF fit to the rate_state model: {k} not identifiable from this protocol "
                             "(single sliding velocity), held fixed", "fixed (n/a)", "fixed", True, kind="verification"))
            continue
        exp = float(getattr(truth, k))
        err = abs(val - exp)
        out.append(check(f"RSF fit to the rate_state model recovers its own {k} within 3 standard errors",
                         f"{exp:.6g} ± 3 SE", f"{val:.8g} ± {se:.2g} (|err| = {err:.2g})", err <= 3.0 * se,
                         kind="verification"))
    return out


def steady_checks(ds: xr.Dataset, rtol: float = 1e-3) -> list:
    """Friction at the end of the post-step segment equals the model's own steady-state curve."""
    out = []
    for i, m in enumerate(ds.model.values):
        exp = float(ds.steady_expected.values[i])
        if ds.status.values[i] != "ok" or not math.isfinite(exp):
            continue
        got = float(ds.steady_after_step.values[i])
        out.append(check(f"{m}: friction at the end of the {ds.attrs['v_after']:g} m/s segment = its steady-state "
                         "curve", f"{exp:.6f} (rel {rtol:g})", got, abs(got - exp) <= rtol * max(abs(exp), 1e-3),
                         fmt=".6f", kind="verification"))
    return out


def direct_effect_checks(ds: xr.Dataset, rate_strengthening: Collection[str], rtol: float = 0.01) -> list:
    """Instantaneous jump at the step vs the model's own frozen-state value; for the models named
    ``rate_strengthening``, the sign of the early response."""
    out = []
    for i, m in enumerate(ds.model.values):
        if ds.status.values[i] != "ok":
            continue
        exp = float(ds.direct_expected.values[i])
        got = float(ds.direct_effect.values[i])
        if math.isfinite(exp):
            out.append(check(f"{m}: instantaneous friction jump at the velocity step (state frozen at the step)",
                             f"{exp:+.6f} (rel {rtol:g}, abs 1e-6)", got,
                             abs(got - exp) <= max(rtol * abs(exp), 1e-6), fmt="+.6f", kind="verification"))
        if str(m) not in rate_strengthening:
            continue
        if math.isfinite(exp) and exp != 0.0:  # an instantaneous jump exists: its sign
            out.append(check(f"{m}: positive direct effect (instantaneous rise at the velocity increase)",
                             "> 0", got, got > 0, fmt="+.3g", kind="extension"))
        else:  # elastic models (friction = a stress state): no jump, the rise builds over a short slip
            peak = float(ds.peak_after_step.values[i])
            out.append(check(f"{m}: positive direct effect (friction rises within 5 % of the segment after "
                             "the velocity increase)", "> 0", peak, peak > 0, fmt="+.3g", kind="extension"))
    return out


def healing_checks(ds: xr.Dataset, cfg: dict, heals: Mapping[str, bool], rtol: float = 0.01,
                   atol_none: float = 1e-4) -> list:
    """Slide-hold-slide: RSF closed-form healing; the models in ``heals`` heal (True), more for
    longer holds, or not at all (False)."""
    out = []
    holds = np.asarray(ds.hold.values, dtype=float)
    i = _row(ds, "rate_state")
    if i is not None and ds.status.values[i] == "ok":
        from ...protocols import make_protocol

        m = _rate_state(cfg)
        v = abs(float(make_protocol(cfg["protocol"]).segments()[0].velocity))
        for k, th in enumerate(holds):
            exp = m.b * math.log(1.0 + v * th / m.dc)
            got = float(ds.hold_peaks.values[i, k])
            out.append(check(f"rate_state: reslide peak after a {th:g} s hold = b ln(1 + V t_h / D_c)",
                             f"{exp:.6f} (rel {rtol:g})", got, abs(got - exp) <= rtol * exp, fmt=".6f",
                             kind="verification"))
    for j, name in enumerate(ds.model.values):
        if ds.status.values[j] != "ok" or str(name) not in heals:
            continue
        peaks = ds.hold_peaks.values[j]
        if heals[str(name)]:
            ok = bool(np.all(peaks > 0) and np.all(np.diff(peaks) > 0))
            out.append(check(f"{name}: friction heals during holds, more for longer holds",
                             "peaks > 0, increasing", ", ".join(f"{p:.4g}" for p in peaks), ok, kind="extension"))
        else:
            worst = float(np.max(np.abs(peaks)))
            out.append(check(f"{name}: no healing (memoryless, or its state is frozen at zero slip rate)",
                             f"|peak| < {atol_none:g}", worst, worst < atol_none, fmt=".2g", kind="extension"))
    return out
