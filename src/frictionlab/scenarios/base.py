"""Scenarios: the papers' numerical experiments as declarative, checkable objects.

A :class:`Scenario` has a name ``<paper>/<experiment>``, a nested ``config`` (TOML-able:
``model``, ``protocol``, ``system``, ``integrator`` and any scenario-specific sections), a
``run(config, quick) -> xarray.Dataset`` function, ``checks(ds, config) -> [Check]`` that
compare the result with the paper's claims or closed forms, and an optional ``plot``.
Scenario modules in this package register themselves with :func:`register_scenario`
and are discovered on first use.
"""

from __future__ import annotations

import copy
import importlib
import importlib.util
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import xarray as xr

from ..core.errors import ConfigError, suggest

__all__ = ["Check", "Scenario", "register_scenario", "get_scenario", "scenario_names", "check", "deviation", "VERDICTS"]


#: the three verdicts a paper claim can get
VERDICTS = ("pass", "fail", "deviation")


@dataclass
class Check:
    """One claim compared with a measurement.

    ``status`` is the verdict: ``"pass"``, ``"fail"`` or ``"deviation"``. A deviation means the
    paper's own equations and parameters do not give the paper's claim; it is only granted with
    ``evidence`` -- checks computed in the same run (a closed form, a stability growth rate, an
    independent integration, a convergence study) that all pass -- and an ``explanation`` (one
    sentence: what the paper claims, what its equations give). A deviation without evidence, or
    with a failing evidence check, is demoted to ``"fail"``.
    """

    claim: str
    expected: str
    measured: str
    passed: bool
    ambiguity: str = ""
    status: str = ""
    evidence: list["Check"] = field(default_factory=list)
    explanation: str = ""

    def __post_init__(self) -> None:
        self.passed = bool(self.passed)
        if not self.status:
            self.status = "pass" if self.passed else "fail"
        if self.status not in VERDICTS:
            raise ValueError(f"check status {self.status!r} is not one of {VERDICTS}")
        if self.status == "deviation":
            if not self.evidence or not self.explanation or not all(e.status == "pass" for e in self.evidence):
                why = ("no evidence check" if not self.evidence else "no explanation" if not self.explanation
                       else "an evidence check did not pass")
                self.status = "fail"
                self.explanation = f"deviation refused ({why}); {self.explanation}".rstrip("; ")
        if self.status == "pass" and not self.passed:
            self.status = "fail"
        self.passed = self.status == "pass"

    @property
    def ok(self) -> bool:
        """True unless the verdict is ``fail`` (a proven deviation is not a failure)."""
        return self.status != "fail"


def check(claim: str, expected: str, measured_value: float | str, passed: bool, ambiguity: str = "",
          fmt: str = ".4g") -> Check:
    """Shorthand building a :class:`Check` with a formatted measurement."""
    measured = measured_value if isinstance(measured_value, str) else format(float(measured_value), fmt)
    return Check(claim, expected, measured, bool(passed), ambiguity)


def deviation(claim: str, expected: str, measured_value: float | str, evidence: list[Check], explanation: str,
              ambiguity: str = "", fmt: str = ".4g") -> Check:
    """A claim the paper's own equations do not give, with the evidence computed in this run.

    ``evidence`` are checks that must all pass (else the verdict is ``fail``); ``explanation`` says
    in one sentence what the paper claims and what its equations give.
    """
    measured = measured_value if isinstance(measured_value, str) else format(float(measured_value), fmt)
    return Check(claim, expected, measured, False, ambiguity, status="deviation", evidence=list(evidence),
                 explanation=explanation)


Runner = Callable[[dict[str, Any], bool], xr.Dataset]


