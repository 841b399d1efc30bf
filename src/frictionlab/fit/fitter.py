r"""The generic fitter: bounded, multi-start nonlinear least squares with standard errors.

Follows the scikit-learn contract (STYLE section 3.9): the constructor stores its arguments
verbatim and validates nothing; :meth:`Fitter.fit` validates, fits and returns ``self``
with the fitted attributes (trailing underscore) ``params_``, ``stderr_``, ``covariance_``,
``correlation_``, ``fit_percent_``, ``result_``, ``free_``, ``fixed_``, ``undetermined_``,
``units_`` (every parameter's unit for the data fitted), ``warnings_`` (also issued as
:class:`FitWarning`), ``y_pred_``.

Method
------
* Free parameters are optimised in a transformed space: :math:`u = \ln p` for log-scaled
  parameters (positive, spanning decades), :math:`u = p` otherwise, inside the bounds.
* ``n_starts`` starts: the given/default start first, then points drawn uniformly in the
  transformed bounded box from ``numpy.random.default_rng(seed)``; each is refined with
  :func:`scipy.optimize.least_squares` (trust-region reflective); the lowest cost wins.
  The same seed gives the same answer.
* Covariance from the Jacobian at the optimum, :math:`C_u = s^2 (J^TJ)^{+}` with
  :math:`s^2 = \mathrm{SSE}/(n - p)`, mapped to the physical parameters by the chain rule
  (:math:`\partial p/\partial u = p` for log parameters); ``stderr_`` is the square root of
  its diagonal (a local, linearised estimate). A parameter that ends on a bound gets
  ``nan`` (listed in ``at_bound_``): the linearisation does not hold there.
* Goodness of fit: ``fit_percent_`` :math:`= 100\,R^2 = 100\,(1 - \mathrm{SSE}/\mathrm{SST})`
  (the "FIT" of Martinez Molina 2025, Sec. VII.A: "computed as R^2 in percentage").
* Quality: :meth:`Fitter.problems` lists why a fit is not to be trusted: FIT below a floor
  (default :data:`MIN_FIT` = 50 %) or parameters the data do not determine
  (``undetermined_``); ``frictionlab fit`` exits 1 when there is any. :meth:`Fitter.report`
  prints values, standard errors, units, correlations and these problems (lmfit style).

The floor: FIT = 100 R^2 is the share of the data's variance the model explains. Below 50 % the
residuals hold more variance than the model explains, so the number cannot tell a noise-limited
fit from one that missed the data (a fit stuck at its start gives about 0 %, a curve of the
wrong sign far below). Every clean curve of the packaged data fits above 94 % and the noisiest
laboratory velocity steps at 52-63 % (rate-and-state, ``classic/rsf-data-fit``): pass a lower
``min_fit`` for records known to be noisier than their signal.
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import least_squares

from ..core.errors import ConfigError, DataError, FrictionLabError, suggest
from .data import TimeSeries, XYData
from .models import FitModel, resolve_model

__all__ = ["Fitter", "fit_percent", "FitWarning", "MIN_FIT"]

#: default floor of FIT % below which a fit is reported as poor (module docstring)
MIN_FIT = 50.0


class FitWarning(UserWarning):
    """The data lie (partly) outside the fitted model's range of validity (``Fitter.warnings_``)."""


#: an unbounded log-scaled parameter may move this far (natural log) from its start
_LOG_SPAN = math.log(1e20)
#: relative standard error above which a parameter is reported as not determined
_MAX_REL_STDERR = 10.0
#: singular values of the Jacobian below this fraction of the largest span a flat direction
_FLAT = 1e-6


