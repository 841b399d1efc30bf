"""Parameter identification for every model: static curves and simulated time series.

``Fitter(model, ...).fit(data)`` (scikit-learn contract) with bounds, log-scaled
parameters, seeded multi-start ``scipy.optimize.least_squares``, Jacobian standard errors
and FIT % = 100 R^2. :mod:`frictionlab.fit.rsf` inverts rate-and-state parameters from
real velocity-step records. ``frictionlab fit`` is the command-line front end.
"""

from ..core.lazy import lazy_exports

__all__ = ["Fitter", "fit_percent", "FitWarning", "MIN_FIT", "XYData", "TimeSeries", "RecordedInput", "load_xy",
           "load_timeseries", "load_coefficients", "read_table", "CURVES", "CurveModel", "FitModel", "LawStaticModel",
           "LawDynamicModel", "register_curve", "resolve_model"]

# imported on first use: ``frictionlab fit --help`` needs neither numpy nor scipy.optimize
__getattr__, __dir__ = lazy_exports(__name__, {
    **dict.fromkeys(["RecordedInput", "TimeSeries", "XYData", "load_coefficients", "load_timeseries", "load_xy",
                     "read_table"], ".data"),
    **dict.fromkeys(["Fitter", "fit_percent", "FitWarning", "MIN_FIT"], ".fitter"),
    **dict.fromkeys(["CURVES", "CurveModel", "FitModel", "LawDynamicModel", "LawStaticModel", "register_curve",
                     "resolve_model"], ".models"),
})