@dataclass
class Scenario:
    """A named, configurable numerical experiment with its checks.

    Parameters
    ----------
    name : ``<paper>/<experiment>``
    description : what it reproduces (figure, parameters, protocol choices)
    config : default nested configuration; ``--set a.b=value`` edits it
    run : ``run(config, quick) -> Dataset``; defaults to :func:`frictionlab.scenarios.config.run_config`
    checks : ``checks(ds, config) -> list[Check]``
    plot : ``plot(ds) -> matplotlib Figure``
    quick : dotted-key overrides applied for ``--quick`` runs
    references : citations the scenario relies on
    slow : True when the full (non-quick) run takes minutes
    summary : ``summary(ds) -> dict[str, float]``, the per-point metrics of a parameter sweep
        (:mod:`frictionlab.sweep`); when None the sweep uses final and mean friction
    derived : ``{dotted key: what to set instead}`` for the config keys that ``run`` sets
        itself (from other settings); ``--set`` and ``--grid`` refuse them, since a value
        given there would be overwritten and silently ignored
    metrics : names of the sweep metrics (:data:`frictionlab.sweep.metrics.METRICS`) that make
        sense for this scenario (``frictionlab sweep --metric``); empty: the set of its model
        family (:data:`frictionlab.sweep.metrics.FAMILY_METRICS`)
    """

    name: str
    description: str
    config: dict[str, Any]
    run: Runner | None = None
    checks: Callable[[xr.Dataset, dict[str, Any]], list[Check]] | None = None
    plot: Callable[[xr.Dataset], Any] | None = None
    quick: dict[str, Any] = field(default_factory=dict)
    references: list[str] = field(default_factory=list)
    slow: bool = False
    summary: Callable[[xr.Dataset], dict[str, float]] | None = None
    derived: dict[str, str] = field(default_factory=dict)
    metrics: tuple[str, ...] = ()

    @property
    def paper(self) -> str:
        return self.name.split("/", 1)[0]

    def resolved_config(self, overrides: dict[str, Any] | None = None, quick: bool = False) -> dict[str, Any]:
        from .config import apply_overrides

        cfg = copy.deepcopy(self.config)
        if quick and self.quick:
            cfg = apply_overrides(cfg, self.quick, strict=False)
        if overrides:
            self.refuse_derived(overrides, "--set")
            cfg = apply_overrides(cfg, overrides)
        return cfg

    def refuse_derived(self, keys: Any, how: str) -> None:
        """Raise :class:`ConfigError` for a key (or a key under one) that ``run`` sets itself."""
        from ..core.errors import ConfigError

        for key in keys:
            for d, instead in self.derived.items():
                if key == d or key.startswith(d + ".") or d.startswith(key + "."):
                    raise ConfigError(f"{how} {key}: {self.name} sets {d} itself, so the value would be ignored; "
                                      f"set {instead} instead")

    def execute(self, overrides: dict[str, Any] | None = None, quick: bool = False) -> tuple[xr.Dataset, dict[str, Any]]:
        """Run with ``overrides``; returns ``(dataset, config used)``."""
        from .config import run_config

        cfg = self.resolved_config(overrides, quick)
        runner = self.run or (lambda c, q: run_config(c, strict=True))
        ds = runner(cfg, quick)
        ds.attrs["scenario"] = self.name
        return ds, cfg

    def evaluate(self, ds: xr.Dataset, cfg: dict[str, Any]) -> list[Check]:
        return list(self.checks(ds, cfg)) if self.checks else []


_SCENARIOS: dict[str, Scenario] = {}
_DISCOVERED = False


def register_scenario(sc: Scenario) -> Scenario:
    if "/" not in sc.name:
        raise ValueError(f"scenario name {sc.name!r} must be '<paper>/<experiment>'")
    _SCENARIOS[sc.name] = sc
    return sc


def _discover() -> None:
    global _DISCOVERED
    if _DISCOVERED:
        return
    _DISCOVERED = True
    pkg = importlib.import_module("frictionlab.scenarios")
    for mod in pkgutil.walk_packages(pkg.__path__, "frictionlab.scenarios."):
        if mod.name.rsplit(".", 1)[-1] not in ("base", "config"):
            importlib.import_module(mod.name)


def scenario_names() -> list[str]:
    _discover()
    return sorted(_SCENARIOS)


def _import_owner(name: str) -> None:
    """Import the module that by convention holds scenario ``name`` (``rough-contact/fig14`` in
    ``scenarios/rough_contact/fig14.py``), if there is one: a lookup by name then imports that
    module only, not every scenario (a fresh sweep process paid seconds for them, matplotlib included)."""
    paper, _, experiment = name.partition("/")
    module = f"frictionlab.scenarios.{paper.replace('-', '_')}.{experiment.replace('-', '_')}"
    try:
        if importlib.util.find_spec(module) is not None:
            importlib.import_module(module)
    except (ImportError, ValueError):  # not a module name: the full discovery decides
        pass


def get_scenario(name: str) -> Scenario:
    if name not in _SCENARIOS and isinstance(name, str) and name.count("/") == 1:
        _import_owner(name)
    if name not in _SCENARIOS:
        _discover()
    if name not in _SCENARIOS:
        raise ConfigError(f"unknown scenario {name!r}{suggest(name, _SCENARIOS)}; run 'frictionlab list' to see them")
    return _SCENARIOS[name]


def select(patterns: list[str]) -> list[Scenario]:
    """Scenarios matching paper names (``classic``) or full names; all when empty."""
    names = scenario_names()
    if not patterns:
        return [_SCENARIOS[n] for n in names]
    out: list[Scenario] = []
    for p in patterns:
        hits = [n for n in names if n == p or n.startswith(p.rstrip("/") + "/")]
        if not hits:
            papers = sorted({n.split('/')[0] for n in names})
            raise ConfigError(f"no scenario or paper {p!r}{suggest(p, names + papers)}; papers: {', '.join(papers)}")
        out += [_SCENARIOS[n] for n in hits if _SCENARIOS[n] not in out]
    return out
