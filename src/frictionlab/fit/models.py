"""What can be fitted: static curves, registered laws (static or dynamic), custom simulators.

A fit model knows its parameter names, default starting values, bounds, which parameters
are naturally log-scaled, and how to predict the data (``predict(params, data)``).

* :class:`CurveModel` -- a vectorised function ``y = f(x, **params)``; the registry
  :data:`CURVES` holds ``kloss`` (velocity form), ``kloss-slip``, ``kloss-lift``,
  ``magic-formula``.
* :class:`LawStaticModel` -- any registered law's steady friction curve
  ``law.friction_curve(x)`` (e.g. ``lugre``, ``coulomb``).
* :class:`LawDynamicModel` -- any registered law simulated under a recorded input
  (:class:`~frictionlab.fit.data.TimeSeries`), output sampled at the data times.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..core.errors import ConfigError, DataError, suggest
from .data import RecordedInput, TimeSeries, XYData, column_unit

__all__ = ["FitModel", "CurveModel", "LawStaticModel", "LawDynamicModel", "CURVES", "register_curve", "resolve_model"]

def _data_unit(data: Any, axis: str) -> str:
    """Unit of the data's ``x`` or ``y``: the data's own ``x_units``/``y_units``, else the unit its
    column name states, else ``unit of <column>``."""
    given = getattr(data, f"{axis}_units", None)
    if given:
        return str(given)
    name = getattr(data, f"{axis}_name", axis)
    return column_unit(name) or f"unit of {name}"


@dataclass
class FitModel:
    """Base: parameters, defaults, bounds and log flags; subclasses implement :meth:`predict`.

    ``units`` maps a parameter to its unit; ``[x]`` and ``[y]`` in it stand for the unit of the
    data's abscissa and ordinate (:meth:`param_units`). ``descriptions`` says what a
    parameter is where its name alone could mislead (printed by the fit report)."""

    name: str
    param_names: tuple[str, ...]
    defaults: dict[str, float]
    bounds: dict[str, tuple[float, float]]
    log_scale: tuple[str, ...] = ()
    description: str = ""
    x_label: str = "x"
    y_label: str = "y"
    units: dict[str, str] = field(default_factory=dict)
    descriptions: dict[str, str] = field(default_factory=dict)

    def predict(self, params: Mapping[str, float], data: Any) -> NDArray[np.float64]:  # pragma: no cover
        raise NotImplementedError

    def validate(self, params: Mapping[str, float]) -> None:
        """Raise a ParameterError for a non-physical parameter set (default: nothing)."""

    def guess(self, data: Any) -> dict[str, float] | None:
        """A data-driven start (used as an extra start of the multi-start), or None."""
        return None

    def param_units(self, data: Any = None) -> dict[str, str]:
        """Every parameter's unit for these data (``[x]``/``[y]`` resolved; ``1``: dimensionless)."""
        out = {}
        for k in self.param_names:
            u = self.units.get(k, "")
            for axis in ("x", "y"):
                if f"[{axis}]" in u:
                    du = _data_unit(data, axis)
                    if u != f"[{axis}]" and not re.fullmatch(r"[A-Za-z]+|\(.*\)", du):
                        du = f"({du})"  # 1/(m/s), not 1/m/s
                    u = u.replace(f"[{axis}]", du)
            out[k] = u
        return out

    def data_warnings(self, data: Any) -> list[str]:
        """What in the data lies outside the model's range of validity (default: nothing)."""
        return []


@dataclass
class CurveModel(FitModel):
    """``y = func(x, **params)`` (static, vectorised); ``checker(data)`` lists warnings about
    the data (:meth:`FitModel.data_warnings`)."""

    func: Callable[..., NDArray[np.float64]] = field(default=lambda x: x)
    guesser: Callable[[Any], dict[str, float]] | None = None
    checker: Callable[[Any], list[str]] | None = None

    def data_warnings(self, data: Any) -> list[str]:
        return list(self.checker(data)) if self.checker is not None and isinstance(data, XYData) else []

    def guess(self, data: Any) -> dict[str, float] | None:
        if self.guesser is None or not isinstance(data, XYData):
            return None
        try:
            return self.guesser(data)
        except (ValueError, ZeroDivisionError, FloatingPointError):
            return None

    def predict(self, params: Mapping[str, float], data: Any) -> NDArray[np.float64]:
        x = data.x if isinstance(data, XYData) else np.asarray(data, dtype=float)
        return np.asarray(self.func(x, **params), dtype=float)


