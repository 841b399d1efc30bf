"""Scenarios: the papers' numerical experiments as declarative, checkable objects.

A :class:`Scenario` is a study plus checks: a name ``<paper>/<experiment>``, a nested ``config``
(TOML-able: the study's ``model``, ``protocol``, ``system``, ``integrator``, ``runs`` and ``axes``,
:mod:`frictionlab.solve.study`, and ``analysis``/``data`` for what its post-processing and checks
read), an optional ``post(result, config) -> xarray.Dataset`` that turns the runs into the dataset
the checks read, ``checks(ds, config) -> [Check]`` that compare it with the paper's claims or
closed forms, and an optional ``plot``. The library runs the study; a scenario that still
hand-writes ``run(config, quick)`` is being ported.
Scenario modules in this package register themselves with :func:`register_scenario`
and are discovered on first use.
"""

from __future__ import annotations

import copy
import importlib
import pkgutil
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.errors import ConfigError, suggest

if TYPE_CHECKING:
    import xarray as xr

    from ..solve.study import Study, StudyResult

__all__ = ["Check", "Mutation", "Scenario", "register_scenario", "get_scenario", "scenario_names", "load_scenario",
           "check", "deviation", "not_testable", "as_kind", "VERDICTS", "KINDS"]


#: the verdicts a check can get: the paper's claim reproduces, does not, the paper's own equations and
#: parameters do not give it (with evidence), or the paper does not print what the claim needs
VERDICTS = ("pass", "fail", "deviation", "not testable")

#: what a check is evidence of. Only ``paper`` checks (a claim of the paper, compared with what the
#: paper prints) make a paper's headline verdicts; ``verification`` checks our numerics (a closed
#: form, a convergence study, two methods agreeing), ``regression`` compares with an earlier result
#: of ours, ``extension`` checks behaviour beyond the paper. A failing check of any kind still fails
#: the run (it is a defect either way).
KINDS = ("paper", "verification", "regression", "extension")


@dataclass(frozen=True)
class Mutation:
    """A wrong implementation or a wrong reading of the paper under which a paper check must change
    its verdict (a ``pass`` must stop passing; a ``deviation`` must be refused because the claim
    then holds): ``frictionlab reproduce --mutations`` reruns the scenario with ``overrides`` (dotted
    configuration keys, as ``--set``) and reports the check *killed* when its verdict changes and
    *survived* when it does not -- a check that cannot tell a wrong model from the right one.

    ``what`` says in one line what the mutation stands for (``"rate parameter c = 0: no
    viscosity"``). ``overrides`` must be keys the scenario reads (unknown keys are refused like
    ``--set``).
    """

    what: str
    overrides: Mapping[str, Any]

    def key(self) -> tuple:
        return tuple(sorted((k, repr(v)) for k, v in self.overrides.items()))


