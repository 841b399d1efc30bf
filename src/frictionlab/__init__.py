"""frictionlab: friction models from five research works behind one interface.

Public names are imported on first use (``frictionlab.core.lazy``): ``import frictionlab`` loads
no heavy dependency; ``frictionlab.simulate`` imports the solver when first touched.
"""

from .core.lazy import lazy_exports

__version__ = "0.1.0"

__all__ = ["laws", "protocols", "systems", "simulate", "make_model", "model_names", "citations", "Fitter",
           "AbstractLaw", "AbstractModel", "AbstractSteppedModel", "FrictionLabError", "ParameterError",
           "ConfigError", "IntegrationError", "DataError", "__version__"]

__getattr__, __dir__ = lazy_exports(__name__, {
    "AbstractLaw": ".core.base", "AbstractModel": ".core.base", "AbstractSteppedModel": ".core.base",
    "FrictionLabError": ".core.errors", "ParameterError": ".core.errors", "ConfigError": ".core.errors",
    "IntegrationError": ".core.errors", "DataError": ".core.errors",
    "make_model": ".core.registry", "model_names": ".core.registry",
    "simulate": ".solve", "citations": ".core.citations", "Fitter": ".fit",
})