CURVES: dict[str, CurveModel] = {}


def register_curve(model: CurveModel) -> CurveModel:
    CURVES[model.name] = model
    return model


def _kloss_v(x, f_max, v_max0, zeta):
    from ..laws.kloss import kloss

    return kloss(x, f_max, v_max0, zeta)


def _kloss_slip(x, f_max, s_max0, zeta):
    from ..laws.kloss import kloss_slip

    return kloss_slip(x, f_max, s_max0, zeta)


def _kloss_lift(x, c_max, alpha_max0, zeta1, zeta2):
    from ..laws.kloss import kloss_lift

    return kloss_lift(x, c_max, alpha_max0, zeta1, zeta2)


def _peak_guess(data: XYData, names: tuple[str, str, str]) -> dict[str, float]:
    """Peak height, initial slope -> (c_max, x_max0): slope at 0 is 2 c_max / x_max0."""
    x, y = np.abs(data.x), np.abs(data.y)
    c = float(y.max())
    small = x <= np.quantile(x, 0.3)
    sl = float(np.sum(x[small] * y[small]) / max(np.sum(x[small] ** 2), 1e-300))
    x0 = 2.0 * c / sl if sl > 0 else float(np.median(x))
    return {names[0]: c, names[1]: x0}


def _lift_guess(data: XYData) -> dict[str, float]:
    g = _peak_guess(data, ("c_max", "alpha_max0"))
    # peak where alpha_max(alpha) = alpha with zeta1 = 0: zeta2 from the peak location
    xp = float(np.abs(data.x[np.argmax(np.abs(data.y))]))
    z2 = 2.0 * (xp - g["alpha_max0"]) / xp ** 2 if xp > 0 else -0.1
    return {**g, "zeta1": 0.0, "zeta2": float(np.clip(z2, -1.9, 1.9))}


def stall_angles(x: NDArray[np.float64], y: NDArray[np.float64]) -> list[tuple[float, float]]:
    """``(stall angle, last angle)`` for each side of an odd lift curve whose data go past stall.

    Stall is the first local maximum of :math:`|C_L|` going out from 0 on that side (the first
    point whose successor has a smaller :math:`|C_L|`); the data go past it when there are
    points at larger :math:`|\\alpha|`."""
    out = []
    for side in (1.0, -1.0):
        sel = side * x > 0
        if sel.sum() < 2:
            continue
        order = np.argsort(side * x[sel])
        a, c = (side * x[sel])[order], (side * y[sel])[order]
        drops = np.nonzero(np.diff(c) < 0)[0]
        if drops.size:
            out.append((float(side * a[drops[0]]), float(side * a[-1])))
    return out


def _lift_checker(data: XYData) -> list[str]:
    msgs = []
    for stall, last in stall_angles(data.x, data.y):
        bound = "--xmax" if stall > 0 else "--xmin"
        msgs.append(f"the data extend past stall: C_L peaks at {data.x_name} = {stall:g} and the data go on to {last:g}; "
                    "the Kloss lift form describes the pre-stall curve (Martinez Molina 2025, Sec. VII.B, Fig. 13: "
                    f"fitted from zero to the critical angle of attack): restrict the data ({bound} {stall:g})")
    return msgs


