"""Named per-point metrics of a sweep (``frictionlab sweep ... --metric NAME``).

A metric reduces one run (an :class:`xarray.Dataset` over ``time``) to one number per
combination of its other dimensions (e.g. one per ``law``). The named metrics read the
standard result variables (``friction_force`` [N], ``friction_coefficient`` [1],
``slip_velocity`` [m/s], ``contact_area``); "friction" means ``friction_force`` when the run
has it, else ``friction_coefficient``. Units come from the variable's ``units`` attribute.
The stick-slip metrics read the ``spring_force`` of a spring-slider (the force a load cell
measures: its sawtooth is the stick-slip cycle, while the friction force also rings with the
slider's inertia during each slip, which would count as extra events), else the friction.

Each scenario may declare the metrics that make sense for it (``Scenario.metrics``); other
scenarios get a set by model family (:data:`FAMILY_METRICS`, by the scenario's paper or the
``[model] name`` of a run file). A Python function ``ds -> float`` is a metric too: pass it to
:func:`frictionlab.sweep.run_sweep` (``metrics=[..., fn]`` or ``{"name": fn}``).

>>> from frictionlab.sweep.metrics import METRICS
>>> METRICS["steady_friction"].description
'mean friction over the last 25 % of the run (time-weighted)'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import xarray as xr

from ..core.errors import ConfigError, DataError

__all__ = ["MetricNotApplicable", "Metric", "METRICS", "FAMILY_METRICS", "MetricSet", "metric_names_for", "resolve_metrics",
           "stick_slip_regime", "regime_labels", "REGIME", "REGIME_CODES"]

#: fraction of the run, at its end, that ``steady_*`` averages over and ``stick_slip_*`` analyses
STEADY_FRACTION = 0.25
STICK_SLIP_WINDOW = 0.4
#: a stick-slip event is a force peak of at least this prominence, relative to the mean force in the window
PROMINENCE = 0.02
#: force peaks the stick-slip metrics need: two peaks bound one whole cycle (its drop and period)
MIN_EVENTS = 2
#: the regime of a run as the number a sweep record holds (``REGIME`` + suffix); :func:`regime_labels` reads it
REGIME = "stick_slip_regime"
REGIME_CODES = {"steady": 0, "stick-slip": 1, "unresolved": 2, "diverged": 3, "oscillating": 4}
#: the slider sticks in a cycle when its smallest speed there is below this fraction of its largest
STICK_FRACTION = 0.01
STICK_SLIP_METRICS = ("stick_slip_amplitude", "stick_slip_period", "stick_slip_events")

FRICTION = ("friction_force", "friction_coefficient")
#: what the stick-slip metrics read: a spring-slider's spring force first
STICK_SLIP_FORCE = ("spring_force", *FRICTION)


class MetricNotApplicable(ConfigError):
    """A metric asked of a run that lacks its variable (stops a sweep at its first point)."""


@dataclass(frozen=True)
class Metric:
    """A named reduction of one run over ``time``.

    Attributes
    ----------
    name : metric name (also the result variable's name)
    description : one line, shown by ``--metric`` errors and as ``long_name``
    variables : candidate input variables, the first one the run has is used
    reduce : ``reduce(da) -> DataArray`` reducing a variable with a ``time`` dimension over time
    units : fixed units, or None for the input variable's units
    companion : a second variable ``reduce`` also takes (``reduce(da, companion)``, None when the
        run lacks it), e.g. the slip velocity that tells stick-slip from an oscillation
    """

    name: str
    description: str
    variables: tuple[str, ...]
    reduce: Callable[..., xr.DataArray]
    units: str | None = None
    #: a second variable ``reduce`` takes when the run has it (``reduce(da, companion_or_None)``)
    companion: str | None = None

    def source(self, ds: xr.Dataset) -> str:
        """The input variable of ``ds`` this metric reads.

        Raises
        ------
        ConfigError
            The run has none of :attr:`variables` over time: the metric does not apply to it
            (a sweep stops at its first point rather than fail every point).
        """
        for v in self.variables:
            if v in ds.data_vars and "time" in ds[v].dims:
                return v
        timed = sorted(str(v) for v in ds.data_vars if "time" in ds[v].dims)
        raise MetricNotApplicable(f"metric {self.name!r} needs one of {', '.join(self.variables)} over time; this run has "
                          f"{', '.join(timed) or 'no variable over time'}; choose another --metric")

    def evaluate(self, ds: xr.Dataset) -> tuple[dict[str, float], dict[str, str]]:
        """``({name[_suffix]: value}, {name[_suffix]: units})``; one suffix per value of other dims."""
        var = self.source(ds)
        da = ds[var]
        if self.companion is None:
            red = self.reduce(da)
        else:
            other = ds[self.companion] if self.companion in ds.data_vars else None
            red = self.reduce(da, other if other is not None and other.dims == da.dims else None)
        units = self.units if self.units is not None else str(da.attrs.get("units", ""))
        return _flatten(self.name, red, units)


def label(value: Any) -> str:
    """A coordinate value as a column-name suffix: numbers in shortest form (``0.4``, not ``0.4000000000000001``)."""
    if isinstance(value, (float, np.floating)):
        return f"{float(value):.6g}"
    if isinstance(value, bytes):
        return value.decode()
    return str(value.item() if hasattr(value, "item") else value)


def squeeze_runs(red: xr.DataArray) -> xr.DataArray:
    """``red`` without its dimensions of one value.

    A scenario that runs a list of cases (``drive_velocity``, ``stiffness_ratio``, ``law``) keeps
    that dimension when a sweep point runs one case; its value is the point's grid coordinate,
    so naming the column after it would give every point a column of its own.
    """
    single = [d for d in red.dims if red.sizes[d] == 1]
    return red.squeeze(single, drop=True) if single else red


def _flatten(name: str, red: xr.DataArray, units: str) -> tuple[dict[str, float], dict[str, str]]:
    red = squeeze_runs(red)
    if red.ndim == 0:
        return {name: float(red)}, {name: units}
    stacked = red.stack(_p=list(red.dims))
    vals, unit = {}, {}
    for i, idx in enumerate(stacked["_p"].values):
        suffix = "_".join(label(x) for x in (idx if isinstance(idx, tuple) else (idx,)))
        vals[f"{name}_{suffix}"] = float(stacked.values[i])
        unit[f"{name}_{suffix}"] = units
    return vals, unit


def _tail(da: xr.DataArray, fraction: float) -> xr.DataArray:
    t = da["time"].values.astype(float)
    t0 = t[-1] - fraction * (t[-1] - t[0])
    return da.isel(time=np.nonzero(t >= t0)[0])


def _time_mean(da: xr.DataArray) -> xr.DataArray:
    """Trapezoidal time average (uneven output steps weigh by their length); one sample: its value."""
    if da.sizes["time"] < 2:
        return da.isel(time=-1)
    t = da["time"].values.astype(float)
    span = t[-1] - t[0]
    if span <= 0:
        return da.mean("time")
    return da.integrate("time") / span


def _steady(da: xr.DataArray) -> xr.DataArray:
    return _time_mean(_tail(da, STEADY_FRACTION))


def stick_slip_regime(t: np.ndarray, series: np.ndarray, velocity: np.ndarray | None = None) -> tuple[str, Any]:
    """``(regime, StickSlip or None)`` of one force series (:func:`frictionlab.analysis.stick_slip`).

    Events are force peaks of prominence above :data:`PROMINENCE` of the mean force. The cycles
    measured are those between the peaks in the last ``STICK_SLIP_WINDOW`` of the run; when that
    window holds fewer than two peaks (a period longer than the window: the stick-slip of a soft
    spring), the run's last whole cycle, provided it does not start at the run's first peak (the
    start-up). With the run's ``velocity`` (slip velocity), the slider must also stick in those
    cycles: its smallest speed below :data:`STICK_FRACTION` of its largest. Regimes:
    ``stick-slip`` (at least one whole cycle measured: amplitude and period are defined);
    ``oscillating`` (cycles, but the slider never sticks: a start-up ringing still decaying, or a
    limit cycle without stick); ``steady`` (the force varies by less than the prominence over the window);
    ``unresolved`` (it varies by more, but no whole cycle after the start-up: a period longer than
    the run allows, or a transient still decaying; run longer); ``diverged`` (the series is not
    finite). Amplitude and period are NaN unless ``stick-slip``.
    """
    from ..analysis.stick_slip import stick_slip

    if series.size < 8:
        raise DataError(f"stick-slip metrics need >= 8 saved samples, the run has {series.size}; "
                        "save more often (integrator.save_dt)")
    if not np.all(np.isfinite(series)):
        return "diverged", None
    m = stick_slip(t, series, window=STICK_SLIP_WINDOW, prominence=PROMINENCE, min_events=MIN_EVENTS)
    if m.stick_slip:
        return _sticks(t, velocity, m), m
    tail = series[int(np.floor((1.0 - STICK_SLIP_WINDOW) * series.size)):]
    scale = float(np.mean(np.abs(tail))) or 1.0
    if float(np.ptp(tail)) < PROMINENCE * scale:
        return "steady", m
    whole = stick_slip(t, series, window=1.0, prominence=PROMINENCE, min_events=MIN_EVENTS + 1)
    if whole.stick_slip:  # the last whole cycle: the window opens after the peak before its first one
        i0 = int(np.searchsorted(t, whole.peak_times[-3], side="right"))
        last = stick_slip(t, series, window=(t.size - i0) / t.size, prominence=PROMINENCE, min_events=MIN_EVENTS)
        if last.stick_slip:
            return _sticks(t, velocity, last), last
    return "unresolved", m


def _sticks(t: np.ndarray, velocity: np.ndarray | None, m: Any) -> str:
    """``stick-slip`` when the slider sticks between the measured peaks (or no velocity is known), else
    ``oscillating``."""
    if velocity is None:
        return "stick-slip"
    sel = (t >= m.peak_times[0]) & (t <= m.peak_times[-1])
    speed = np.abs(np.asarray(velocity, dtype=float)[sel])
    if speed.size == 0 or not np.all(np.isfinite(speed)):
        return "stick-slip"
    return "stick-slip" if speed.min() < STICK_FRACTION * speed.max() else "oscillating"


def _stick_slip(field: str) -> Callable[..., xr.DataArray]:
    def reduce(da: xr.DataArray, velocity: xr.DataArray | None = None) -> xr.DataArray:
        t = da["time"].values

        def one(series: np.ndarray, v: np.ndarray | None = None) -> float:
            regime, m = stick_slip_regime(t, series, v)
            if field == "regime":
                return float(REGIME_CODES[regime])
            if field == "n_events" and regime in ("steady", "oscillating"):
                return 0.0  # no stick-slip event
            if m is None or regime != "stick-slip":
                return float("nan")
            return float(m.n_events if field == "n_events" else getattr(m, field))

        if velocity is None:
            return xr.apply_ufunc(one, da, input_core_dims=[["time"]], vectorize=True)
        return xr.apply_ufunc(one, da, velocity, input_core_dims=[["time"], ["time"]], vectorize=True)
    return reduce


def _pct(fraction: float) -> str:
    return f"{100 * fraction:g} %"


def _make() -> dict[str, Metric]:
    last = (lambda da: da.isel(time=-1))
    ms = [
        Metric("final_friction", "friction at the end of the run", FRICTION, last),
        Metric("mean_friction", "time-mean friction over the whole run", FRICTION, _time_mean),
        Metric("steady_friction", f"mean friction over the last {_pct(STEADY_FRACTION)} of the run (time-weighted)"
               , FRICTION, _steady),
        Metric("peak_friction", "largest friction of the run", FRICTION, lambda da: da.max("time")),
        Metric("min_friction", "smallest friction of the run", FRICTION, lambda da: da.min("time")),
        Metric("steady_friction_coefficient", f"mean friction coefficient over the last {_pct(STEADY_FRACTION)} of the "
               "run", ("friction_coefficient",), _steady),
        Metric("peak_friction_coefficient", "largest friction coefficient of the run", ("friction_coefficient",),
               lambda da: da.max("time")),
        Metric("stick_slip_amplitude", f"mean peak-to-trough drop of the spring force (else friction) over the "
               f"stick-slip cycles in the last {_pct(STICK_SLIP_WINDOW)} of the run, or its last whole cycle when "
               "the period is longer (NaN unless the regime is stick-slip)", STICK_SLIP_FORCE,
               _stick_slip("amplitude"), companion="slip_velocity"),
        Metric("stick_slip_period", f"mean time between stick-slip events in the last {_pct(STICK_SLIP_WINDOW)} of the "
               "run, or its last whole cycle when the period is longer (NaN unless the regime is stick-slip)",
               STICK_SLIP_FORCE, _stick_slip("period"), units="s", companion="slip_velocity"),
        Metric("stick_slip_events", f"number of force peaks (slip events) measured: those in the last "
               f"{_pct(STICK_SLIP_WINDOW)} of the run, or the two of its last whole cycle (0: steady or oscillating "
               "without stick; NaN: unresolved)", STICK_SLIP_FORCE,
               _stick_slip("n_events"), units="1", companion="slip_velocity"),
        Metric("peak_slip_velocity", "largest slip velocity of the run", ("slip_velocity",),
               lambda da: da.max("time")),
        Metric("final_contact_area", "contact area at the end of the run", ("contact_area",), last),
        Metric("mean_contact_area", "time-mean contact area over the whole run", ("contact_area",), _time_mean),
    ]
    return {m.name: m for m in ms}


#: the regime that goes with the stick-slip metrics (not a --metric of its own: a code per run)
_REGIME_METRIC = Metric(REGIME, "stick-slip regime code (0 steady, 1 stick-slip, 2 unresolved, 3 diverged, "
                        "4 oscillating)", STICK_SLIP_FORCE, _stick_slip("regime"), units="1", companion="slip_velocity")


def regime_labels(codes: np.ndarray) -> np.ndarray:
    """The regime names of :data:`REGIME_CODES` for an array of codes (NaN: ``""``)."""
    names = {float(v): k for k, v in REGIME_CODES.items()}
    return np.array([names.get(float(c), "") if np.isfinite(c) else "" for c in np.ravel(codes)],
                    dtype=object).reshape(np.shape(codes))


#: every named metric
METRICS: dict[str, Metric] = _make()

_FRICTION_SET = ("final_friction", "mean_friction", "steady_friction", "peak_friction", "min_friction",
                 "steady_friction_coefficient", "peak_friction_coefficient")
_STICK_SLIP_SET = ("stick_slip_amplitude", "stick_slip_period", "stick_slip_events", "peak_slip_velocity")
_AREA_SET = ("final_contact_area", "mean_contact_area")

#: the metrics that make sense per model family (a scenario's paper, or a run file's model name)
FAMILY_METRICS: dict[str, tuple[str, ...]] = {
    "classic": _FRICTION_SET + _STICK_SLIP_SET,
    "kloss": _FRICTION_SET,
    "control": _FRICTION_SET + _STICK_SLIP_SET,
    "subloading": _FRICTION_SET + _STICK_SLIP_SET,
    "beam_network": _FRICTION_SET + _STICK_SLIP_SET,
    "microjunction": _FRICTION_SET + _AREA_SET,
    "rough_contact": _FRICTION_SET + _STICK_SLIP_SET + _AREA_SET,
}


def metric_names_for(scenario: Any) -> tuple[str, ...]:
    """The metric names valid for ``scenario`` (its ``metrics`` attribute, else its family's set).

    The family is the scenario's paper (``rough_contact/fig8`` -> ``rough_contact``), or for a
    run file (``file/...``) the ``[model] name`` of its configuration; the classic laws (any
    other model name) take the ``classic`` set. A scenario of no known family gets every metric.
    """
    declared = getattr(scenario, "metrics", None)
    if declared:
        return tuple(declared)
    paper = scenario.name.split("/", 1)[0]
    if paper in FAMILY_METRICS:
        return FAMILY_METRICS[paper]
    model = scenario.config.get("model", {}) if isinstance(scenario.config, dict) else {}
    name = str(model.get("name", "")).replace("-", "_") if isinstance(model, dict) else ""
    if name in FAMILY_METRICS:
        return FAMILY_METRICS[name]
    if name.startswith(("lbnm", "mlbnm", "beam")):
        return FAMILY_METRICS["beam_network"]
    if name:
        return FAMILY_METRICS["classic"]
    return tuple(METRICS)


@dataclass(frozen=True)
class MetricSet:
    """The metrics of one sweep: named ones and Python functions ``ds -> float``, evaluated per point.

    Calling it on a run returns ``{name: value}``; :meth:`evaluate` also returns the units.
    Picklable (the functions travel to dask workers with cloudpickle).
    """

    named: tuple[str, ...] = ()
    custom: tuple[tuple[str, Callable[[xr.Dataset], float]], ...] = ()

    @property
    def names(self) -> list[str]:
        return [*self.named, *(n for n, _ in self.custom)]

    def evaluate(self, ds: xr.Dataset) -> tuple[dict[str, float], dict[str, str]]:
        values: dict[str, float] = {}
        units: dict[str, str] = {}
        for name in self.named:
            v, u = METRICS[name].evaluate(ds)
            values.update(v)
            units.update(u)
        if any(n in STICK_SLIP_METRICS for n in self.named):  # why a stick-slip metric is NaN, per run
            values.update(_REGIME_METRIC.evaluate(ds)[0])
        for name, fn in self.custom:
            out = fn(ds)
            try:
                values[name] = float(out)
            except (TypeError, ValueError):
                raise DataError(f"custom metric {name!r} returned {type(out).__name__}, not a number") from None
            units[name] = str(getattr(fn, "units", ""))
        return values, units

    def __call__(self, ds: xr.Dataset) -> dict[str, float]:
        return self.evaluate(ds)[0]


def resolve_metrics(metrics: Iterable[str | Callable] | Mapping[str, Callable] | None, scenario: Any
                    ) -> MetricSet | None:
    """Check ``metrics`` (names and/or functions) against ``scenario``; None when none are asked for.

    Raises
    ------
    ConfigError
        A name that is not a metric of this scenario (one line listing the valid ones), a
        repeated name, or an entry that is neither a name nor a callable.
    """
    if metrics is None:
        return None
    items: list[tuple[str, Any]] = (list(metrics.items()) if isinstance(metrics, Mapping)
                                    else [(m if isinstance(m, str) else getattr(m, "__name__", ""), m) for m in metrics])
    if not items:
        return None
    valid = metric_names_for(scenario)
    named: list[str] = []
    custom: list[tuple[str, Callable]] = []
    seen: set[str] = set()
    for name, m in items:
        if isinstance(m, str):
            if m not in valid:
                hint = "" if m not in METRICS else f" (it does not apply to {scenario.name})"
                raise ConfigError(f"unknown metric {m!r}{hint}; valid for {scenario.name}: {', '.join(valid)}")
            named.append(m)
        elif callable(m):
            if not name or name == "<lambda>":
                raise ConfigError("a custom metric needs a name: pass {'name': function} or a named function")
            custom.append((name, m))
        else:
            raise ConfigError(f"a metric is a name or a function ds -> float, got {type(m).__name__}")
        if name in seen:
            raise ConfigError(f"metric {name!r} is given twice")
        seen.add(name)
    return MetricSet(tuple(named), tuple(custom))
