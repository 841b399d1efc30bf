"""Name -> class registries for models, with named parameter presets.

Models register themselves with :func:`register_model`; presets with :func:`add_presets`.
Lookups of unknown names raise :class:`ConfigError` with "did you mean" suggestions.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from .errors import ConfigError, suggest

__all__ = ["Preset", "register_model", "add_presets", "get_model_class", "make_model",
           "model_names", "presets_of", "discover", "declare_drivers", "driver_modules"]

T = TypeVar("T", bound=type)

_MODELS: dict[str, type] = {}
_PRESETS: dict[str, dict[str, "Preset"]] = {}


@dataclass(frozen=True)
class Preset:
    """A named parameter set with provenance; values already in SI units."""

    params: dict[str, Any]
    source: str
    doi: str = ""
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def _repr_html_(self) -> str:
        """Notebook view: the values with their model's units and ranges, the source and DOI."""
        from .html_repr import preset_html

        model_name, preset_name = getattr(self, "_owner", ("", ""))
        label = f"{model_name}/{preset_name}" if model_name else ""
        return preset_html(self, _MODELS.get(model_name), label)


def register_model(cls: T) -> T:
    """Class decorator: register a model under ``cls.name``."""
    name = getattr(cls, "name", "")
    if not name:
        raise TypeError(f"{cls.__name__} has no 'name' to register under")
    _MODELS[name] = cls
    return cls


def add_presets(model_name: str, presets: dict[str, Preset]) -> None:
    own = {}
    for preset_name, preset in presets.items():
        if getattr(preset, "_owner", None) not in (None, (model_name, preset_name)):
            preset = replace(preset)  # shared with another model (subloading, subloading_rate): its own copy
        object.__setattr__(preset, "_owner", (model_name, preset_name))  # for its notebook view
        own[preset_name] = preset
    _PRESETS.setdefault(model_name, {}).update(own)


#: class -> modules that register drivers on it, declared by the package that defines them
_DRIVER_MODULES: dict[type, list[str]] = {}


def declare_drivers(owner: type, module: str) -> None:
    """Declare that importing ``module`` registers drivers on the class ``owner``.

    A model family calls it next to its model class (``declare_drivers(RoughContact, ".driver")``):
    importing the model declares where its drivers live, and the driver lookup
    (:func:`frictionlab.solve.drivers.driver_for`) imports that module when it first needs a driver of
    the class, so neither the model's import nor any other family's run pays for it. A relative
    ``module`` is resolved against the package of ``owner``'s module; a package may declare drivers on a
    class of another (the servo driver on every rate law).
    """
    if module.startswith("."):
        module = importlib.util.resolve_name(module, owner.__module__.rpartition(".")[0])
    mods = _DRIVER_MODULES.setdefault(owner, [])
    if module not in mods:
        mods.append(module)


def driver_modules(owner: type) -> tuple[str, ...]:
    """The modules declared (:func:`declare_drivers`) to register drivers on ``owner`` itself."""
    return tuple(_DRIVER_MODULES.get(owner, ()))


_DISCOVERED = False

#: The modules that register each model and add its presets. A lookup by name (:func:`get_model_class`,
#: :func:`make_model`, :func:`presets_of`) imports these instead of every model package (a first
#: ``make_model("kloss")`` imported the rough-contact, beam-network and microjunction packages too); a
#: name not listed falls back to :func:`discover`. A new ``register_model`` or ``add_presets`` call adds
#: its module here (``tests/unit/test_imports_lazy.py`` checks the table against a full discovery).
MODEL_MODULES: dict[str, tuple[str, ...]] = {
    "beam_network": ("frictionlab.contact.beam_network.params",),
    "coulomb": ("frictionlab.laws.coulomb",),
    "dahl": ("frictionlab.laws.dahl",),
    "gms": ("frictionlab.laws.gms",),
    "kloss": ("frictionlab.laws.kloss",),
    "kloss_dynamic": ("frictionlab.laws.kloss",),
    "lugre": ("frictionlab.laws.lugre",),
    "microjunction": ("frictionlab.contact.microjunction.junction", "frictionlab.contact.microjunction.presets"),
    "rate_state": ("frictionlab.laws.rate_state",),
    "rate_state2": ("frictionlab.laws.rate_state2",),
    "rough_contact": ("frictionlab.contact.rough.model",),
    "stribeck": ("frictionlab.laws.stribeck",),
    "subloading": ("frictionlab.laws.subloading",),
    "subloading_rate": ("frictionlab.laws.subloading",),
}

_LOOKED_UP: set[str] = set()


def _import_model(name: str) -> None:
    """Import the modules registering model ``name`` (:data:`MODEL_MODULES`); all of them
    (:func:`discover`) when it is not listed or they do not register it."""
    if _DISCOVERED or name in _LOOKED_UP:
        return
    for module in MODEL_MODULES.get(name, ()):
        importlib.import_module(module)
    if name in _MODELS and name in MODEL_MODULES:
        _LOOKED_UP.add(name)
    else:
        discover()


def discover() -> None:
    """Import every module of the model and system packages so that they register (models, presets,
    systems and drivers), and :mod:`frictionlab.control` (the ``servo`` system and driver); done
    once per process."""
    global _DISCOVERED
    if _DISCOVERED:
        return
    for pkg_name in ("frictionlab.laws", "frictionlab.contact", "frictionlab.systems"):
        pkg = importlib.import_module(pkg_name)
        for mod in pkgutil.walk_packages(pkg.__path__, pkg_name + "."):
            importlib.import_module(mod.name)
    importlib.import_module("frictionlab.control")
    _DISCOVERED = True


def model_names() -> list[str]:
    """Sorted names of every registered model (laws, stepped and contact models)."""
    discover()
    return sorted(_MODELS)


def get_model_class(name: str) -> type:
    if not isinstance(name, str):
        raise ConfigError(f"model name must be a string like 'lugre', got {type(name).__name__} {name!r}"[:200])
    _import_model(name)
    if name not in _MODELS:
        raise ConfigError(f"unknown model {name!r}{suggest(name, _MODELS)}; known: {', '.join(sorted(_MODELS))}")
    return _MODELS[name]


def presets_of(name: str) -> dict[str, Preset]:
    get_model_class(name)
    return dict(_PRESETS.get(name, {}))


def make_model(name: str, preset: str | None = None, **overrides: Any) -> Any:
    """Instantiate model ``name`` from ``preset`` (if given) with ``overrides`` applied."""
    cls = get_model_class(name)
    values: dict[str, Any] = {}
    if preset is not None:
        if not isinstance(preset, str):
            raise ConfigError(f"model {name!r}: preset must be a string, got {type(preset).__name__} {preset!r}"[:200])
        ps = _PRESETS.get(name, {})
        if preset not in ps:
            raise ConfigError(
                f"model {name!r} has no preset {preset!r}{suggest(preset, ps)}; known: {', '.join(sorted(ps)) or 'none'}"
            )
        values.update(ps[preset].params)
    values.update(overrides)
    return cls.from_dict(values)
