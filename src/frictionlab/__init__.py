"""frictionlab: friction models from five research works behind one interface."""

from . import laws, protocols, systems
from .core import (AbstractLaw, AbstractModel, AbstractSteppedModel, ConfigError, DataError, FrictionLabError,
                   IntegrationError, ParameterError, make_model, model_names)
from .solve import simulate
from .core.citations import citations
from .fit import Fitter

__version__ = "0.1.0"

__all__ = ["laws", "protocols", "systems", "simulate", "make_model", "model_names", "citations", "Fitter",
           "AbstractLaw", "AbstractModel", "AbstractSteppedModel", "FrictionLabError", "ParameterError",
           "ConfigError", "IntegrationError", "DataError", "__version__"]
