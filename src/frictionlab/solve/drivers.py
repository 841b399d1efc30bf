"""Driver registry: which time-advancing routines can run which model.

A *driver* advances one model family in time under a protocol. It implements its stepping only,
a function of a :class:`~frictionlab.solve.contract.Run` and its options::

    advance(run, **options) -> xarray.Dataset

and the contract (:mod:`frictionlab.solve.contract`) does what every driver shares: the end of the
run, the save interval, the standard variables in SI and the run's attributes. ``options`` are
exactly the names declared at registration, filled with their declared defaults when the caller
does not give them.

Drivers are registered on a model *class* with :func:`register_driver`; lookups walk the
model's MRO (:func:`drivers_for`), so a driver registered on
:class:`~frictionlab.core.base.AbstractLaw` serves every rate law, and a family can add or
override drivers on its own class. Generic drivers (the integrators of the rate laws and the
stepping loop) register from :mod:`frictionlab.solve.law_drivers`; drivers that only one
family provides register from that family's own package (which imports this module), so
``solve`` never imports ``laws``/``contact``. A package declares where its drivers live next to
its model class (:func:`frictionlab.core.registry.declare_drivers`); :func:`driver_for` and
:func:`default_driver` import the declared modules of the classes of a model's MRO, nearest
first, and stop at the driver they need (not every model package, whose imports a fresh process
would pay for one contact solve or one rate-state run); :func:`drivers_for`, the full listing,
discovers every package first (:func:`frictionlab.core.registry.discover`), so that a driver one
package registers on another's class (the servo on every rate law) is listed too.
"""

from __future__ import annotations

import importlib
import math
import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..core.base import AbstractLaw, AbstractSteppedModel
from ..core.errors import ConfigError, suggest
from ..core.registry import declare_drivers, driver_modules
from ..systems.base import AbstractSystem

__all__ = ["Driver", "OptionSpec", "run_attrs", "protocol_attrs", "register_driver", "drivers_for", "default_driver", "driver_for", "check_options"]


@dataclass(frozen=True)
class OptionSpec:
    """An option whose values are not of one type (e.g. ``progress``: a bool or a callable).

    ``default`` is used when the caller gives nothing; ``accepts(value)`` decides what is valid
    and ``kinds`` says it in error messages.
    """

    default: Any
    accepts: Callable[[Any], bool]
    kinds: str