def _kloss_guess(data: XYData, names=("f_max", "v_max0")) -> dict[str, float]:
    g = _peak_guess(data, names)
    x, y = np.abs(data.x), np.abs(data.y)
    tail = y[np.argsort(x)][-max(3, x.size // 10):].mean()
    r = min(max(tail / g[names[0]], 1e-6), 0.999)
    zeta = 2 * (1 - np.sqrt(1 - r * r)) / r  # invert F_C/F_max = zeta/(1 + zeta^2/4)
    return {**g, "zeta": float(min(zeta, 1.99))}


def _mf(x, B, C, D, E):
    from ..laws.magic_formula import magic_formula

    return magic_formula(x, B, C, D, E)


register_curve(CurveModel(
    "kloss", ("f_max", "v_max0", "zeta"), {"f_max": 1.0, "v_max0": 0.01, "zeta": 0.5},
    {"f_max": (1e-9, 1e9), "v_max0": (1e-12, 1e6), "zeta": (0.0, 1.999)}, ("f_max", "v_max0"),
    "Kloss velocity form F(v), eqs. 8+11 (Martinez Molina 2025)", "slip velocity", "friction",
    {"f_max": "[y]", "v_max0": "[x]", "zeta": "1"}, func=_kloss_v, guesser=_kloss_guess))
register_curve(CurveModel(
    "kloss-slip", ("f_max", "s_max0", "zeta"), {"f_max": 1.0, "s_max0": 5.0, "zeta": 0.5},
    {"f_max": (1e-6, 1e6), "s_max0": (1e-6, 1e4), "zeta": (0.0, 1.999)}, ("f_max", "s_max0"),
    "Kloss tyre slip form F(s), eqs. 31-32 (slip and s_max0 in the same unit, e.g. %)", "slip", "force / Fz",
    {"f_max": "[y]", "s_max0": "[x]", "zeta": "1"}, func=_kloss_slip, guesser=lambda d: _kloss_guess(d, ("f_max", "s_max0"))))
register_curve(CurveModel(
    "kloss-lift", ("c_max", "alpha_max0", "zeta1", "zeta2"),
    {"c_max": 1.4, "alpha_max0": 25.0, "zeta1": 0.5, "zeta2": -0.1},
    {"c_max": (1e-3, 10.0), "alpha_max0": (0.1, 500.0), "zeta1": (-5.0, 5.0), "zeta2": (-2.0, 2.0)}, (),
    "Kloss lift form C_L(alpha), eqs. 37-38, alpha in degrees", "angle of attack [deg]", "C_L",
    {"c_max": "[y]", "alpha_max0": "[x]", "zeta1": "1", "zeta2": "1/[x]"},
    func=_kloss_lift, guesser=_lift_guess, checker=_lift_checker))
register_curve(CurveModel(
    "magic-formula", ("B", "C", "D", "E"), {"B": 10.0, "C": 1.6, "D": 1.0, "E": 0.0},
    {"B": (1e-4, 1e4), "C": (0.1, 3.0), "D": (1e-6, 1e6), "E": (-20.0, 1.0)}, ("B",),
    "Pacejka simplified Magic Formula D sin(C atan(Bx - E(Bx - atan Bx)))", "slip", "force",
    {"B": "1/[x]", "C": "1", "D": "[y]", "E": "1"}, func=_mf))


def _law_param_info(cls: type) -> tuple[tuple[str, ...], dict[str, float], dict[str, tuple[float, float]], tuple[str, ...]]:
    names, defaults, bounds, logs = [], {}, {}, []
    for f in dataclasses.fields(cls):
        m = f.metadata
        if m.get("kind") != "number" or m.get("integer") or isinstance(f.default, tuple):
            continue
        if f.default is dataclasses.MISSING:
            continue
        d = float(f.default)
        lo, hi = m["lo"], m["hi"]
        if m.get("lo_open") and math.isfinite(lo):
            lo = lo + max(abs(lo), 1.0) * 1e-12 if lo != 0 else (abs(d) * 1e-9 if d != 0 else 1e-12)
        if m.get("hi_open") and math.isfinite(hi):
            hi = hi - max(abs(hi), 1.0) * 1e-6
        names.append(f.name)
        defaults[f.name] = d
        bounds[f.name] = (lo, hi)
        if lo >= 0 and d > 0:
            logs.append(f.name)
    return tuple(names), defaults, bounds, tuple(logs)


@dataclass
class LawStaticModel(FitModel):
    """Steady friction curve ``F(v)`` of a registered law (``friction_curve``)."""

    law_name: str = ""
    base: dict[str, Any] = field(default_factory=dict)
    normal_force: float = 1.0

    def make(self, params: Mapping[str, float]):
        from ..core.registry import make_model

        return make_model(self.law_name, None, **{**self.base, **params})

    def validate(self, params: Mapping[str, float]) -> None:
        self.make(params)

    def predict(self, params: Mapping[str, float], data: Any) -> NDArray[np.float64]:
        x = data.x if isinstance(data, XYData) else np.asarray(data, dtype=float)
        return np.asarray(self.make(params).friction_curve(x, self.normal_force), dtype=float)


@dataclass
class LawDynamicModel(FitModel):
    """A registered law simulated under the recorded input of a :class:`TimeSeries`.

    ``output`` is the Dataset variable compared with the data (``friction_force`` or
    ``friction_coefficient``); ``system`` hosts the law (default prescribed slip);
    ``substeps`` integration steps per data interval (``integrator``: a fixed-step driver of
    the law, default its default driver).
    """

    law_name: str = ""
    base: dict[str, Any] = field(default_factory=dict)
    output: str = "friction_force"
    system: Any = None
    integrator: str | None = None
    substeps: int = 4

    def make(self, params: Mapping[str, float]):
        from ..core.registry import make_model

        return make_model(self.law_name, None, **{**self.base, **params})

    def validate(self, params: Mapping[str, float]) -> None:
        self.make(params)

    def predict(self, params: Mapping[str, float], data: Any) -> NDArray[np.float64]:
        from ..solve import simulate

        if not isinstance(data, TimeSeries):
            raise DataError(f"dynamic fit of {self.law_name!r} needs a TimeSeries (time, velocity, output)")
        model = self.make(params)
        proto = RecordedInput.from_series(data)
        dt = float(np.min(np.diff(data.time))) / self.substeps
        n = int(round(proto.duration / dt))
        ds = simulate(model, proto, system=self.system, integrator=self.integrator, dt=dt,
                      max_points=n + 2)
        if self.output not in ds:
            raise ConfigError(f"model output {self.output!r} not in the simulation result; have {', '.join(ds.data_vars)}")
        return np.interp(data.time - data.time[0], ds.time.values, ds[self.output].values)


def resolve_model(model: str | FitModel, *, kind: str = "auto", base: Mapping[str, Any] | None = None,
                  **kw: Any) -> FitModel:
    """A :class:`FitModel` from a name: a curve of :data:`CURVES` or a registered law
    (``kind="static"`` -> steady curve, ``"dynamic"`` -> simulated time series)."""
    if isinstance(model, FitModel):
        return model
    if kind not in ("auto", "static", "dynamic"):
        raise ConfigError(f"fit kind {kind!r} is not 'auto', 'static' or 'dynamic'")
    if model in CURVES and kind != "dynamic":
        return CURVES[model]
    from ..core.registry import get_model_class, model_names

    names = model_names()
    if model not in names:
        raise ConfigError(f"unknown fit model {model!r}{suggest(model, list(CURVES) + names)}; "
                          f"curves: {', '.join(CURVES)}; laws: {', '.join(names)}")
    cls = get_model_class(model)
    pn, defaults, bounds, logs = _law_param_info(cls)
    base = dict(base or {})
    units = {k: u or "1" for k, u in cls.units().items() if k in pn}
    if kind == "dynamic":
        return LawDynamicModel(model, pn, defaults, bounds, logs, f"{model} simulated under the recorded input",
                               "time", "output", units, law_name=model, base=base, **kw)
    return LawStaticModel(model, pn, defaults, bounds, logs, f"{model} steady friction curve", "slip velocity",
                          "friction", units, law_name=model, base=base, **kw)
