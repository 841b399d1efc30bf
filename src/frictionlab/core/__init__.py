"""Core: model interface, parameters, registries, results, errors (imports nothing above it)."""

from .base import AbstractLaw, AbstractModel, AbstractSteppedModel
from .errors import ConfigError, DataError, FrictionLabError, IntegrationError, ParameterError
from .params import Parameters, option, param
from .registry import Preset, add_presets, make_model, model_names, presets_of, register_model

__all__ = ["AbstractLaw", "AbstractModel", "AbstractSteppedModel", "FrictionLabError", "ParameterError",
           "ConfigError", "IntegrationError", "DataError", "Parameters", "param", "option", "Preset",
           "add_presets", "make_model", "model_names", "presets_of", "register_model"]