@dataclass(frozen=True)
class Driver:
    """A registered driver (see module docstring).

    Attributes
    ----------
    name : str
        Name given as ``simulate(..., integrator=name)`` or ``[integrator] driver = name``.
    func : callable
        The stepping, ``func(run, **options) -> Dataset`` (:class:`~frictionlab.solve.contract.Run`).
    model_cls : type
        Class it is registered on (serves that class and its subclasses).
    options : Mapping[str, Any]
        Option names and their defaults; a value given by the caller must have the type of
        the default (a float default accepts ints; a ``None`` default accepts a number).
    systems : tuple of type
        System classes it can host (``isinstance`` test).
    default : bool
        The default driver of ``model_cls``.
    feedback : bool
        Whether it runs feedback protocols (``protocol.feedback``, e.g. PulsatingThreshold).
    adaptive : bool
        Whether the step is chosen adaptively (``dt`` is then only the first step).
    description : str
        One line for listings.
    refuses : Mapping[str, str]
        Protocol features (:data:`~frictionlab.protocols.base.PROTOCOL_FEATURES`) the driver does
        not take, each with the reason; :meth:`refusal` names it before the driver runs, so what a
        driver cannot run is a documented property, listed with it.
    t_end : str
        The ends of the run it takes (:data:`~frictionlab.solve.contract.T_END`): ``"any"``,
        ``"within"`` (up to the protocol's duration) or ``"whole"`` (the whole protocol only).
    saving : str
        Who picks the saved rows (:data:`~frictionlab.solve.contract.SAVING`): ``"steps"`` (the
        driver, from ``run.save_dt``) or ``"rows"`` (the contract, from every step it returns).
    refuse_save_dt : str
        Why it takes no ``save_dt`` (empty: it takes one).
    """

    name: str
    func: Callable[..., Any]
    model_cls: type
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    systems: tuple[type, ...] = ()
    default: bool = False
    feedback: bool = False
    adaptive: bool = False
    description: str = ""
    refuses: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    t_end: str = "any"
    saving: str = "steps"
    refuse_save_dt: str = ""

    def run(self, model: Any, protocol: Any, system: Any, *, dt: float | None, t_end: float | None,
            save_dt: float | None, options: Mapping[str, Any]) -> Any:
        """Run the stepping under the contract (:mod:`frictionlab.solve.contract`): the end and the
        save interval checked, then the rows, the standard variables and the attributes completed."""
        from .contract import finish, start

        run = start(self, model, protocol, system, dt=dt, t_end=t_end, save_dt=save_dt)
        return finish(self.func(run, **options), run, self)

    def hosts(self, system: Any) -> bool:
        """Whether this driver can run a model inside ``system``.

        A system without a right-hand-side form (``rhs_form = False``) is hosted only by drivers
        that name its class (or a subclass of :class:`AbstractSystem` it derives from), never by
        the generic ``systems=(AbstractSystem,)`` drivers.
        """
        if not isinstance(system, self.systems):
            return False
        return getattr(system, "rhs_form", True) or any(
            s is not AbstractSystem and isinstance(system, s) for s in self.systems)

    def refusal(self, protocol: Any, system: Any) -> str | None:
        """One-line reason why this driver cannot run ``protocol`` in ``system``, or ``None``."""
        if not self.hosts(system):
            names = ", ".join(repr(s.type_name or s.__name__) for s in self.systems)
            others = [d.name for d in _lookup(self.model_cls).values() if d.hosts(system)]
            hint = f" (drivers that do: {', '.join(others)})" if others else ""
            return (f"driver {self.name!r} of {self.model_cls.__name__} cannot host system "
                    f"{system.type_name!r}; it hosts {names}{hint}")
        if protocol is not None and protocol.feedback and not self.feedback:
            return f"driver {self.name!r} cannot run the feedback protocol {protocol.type_name!r}"
        if protocol is not None and self.refuses:
            from ..protocols.base import PROTOCOL_FEATURES

            label = getattr(self.model_cls, "name", "") or self.model_cls.__name__
            for feature in sorted(self.refuses.keys() & protocol.features):
                return (f"driver {self.name!r} of {label} refuses protocol {protocol.type_name!r}: "
                        f"{PROTOCOL_FEATURES[feature]} ({feature}), and {self.refuses[feature]}")
        return None


#: model class -> {driver name -> Driver}, in registration order
_DRIVERS: dict[type, dict[str, Driver]] = {}

def _import_class_drivers(cls: type) -> dict[str, Driver]:
    """Import the modules declared to register drivers on ``cls`` and return its own drivers."""
    for module in driver_modules(cls):
        importlib.import_module(module)
    return _DRIVERS.get(cls, {})


