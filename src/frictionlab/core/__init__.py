"""Core: model interface, parameters, registries, results, errors (imports nothing above it).

Names are imported on first use (:mod:`.lazy`), so that ``frictionlab.core.errors`` (what the
CLI needs to start) does not import numpy.
"""

from .lazy import lazy_exports

__all__ = ["AbstractLaw", "AbstractModel", "AbstractSteppedModel", "FrictionLabError", "ParameterError",
           "ConfigError", "IntegrationError", "DataError", "Parameters", "param", "option", "Preset",
           "add_presets", "make_model", "model_names", "presets_of", "register_model"]

__getattr__, __dir__ = lazy_exports(__name__, {
    "AbstractLaw": ".base", "AbstractModel": ".base", "AbstractSteppedModel": ".base",
    "ConfigError": ".errors", "DataError": ".errors", "FrictionLabError": ".errors", "IntegrationError": ".errors",
    "ParameterError": ".errors", "Parameters": ".params", "option": ".params", "param": ".params",
    "Preset": ".registry", "add_presets": ".registry", "make_model": ".registry", "model_names": ".registry",
    "presets_of": ".registry", "register_model": ".registry",
})