@dataclass
class Check:
    """One claim compared with a measurement.

    ``kind`` is what the check is evidence of (:data:`KINDS`: ``paper``, ``verification``,
    ``regression``, ``extension``); only paper checks make a paper's headline. A paper check
    declares ``mutations`` (:class:`Mutation`: the wrong model or reading under which it must
    change its verdict) or says in ``insensitive`` why no plausible mutation can move it.
    ``ambiguity`` is the reading of the paper the check rests on where it differs from, or adds
    to, the printed values or equations (shown beside the verdict on every page).

    ``status`` is the verdict: ``"pass"``, ``"fail"``, ``"deviation"`` or ``"not testable"`` (the
    paper does not print what the claim needs: ``explanation`` says what is missing). A deviation means the
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
    kind: str = "paper"
    mutations: tuple[Mutation, ...] = ()
    insensitive: str = ""

    def __post_init__(self) -> None:
        self.passed = bool(self.passed)
        if self.kind not in KINDS:
            raise ValueError(f"check kind {self.kind!r} is not one of {KINDS}")
        self.mutations = tuple(self.mutations)
        if not self.status:
            self.status = "pass" if self.passed else "fail"
        if self.status not in VERDICTS:
            raise ValueError(f"check status {self.status!r} is not one of {VERDICTS}")
        if self.status == "not testable":
            if not self.explanation:
                raise ValueError(f"a 'not testable' check needs the reason: {self.claim!r}")
            self.passed = False
            return
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
    def judged(self) -> bool:
        """A paper check a mutation can judge: its verdict is pass or deviation (a fail or a not
        testable has nothing to kill)."""
        return self.kind == "paper" and self.status in ("pass", "deviation")

    @property
    def ok(self) -> bool:
        """True unless the verdict is ``fail`` (a proven deviation is not a failure)."""
        return self.status != "fail"


def check(claim: str, expected: str, measured_value: float | str, passed: bool, ambiguity: str = "",
          fmt: str = ".4g", *, kind: str = "paper", mutations: tuple[Mutation, ...] = (),
          insensitive: str = "") -> Check:
    """Shorthand building a :class:`Check` with a formatted measurement.

    ``kind`` is what the check is evidence of (:data:`KINDS`); a ``paper`` check declares the
    :class:`Mutation` s under which it must fail, or says in ``insensitive`` why the claim cannot
    tell any plausible wrong model from the right one (it is then left out of the headline)."""
    measured = measured_value if isinstance(measured_value, str) else format(float(measured_value), fmt)
    return Check(claim, expected, measured, bool(passed), ambiguity, kind=kind, mutations=tuple(mutations),
                 insensitive=insensitive)


def as_kind(checks: list[Check], kind: str) -> list[Check]:
    """``checks`` relabelled as ``kind`` (e.g. a shared convergence study as ``verification``)."""
    from dataclasses import replace

    return [replace(c, kind=kind) for c in checks]


def not_testable(claim: str, why: str, expected: str = "", ambiguity: str = "", *, kind: str = "paper") -> Check:
    """A claim of the paper that cannot be checked because the paper does not print what it needs
    (a parameter, the data of an experiment): verdict ``not testable``, ``why`` saying what is missing.
    Never a pass, never a deviation."""
    return Check(claim, expected or "(see why)", "not testable", False, ambiguity, status="not testable",
                 explanation=why, kind=kind)


def deviation(claim: str, expected: str, measured_value: float | str, evidence: list[Check], explanation: str,
              ambiguity: str = "", fmt: str = ".4g", *, kind: str = "paper", mutations: tuple[Mutation, ...] = (),
              insensitive: str = "") -> Check:
    """A claim the paper's own equations do not give, with the evidence computed in this run.

    ``evidence`` are checks that must all pass (else the verdict is ``fail``); ``explanation`` says
    in one sentence what the paper claims and what its equations give.
    """
    measured = measured_value if isinstance(measured_value, str) else format(float(measured_value), fmt)
    return Check(claim, expected, measured, False, ambiguity, status="deviation", evidence=list(evidence),
                 explanation=explanation, kind=kind, mutations=tuple(mutations), insensitive=insensitive)


Runner = Callable[[dict[str, Any], bool], "xr.Dataset"]


@dataclass
class Scenario:
    """A named, configurable numerical experiment with its checks.

    Parameters
    ----------
    name : ``<paper>/<experiment>``
    description : what it reproduces (figure, parameters, protocol choices)
    config : default nested configuration; ``--set a.b=value`` edits it
    run : ``run(config, quick) -> Dataset`` (a hand-written run, being retired); None: the library runs
        the scenario's study (:meth:`run_study`: its ``[model]``, ``[protocol]``, ``[system]``,
        ``[integrator]``, ``[runs]`` and ``[axes]``, :mod:`frictionlab.solve.study`) and :attr:`post`
    checks : ``checks(ds, config) -> list[Check]``
    plot : ``plot(ds) -> matplotlib Figure``: draws and labels the panels; :meth:`figure` finishes it
        (legends, layout) in one place
    quick : dotted-key overrides applied for ``--quick`` runs
    references : citations the scenario relies on
    slow : True when the full (non-quick) run takes minutes
    summary : ``summary(ds) -> dict[str, float]``, the per-point metrics of a parameter sweep
        (:mod:`frictionlab.sweep`); when None the sweep uses final and mean friction
    derived : ``{dotted key: what to set instead}`` for the config keys that ``run`` sets
        itself (from other settings); ``--set`` and ``--grid`` refuse them, since a value
        given there would be overwritten and silently ignored
    moved : ``{former dotted key: where it went}``: ``--set``, ``--grid`` and scenario files
        giving a key the scenario no longer has are refused with that pointer
    metrics : names of the sweep metrics (:data:`frictionlab.sweep.metrics.METRICS`) that make
        sense for this scenario (``frictionlab sweep --metric``); empty: the set of its model
        family (:data:`frictionlab.sweep.metrics.FAMILY_METRICS`)
    units : ``{dotted key: units}`` of the scenario's own keys (``drive_velocities``: ``m/s``), shown
        with a swept key (the model, protocol and system fields carry their own)
    optional : ``{dotted key: what it does}``: keys absent from ``config`` that ``run`` reads when
        given (e.g. an optional ``integrator.save_dt``); with the keys of ``config`` (and of its
        quick profile) they are the keys ``--set``, ``--grid`` and scenario files may give
    post : ``post(result, config) -> Dataset``, the post-processing step of a scenario run by its
        study (``run`` None): the :class:`~frictionlab.solve.study.StudyResult` of every run and
        axis point becomes the dataset the checks read; None: the runs combined
    derive : ``derive(point, config) -> {dotted key: value}``: the keys of :attr:`derived` a
        study computes per point from others (e.g. a step from the run's own time scale)
    study_map : how :meth:`run_study` executes the points (``map`` of
        :meth:`~frictionlab.solve.study.Study.execute`), e.g. a model family's strategy that runs
        many points in one parallel loop (:func:`frictionlab.contact.beam_network.batch.batch_map`);
        None: one point after the other
    parallel_runs : True for a hand-written ``run`` that sends independent runs to
        :func:`~frictionlab.scenarios.executor.run_tasks` (what ``--workers`` and ``--scheduler``
        reach; a study says so by ``study_map = parallel_map``)
    refine : ``refine(result, config) -> {"runs": {...}, ...} or None``: an adaptive experiment (a
        bisection whose next points depend on the runs so far). :meth:`run_study` executes the named
        runs it returns over the base four sections (without the study's runs and axes; a section it
        returns too replaces the base's), adds their results to ``result`` and asks again, until it
        returns None; :attr:`post` gets every run
    runs_from : ``runs_from(config) -> {label: run table}``: named runs the study generates from the
        config (one per model of a list in ``[analysis]``, ``classic/compare-*``); the config's own
        ``[runs]`` tables merge over the generated run of their label (a label it does not generate
        is refused)
    failures : ``"raise"`` (a run that fails stops the scenario with its error) or ``"record"``: a run
        that raises a :class:`~frictionlab.core.errors.FrictionLabError` is listed in the
        ``StudyResult.failures`` :attr:`post` gets and the other runs go on
        (:meth:`~frictionlab.solve.study.Study.execute`)
    open_sections : the sections ``run`` hands whole to the library (``make_model``,
        ``make_protocol``, ``make_system``, :func:`~frictionlab.solve.config.build`, a driver
        through ``simulate``), so every field the library knows there is read; None: ``model``
        where the config names a model, ``protocol`` and ``system`` where it names their type,
        ``integrator`` where it names a driver, and all four with the default ``run``. Any other
        key is accepted only when the config (or ``optional``) declares it (:meth:`refuse_unread`);
        the read-tracking test (``tests/unit/test_scenario_keys.py``) proves that a quick run reads
        every declared key and gets these sections whole.
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
    moved: dict[str, str] = field(default_factory=dict)
    units: dict[str, str] = field(default_factory=dict)
    optional: dict[str, str] = field(default_factory=dict)
    open_sections: tuple[str, ...] | None = None
    post: Callable[[StudyResult, dict[str, Any]], xr.Dataset] | None = None
    derive: Callable[[dict[str, Any], Mapping[str, Any]], Mapping[str, Any]] | None = None
    study_map: Callable[[Callable[[Any], Any], list[Any]], Any] | None = None
    refine: Callable[[StudyResult, dict[str, Any]], Mapping[str, Any] | None] | None = None
    parallel_runs: bool = False
    runs_from: Callable[[dict[str, Any]], dict[str, dict[str, Any]]] | None = None
    failures: str = "raise"

    def __post_init__(self) -> None:
        # a description is prose written as a triple-quoted text: its line breaks and indentation fold to spaces
        self.description = " ".join(self.description.split())

    def figure(self, ds: xr.Dataset) -> Any:
        """The scenario's figure of ``ds``: :attr:`plot` finished by :func:`frictionlab.plot.finish` (a legend on
        every panel that labels artists and has none, a tight layout); None for a scenario without a plot."""
        if self.plot is None:
            return None
        from ..plot import finish

        return finish(self.plot(ds))

    @property
    def paper(self) -> str:
        return self.name.split("/", 1)[0]

    def resolved_config(self, overrides: dict[str, Any] | None = None, quick: bool = False) -> dict[str, Any]:
        from ..solve.config import apply_overrides

        cfg = copy.deepcopy(self.config)
        if quick and self.quick:
            cfg = apply_overrides(cfg, self.quick, strict=False)
        if overrides:
            from ..solve.config import flatten

            # a table set whole is checked key by key: a misspelt key inside it is refused, not carried along
            keys = [k2 for k, v in overrides.items()
                    for k2 in ([f"{k}.{sub}" for sub in flatten(v)] if isinstance(v, dict) and v else [k])]
            self.refuse_derived(keys, "--set")
            cfg = apply_overrides(cfg, overrides) if self.runs_from is None else self._over_runs(cfg, overrides)
        return cfg

    def _over_runs(self, cfg: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
        """``overrides`` applied to a config whose runs are generated (:attr:`runs_from`): a ``runs.LABEL...``
        key is checked against the run generated for ``LABEL`` (after the other keys, which may change
        the runs) and kept in the config's ``[runs]``, which the study merges over the generated runs."""
        from ..solve.config import apply_overrides

        own = {k: v for k, v in overrides.items() if k.split(".", 1)[0] == "runs"}
        cfg = apply_overrides(cfg, {k: v for k, v in overrides.items() if k not in own})
        if own:
            apply_overrides({**cfg, "runs": self.runs_from(cfg)}, own)  # refused here as for a study's own runs
            cfg["runs"] = apply_overrides({"runs": cfg.get("runs") or {}}, own, strict=False)["runs"]
        return cfg

    def refuse_derived(self, keys: Any, how: str) -> None:
        """Raise :class:`ConfigError` for a key (or a key under one) that ``run`` sets itself, one
        that moved (:attr:`moved`), or one that ``run`` does not read (:meth:`refuse_unread`)."""
        keys = list(keys)
        for key in keys:
            for old, where in self.moved.items():
                if key == old or key.startswith(old + "."):
                    raise ConfigError(f"{how} {key}: {self.name} has no {old} any more: {where}")
            for d, instead in self.derived.items():
                if key == d or key.startswith(d + ".") or d.startswith(key + "."):
                    raise ConfigError(f"{how} {key}: {self.name} sets {d} itself, so the value would be ignored; "
                                      f"set {instead} instead")
        self.refuse_unread(keys, how)

    def library_sections(self) -> tuple[str, ...]:
        """The sections whose every library field ``run`` reads (:attr:`open_sections`)."""
        if self.open_sections is not None:
            return tuple(self.open_sections)
        from ..solve.config import SECTIONS

        if self.run is None:  # the study reads its four sections, runs and axes whole
            from ..solve.study import STUDY_SECTIONS

            return STUDY_SECTIONS
        return tuple(s for s in SECTIONS if isinstance(self.config.get(s), dict)
                     and {"model": "name", "integrator": "driver"}.get(s, "type") in self.config[s])

    def declared_keys(self) -> set[str]:
        """The dotted keys of the config, of its quick profile and :attr:`optional`: what ``run`` reads
        beyond the library fields of :meth:`library_sections`."""
        from ..solve.config import apply_overrides, flatten

        quick = apply_overrides(self.config, self.quick, strict=False) if self.quick else {}
        return set(flatten(self.config)) | set(flatten(quick)) | set(self.optional)

    def refuse_unread(self, keys: Any, how: str) -> None:
        """Raise :class:`ConfigError` for a dotted key ``run`` would not read: a key outside
        :meth:`library_sections` that the config does not declare (:meth:`declared_keys`), named
        with the keys of its section and a suggestion. Keys of the library sections are checked
        against the model, protocol, system and driver fields when they are applied."""
        lib = self.library_sections()
        declared = None
        for key in keys:
            section = str(key).split(".", 1)[0]
            if section in lib:
                continue
            declared = self.declared_keys() if declared is None else declared
            if key in declared or any(k.startswith(key + ".") for k in declared):
                continue  # a declared key, or a declared table set whole (``protocol.sets = {...}``)
            self._refuse_unknown(key, section, how)
            same = sorted(k for k in declared if k.split(".", 1)[0] == section and k not in self.derived)
            known = (f"its [{section}] keys: {', '.join(same)}" if same else
                     f"its sections: {', '.join(sorted({k.split('.', 1)[0] for k in declared}))}")
            raise ConfigError(f"{how} {key}: {self.name} does not read {key}{suggest(key, same or declared)}; "
                              f"{known}")

    def _refuse_unknown(self, key: str, section: str, how: str) -> None:
        """The error :func:`~frictionlab.solve.config.apply_overrides` gives ``key`` where it says
        more than "not read": a section that is gone or unknown, a value that is not a table, a key
        of a scenario section unknown there (a generic section's "unknown key" lists the library's
        keys, not the run's: :meth:`refuse_unread` answers that one)."""
        from ..solve.config import SECTIONS, apply_overrides

        try:
            apply_overrides(self.config, {key: None})
        except ConfigError as exc:
            if not (section in SECTIONS and str(exc).startswith("unknown key")) and "it is a table" not in str(exc):
                if str(exc).startswith("unknown key"):  # say which input held it (--set, --grid, a file)
                    raise ConfigError(f"{how} {key}: {exc}") from None
                raise

    def execute(self, overrides: dict[str, Any] | None = None, quick: bool = False) -> tuple[xr.Dataset, dict[str, Any]]:
        """Run with ``overrides``; returns ``(dataset, config used)``."""
        from ..core.datafiles import describe, files_read

        cfg = self.resolved_config(overrides, quick)
        with files_read() as reads:
            ds = self.run(cfg, quick) if self.run is not None else self.run_study(cfg)
        ds.attrs["scenario"] = self.name
        if reads:  # the data files the run parsed, with their checksums (provenance of a data fit)
            ds.attrs["data_files"] = describe(reads)
        return ds, cfg

    def study(self, cfg: dict[str, Any]) -> Study:
        """The :class:`~frictionlab.solve.study.Study` of a resolved config: its four sections,
        ``[runs]`` and ``[axes]``, with :attr:`derive` setting the keys of :attr:`derived`."""
        from ..solve.study import Study, over_generated

        if self.runs_from is not None:
            cfg = {**cfg, "runs": over_generated(self.runs_from(cfg), cfg.get("runs") or {}, self.name)}
        study = Study.from_config(cfg, derive=self.derive, derived=tuple(self.derived) if self.derive else (),
                                  context=cfg)
        if self.runs_from is not None:  # a default every generated run sets is left out (a user's value is refused)
            from ..solve.config import flatten

            default, base = flatten(self.config), flatten(study.base)
            for key in study.overridden_base_keys():
                if key in default and base[key] == default[key]:
                    section, rest = key.split(".", 1)
                    *parents, leaf = rest.split(".")
                    node = study.base[section]
                    for part in parents:
                        node = node[part]
                    del node[leaf]
        return study

    def study_sets_model_keys(self, cfg: dict[str, Any]) -> set[str]:
        """The ``[model]`` keys the study of ``cfg`` sets for every run itself (its runs, axes or
        :attr:`derived`): a dump that expands the preset leaves their preset values out (never read)."""
        from ..solve.config import expand_preset

        expanded, _ = expand_preset(cfg)
        keys = set(self.derived) | set(self.study(expanded).overridden_base_keys())
        return {k.split(".", 1)[1] for k in keys if k.startswith("model.") and k != "model.name"}

    def dump_toml(self, cfg: dict[str, Any], scenario: str | None = None) -> str:
        """``cfg`` as TOML with the model preset expanded to its values, but those the study sets for
        every run itself (:meth:`study_sets_model_keys`): a file that re-runs (``show``, ``run --dump``)."""
        from ..solve.config import dump_toml

        return dump_toml(cfg, scenario=scenario, expand=True,
                         leave_out=self.study_sets_model_keys(cfg) if self.run is None else ())

    def run_study(self, cfg: dict[str, Any]) -> xr.Dataset:
        """Execute :meth:`study` and hand the results to :attr:`post` (default: the runs combined,
        :meth:`~frictionlab.solve.study.StudyResult.combine`; a plain four-section config gives
        exactly :func:`frictionlab.simulate`'s dataset)."""
        from ..solve.config import check_sections, refuse_moved_sections
        from ..solve.study import STUDY_SECTIONS

        if self.post is None:  # nothing but the study reads the config: no other section may be there
            check_sections({k: v for k, v in cfg.items() if k not in ("runs", "axes")})
        refuse_moved_sections(cfg)
        stray = sorted(set(cfg) - set(self.config) - set(STUDY_SECTIONS) - {"scenario"})
        if stray:
            raise ConfigError(f"{self.name} does not read the config section(s) {', '.join(stray)}"
                              f"{suggest(stray[0], list(self.config))}; its sections: {', '.join(self.config)}")
        result = self.study(cfg).execute(map=self.study_map, failures=self.failures)
        while self.refine is not None and (more := self.refine(result, cfg)):
            base = {k: v for k, v in cfg.items() if k not in ("runs", "axes")}
            more_result = self.study({**base, **more}).execute(map=self.study_map, failures=self.failures)
            result = _extended(result, more_result)
        return self.post(result, cfg) if self.post is not None else result.combine()

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
        if mod.name.rsplit(".", 1)[-1] != "base":
            importlib.import_module(mod.name)


def scenario_names() -> list[str]:
    _discover()
    return sorted(_SCENARIOS)


def _module_of(name: str) -> str:
    """The module a scenario lives in by the naming convention (``rough-contact/fig4`` ->
    ``frictionlab.scenarios.rough_contact.fig4``); a module may register others as well."""
    return "frictionlab.scenarios." + ".".join(part.replace("-", "_") for part in name.split("/"))


def get_scenario(name: str) -> Scenario:
    """The registered scenario ``name``; its own module is imported first, the others only when
    that module does not register it (so running one scenario loads only what it needs)."""
    if (not _DISCOVERED and isinstance(name, str) and name not in _SCENARIOS
            and re.fullmatch(r"[a-z0-9-]+(/[a-z0-9_-]+)+", name)):
        module = _module_of(name)
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:  # no such module (or package): look everywhere below
            if not exc.name or not (module == exc.name or module.startswith(exc.name + ".")):
                raise  # the module exists but imports something missing: a real error
    if name not in _SCENARIOS:
        _discover()
    if name not in _SCENARIOS:
        raise ConfigError(f"unknown scenario {name!r}{suggest(name, _SCENARIOS)}; run 'frictionlab list' to see them")
    return _SCENARIOS[name]


def load_scenario(target: str) -> Scenario:
    """The scenario named ``target``, or one built from a TOML file (``frictionlab run`` and ``sweep``).

    A file with a top-level ``scenario = "NAME"`` is that scenario -- its run, checks, plot,
    summary, metrics and ``derived`` keys -- with the file's values over its config; a value
    the file gives to a key the scenario sets itself (``derived``) is refused unless it equals
    the scenario's own (as in a ``--dump``), since it would be ignored. A file without
    ``scenario`` is a plain run configuration (``[model]``, ``[protocol]``, ``[system]``,
    ``[integrator]``) run by :func:`frictionlab.simulate`, named ``file/<stem>``.
    """
    from dataclasses import replace
    from pathlib import Path

    from ..solve.config import _clean, apply_overrides, expand_preset, flatten, load_toml

    if not (target.endswith(".toml") or Path(target).is_file()):
        return get_scenario(target)
    cfg = load_toml(target)
    name = cfg.pop("scenario", None)
    if not name:
        return Scenario(f"file/{Path(target).stem}", f"scenario file {target}", cfg)
    if not isinstance(name, str):
        raise ConfigError(f"{target}: scenario must be a scenario name (a string), got {name!r}"[:200])
    base = get_scenario(name)
    values = flatten(cfg)
    own = flatten(_clean(base.config)) | flatten(_clean(expand_preset(base.config)[0]))  # a dump holds either
    missing = object()
    base.refuse_derived([k for k, v in values.items() if own.get(k, missing) != v], target)
    return replace(base, config=apply_overrides(base.config, values) if base.runs_from is None
                   else base._over_runs(base.config, values))


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


def _extended(result: StudyResult, more: StudyResult) -> StudyResult:
    """``result`` with the runs of ``more`` (a refinement's, :attr:`Scenario.refine`) after its own."""
    from ..solve.study import StudyResult

    if not more.labels:
        raise ConfigError("a refinement names its runs ({'runs': {label: ...}}), each label new")
    clash = sorted(set(more.labels) & set(result.labels))
    if clash:
        raise ConfigError(f"a refinement ran the run(s) {', '.join(clash)} again; name each refinement run anew")
    return StudyResult(result.points + more.points, result.datasets + more.datasets, result.labels + more.labels,
                       list(dict.fromkeys(result.axes + more.axes)), result.seconds + more.seconds,
                       failures=result.failures + more.failures)