def register_driver(
    model_cls: type,
    name: str,
    func: Callable[..., Any],
    *,
    default: bool = False,
    options: Mapping[str, Any] = MappingProxyType({}),
    systems: tuple[type, ...] | None = None,
    feedback: bool = False,
    adaptive: bool = False,
    description: str = "",
    refuses: Mapping[str, str] = MappingProxyType({}),
    t_end: str = "any",
    saving: str = "steps",
    refuse_save_dt: str = "",
) -> Driver:
    """Register ``func`` as driver ``name`` of ``model_cls`` (and its subclasses).

    Parameters
    ----------
    model_cls : type
        Model class served (lookups walk the MRO: the nearest registration of a name wins).
    name : str
        Driver name (unique per class; re-registering replaces it).
    func : callable
        The stepping, ``func(run, **options) -> xarray.Dataset`` with ``run`` a
        :class:`~frictionlab.solve.contract.Run` (``model``, ``protocol``, ``system``, ``dt``,
        ``t_end`` resolved, ``save_dt``); the contract completes its result.
    default : bool
        Make it the default driver of ``model_cls`` (replacing a previous default).
    options : mapping
        Every option the driver accepts, with its default; nothing else is accepted.
    systems : tuple of system classes, optional
        Systems it can host; ``None`` means kinematic driving only
        (:class:`~frictionlab.systems.prescribed_slip.PrescribedSlip`).
    feedback : bool
        It can run feedback protocols.
    adaptive : bool
        Its step is adaptive (``dt`` is a first step, not a fixed one).
    description : str
        One line shown in listings and error messages.
    refuses : mapping, optional
        ``{feature: reason}``: the protocol features
        (:data:`~frictionlab.protocols.base.PROTOCOL_FEATURES`) it does not take and why, completing
        the sentence "<the feature>, and <reason>"; such a protocol is refused before the run.
    t_end : {"any", "within", "whole"}
        The ends of the run it takes (:data:`~frictionlab.solve.contract.T_END`); another is refused.
    saving : {"steps", "rows"}
        ``"steps"``: the stepping saves from ``run.save_dt`` on its own grid; ``"rows"``: it returns
        every step and the contract keeps the first at or after each multiple of ``save_dt``.
    refuse_save_dt : str
        The reason it takes no ``save_dt`` (a given one is refused before the run); empty: it takes one.
    """
    if not isinstance(model_cls, type):
        raise TypeError(f"register_driver needs a model class, got {model_cls!r}")
    if not name or not name.replace("_", "").isalnum():
        raise ValueError(f"driver name {name!r} must be a non-empty identifier")
    if systems is None:
        from ..systems.prescribed_slip import PrescribedSlip

        systems = (PrescribedSlip,)
    systems = tuple(systems)
    if not systems or not all(isinstance(s, type) and issubclass(s, AbstractSystem) for s in systems):
        raise TypeError(f"driver {name!r}: systems must be AbstractSystem subclasses, got {systems!r}")
    reserved = {"dt", "t_end", "save_dt", "system", "integrator"} & set(options)
    if reserved:
        raise ValueError(f"driver {name!r}: option names {sorted(reserved)} are reserved by simulate")
    from ..protocols.base import PROTOCOL_FEATURES

    unknown = set(refuses) - set(PROTOCOL_FEATURES)
    if unknown or not all(isinstance(r, str) and r for r in refuses.values()):
        raise ValueError(f"driver {name!r}: refuses must map features of {sorted(PROTOCOL_FEATURES)} to a reason, "
                         f"got {dict(refuses)!r}")
    from .contract import SAVING, T_END

    if t_end not in T_END or saving not in SAVING:
        raise ValueError(f"driver {name!r}: t_end must be one of {sorted(T_END)} and saving one of {sorted(SAVING)}, "
                         f"got {t_end!r}, {saving!r}")
    table = _DRIVERS.setdefault(model_cls, {})
    if default:
        for other in list(table.values()):
            if other.default:
                table[other.name] = Driver(**{**other.__dict__, "default": False})
    drv = Driver(name=name, func=func, model_cls=model_cls, options=MappingProxyType(dict(options)),
                 systems=systems, default=default, feedback=feedback, adaptive=adaptive,
                 description=description, refuses=MappingProxyType(dict(refuses)), t_end=t_end, saving=saving,
                 refuse_save_dt=refuse_save_dt)
    table[name] = drv
    return drv


def _mro(model: Any) -> tuple[type, ...]:
    cls = model if isinstance(model, type) else type(model)
    return cls.__mro__


def _lookup(model: Any) -> dict[str, Driver]:
    """The drivers the declared modules of ``model``'s MRO register, nearest class first."""
    for cls in _mro(model):
        _import_class_drivers(cls)
    out: dict[str, Driver] = {}
    for cls in _mro(model):
        for name, drv in _DRIVERS.get(cls, {}).items():
            out.setdefault(name, drv)
    return out


def drivers_for(model: Any) -> dict[str, Driver]:
    """Every driver that serves ``model`` (an instance or a class), nearest class first.

    Every model package is discovered first (:func:`~frictionlab.core.registry.discover`), then the
    modules declared for the classes of its MRO are imported, so a family's drivers, and those another
    package registers on its classes, are known however its model was imported.
    """
    from ..core.registry import discover

    discover()
    return _lookup(model)


def default_driver(model: Any, system: Any = None, protocol: Any = None) -> Driver:
    """The driver :func:`~frictionlab.solve.simulate` uses when none is named.

    That is the default registered on the nearest class of ``model``'s MRO; when it cannot
    run ``protocol`` in ``system`` (e.g. a kinematic-only default under a mass system, or a
    feedback protocol), the first driver of :func:`drivers_for` that can. Raises
    :class:`ConfigError` when the model has no driver, or none fits.
    """
    label = model.__name__ if isinstance(model, type) else type(model).__name__
    if system is None and protocol is not None:
        from ..systems.prescribed_slip import PrescribedSlip

        system = PrescribedSlip()
    # the nearest class's default not shadowed by a nearer driver of its name; the classes of the
    # MRO are imported one at a time, so a default that fits needs no farther class's drivers
    seen: set[str] = set()
    for cls in _mro(model):
        own = _import_class_drivers(cls)
        first = next((d for d in own.values() if d.default and d.name not in seen), None)
        if first is not None:
            if system is None or first.refusal(protocol, system) is None:
                return first
            break
        seen.update(own)
    table = _lookup(model)
    if not table:
        raise ConfigError(f"model {label} has no registered driver; see frictionlab.solve.register_driver")
    first = first or next(iter(table.values()))
    if system is None or first.refusal(protocol, system) is None:
        return first
    for drv in table.values():
        if drv.refusal(protocol, system) is None:
            return drv
    raise ConfigError(f"no driver of {label} can run it: {first.refusal(protocol, system)}; "
                      f"drivers: {', '.join(table)}")