def _undetermined(free, at_bound, J, cov, p) -> dict[str, str]:
    """``{name: why}`` for the free parameters the data cannot determine.

    At a bound; a standard error that is not finite, zero, or over ``_MAX_REL_STDERR``
    times the value; or a large share in a flat direction of the Jacobian (singular value
    below ``_FLAT`` of the largest (in the search space)), where the linearised covariance says nothing.
    """
    out: dict[str, str] = {k: "at a bound" for k in at_bound}
    _, sv, vt = np.linalg.svd(J, full_matrices=False)
    flat = vt[sv <= _FLAT * (sv.max() if sv.size else 0.0)] if sv.size else np.zeros((0, len(free)))
    for i, k in enumerate(free):
        if k in out:
            continue
        se = math.sqrt(cov[i, i]) if np.isfinite(cov[i, i]) and cov[i, i] >= 0 else math.inf
        if flat.size and np.max(np.abs(flat[:, i])) > 0.1:
            out[k] = "flat direction of the Jacobian"
        elif not math.isfinite(se) or se == 0.0:
            out[k] = f"standard error {se:g}"
        elif se > _MAX_REL_STDERR * abs(p[k]):
            out[k] = f"standard error {se:.2g} > {_MAX_REL_STDERR:g} x |value|"
    return out


def fit_percent(y: NDArray[np.float64], y_hat: NDArray[np.float64]) -> float:
    r"""Coefficient of determination in percent, :math:`100(1 - \sum(y-\hat y)^2/\sum(y-\bar y)^2)`."""
    y = np.asarray(y, dtype=float)
    sst = float(np.sum((y - y.mean()) ** 2))
    sse = float(np.sum((y - np.asarray(y_hat, dtype=float)) ** 2))
    if sst == 0:
        return 100.0 if sse == 0 else -math.inf
    return 100.0 * (1.0 - sse / sst)


#: most starts of one fit (each is a full least-squares refinement: 10,000 is hours already)
MAX_STARTS = 10_000


def check_starts(n_starts: Any, seed: Any, names: tuple[str, str] = ("n_starts", "seed")) -> None:
    """Refuse a start count outside 1..:data:`MAX_STARTS` or a seed that is not a whole number >= 0
    (:class:`~frictionlab.core.errors.ParameterError`)."""
    from ..core.validation import check_count

    check_count(names[0], n_starts, minimum=1, maximum=MAX_STARTS)
    check_count(names[1], seed, minimum=0)


def _check_fittable(y: NDArray[np.float64], source: str, name: str) -> None:
    """Refuse data no least-squares fit can use: non-finite, constant, or beyond double range."""
    bad = ~np.isfinite(y)
    if bad.any():
        raise DataError(f"{source}: {name} has {int(bad.sum())} NaN/inf value(s); remove or filter them")
    if y.size and np.all(y == y[0]):
        raise DataError(f"{source}: {name} is constant ({y[0]:g} at every point): nothing to fit, and the "
                        "goodness of fit (FIT %) is undefined")
    with np.errstate(over="ignore", under="ignore"):
        sst = float(np.sum((y - y.mean()) ** 2))
    if not math.isfinite(sst) or sst == 0.0:
        raise DataError(f"{source}: {name} spans {np.min(y):g} to {np.max(y):g}, outside what a least-squares fit "
                        "can square in double precision; rescale it (e.g. --y-scale)")


def _json_number(v: Any) -> float | None:
    """A finite float, or None (JSON has no NaN/Infinity)."""
    v = float(v)
    return v if math.isfinite(v) else None


