"""Studies: named runs x axes of four-section run configurations, executed by the library.

A numerical experiment is data: a *base* configuration (the four sections ``[model]``,
``[protocol]``, ``[system]``, ``[integrator]`` of :mod:`frictionlab.solve.config`), named *runs*
(each a partial four-section table over the base) and *axes* (dotted keys with a list of values;
every run is run at every point of their outer product)::

    [model]       name = "rsf", preset = "dieterich_aging"
    [protocol]    type = "velocity_steps", velocities = [1e-6, 1e-5], durations_s = [50, 50]
    [runs.aging]  model = {law = "aging"}
    [runs.slip]   model = {law = "slip"}
    [axes]        protocol = {normal_force_value = [1.0, 2.0]}

A run may carry its own ``axes`` table over the study's: an axis of the run replaces the study's
axis of the same key for that run (a reference solution computed at fewer points) or adds one.

An axis over an ``analysis`` key (``axes = {analysis = {load = [0.1, 0.3]}}``) is an *input axis*:
a quantity of the experiment that is not a field of a run section (a normal load in N that
``derive`` turns into a normal stress through a contact area that depends on other settings). Its
value is in each point's ``coords`` (:meth:`Point.coord`) and is not applied to the run's config;
a study with input axes needs ``derive``, the function that reads them.

A run table is merged into the base key by key, except that a run naming another model
(``model.name``), protocol or system (``type``) or driver (``integrator.driver``) than the base
names replaces that section whole (the base's keys belong to the other one; a base ``[integrator]``
that names no driver holds numerics every run's driver shares, ``dt``, ``save_dt``, ...) -- but a model with the same parameters
(another form of the same equations: ``subloading`` and ``subloading_rate``) keeps the base's values. Axis values override the merged run;
a ``derive`` function may then set the keys a study computes from others (a step sized by the
run's own time scale), and only the keys it declares (``derived``).

Executing a study builds and simulates every point through the strict path
(:func:`frictionlab.solve.config.build`, :func:`frictionlab.simulate`), so a misspelt key in any run
is refused with the key, the run and the keys that exist. A key that no run reads is refused too:
a base key that every run (or an axis, or ``derive``) sets itself is never read, and saying so
before anything runs is the difference between an override that works and one that is silently
ignored.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.errors import ConfigError, FrictionLabError, suggest
from ..core.validation import MAX_GRID_POINTS
from .config import SECTIONS, apply_overrides, build, flatten

if TYPE_CHECKING:
    import xarray as xr

__all__ = ["Study", "Point", "StudyResult", "Failure", "STUDY_SECTIONS", "merge_run", "over_generated"]

#: the top-level sections a study reads: the four of a run configuration, its runs and its axes
STUDY_SECTIONS = (*SECTIONS, "runs", "axes")
#: the section of input axes: values ``derive`` reads from a point's coords (not applied to its config)
INPUT_SECTION = "analysis"
#: the key of a section that names what the section is; a run giving another value replaces the section
_IDENTITY = {"model": "name", "protocol": "type", "system": "type", "integrator": "driver"}

Derive = Callable[["Point", Mapping[str, Any]], Mapping[str, Any]]


def merge_run(base: Mapping[str, Any], run: Mapping[str, Any]) -> dict[str, Any]:
    """The four-section config of ``run`` over ``base`` (see the module docstring for the rule)."""
    out = copy.deepcopy(dict(base))
    for section, table in run.items():
        if section == "axes":  # a run's own axes are not a section of its config
            continue
        ident = _IDENTITY[section]
        own = out.get(section) or {}
        if ident in table and ident in own and table[ident] != own[ident]:
            kept = _same_physics(own, table) if section == "model" else {}
            out[section] = {**kept, **copy.deepcopy(dict(table))}
        else:
            out[section] = {**copy.deepcopy(dict(own)), **copy.deepcopy(dict(table))}
    return out


def over_generated(runs: Mapping[str, Any], own: Mapping[str, Any], what: str = "the study") -> dict[str, Any]:
    """Generated named ``runs`` (one per model of a list, ``classic/compare-*``) with a config's own ``[runs]``
    tables merged over the run of their label (:func:`merge_run`; a run's own ``axes`` kept); a label
    that is not generated is a :class:`ConfigError`."""
    out = dict(runs)
    for label, table in own.items():
        if label not in out:
            raise ConfigError(f"runs.{label}: {what} generates its runs ({', '.join(out)}); "
                              f"runs.LABEL tables change one of them{suggest(str(label), list(out))}")
        if not isinstance(table, Mapping):
            out[label] = table  # refused by the study, with the shape a run has
            continue
        sections = {k: v for k, v in table.items() if k in SECTIONS and isinstance(v, Mapping)}
        out[label] = {**merge_run(out[label], sections), **{k: v for k, v in table.items() if k not in sections}}
    return out


def _same_physics(base_model: Mapping[str, Any], run_model: Mapping[str, Any]) -> dict[str, Any]:
    """The base ``[model]`` values a run naming another model keeps: all of them (preset included) when
    the two models have the same parameters -- another form of the same equations, e.g. ``subloading``
    and its rate form ``subloading_rate`` -- and none otherwise (another model's values are not this one's)."""
    from ..core.registry import get_model_class, presets_of

    if "name" not in base_model:
        return {}
    a, b = get_model_class(base_model["name"]), get_model_class(run_model["name"])
    if set(a.field_names()) != set(b.field_names()):
        return {}
    kept = {k: copy.deepcopy(v) for k, v in base_model.items() if k != "name"}
    if "preset" in kept and kept["preset"] not in presets_of(run_model["name"]):
        raise ConfigError(f"model {run_model['name']!r} has the parameters of {base_model['name']!r} but not its "
                          f"preset {kept['preset']!r}; give the run's model.preset")
    return kept


@dataclass(frozen=True)
class Point:
    """One run of a study at one point of its axes: ``label`` (``""`` for a study without named
    runs), ``coords`` (``((dotted key, value), ...)`` of the axes) and the full ``config``."""

    label: str
    coords: tuple[tuple[str, Any], ...]
    config: dict[str, Any]
    #: the axis keys :meth:`coord` was asked for (the study refuses an input axis that ``derive`` never reads)
    read: set[str] = field(default_factory=set, compare=False, repr=False)

    def __getitem__(self, section: str) -> Any:
        """``point["protocol"]``: a section of its config (what ``derive`` mostly reads)."""
        return self.config[section]

    def coord(self, key: str) -> Any:
        """The value of axis ``key`` (dotted, e.g. an input axis ``"analysis.load"``) at this point."""
        for k, v in self.coords:
            if k == key:
                self.read.add(key)
                return v
        raise ConfigError(f"{self.where()} has no axis {key} (its axes: {', '.join(k for k, _ in self.coords) or 'none'})")

    def where(self) -> str:
        """``run 'slow' at protocol.v = 0.001`` for messages."""
        parts = ([f"run {self.label!r}"] if self.label else []) + [f"{k} = {v!r}" for k, v in self.coords]
        return ", ".join(parts) or "the run"


@dataclass
class Study:
    """Named runs x axes over a base four-section config (module docstring).

    Parameters
    ----------
    base : the four sections shared by every run
    runs : ``{label: partial four-section table}``; empty: one unnamed run (the base)
    axes : ``{dotted key: [values]}``; empty: one point
    derive : ``derive(point, context) -> {dotted key: value}``, the keys the study computes per point
        from others (only keys of ``derived``); ``point`` is the :class:`Point` (its ``label``,
        ``coords``, and its config's sections as ``point["protocol"]``)
    derived : the dotted keys ``derive`` sets (a user may not set them: they would be overwritten)
    context : what ``derive`` reads besides the point's config (a scenario's ``[analysis]``)
    """

    base: dict[str, Any]
    runs: dict[str, dict[str, Any]] = field(default_factory=dict)
    axes: dict[str, list[Any]] = field(default_factory=dict)
    derive: Derive | None = None
    derived: tuple[str, ...] = ()
    context: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_config(cls, cfg: Mapping[str, Any], *, derive: Derive | None = None, derived: Sequence[str] = (),
                    context: Mapping[str, Any] | None = None) -> Study:
        """The study of a scenario config: its four sections, ``[runs]`` and ``[axes]`` (nested tables,
        ``axes = {protocol = {v = [...]}}``); other top-level sections are not the study's."""
        base = {s: copy.deepcopy(cfg[s]) for s in SECTIONS if cfg.get(s) is not None}
        runs = cfg.get("runs") or {}
        if not isinstance(runs, Mapping):
            raise ConfigError(f"[runs] must be a table of named runs, got {runs!r}"[:200])
        axes = flatten(cfg.get("axes") or {})
        return cls(base, {str(k): copy.deepcopy(v) for k, v in runs.items()}, axes, derive, tuple(derived),
                   context if context is not None else cfg)

    # -- validation ---------------------------------------------------------------------------------
    def axes_of(self, label: str) -> dict[str, list[Any]]:
        """The axes run ``label`` is run over: the study's, with the run's own ``axes`` table over them
        (an axis of the run replaces the study's axis of the same key -- a reference computed at fewer
        points -- or adds one)."""
        own = (self.runs.get(label) or {}).get("axes")
        return {**self.axes, **flatten(dict(own))} if isinstance(own, Mapping) else self.axes

    def _check_shape(self) -> None:
        for label, run in self.runs.items():
            if not isinstance(run, Mapping):
                raise ConfigError(f"runs.{label} must be a table of run sections, got {run!r}"[:200])
            for section, table in run.items():
                if section not in (*SECTIONS, "axes"):
                    raise ConfigError(f"runs.{label}.{section}: a run has the sections {', '.join(SECTIONS)} and "
                                      f"its own axes{suggest(section, (*SECTIONS, 'axes'))}")
                if not isinstance(table, Mapping):
                    raise ConfigError(f"runs.{label}.{section} must be a table, got {table!r}"[:200])
        count = 0
        for label in list(self.runs) or [""]:
            where = f"runs.{label}.axes (over axes)" if "axes" in (self.runs.get(label) or {}) else "axes"
            n = 1
            for key, values in self.axes_of(label).items():
                section = key.split(".", 1)[0]
                if section == INPUT_SECTION and "." in key and self.derive is None:
                    raise ConfigError(f"{where}.{key}: an input axis of [{INPUT_SECTION}] is read by the study's "
                                      "derive step, and this study has none")
                if (section not in SECTIONS and section != INPUT_SECTION) or "." not in key:
                    raise ConfigError(f"{where}.{key}: an axis is a dotted key of a run section "
                                      f"({', '.join(SECTIONS)}), like axes.protocol.v, or an input axis of "
                                      f"[{INPUT_SECTION}] read by derive{suggest(section, SECTIONS)}")
                if not isinstance(values, list) or not values:
                    raise ConfigError(f"{where}.{key} = {values!r} must be a non-empty list of values"[:200])
                if key in self.derived:
                    raise ConfigError(f"{where}.{key}: this study computes {key} itself, so an axis over it is "
                                      "never read")
                n *= len(values)
            count += n
        if count > MAX_GRID_POINTS:
            raise ConfigError(f"the study has {count:,} runs (its runs x their axes), more than the "
                              f"{MAX_GRID_POINTS:,} allowed")

    def _unread_base_keys(self) -> None:
        """Refuse a base key that every run overrides (or an axis sets): never read."""
        base_keys = flatten(self.base)
        for key, where in self.overridden_base_keys().items():
            raise ConfigError(f"{key} = {base_keys[key]!r} is never read: {', '.join(where[:3])}"
                              f"{' ...' if len(where) > 3 else ''} set{'s' if len(where) == 1 else ''} it for "
                              f"every run; set {where[0]} instead")

    def overridden_base_keys(self) -> dict[str, list[str]]:
        """``{base key: [where it is set]}`` for every base key that each run overrides (its own table or
        an axis), i.e. that no run reads (a dump leaves such preset values out)."""
        base_keys = flatten(self.base)
        out: dict[str, list[str]] = {}
        for key in base_keys:
            if key.rsplit(".", 1)[-1] in _IDENTITY.values() and key.count(".") == 1:
                continue  # a section's identity is read to merge every run
            where = []
            for label in list(self.runs) or [""]:
                if key in self.axes_of(label):
                    own = flatten(dict((self.runs.get(label) or {}).get("axes") or {}))
                    where.append(f"runs.{label}.axes.{key}" if key in own else f"axes.{key}")
                elif label and _sets(self.runs[label], self.base, key):
                    where.append(f"runs.{label}.{key}")
                else:
                    break
            else:
                out[key] = list(dict.fromkeys(where))
        return out

    def points(self) -> list[Point]:
        """Every (run, axis point) with its full config, validated key by key (no simulation).

        Raises
        ------
        ConfigError
            A run or axis that is not a table/list, a base key no run reads, or a key of a run, an
            axis or ``derive`` that its section does not have (with the run, the point and a
            did-you-mean).
        """
        self._check_shape()
        self._unread_base_keys()
        if not self.base and not self.runs:
            return []  # nothing to simulate: a scenario whose post step is the experiment (a data fit)
        out = []
        derived_everywhere = set(self.derived) & set(flatten(self.base))  # base keys derive may leave unread
        for label in list(self.runs) or [""]:
            merged = merge_run(self.base, {s: t for s, t in self.runs.get(label, {}).items() if s != "axes"})
            axes = self.axes_of(label)
            keys = list(axes)
            for values in itertools.product(*(axes[k] for k in keys)):
                coords = tuple(zip(keys, values))
                point = Point(label, coords, merged)
                try:
                    own = {k: v for k, v in coords if k.split(".", 1)[0] != INPUT_SECTION}
                    cfg = apply_overrides(merged, own) if own else copy.deepcopy(merged)
                    if self.derive is not None:
                        seen = Point(label, coords, copy.deepcopy(cfg))
                        extra = dict(self.derive(seen, self.context))
                        unread = [k for k, _ in coords if k.split(".", 1)[0] == INPUT_SECTION and k not in seen.read]
                        if unread:
                            raise ConfigError(f"axes.{unread[0]} is never read: the study's derive step does not "
                                              f"read it (point.coord); its input axes: "
                                              f"{', '.join(sorted(seen.read)) or 'none'}")
                        stray = sorted(set(extra) - set(self.derived))
                        if stray:
                            raise ConfigError(f"derive set {', '.join(stray)}, which the study does not declare "
                                              f"as derived ({', '.join(self.derived) or 'none'})")
                        self._refuse_overwritten(label, extra)
                        cfg = apply_overrides(cfg, extra)
                        derived_everywhere &= set(extra)
                    else:
                        derived_everywhere = set()
                except ConfigError as exc:
                    raise ConfigError(f"{point.where()}: {exc}") from None
                out.append(Point(label, coords, cfg))
        if derived_everywhere:
            key = sorted(derived_everywhere)[0]
            raise ConfigError(f"{key} = {flatten(self.base)[key]!r} is never read: the study computes it for every "
                              "run; set its inputs instead")
        return out

    def _refuse_overwritten(self, label: str, extra: Mapping[str, Any]) -> None:
        """A key the run's own table gives that ``derive`` replaces with another value would be ignored."""
        own = flatten({s: t for s, t in self.runs.get(label, {}).items() if s != "axes"})
        for key, value in extra.items():
            if key in own and own[key] != value:
                raise ConfigError(f"runs.{label}.{key} = {own[key]!r} is never read: the study computes {key} "
                                  f"for this run itself ({value!r} here); set its inputs instead")

    def validate(self) -> list[Point]:
        """:meth:`points`, each built (model, protocol, system, driver options) without running."""
        pts = self.points()
        for p in pts:
            try:
                build(p.config)
            except FrictionLabError as exc:
                raise _located(exc, p) from None
        return pts

    # -- execution ----------------------------------------------------------------------------------
    def execute(self, *, map: Callable[[Callable[[Point], Any], list[Point]], Any] | None = None,
                failures: str = "raise") -> StudyResult:
        """Build and simulate every point (``map(run_point, points)`` when given, e.g. a pool's map);
        every point is validated before the first runs.

        ``failures = "raise"`` (the default): the first point that cannot be built or simulated stops
        the study with its error, naming the run and the point. ``failures = "record"``: a point whose
        build or simulate raises a :class:`FrictionLabError` (a model that cannot take the protocol) is
        recorded in :attr:`StudyResult.failures` with its error and the other points run; any other
        exception (a bug) still raises. A custom ``map`` is handed only the points that built.
        """
        if failures not in ("raise", "record"):
            raise ConfigError(f"failures = {failures!r}: 'raise' (the first failing point stops the study) or "
                              "'record' (failing points are listed in StudyResult.failures)")
        keys = list(dict.fromkeys(k for label in list(self.runs) or [""] for k in self.axes_of(label)))
        if failures == "raise":
            pts = self.validate()
            timed = list((map or _serial_map)(timed_run_point, pts))
            return StudyResult(pts, [ds for ds, _ in timed], list(self.runs), keys, [sec for _, sec in timed])
        pts = self.points()
        outcome: dict[int, Any] = {}  # position in pts -> (dataset, seconds) or Failure
        for i, p in enumerate(pts):
            try:
                build(p.config)
            except FrictionLabError as exc:
                outcome[i] = Failure(p, _located(exc, p), exc)
        built = [i for i in range(len(pts)) if i not in outcome]
        outcome.update(zip(built, (map or _serial_map)(recorded_run_point, [pts[i] for i in built])))
        done = [(pts[i], outcome[i]) for i in range(len(pts)) if not isinstance(outcome[i], Failure)]
        return StudyResult([p for p, _ in done], [r[0] for _, r in done], list(self.runs), keys,
                           [r[1] for _, r in done],
                           failures=[outcome[i] for i in range(len(pts)) if isinstance(outcome[i], Failure)])


def _sets(run: Mapping[str, Any], base: Mapping[str, Any], key: str) -> bool:
    """Whether ``run`` sets dotted ``key`` (a run that replaces the section sets all of its keys)."""
    section, rest = key.split(".", 1)
    table = run.get(section)
    if not isinstance(table, Mapping):
        return False
    ident = _IDENTITY[section]
    own = base.get(section) or {}
    if ident in table and ident in own and table[ident] != own[ident]:
        kept = _same_physics(own, table) if section == "model" else {}
        return rest not in flatten(kept) or rest in flatten(dict(table))
    return rest in flatten(dict(table))


def _serial_map(func: Callable[[Point], Any], points: list[Point]) -> Iterator[Any]:
    return (func(p) for p in points)


def run_point(point: Point) -> xr.Dataset:
    """Simulate one point of a study (a module-level function: picklable for process pools)."""
    from .config import run_config

    try:
        return run_config(point.config)
    except FrictionLabError as exc:
        raise _located(exc, point) from None


def timed_run_point(point: Point) -> tuple[Any, float]:
    """:func:`run_point` and its wall time [s] (the result read inside the timing: a lazy result is built)."""
    return _timed(run_point, point)


def _timed(run: Callable[[Any], Any], arg: Any) -> tuple[Any, float]:
    import time

    from ..core.result import LazyDataset

    t0 = time.perf_counter()
    ds = run(arg)
    if isinstance(ds, LazyDataset):  # built now, inside the timing: a study's results are Datasets
        ds = ds.to_dataset()
    return ds, time.perf_counter() - t0


@dataclass(frozen=True)
class Failure:
    """A point of a study that could not run (``Study.execute(failures="record")``): the point, its
    error with the run and point in front of the message (``str(failure)``), and the error as raised
    (``cause``: its class and its own message, for a table that already names the run)."""

    point: Point
    error: FrictionLabError
    cause: FrictionLabError

    def __str__(self) -> str:
        return str(self.error)


def recorded_run_point(point: Point) -> tuple[Any, float] | Failure:
    """:func:`timed_run_point`, or the :class:`Failure` of a point whose run raises a
    :class:`FrictionLabError` (any other exception propagates: a bug is never recorded as a result)."""
    from .config import run_config

    try:
        return _timed(run_config, point.config)
    except FrictionLabError as exc:
        return Failure(point, _located(exc, point), exc)


def _located(exc: FrictionLabError, point: Point) -> FrictionLabError:
    """``exc`` with the run and axis point it came from in front of its message (same class)."""
    try:
        return type(exc)(f"{point.where()}: {exc}")
    except TypeError:  # a class whose constructor takes more than a message
        return ConfigError(f"{point.where()}: {exc}")


class StudyResult(Mapping[tuple[str, tuple[tuple[str, Any], ...]], "xr.Dataset"]):
    """The datasets of a study, keyed ``(label, coords)`` in run-then-axes order.

    :meth:`get` picks one by label and axis values; :meth:`combine` stacks them into one Dataset
    along ``run`` and the axes when they share their time grid.
    """

    def __init__(self, points: list[Point], datasets: list[Any], labels: list[str], axes: list[str],
                 seconds: list[float] | None = None, failures: list[Failure] | None = None) -> None:
        self.points = points
        #: the points that could not run (``Study.execute(failures="record")``), in run-then-axes order;
        #: they are not among ``points`` (``pick`` of one is a KeyError: see :meth:`failure`)
        self.failures = list(failures or [])
        self.datasets = datasets
        self.labels = labels
        self.axes = axes
        #: wall time of each point's simulate [s], in the order of ``points`` (a pool's map times each
        #: point in its worker)
        self.seconds = seconds if seconds is not None else [float("nan")] * len(points)

    def failure(self, label: str = "", **coords: Any) -> Failure | None:
        """The :class:`Failure` of run ``label`` at ``coords`` (as :meth:`pick`), or None when it ran."""
        found = [f for f in self.failures
                 if f.point.label == label and all(_coord(f.point, k) == v for k, v in coords.items())]
        if len(found) > 1:
            raise KeyError(f"{len(found)} failed runs match label={label!r}, {dict(coords)}")
        return found[0] if found else None

    def seconds_of(self, label: str = "", **coords: Any) -> float:
        """The wall time [s] of run ``label`` at ``coords`` (as :meth:`pick`)."""
        return self.seconds[self._index(label, coords)]

    def __getitem__(self, key: tuple[str, tuple[tuple[str, Any], ...]]) -> xr.Dataset:
        for p, ds in zip(self.points, self.datasets):
            if (p.label, p.coords) == key:
                return ds
        raise KeyError(key)

    def __iter__(self) -> Iterator[tuple[str, tuple[tuple[str, Any], ...]]]:
        return ((p.label, p.coords) for p in self.points)

    def __len__(self) -> int:
        return len(self.points)

    def pick(self, label: str = "", **coords: Any) -> xr.Dataset:
        """The dataset of run ``label`` at the axis values ``coords`` (by the axis key's last part,
        ``v=1e-3`` for ``protocol.v``; the full dotted key works with ``**{"protocol.v": 1e-3}``)."""
        return self.datasets[self._index(label, coords)]

    def point(self, label: str = "", **coords: Any) -> Point:
        """The :class:`Point` (label, coords, full config) of run ``label`` at ``coords`` (as :meth:`pick`)."""
        return self.points[self._index(label, coords)]

    def _index(self, label: str, coords: Mapping[str, Any]) -> int:
        found = [i for i, p in enumerate(self.points)
                 if p.label == label and all(_coord(p, k) == v for k, v in coords.items())]
        if len(found) != 1:
            raise KeyError(f"{len(found)} runs match label={label!r}, {dict(coords)}")
        return found[0]

    def of_run(self, label: str = "") -> list[xr.Dataset]:
        """The datasets of run ``label`` over the axis points, in order."""
        return [ds for p, ds in zip(self.points, self.datasets) if p.label == label]

    def axis_values(self, key: str, label: str | None = None) -> list[Any]:
        """The values of axis ``key`` (dotted), in order, over the runs that have it (or run ``label``)."""
        seen: list[Any] = []
        for p in self.points:
            coords = dict(p.coords)
            if key in coords and (label is None or p.label == label) and coords[key] not in seen:
                seen.append(coords[key])
        return seen

    def dim_names(self) -> dict[str, str]:
        """The dimension name of each axis: the key's last part, the full key (dots as ``_``)
        where two axes share it."""
        leaves = [k.rsplit(".", 1)[-1] for k in self.axes]
        return {k: (leaf if leaves.count(leaf) == 1 else k.replace(".", "_")) for k, leaf in zip(self.axes, leaves)}

    def combine(self, join: str = "exact") -> xr.Dataset:
        """One Dataset with a ``run`` dimension (when the study has named runs) and one per axis.

        The runs must share their coordinates (``join = "exact"``: a run that ended earlier or
        saved on another grid is a :class:`ConfigError`, never a silent NaN padding); pass
        ``join = "outer"`` to pad with NaN on purpose.
        """
        import xarray as xr

        if not self.labels and not self.axes:
            return self.datasets[0]
        dims = self.dim_names()

        def stack(items: list[tuple[Point, Any]], level: int) -> Any:
            if level == len(self.axes):
                return items[0][1]
            key = self.axes[level]
            values = [v for v in dict.fromkeys(dict(p.coords)[key] for p, _ in items)]
            parts = [stack([(p, d) for p, d in items if dict(p.coords)[key] == v], level + 1) for v in values]
            return xr.concat(parts, dim=xr.DataArray(values, dims=dims[key], name=dims[key]), join=join,
                             combine_attrs="drop_conflicts")

        pairs = list(zip(self.points, self.datasets))
        if any(tuple(k for k, _ in p.coords) != tuple(self.axes) for p in self.points):
            raise ConfigError("the runs of this study have axes of their own; use each run's dataset "
                              "(StudyResult.pick / of_run)")
        try:
            if not self.labels:
                return stack(pairs, 0)
            per_run = [stack([(p, d) for p, d in pairs if p.label == lab], 0) for lab in self.labels]
            return xr.concat(per_run, dim=xr.DataArray(self.labels, dims="run", name="run"), join=join,
                             combine_attrs="drop_conflicts")
        except ValueError as exc:
            raise ConfigError(f"the runs of this study do not share their coordinates ({exc}); use each run's "
                              "dataset (StudyResult.pick / of_run) or combine(join='outer')") from None


def _coord(point: Point, key: str) -> Any:
    for k, v in point.coords:
        if k == key or k.rsplit(".", 1)[-1] == key:
            return v
    return None