def driver_for(model: Any, name: str) -> Driver:
    """The driver ``name`` of ``model``; an unknown name is a one-line :class:`ConfigError`.

    The classes of the MRO are searched nearest first, importing each one's driver modules in
    turn: the nearest registration wins, as in :func:`drivers_for`, and a driver found on the
    model's own class imports nothing of the generic drivers (a rate-state ``quasi_static`` run
    loads neither numba nor xarray)."""
    for cls in _mro(model):
        drv = _import_class_drivers(cls).get(name)
        if drv is not None:
            return drv
    table = _lookup(model)
    if name not in table:
        table = drivers_for(model)
    if name not in table:
        label = model.__name__ if isinstance(model, type) else type(model).__name__
        raise ConfigError(f"unknown driver {name!r} for {label}{suggest(name, table)}; "
                          f"known: {', '.join(table) or 'none'}")
    return table[name]


def _type_ok(default: Any, value: Any) -> bool:
    if default is None:
        return value is None or (isinstance(value, numbers.Real) and not isinstance(value, bool))
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, numbers.Integral):
        return isinstance(value, numbers.Integral) and not isinstance(value, bool)
    if isinstance(default, numbers.Real):
        return isinstance(value, numbers.Real) and not isinstance(value, bool)
    return isinstance(value, type(default))


def check_options(driver: Driver, given: Mapping[str, Any]) -> dict[str, Any]:
    """Declared defaults of ``driver`` updated with ``given``; unknown names and wrong types raise.

    Raises
    ------
    ConfigError
        One line naming the driver and its valid options (with a suggestion), or the
        expected type.
    """
    out = {k: (v.default if isinstance(v, OptionSpec) else v) for k, v in driver.options.items()}
    for key, value in given.items():
        if key not in driver.options:
            known = ", ".join(driver.options) or "none"
            raise ConfigError(f"driver {driver.name!r} has no option {key!r}{suggest(key, driver.options)}; "
                              f"its options: {known}")
        default = driver.options[key]
        if isinstance(default, OptionSpec):
            if not default.accepts(value):
                raise ConfigError(f"option {key!r} of driver {driver.name!r} must be {default.kinds}, "
                                  f"got {type(value).__name__} {value!r}")
            out[key] = value
            continue
        if not _type_ok(default, value):
            want = "a number" if default is None else type(default).__name__
            raise ConfigError(f"option {key!r} of driver {driver.name!r} must be {want} "
                              f"(like its default {default!r}), got {type(value).__name__} {value!r}")
        if isinstance(value, numbers.Real) and not isinstance(value, bool) and not math.isfinite(float(value)):
            raise ConfigError(f"option {key!r} of driver {driver.name!r} must be finite, got {value!r}")
        out[key] = value
    return out


def protocol_attrs(protocol: Any) -> dict[str, Any]:
    """The protocol's fields as result attributes ``protocol.<field>``."""
    return {f"protocol.{k}": v for k, v in protocol.attrs().items()}


def run_attrs(model: Any, protocol: Any, system: Any, integrator: str, **extra: Any) -> dict[str, Any]:
    """The ``attrs`` every driver's result carries: model parameters (literature names), model,
    protocol and system names, the driver, ``protocol.*`` and ``system.*`` fields, the citation,
    then ``extra`` (e.g. ``dt``, tolerances)."""
    attrs = {**model.attrs(), "model": model.name, "protocol": protocol.type_name, "system": system.type_name,
             "integrator": integrator, **extra, **protocol_attrs(protocol)}
    attrs.update({f"system.{k}": v for k, v in system.attrs().items()})
    if model.citation:
        attrs["citation"] = model.citation
    return attrs


# the generic drivers (every rate law, every stepped model) live in this package
for _cls in (AbstractLaw, AbstractSteppedModel):
    declare_drivers(_cls, f"{__package__}.law_drivers")
del _cls