class Fitter:
    """Fit a model's parameters to data.

    Parameters
    ----------
    model : str or FitModel
        A curve name (``kloss``, ``kloss-slip``, ``kloss-lift``, ``magic-formula``), a
        registered law name (``lugre``, ``kloss_dynamic``, ...), or a :class:`FitModel`.
    free : sequence of str, optional
        Parameters to fit (default: all of the model's parameters not in ``fixed``).
    fixed : mapping, optional
        Parameters held at given values.
    bounds : mapping name -> (lo, hi), optional
        Overrides the model's bounds.
    log_scale : sequence of str, optional
        Parameters optimised in log space (default: the model's choice).
    x0 : mapping, optional
        Starting values (default, or empty: the model's defaults, with the model's data-driven
        start ``guess(data)`` as the second start when ``n_starts > 1``; given values replace
        both).
    n_starts : int
        Number of starts (>= 1).
    seed : int
        Seed of the multi-start sampler.
    kind : {"auto", "static", "dynamic"}
        For a law name: fit its steady curve to (x, y) or simulate it under a time series.
    model_options : mapping, optional
        Passed to the law model (e.g. ``{"output": "friction_coefficient"}``, ``base``).
    loss : str
        ``least_squares`` loss (``"linear"`` = ordinary least squares).
    max_nfev : int, optional
        Evaluation budget per start.
    progress : callable, optional
        Called after every model evaluation as ``progress(start=i, n_starts=n, evaluations=m,
        cost=c, best_cost=b)`` (``cost`` = half the sum of squared residuals; ``best_cost`` the
        best finished start so far, ``inf`` before one finished), e.g. a
        :class:`frictionlab.core.progress.ProgressLines`.

    Examples
    --------
    >>> import numpy as np
    >>> from frictionlab.laws.kloss import kloss
    >>> v = np.linspace(0, 1, 200); y = kloss(v, 1.0, 0.01, 0.5)
    >>> f = Fitter("kloss", n_starts=2).fit((v, y))
    >>> round(f.params_["zeta"], 6), f.fit_percent_ > 99.99
    (0.5, True)
    """

    def __init__(self, model: str | FitModel, *, free: Sequence[str] | None = None,
                 fixed: Mapping[str, float] | None = None, bounds: Mapping[str, tuple[float, float]] | None = None,
                 log_scale: Sequence[str] | None = None, x0: Mapping[str, float] | None = None, n_starts: int = 8,
                 seed: int = 0, kind: str = "auto", model_options: Mapping[str, Any] | None = None,
                 loss: str = "linear", max_nfev: int | None = None, progress=None) -> None:
        self.model = model
        self.free = free
        self.fixed = fixed
        self.bounds = bounds
        self.log_scale = log_scale
        self.x0 = x0
        self.n_starts = n_starts
        self.seed = seed
        self.kind = kind
        self.model_options = model_options
        self.loss = loss
        self.max_nfev = max_nfev
        self.progress = progress

    # ------------------------------------------------------------------------------------
    def get_params(self) -> dict[str, Any]:
        """The constructor arguments as a dict (scikit-learn style)."""
        keys = ("model", "free", "fixed", "bounds", "log_scale", "x0", "n_starts", "seed", "kind", "model_options",
                "loss", "max_nfev", "progress")
        return {k: getattr(self, k) for k in keys}

    def _setup(self, data: Any) -> tuple[FitModel, Any]:
        opts = dict(self.model_options or {})
        kind = self.kind
        if kind == "auto" and isinstance(data, TimeSeries):
            kind = "dynamic"
        fm = resolve_model(self.model, kind=kind, **opts)
        if isinstance(data, tuple) and len(data) == 2:
            data = XYData(data[0], data[1])
        if not isinstance(data, (XYData, TimeSeries)) and not hasattr(data, "y"):
            raise DataError(f"cannot fit to {type(data).__name__}; give XYData, TimeSeries or an (x, y) tuple")
        return fm, data

    def fit(self, data: Any) -> "Fitter":
        """Fit to ``data`` (XYData, TimeSeries, or an ``(x, y)`` tuple); returns ``self``."""
        t_start = time.perf_counter()
        fm, data = self._setup(data)
        names = fm.param_names
        fixed = dict(self.fixed or {})
        for k in fixed:
            if k not in names:
                raise ConfigError(f"fixed parameter {k!r} is not a parameter of {fm.name!r}{suggest(k, names)}; known: {', '.join(names)}")
        free = list(self.free) if self.free is not None else [n for n in names if n not in fixed]
        for k in free:
            if k not in names:
                raise ConfigError(f"free parameter {k!r} is not a parameter of {fm.name!r}{suggest(k, names)}; known: {', '.join(names)}")
            if k in fixed:
                raise ConfigError(f"parameter {k!r} is both free and fixed")
        if not free:
            raise ConfigError("nothing to fit: no free parameters")
        check_starts(self.n_starts, self.seed)
        y = np.asarray(data.y, dtype=float)
        _check_fittable(y, getattr(data, "source", "") or "data", getattr(data, "y_name", "y"))
        if y.size <= len(free):
            raise DataError(f"{getattr(data, 'source', '') or 'data'}: {y.size} point(s) cannot determine "
                            f"{len(free)} free parameter(s); need more than {len(free)}")
        bounds = {**fm.bounds, **dict(self.bounds or {})}
        for k, (lo, hi) in bounds.items():
            if not lo < hi:
                raise ConfigError(f"bounds for {k!r}: lower {lo!r} must be < upper {hi!r}")
        logs = set(self.log_scale if self.log_scale is not None else fm.log_scale)
        for k in logs:
            if k in free and bounds[k][0] < 0:
                raise ConfigError(f"log-scaled parameter {k!r} needs a lower bound >= 0, got {bounds[k][0]!r}")
        user_x0 = dict(self.x0 or {})  # an empty mapping is no start of its own: the data-driven start is used
        start = {**fm.defaults, **user_x0}
        base = {n: fixed.get(n, start.get(n)) for n in names}

        is_log = np.array([k in logs for k in free])
        lo = np.array([bounds[k][0] for k in free], dtype=float)
        hi = np.array([bounds[k][1] for k in free], dtype=float)
        tiny = np.finfo(float).tiny
        ulo = np.where(is_log, np.log(np.maximum(lo, tiny)), lo)
        uhi = np.where(is_log, np.log(np.maximum(hi, tiny * 2)), hi)

        def to_p(u: NDArray[np.float64]) -> dict[str, float]:
            p = dict(base)
            for i, k in enumerate(free):
                p[k] = float(np.exp(u[i]) if is_log[i] else u[i])
            return p

        penalty = 1e3 * (np.std(y) + np.abs(y).max() + 1.0)

        state = {"start": 0, "evals": 0, "best": math.inf}

        def resid(u: NDArray[np.float64]) -> NDArray[np.float64]:
            state["evals"] += 1
            try:
                yh = fm.predict(to_p(u), data)
            except FrictionLabError:
                return np.full(y.size, penalty)
            r = yh - y
            if not np.all(np.isfinite(r)):
                return np.full(y.size, penalty)
            if self.progress is not None:
                self.progress(start=state["start"], n_starts=len(starts), evaluations=state["evals"],
                              cost=0.5 * float(r @ r), best_cost=state["best"])
            return r

        # start points
        u0 = np.array([math.log(max(start[k], tiny)) if is_log[i] else float(start[k]) for i, k in enumerate(free)])
        box_lo = np.where(np.isfinite(ulo), ulo, u0 - 10 * (np.abs(u0) + 1))
        box_hi = np.where(np.isfinite(uhi), uhi, u0 + 10 * (np.abs(u0) + 1))
        # an unbounded log parameter is kept within 1e20 of its start: exp(u) cannot overflow
        u_start, open_ = u0.copy(), is_log & ~(np.isfinite(ulo) & np.isfinite(uhi))
        ulo = np.where(is_log & ~np.isfinite(ulo), u0 - _LOG_SPAN, ulo)
        uhi = np.where(is_log & ~np.isfinite(uhi), u0 + _LOG_SPAN, uhi)
        box_lo, box_hi = np.maximum(box_lo, ulo), np.minimum(box_hi, uhi)
        u0 = np.clip(u0, ulo, uhi)
        rng = np.random.default_rng(self.seed)
        starts = [u0]
        g = fm.guess(data) if not user_x0 else None
        if g and int(self.n_starts) > 1:
            gs = {**start, **{k: v for k, v in g.items() if k in names}}
            ug = np.array([math.log(max(gs[k], tiny)) if is_log[i] else float(gs[k]) for i, k in enumerate(free)])
            starts.append(np.clip(ug, ulo, uhi))
        starts += [rng.uniform(box_lo, box_hi) for _ in range(int(self.n_starts) - len(starts))]
        best = None
        for i_start, s in enumerate(starts, 1):
            state["start"] = i_start
            try:
                r = least_squares(resid, s, bounds=(ulo, uhi), method="trf", loss=self.loss, x_scale="jac",
                                  max_nfev=self.max_nfev)
            except (ValueError, np.linalg.LinAlgError):
                continue
            if best is None or r.cost < best.cost:
                best = r
                state["best"] = float(r.cost)
        if best is None:
            raise FrictionLabError(f"fit of {fm.name!r} failed from every start")
        p_best = to_p(best.x)
        fm.validate(p_best)
        y_pred = fm.predict(p_best, data)
        n, k = y.size, len(free)
        sse = float(np.sum((y_pred - y) ** 2))
        s2 = sse / max(n - k, 1)
        J = np.asarray(best.jac, dtype=float)
        cov_u = s2 * np.linalg.pinv(J.T @ J)
        d = np.array([p_best[kk] if is_log[i] else 1.0 for i, kk in enumerate(free)])
        cov = cov_u * np.outer(d, d)
        self.model_ = fm
        self.free_ = tuple(free)
        self.params_ = p_best
        # a parameter stopped at a bound has no meaningful linearised error: NaN, and listed
        active = np.asarray(getattr(best, "active_mask", np.zeros(len(free))))
        span = np.where(np.isfinite(uhi - ulo), uhi - ulo, np.inf)
        near = (np.abs(best.x - ulo) <= 1e-6 * span) | (np.abs(uhi - best.x) <= 1e-6 * span)
        self.at_bound_ = tuple(kk for i, kk in enumerate(free) if active[i] != 0 or near[i])
        self.undetermined_ = _undetermined(free, self.at_bound_, J, cov, p_best)
        for i, kk in enumerate(free):  # drifted by decades towards the search limit: the data do not hold it
            if open_[i] and kk not in self.undetermined_ and abs(best.x[i] - u_start[i]) > 0.5 * _LOG_SPAN:
                self.undetermined_[kk] = f"ran {math.exp(abs(best.x[i] - u_start[i])):.1g}x from its start"
        self.stderr_ = {kk: (float("nan") if kk in self.undetermined_ else float(math.sqrt(max(cov[i, i], 0.0))))
                        for i, kk in enumerate(free)}
        self.covariance_ = cov
        self.y_pred_ = y_pred
        self.residuals_ = y_pred - y
        self.fit_percent_ = fit_percent(y, y_pred)
        self.rmse_ = math.sqrt(sse / n)
        self.result_ = best
        self.n_points_ = n
        self.data_ = data
        self.units_ = fm.param_units(data)
        self.fixed_ = {kk: p_best[kk] for kk in names if kk not in free}
        self.warnings_ = list(fm.data_warnings(data))
        self.seconds_ = time.perf_counter() - t_start
        for w in self.warnings_:
            warnings.warn(w, FitWarning, stacklevel=2)
        return self

    # ------------------------------------------------------------------------------------
    def _check_fitted(self) -> None:
        if not hasattr(self, "params_"):
            raise FrictionLabError("this Fitter is not fitted yet: call .fit(data) first")

    @property
    def correlation_(self) -> NDArray[np.float64]:
        """Correlation matrix of the free parameters (order ``free_``); NaN rows and columns for
        the undetermined ones, whose linearised covariance says nothing."""
        self._check_fitted()
        c = np.asarray(self.covariance_, dtype=float)
        d = np.sqrt(np.clip(np.diag(c), 0.0, None))
        with np.errstate(divide="ignore", invalid="ignore"):
            r = c / np.outer(d, d)
        bad = np.array([k in self.undetermined_ or not d[i] > 0 for i, k in enumerate(self.free_)])
        r[bad, :] = np.nan
        r[:, bad] = np.nan
        return r

    def problems(self, min_fit: float = MIN_FIT) -> list[str]:
        """Why the fit is not to be trusted, one sentence each (empty: none): FIT below ``min_fit``
        [%], and each parameter the data do not determine."""
        self._check_fitted()
        out = []
        if not self.fit_percent_ >= min_fit:
            out.append(f"FIT {self.fit_percent_:.3f} % is below the floor of {min_fit:g} % "
                       "(the model explains less of the data's variance than the floor asks)")
        for k, why in self.undetermined_.items():
            out.append(f"{k} is not determined by the data ({why})")
        return out

    def report(self, min_fit: float = MIN_FIT) -> str:
        """Plain-text fit report: values, standard errors, units, correlations, problems, warnings."""
        from .report import text_report

        self._check_fitted()
        return text_report(self, min_fit)

    def _repr_html_(self) -> str:
        if not hasattr(self, "params_"):
            return f"<p>Fitter({self.model!r}): not fitted</p>"
        from .report import html_report

        return html_report(self, MIN_FIT)

    def predict(self, data: Any) -> NDArray[np.float64]:
        """Model prediction with the fitted parameters (x array, XYData or TimeSeries)."""
        self._check_fitted()
        return self.model_.predict(self.params_, data)

    def to_dict(self, min_fit: float = MIN_FIT) -> dict[str, Any]:
        """JSON-ready summary: parameters +- standard errors with units, correlations, FIT %,
        RMSE, points, time, warnings and the quality problems against ``min_fit`` [%]."""
        self._check_fitted()
        corr = self.correlation_
        return {
            "model": self.model_.name,
            "params": {k: _json_number(v) for k, v in self.params_.items()},
            "stderr": {k: _json_number(v) for k, v in self.stderr_.items()},
            "units": dict(self.units_),
            "descriptions": {k: v for k, v in self.model_.descriptions.items() if k in self.params_},
            "correlations": {f"{a}:{b}": _json_number(corr[i, j]) for i, a in enumerate(self.free_)
                             for j, b in enumerate(self.free_) if j > i},
            "warnings": list(self.warnings_),
            "min_fit": float(min_fit),
            "problems": self.problems(min_fit),
            "at_bound": list(self.at_bound_),
            "undetermined": {k: v for k, v in self.undetermined_.items()},
            "free": list(self.free_),
            "fit_percent": _json_number(self.fit_percent_),
            "rmse": _json_number(self.rmse_),
            "n_points": self.n_points_,
            "n_starts": int(self.n_starts),
            "seed": int(self.seed),
            "cost": _json_number(self.result_.cost),
            "seconds": self.seconds_,
            "source": getattr(self.data_, "source", ""),
            "data_file": getattr(self.data_, "data_file", None),  # resolved path, sha256, size of the file read
        }

    def write_json(self, path: str | Path, min_fit: float = MIN_FIT) -> Path:
        """Write :meth:`to_dict` as JSON to ``path`` (parent folders created); return the path."""
        from ..core.files import write_json_atomic

        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        return write_json_atomic(path, self.to_dict(min_fit), indent=2)

    def plot(self, title: str = ""):
        """Data vs model (and residuals); returns a matplotlib Figure."""
        self._check_fitted()
        from ..plot import plt

        data = self.data_
        x = data.x if isinstance(data, XYData) else data.time
        fig, (ax, ax2) = plt.subplots(2, 1, figsize=(6.4, 5.2), sharex=True, gridspec_kw={"height_ratios": [3, 1]})
        ax.plot(x, data.y, "k.", ms=3, label="data")
        order = np.argsort(x)
        ax.plot(x[order], self.y_pred_[order], "g-", lw=1.5,
                label=f"{self.model_.name} (FIT {self.fit_percent_:.2f} %)")
        ax.legend(fontsize=8)
        ax.set_ylabel(getattr(data, "y_name", "y"))
        ax2.plot(x, self.residuals_, "r.", ms=2)
        ax2.axhline(0, color="k", lw=0.5)
        ax2.set_ylabel("model - data")
        ax2.set_xlabel(getattr(data, "x_name", "time [s]") if isinstance(data, XYData) else "time [s]")
        txt = ", ".join(f"{k} = {self.params_[k]:.4g} " + ("(not determined)" if k in self.undetermined_
                                                          else f"± {self.stderr_[k]:.2g}")
                        + (f" {self.units_[k]}" if self.units_.get(k, "1") != "1" else "") for k in self.free_)
        ax.set_title(title or txt, fontsize=8)
        fig.tight_layout()
        return fig
