r"""Rough-surface asperity-ensemble contact model and static-ageing driver.

A flat deformable body, discretised as an ``nx x ny`` grid of elements (spacing
:math:`\bar\Delta`), is pressed with a total load :math:`W=-\bar F_N` against a rigid rough
surface ``h``. Each time step solves the complementarity problem (paper eqs. 16-17)
with the step operator of the chosen interaction (Boussinesq FFT or mean field) and material
(elastic, multi-rate viscoelastic, viscoplastic creep), then advances the material history.
The static friction coefficient is :math:`\mu_s = \bar\tau_S\bar A/W` (paper eqs. 13-15),
with :math:`\bar A = \bar\Delta^2|\{p_i>0\}|` (the elements in contact, Sect. 2.4).

The kernel computes in the paper's non-dimensional units (eq. 6; the parameters of :class:`RoughContact`
are SI and reach it through :meth:`RoughContact.kernel_parameters`): lengths in :math:`L^* = 1` µm, times in
:math:`T^* = 1` s, forces in :math:`F^* = 2\pi G L^{*2}/(1-\nu) = 0.2513` N (G = 30 GPa,
ν = 0.25), stresses in :math:`F^*/L^{*2} = 251.3` GPa.

:class:`RoughContactSim` keeps the per-element state (contact forces ``p``, hereditary states
``q``, plastic shortening ``u_p`` and accumulated ``u_acc``) and exposes :meth:`~RoughContactSim.step`,
which accepts the rigid heights *of this step* (shifted for sliding) and warm-starts the solver
from the previous forces -- the building block of static holds (:func:`run_static`) and of
sliding protocols.

Notes
-----
Readings of the paper (Hulikal, Lapusta & Bhattacharya 2015): the self term 3.8 of eq. 7 as
printed (Love's exact centre value would be 3.5255, see ``rough-contact/fig3``),
:math:`\bar C^0 = 16` and the other Table 1 values, the natural log for the 'log' of eqs. 14-15,
elements in contact iff :math:`p_i>0`, 4-connected clusters (the paper does not say how it counts
contacts), instantaneous loading at :math:`t=0^+` (Sect. 4) with the instantaneous compliance.

References
----------
S. Hulikal, N. Lapusta, K. Bhattacharya, "Static and sliding contact of rough surfaces: effect
of asperity-scale properties and long-range elastic interactions" (2015).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import xarray as xr

from ...core.base import AbstractModel, ContractCase
from ...core.errors import ConfigError, IntegrationError, ParameterError
from ...core.params import option, param
from ...core.registry import Preset, add_presets, register_model, declare_drivers
from .clusters import label_clusters
from .constitutive import Viscoelastic, Viscoplastic
from .elasticity import BoussinesqFFT, MeanField, StepOperator
from .numerics import SOLVER_OPTION_NAMES, SolverOptions
from .solver import SolveResult, alg1_solve, extrapolated_start, meanfield_solve, pk_solve
from .units import F_STAR, STRESS_STAR, paper_unit, to_paper, to_si_value

__all__ = ["RoughContact", "KernelParameters", "VISCOPLASTIC_ONLY", "RoughContactSim", "run_static", "load_from_pressure",
           "contact_clusters", "force_pdf", "F_STAR", "STRESS_STAR", "TAU_S_BAR"]

#: paper's static shear strength 2.5 GPa, non-dimensional
TAU_S_BAR = 2.5e9 / STRESS_STAR


def load_from_pressure(pressure_pa: float, nx: int, ny: int, dx: float = 1.0) -> float:
    """Total load ``W = p_nominal * nx * ny * dx^2`` in F* units for a nominal pressure [Pa] (``dx`` in the kernel's
    L* = 1 um, as :meth:`RoughContact.kernel_parameters`)."""
    if not (pressure_pa > 0 and math.isfinite(pressure_pa)):
        raise ParameterError(f"nominal pressure = {pressure_pa!r} Pa must be positive (compressive)")
    return to_paper(pressure_pa, "Pa") * nx * ny * dx * dx


def _si_hint(what: str, unit: str, paper: str, paper_value: float, si_unit: str) -> str:
    """The reason of an SI parameter's range: a value in the paper's units lies far outside it."""
    return (f"the parameters of rough_contact are SI ({what} in {unit}); the paper's {paper} is "
            f"{to_si_value(paper_value, si_unit):.4g} {unit} (its units, eq. 6: L* = 1 um, T* = 1 s, F* = 0.2513 N)")


#: stress parameters [Pa] and their paper (Table 1) values in F*/um^2: a positive value below
#: :data:`_MIN_STRESS` is a value in the paper's units given by habit, and is refused
_STRESS_FIELDS = {"tau_s": "2.5 GPa (9.947e-3 F*/um^2)", "alpha": "2e-4 F*/um^2 (50.27 MPa)"}
_MIN_STRESS = 1e3  # Pa: a kPa shear strength of metal or rock asperities is not physical


@register_model
@dataclass(frozen=True)
class RoughContact(AbstractModel):
    r"""Parameters of the rough-surface asperity-ensemble model (paper Table 1), in SI.

    The paper computes in non-dimensional units (eq. 6: :math:`L^* = 1` µm, :math:`T^* = 1` s,
    :math:`F^* = 2\pi G L^{*2}/(1-\nu) = 0.2513` N); the parameters here are SI, and the kernel
    gets them in the paper's units from :meth:`kernel_parameters` (the one conversion,
    :func:`~frictionlab.contact.rough.units.to_paper` by each field's ``units``). Each default is
    the paper's value; a value in the paper's units given by habit (``dx = 1.0`` for 1 µm) lies far
    outside a length's, compliance's or creep rate's range and is refused with the SI value.

    Parameters
    ----------
    interaction : {"boussinesq", "meanfield"}
        Long-range Boussinesq coupling (eq. 8) or no interaction (eq. 5).
    C0 : float
        Mean-field compliance :math:`\bar C^0` [m/N] (paper 16 L*/F* = 6.366e-5 m/N).
    self_coef : float
        Boussinesq self term :math:`\kappa_0` in :math:`K_{ii}=\kappa_0/\bar\Delta` (paper 3.8;
        exact uniform square 3.5255).
    dx : float
        Element spacing :math:`\bar\Delta` [m] (1e-6, the paper's 1 L*: 512 elements on the 512 µm of
        Table 1).
    periodic : bool
        Periodic elastic patch (continuum spectral kernel) instead of the paper's finite patch.
    material : {"viscoelastic", "viscoplastic", "elastic"}
    lams, As : tuple of float
        Relaxation rates :math:`\bar\lambda_k` and amplitudes :math:`\bar A_k` [1/s] (paper 1, 0.2 per T* = 1 s).
    ve_scheme : {"linear", "constant"}
        Exponential integration with piecewise-linear or piecewise-constant force.
    A_cr : float
        Creep rate :math:`\bar A_{cr}` [m/s] (paper 1e-4 L*/T* = 1e-10 m/s).
    n_cr : float
        Creep exponent :math:`n` (paper 3).
    Fy0 : float
        Initial yield force :math:`\bar F^y_0` [N] (paper 0.016 F* = 4.02 mN, i.e. 4 GPa on 1 µm^2).
    B : float
        Hardening coefficient :math:`\bar B` [1/m] (paper 0).
    m_h : float
        Hardening exponent :math:`m` (paper 1).
    vp_scheme : {"implicit", "explicit"}
    tau_s : float
        Static shear strength :math:`\bar\tau_S` [Pa] (paper 2.5 GPa = 9.947e-3 F*/L*^2).
    alpha : float
        Velocity hardening :math:`\alpha` [Pa] (Table 1: 2e-4 F*/L*^2 = 50.27 MPa; natural log of the
        velocity in µm/s, the paper's :math:`\bar v`, in eqs. 14-15).
    patch_nx, patch_ny : int
        Deformable patch of ``patch_nx x patch_ny`` elements (paper §5: 512 x 512); with
        ``dx`` it is the nominal contact area, so the normal force [N] of a protocol sets the
        nominal pressure.
    surface_mx : int
        Length of the rigid rough surface along the sliding direction [elements] (paper 1024).
    surface_sigma, surface_beta : float
        rms height :math:`\bar\sigma` and correlation length :math:`\bar\beta` of the rigid
        Gaussian surface [m] (paper 1 and 10 L*: 1e-6 and 1e-5 m).
    surface_acf : {"gaussian", "exponential", "iid"}
        Its autocorrelation function; ``"iid"``: independent :math:`N(0, \bar\sigma^2)` heights
        (no correlation, ``surface_beta`` unused: the assumption of the mean field's closed form).
    surface_seed : int
        Seed of the surface realisation.
    surface_wrap : bool
        The rigid surface is periodic with period ``surface_mx`` and a run may slide over
        surface the patch has already covered (False: such a run is refused before it starts).

        The surface fields describe the contact geometry -- the statistics and size of the
        interface -- so they are physics and live here (swept, fitted, dumped with the model);
        how a run is discretised in time (slip per step, hold step, interpolation of the
        shifted surface) is numerics and belongs to the drivers
        (:mod:`frictionlab.contact.rough.driver`). They are read by the drivers of
        :func:`frictionlab.simulate` only; the lower-level :func:`run_static` /
        :func:`~frictionlab.contact.rough.sliding.run_sliding` take explicit height arrays.
    Notes
    -----
    The contact solver, its tolerances, the array backend and the FFT settings are numerics:
    they are options of the drivers (``[integrator]``: ``solver``, ``tol``, ``tol_sliding``,
    ``max_iter``, ``backend``, ``fft_precision``, ``fft_workers``; see
    :class:`~frictionlab.contact.rough.numerics.SolverOptions`), not parameters of the model.
    A configuration naming them under ``[model]``, or ``RoughContact(tol=...)``, is refused with a
    pointer to ``[integrator]``.

    Only the viscoplastic material uses ``A_cr``, ``n_cr``, ``Fy0``, ``B``, ``m_h`` and
    ``vp_scheme`` (:data:`VISCOPLASTIC_ONLY`), and the elastic material uses none of them nor
    ``lams``, ``As``, ``ve_scheme``: such a field set away from its default with a material that
    ignores it is a :class:`~frictionlab.core.errors.ParameterError`, not a silent no-op.
    """

    interaction: str = option("boussinesq", choices=("boussinesq", "meanfield"))
    C0: float = param(to_si_value(16.0, "m/N"), units="m/N", lo=0, lo_open=True, hi=1e-2,
                      why=_si_hint("a compliance", "m/N", "16 um/F*", 16.0, "m/N"))
    self_coef: float = param(3.8, units="1", lo=0, lo_open=True)
    dx: float = param(to_si_value(1.0, "m"), units="m", lo=0, lo_open=True, hi=1e-3,
                      why=_si_hint("an element spacing", "m", "1 um", 1.0, "m"))
    periodic: bool = option(False, choices=(False, True))
    material: str = option("viscoelastic", choices=("viscoelastic", "viscoplastic", "elastic"))
    lams: tuple = param((1.0,), units="1/s", lo=0, lo_open=True)
    As: tuple = param((0.2,), units="1/s", lo=0)
    ve_scheme: str = option("linear", choices=("linear", "constant"))
    A_cr: float = param(to_si_value(1e-4, "m/s"), units="m/s", lo=0, lo_open=True, hi=1e-6,
                        why=_si_hint("a creep rate", "m/s", "1e-4 um/s", 1e-4, "m/s"))
    n_cr: float = param(3.0, units="1", lo=1)
    Fy0: float = param(to_si_value(0.016, "N"), units="N", lo=0, lo_open=True)
    B: float = param(0.0, units="1/m", lo=0)
    m_h: float = param(1.0, units="1", lo=0)
    vp_scheme: str = option("implicit", choices=("implicit", "explicit"))
    tau_s: float = param(2.5e9, units="Pa", lo=0)
    alpha: float = param(to_si_value(2e-4, "Pa"), units="Pa", lo=0)
    patch_nx: int = param(512, units="1", lo=2, integer=True)
    patch_ny: int = param(512, units="1", lo=2, integer=True)
    surface_mx: int = param(1024, units="1", lo=2, integer=True)
    surface_sigma: float = param(to_si_value(1.0, "m"), units="m", lo=0, lo_open=True, hi=1e-3,
                                 why=_si_hint("an rms roughness", "m", "1 um", 1.0, "m"))
    surface_beta: float = param(to_si_value(10.0, "m"), units="m", lo=0, lo_open=True, hi=1e-3,
                                why=_si_hint("a correlation length", "m", "10 um", 10.0, "m"))
    surface_acf: str = option("gaussian", choices=("gaussian", "exponential", "iid"))
    surface_seed: int = param(0, units="1", lo=0, integer=True)
    surface_wrap: bool = option(False, choices=(False, True))

    name: ClassVar[str] = "rough_contact"
    force_units: ClassVar[str] = "N"
    #: the rigid surface is not mirror-symmetric, so reversing the slip does not reverse the
    #: friction; the drivers return the shear strength F_S >= 0 (eqs. 13-15)
    odd: ClassVar[bool] = False
    citation: ClassVar[str] = ("S. Hulikal, N. Lapusta, K. Bhattacharya, Static and sliding contact of rough "
                               "surfaces: effect of asperity-scale properties and long-range elastic interactions")
    doi: ClassVar[str] = "10.1016/j.jmps.2014.11.011"

    def __new__(cls, *args: Any, **kwargs: Any) -> RoughContact:
        _refuse_solver_options(kwargs)  # before the dataclass __init__'s bare TypeError
        return super().__new__(cls)

    def _check(self) -> None:
        used = _MATERIAL_FIELDS.get(self.material, ())
        unused = [n for n in _DEFAULTS if n not in used and any(n in ns for ns in _MATERIAL_FIELDS.values())]
        for name in unused:
            if getattr(self, name) != _DEFAULTS[name]:
                user = next(m for m, ns in _MATERIAL_FIELDS.items() if name in ns)
                self._fail(name, f"= {getattr(self, name)!r} has no effect with material = {self.material!r}, which "
                                 f"does not use {', '.join(unused)}; set material = {user!r} or leave {name} at "
                                 f"its default {_DEFAULTS[name]!r}")
        lams = self.lams if isinstance(self.lams, tuple) else (self.lams,)
        As = self.As if isinstance(self.As, tuple) else (self.As,)
        object.__setattr__(self, "lams", tuple(lams))
        object.__setattr__(self, "As", tuple(As))
        if len(lams) != len(As):
            self._fail("As", f"has {len(As)} entries but lams has {len(lams)}")
        if self.surface_acf == "iid" and self.surface_beta != _DEFAULTS["surface_beta"]:
            self._fail("surface_beta", f"= {self.surface_beta!r} has no effect with surface_acf = 'iid' (independent "
                                       "heights, no correlation length); leave it at its default "
                                       f"{_DEFAULTS['surface_beta']!r}")
        if self.surface_mx < self.patch_nx:
            self._fail("surface_mx", f"= {self.surface_mx} is shorter than the patch (patch_nx = {self.patch_nx})")
        for name, paper in _STRESS_FIELDS.items():
            x = getattr(self, name)
            if 0 < x < _MIN_STRESS:
                self._fail(name, f"= {x:g} Pa is below {_MIN_STRESS:g} Pa: the parameters of rough_contact are SI "
                                 f"(a stress in Pa), and a value in the paper's F*/um^2 (F* = 0.2513 N) is "
                                 f"{STRESS_STAR:.4g} times too small; the paper's is {paper}, i.e. "
                                 f"{name} = {to_si_value(x, 'Pa'):.4g} Pa for the {x:g} F*/um^2 given")

    @property
    def typical_inputs(self) -> dict[str, float]:  # type: ignore[override]
        """1 um/s (the paper's v = 1), 100 MPa nominal pressure on the patch, 4 s."""
        area = self.patch_nx * self.patch_ny * self.dx**2
        return {"v": 1e-6, "normal_force": 100e6 * area, "duration": 4.0}

    #: patch and surface of the model contract's quick mode (:meth:`contract_case`)
    CONTRACT_SIZE: ClassVar[dict[str, Any]] = {"patch_nx": 16, "patch_ny": 16, "surface_mx": 64, "surface_beta": 3e-6}

    def contract_case(self) -> ContractCase:
        """The same material and solver on a 16 x 16 patch over a 64-element surface of correlation
        length 3 um, at 1 GPa nominal pressure, 20 coarse steps of the 4 s protocols."""
        small = self.replace(**self.CONTRACT_SIZE)
        area = small.patch_nx * small.patch_ny * small.dx**2
        return ContractCase(small, {**small.typical_inputs, "normal_force": 1e9 * area}, steps=20,
                            why="a run of the paper's 512 x 512 patch takes minutes; on the 16 x 16 um patch the "
                                "default correlation length (10 um) leaves few asperities and 100 MPa puts 1-3 "
                                "elements in contact (the Polonsky-Keer solver can lose the last one), hence 3 um "
                                "and 1 GPa")

    # --- the kernel's units -------------------------------------------------------------------
    def kernel_parameters(self) -> KernelParameters:
        """The parameters in the paper's units (eq. 6), as the kernel computes with them: every field by
        its ``units`` through :func:`~frictionlab.contact.rough.units.to_paper` (m -> µm, m/s -> µm/s,
        N -> F*, Pa -> F*/µm^2, m/N -> µm/F*, 1/m -> 1/µm; 1/s and dimensionless fields unchanged).
        The one place the model's SI values become the kernel's."""
        units = self.units()
        return KernelParameters({name: to_paper(getattr(self, name), unit) if paper_unit(unit) != unit
                                 else getattr(self, name) for name, unit in units.items()})

    # --- building blocks (in the paper's units) ----------------------------------------------
    def viscoelastic(self) -> Viscoelastic:
        return self.kernel_parameters().viscoelastic()

    def viscoplastic(self) -> Viscoplastic:
        return self.kernel_parameters().viscoplastic()

    def operator(self, nx: int, ny: int, numerics: SolverOptions | None = None) -> BoussinesqFFT | MeanField:
        """The interaction operator of an ``nx x ny`` patch (paper units), on the backend and FFT settings of
        ``numerics``."""
        return self.kernel_parameters().operator(nx, ny, numerics)

    @classmethod
    def from_dict(cls, values: Any) -> RoughContact:  # type: ignore[override]
        """As :meth:`Parameters.from_dict`; the former solver fields are refused with a pointer to ``[integrator]``."""
        _refuse_solver_options(values)
        return super().from_dict(values)


def _refuse_solver_options(values: Any) -> None:
    """:class:`ConfigError` pointing to ``[integrator]`` for a solver option given as a model parameter."""
    moved = [k for k in values if k in SOLVER_OPTION_NAMES]
    if moved:
        what = "is a solver option, not a model parameter; set it" if len(moved) == 1 else \
            "are solver options, not model parameters; set them"
        raise ConfigError(f"rough_contact: {', '.join(repr(k) for k in moved)} {what} under [integrator] "
                          f"(driver option), e.g. [integrator] {moved[0]} = ...; in Python "
                          f"simulate(model, ..., {moved[0]}=...) or numerics=SolverOptions({moved[0]}=...)")


class KernelParameters:
    """The parameters of a :class:`RoughContact` in the paper's units (eq. 6: lengths in µm, forces in F*,
    stresses in F*/µm^2, compliance in µm/F*), by the same names: what the kernel
    (:class:`RoughContactSim`, the sliding step, the solvers) reads. Made by
    :meth:`RoughContact.kernel_parameters` only; read-only."""

    __slots__ = ("_values",)

    def __init__(self, values: dict[str, Any]):
        object.__setattr__(self, "_values", dict(values))

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"rough_contact has no parameter {name!r}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("KernelParameters are read-only")

    def __repr__(self) -> str:
        return f"KernelParameters({self._values!r})"

    def to_dict(self) -> dict[str, Any]:
        """The values (paper units) by name."""
        return dict(self._values)

    def kernel_parameters(self) -> KernelParameters:
        """Itself (already in the kernel's units)."""
        return self

    def viscoelastic(self) -> Viscoelastic:
        if self.material == "elastic":
            return Viscoelastic((), (), self.ve_scheme)
        return Viscoelastic(self.lams, self.As, self.ve_scheme)

    def viscoplastic(self) -> Viscoplastic:
        return Viscoplastic(self.A_cr, self.n_cr, self.Fy0, self.B, self.m_h, self.vp_scheme)

    def operator(self, nx: int, ny: int, numerics: SolverOptions | None = None) -> BoussinesqFFT | MeanField:
        """The interaction operator of an ``nx x ny`` patch, on the backend and FFT settings of ``numerics``."""
        num = numerics or SolverOptions()
        if self.interaction == "meanfield":
            return MeanField(self.C0, nx, ny, backend=num.backend)
        return BoussinesqFFT(nx, ny, self.dx, self.self_coef, periodic=self.periodic, backend=num.backend,
                             workers=num.workers, fft_precision=num.fft_precision)


#: the fields only some materials use (Table 1): relaxation (viscoelastic, and under the creep of
#: the viscoplastic material), creep and yield (viscoplastic); set away from their defaults with a
#: material that does not use them, they are refused rather than ignored
_MATERIAL_FIELDS: dict[str, tuple[str, ...]] = {
    "viscoelastic": ("lams", "As", "ve_scheme"),
    "viscoplastic": ("lams", "As", "ve_scheme", "A_cr", "n_cr", "Fy0", "B", "m_h", "vp_scheme"),
}
_DEFAULTS = {f.name: f.default for f in RoughContact.__dataclass_fields__.values()}
#: the fields only the viscoplastic material uses (creep and yield)
VISCOPLASTIC_ONLY = tuple(n for n in _MATERIAL_FIELDS["viscoplastic"] if n not in _MATERIAL_FIELDS["viscoelastic"])


add_presets("rough_contact", {
    "table1": Preset(params={},
                     source="Hulikal, Lapusta & Bhattacharya, Table 1 (its non-dimensional values of eq. 6 in SI)"),
    "fig6": Preset(params={"lams": (1.0, 0.1, 0.01, 0.001), "As": (0.05, 0.005, 0.0005, 0.00005)},
                   source="Hulikal et al., Fig. 6: four relaxation times"),
    "fig7": Preset(params={"material": "viscoplastic"}, source="Hulikal et al., Fig. 7 / Table 1 viscoplastic"),
})


def contact_clusters(mask: np.ndarray, connectivity: int = 4) -> tuple[int, np.ndarray]:
    """Number of connected contact clusters (4- or 8-connected; the paper does not say which) and the label map
    (:func:`~frictionlab.contact.rough.clusters.label_clusters`)."""
    return label_clusters(mask, connectivity=connectivity)


def force_pdf(p: np.ndarray, bins: np.ndarray) -> np.ndarray:
    """Histogram of contact forces (contacting elements), normalised by the *total* element count
    and the bin width (as Sect. 4.1 reads it): zeroth moment = contact fraction, first moment = W/N."""
    pc = p[p > 0]
    counts, _ = np.histogram(pc, bins=bins)
    return counts / (p.size * np.diff(bins))


class RoughContactSim:
    r"""State and time stepping of one rough-contact simulation.

    Parameters
    ----------
    model : RoughContact
        Parameters (SI; the sim keeps their :meth:`~RoughContact.kernel_parameters`, in the paper's
        units, as :attr:`model`).
    heights : ndarray (nx, ny)
        Rigid surface heights under the patch at :math:`\bar x = 0` [L*].
    W : float
        Total compressive load :math:`W = -\bar F_N > 0` [F*].
    z0 : ndarray, optional
        Undeformed element lengths :math:`z^0_i` [L*] (0 for the flat body; the sphere profile for
        Hertz).
    numerics : SolverOptions, optional
        Contact solver, tolerances, backend and FFT settings (default :class:`SolverOptions`).

    Attributes
    ----------
    p : ndarray
        Contact forces :math:`p_i = -F_i` [F*].
    q : ndarray (N_T, nx, ny)
        Hereditary states in force units (:math:`-q_{k,i}`, the hereditary integrals of eq. 5).
    u_p, u_acc : ndarray
        Plastic length change (<= 0) and accumulated plastic strain [L*].
    t, d : float
        Time [T*] and dilatation [L*].
    """

    def __init__(self, model: RoughContact, heights: np.ndarray, W: float, z0: np.ndarray | None = None,
                 numerics: SolverOptions | None = None):
        h = np.asarray(heights, dtype=float)
        if h.ndim != 2:
            raise ParameterError(f"heights must be a 2-D array, got shape {h.shape}")
        if not np.all(np.isfinite(h)):
            raise ParameterError("heights contain NaN or inf values")
        if not (W > 0 and math.isfinite(W)):
            raise ParameterError(f"normal load W = {W!r} must be positive: the total force F_N = -W must be compressive")
        model = model.kernel_parameters()
        self.model = model
        self.numerics = numerics or SolverOptions()
        self.numerics.check_for(model.interaction)
        self.nx, self.ny = h.shape
        self.base = model.operator(self.nx, self.ny, self.numerics)
        self.be = self.base.be
        self.heights = self.be.asarray(h)
        self.z0 = self.be.asarray(np.zeros_like(h) if z0 is None else np.asarray(z0, dtype=float))
        self.W = float(W)
        self.ve = model.viscoelastic()
        self.vp = model.viscoplastic() if model.material == "viscoplastic" else None
        xp = self.be.xp
        self.p = xp.zeros_like(self.heights)
        self.q = xp.zeros((max(self.ve.n_rates, 0),) + h.shape, dtype=self.heights.dtype) if self.ve.n_rates else None
        self.u_p = xp.zeros_like(self.heights)
        self.u_acc = xp.zeros_like(self.heights)
        self.t = 0.0
        #: slip of the patch over the rigid surface [L*] (sliding runs; 0 in holds)
        self.xbar = 0.0
        self.d = math.nan
        self.n_steps = 0
        self.loaded = False
        self.last: SolveResult | None = None
        self._active = None
        self.first_contact = np.full(h.shape, np.inf)
        #: warm start by linear extrapolation of the last two steps (False: previous forces)
        self.extrapolate = True
        #: extrapolation ratio override (sliding: slip increment ratio); None = time-step ratio
        self.warm_ratio: float | None = None
        #: start each solve from the previous solution (False: cold start, for checks)
        self.warm_start = True
        #: solver tolerance of the next solves (drivers switch it per use, see SolverOptions.tol)
        self.tol = self.numerics.tol
        self._p_prev = None
        self._dt_prev = 0.0
        self._dt_now = 0.0
        # carried products (numpy PK path): K p of the current forces (from the solver's final
        # product) and K q_k of the hereditary states, so that the history field of a step
        # costs no operator product (see step); None = unknown (computed when next needed)
        self._Kp = None
        self._Kp_prev = None
        self._Kq = None
        self._kq_age = 0
        #: operator products spent outside the solver in the last step (history field)
        self.history_products = 0

    def use_fft_precision(self, fft_precision: str) -> None:
        """Precision of the next solves' FFT products (sliding steps may run in single
        precision, :attr:`SolverOptions.sliding_fft_precision`). Back to a more precise product,
        the carried products (computed at the lower precision) are dropped and recomputed."""
        switch = getattr(self.base, "set_fft_precision", None)
        if switch is None:
            if fft_precision != "double":
                raise ConfigError(f"fft_precision = {fft_precision!r} needs a Boussinesq FFT operator")
            return
        if switch(fft_precision) and fft_precision == "double":
            self._Kp = self._Kp_prev = self._Kq = None

    # --- per-step problem -----------------------------------------------------------------
    def _solve(self, op: StepOperator, g: Any, W: float) -> SolveResult:
        solver = self.numerics.resolved_solver(self.model.interaction)
        warm = self.p if (self.loaded and self.warm_start) else None
        ratio = 0.0
        if warm is not None and self.extrapolate and self._p_prev is not None and self._dt_prev:
            # linear extrapolation of the previous two solutions (clipped at 0; the solver
            # rescales to the load): in time for holds, in slip when sliding (warm_ratio)
            ratio = self.warm_ratio if self.warm_ratio is not None else self._dt_now / self._dt_prev
        if solver == "pk" and warm is not None and self._Kp is not None and op.extra is None \
                and (ratio == 0.0 or self._Kp_prev is not None):
            # the warm start's product from the carried products: no FFT to start the solve
            warm, Mp0, exact = extrapolated_start(op, self.p, self._Kp, self._p_prev, self._Kp_prev, ratio)
            return pk_solve(op, g, W, warm, tol=self.tol, max_iter=self.numerics.max_iter, step=self.n_steps,
                            time=self.t, Mp0=Mp0, Mp0_exact=exact)
        if ratio:
            warm = self.be.clip0(self.p + (self.p - self._p_prev) * ratio)
        if solver == "exact":
            return meanfield_solve(g, W, op.diagonal(), backend=self.be)
        if solver == "pk":
            return pk_solve(op, g, W, warm, tol=self.tol, max_iter=self.numerics.max_iter, step=self.n_steps,
                            time=self.t)
        res = alg1_solve(op, g, W, self._active, consistent=(solver == "alg1_consistent"), tol=self.tol,
                         step=self.n_steps, time=self.t)
        self._active = res.info.get("next_active", res.p > 0)
        return res

    def initial_load(self, heights: np.ndarray | None = None) -> SolveResult:
        """Instantaneous loading at :math:`t = 0^+` (elastic, ``c = 1``, no history; Sect. 4)."""
        if heights is not None:
            self.heights = self.be.asarray(heights)
        g = self.z0 + self.heights + (self.u_p if self.vp is not None else 0.0)
        res = self._solve(StepOperator(self.base), g, self.W)
        self._Kp = res.Mp if (self.vp is None and self.be.name == "numpy") else None
        self._Kp_prev = None
        # no history at t = 0+ (q = 0): its product is zero
        fresh = self.q is not None and not bool(self.be.scalar(self.be.xp.any(self.q)))
        self._Kq = self.be.xp.zeros_like(self.q) if (fresh and self._Kp is not None) else None
        self._kq_age = 0
        self._accept(res, self.p)
        self.loaded = True
        return res

    def step(self, dt: float, heights: np.ndarray | None = None, W: float | None = None) -> SolveResult:
        r"""Advance by ``dt`` [T*] and solve for the forces at the end of the step.

        Parameters
        ----------
        dt : float
            Time step (> 0). Any size: the viscoelastic integration is exact-exponential.
        heights : ndarray, optional
            Rigid heights under the elements at the end of the step,
            :math:`h(x^0_i + \bar x^{n+1}, y^0_i)` -- pass the shifted surface when sliding.
        W : float, optional
            New total load (load programmes); default unchanged.
        """
        if not self.loaded:
            self.initial_load(heights)
        if not (dt > 0 and math.isfinite(dt)):
            raise ParameterError(f"time step dt = {dt!r} must be positive")
        if heights is not None:
            self.heights = self.be.asarray(heights)
        if W is not None:
            if not (W > 0 and math.isfinite(W)):
                raise ParameterError(f"normal load W = {W!r} must be positive (compressive)")
            self.W = float(W)
        p_n = self.p
        self._dt_now = dt
        self.history_products = 0
        if self.vp is not None:
            self._Kp = self._Kp_prev = self._Kq = None
            return self._step_vp(dt)
        if self.ve.n_rates:
            co = self.ve.step_coeffs(dt)
            g = self._known_field(co, p_n)
            op = StepOperator(self.base, c=co.c)
        else:
            co = None
            g = self.z0 + self.heights
            op = StepOperator(self.base)
        self.t += dt
        self.n_steps += 1
        res = self._solve(op, g, self.W)
        Kp_new = res.Mp / op.c if (res.Mp is not None and self.be.name == "numpy") else None
        if co is not None:
            self._advance_states(self.q, p_n, res.p, co)
            self._carry_history(co, Kp_new)
        self._Kp_prev, self._Kp = self._Kp, Kp_new
        self._accept(res, p_n)
        return res

    def advance(self, dt: float, *, slip: float = 0.0, heights_at: Any = None, W: float | None = None,
                sliding: bool = False, warm_start: bool = True, extrapolate: bool = True,
                warm_ratio: float | None = None) -> SolveResult:
        r"""One step of a driver: the patch slips by ``slip`` [L*] over the rigid surface
        ``heights_at(xbar)`` during ``dt`` [T*] at the load ``W`` (:meth:`step`).

        The step's solve settings: ``sliding`` takes ``numerics.tol_sliding`` and the sliding FFT
        precision (else ``tol`` and ``fft_precision``: holds); ``warm_start`` starts from the
        previous forces (False: cold start, a check), ``extrapolate`` from their linear
        extrapolation, in slip with ``warm_ratio`` (this step's slip over the previous one's),
        else in time."""
        self.tol = self.numerics.tol_sliding if sliding else self.numerics.tol
        self.use_fft_precision(self.numerics.precision_for(sliding=sliding))
        self.warm_start, self.extrapolate, self.warm_ratio = warm_start, extrapolate, warm_ratio
        self.xbar = self.xbar + slip
        return self.step(dt, heights=None if heights_at is None else heights_at(self.xbar), W=W)

    def snap_to(self, t: float, xbar: float) -> None:
        """Set the time [T*] and slip [L*] to a step boundary's exact values (removes the
        round-off that substeps accumulate)."""
        self.t, self.xbar = float(t), float(xbar)

    #: steps between exact recomputations of the carried history products K q_k (round-off)
    KQ_RESYNC = 200

    def _history_product(self, co: Any, p_n: Any) -> Any:
        r""":math:`K H^n` of the history field, :math:`\sum_k E_k Kq_k + A_k w_{0,k} Kp^n`
        from the carried products when known (no operator product), else one product."""
        if self._Kq is None or self._Kp is None:
            self.history_products += 1
            return self.base.apply(self.ve.history(self.q, p_n, co))
        KH = None
        for k in range(self.ve.n_rates):
            term = co.E[k] * self._Kq[k] + (self.ve.As[k] * co.w0[k]) * self._Kp
            KH = term if KH is None else KH + term
        return KH

    def _known_field(self, co: Any, p_n: Any) -> Any:
        r"""Known field of the viscoelastic step, :math:`z^0 + h - K H^n`; on numpy with the
        carried products in one compiled pass (same arithmetic as :meth:`_history_product`)."""
        if self.be.name == "numpy" and self._Kq is not None and self._Kp is not None:
            g = np.empty_like(self.heights)
            aw = np.array([self.ve.As[k] * co.w0[k] for k in range(self.ve.n_rates)], dtype=np.float64)
            _nb_known_field(self.z0, self.heights, self._Kq, self._Kp, np.asarray(co.E, dtype=np.float64), aw, g)
            return g
        return self.z0 + self.heights - self._history_product(co, p_n)

    def _advance_states(self, states: Any, f_n: Any, f_n1: Any, co: Any) -> None:
        """``states[k] = E_k states[k] + A_k (w0_k f_n + b_k f_n1)`` in place (:meth:`Viscoelastic.update`;
        one compiled pass on numpy)."""
        if self.be.name == "numpy":
            _nb_ve_advance(states, f_n, f_n1, np.asarray(co.E, dtype=np.float64),
                           np.asarray(self.ve.As, dtype=np.float64), np.asarray(co.w0, dtype=np.float64),
                           np.asarray(co.b, dtype=np.float64))
        else:
            self.ve.update(states, f_n, f_n1, co)

    def _carry_history(self, co: Any, Kp_new: Any) -> None:
        """Advance the carried :math:`K q_k` with the same recurrence as ``q_k``
        (:meth:`Viscoelastic.update`, linear in the forces): exact to round-off, recomputed by
        products every ``KQ_RESYNC`` steps and whenever a product was not carried."""
        if Kp_new is None:
            self._Kq = None
            return
        if self._Kq is not None and self._Kp is not None and self._kq_age < self.KQ_RESYNC:
            self._advance_states(self._Kq, self._Kp, Kp_new, co)
            self._kq_age += 1
            return
        self._Kq = self.be.xp.stack([self.base.apply(self.q[k]) for k in range(self.ve.n_rates)])
        self.history_products += self.ve.n_rates
        self._kq_age = 0

    def _step_vp(self, dt: float) -> SolveResult:
        vp = self.vp
        assert vp is not None
        xp = self.be.xp
        p_n = self.p
        Fy = vp.yield_force(self.u_acc)
        rho = vp.rate(p_n, Fy)
        if vp.scheme == "explicit":
            up_new = self.u_p + dt * rho
            g = self.z0 + self.heights + up_new
            op = StepOperator(self.base)
        else:
            dr = vp.drate(p_n, Fy)
            g = self.z0 + self.heights + self.u_p + dt * (rho + dr * p_n)
            op = StepOperator(self.base, diag=dt * dr)
        self.t += dt
        self.n_steps += 1
        res = self._solve(op, g, self.W)
        if vp.scheme == "explicit":
            dup = up_new - self.u_p
        else:
            dup = self.be.clip_neg(dt * (rho - dr * (res.p - p_n)))
        self.u_p = self.u_p + dup
        self.u_acc = self.u_acc + xp.abs(dup)
        self._accept(res, p_n)
        return res

    def _accept(self, res: SolveResult, p_prev: Any) -> None:
        if not math.isfinite(res.d):
            raise IntegrationError(f"rough contact: dilatation became NaN at step {self.n_steps} (t = {self.t:.6g}); "
                                   "reduce the time step or check the parameters", time=self.t, step=self.n_steps)
        self._p_prev = p_prev if self.loaded else None
        self._dt_prev = self._dt_now
        self.p = res.p
        self.d = res.d
        self.last = res
        pn = self.be.to_numpy(self.p)
        newly = (pn > 0) & ~np.isfinite(self.first_contact)
        self.first_contact[newly] = self.t

    # --- outputs ------------------------------------------------------------------------------
    def observe(self) -> dict[str, float]:
        """Scalars of the current state."""
        m = self.model
        pn = self.be.to_numpy(self.p)
        mask = pn > 0
        n_c = int(mask.sum())
        area = n_c * m.dx**2
        nc4 = _nb_count_clusters(mask, False)  # = contact_clusters(mask, 4)[0], without the label map
        nc8 = _nb_count_clusters(mask, True)
        res = self.last
        return {
            "dilatation": self.d,
            "contact_area": area,
            "area_fraction": n_c / pn.size,
            "n_contact_elements": float(n_c),
            "n_clusters": float(nc4),
            "n_clusters_8": float(nc8),
            "mean_contact_radius": math.sqrt(area / (math.pi * nc4)) if nc4 else 0.0,
            "friction_coefficient": m.tau_s * area / self.W,
            "normal_force": -float(pn.sum()),
            "mean_force_per_contact": float(pn.sum()) / n_c if n_c else 0.0,
            "iterations": float(res.iterations if res else 0),
            "gap_residual": float(res.gap_max_contact if res else 0.0),
            "min_free_gap": float(res.gap_min_free if res else 0.0),
            "max_plastic_shortening": float(-self.be.to_numpy(self.u_p).min()) if self.vp is not None else 0.0,
        }

    def shear_force(self, v: float = 0.0) -> float:
        r"""Macroscopic shear strength :math:`\bar F_S = (\bar\tau_S + \alpha\ln|\bar v|)\bar A` (eqs. 14-15;
        :math:`\bar\tau_S\bar A` at ``v = 0``; natural log, eqs. 14-15)."""
        m = self.model
        area = float(self.be.scalar(self.be.xp.sum(self.p > 0))) * m.dx**2
        tau = m.tau_s if v == 0 else m.tau_s + m.alpha * math.log(abs(v))
        return tau * area

    def friction_coefficient(self, v: float = 0.0) -> float:
        r""":math:`\mu = \bar F_S/W` (eq. 13, with :math:`W = -\bar F_N`)."""
        return self.shear_force(v) / self.W

    def length_change(self) -> np.ndarray:
        r"""Element length changes :math:`u_i` [L*] (paper sign: compression negative)."""
        phi = self.p + (self.q.sum(axis=0) if self.q is not None else 0.0)
        u = -self.base.apply(phi)
        if self.vp is not None:
            u = u + self.u_p
        return self.be.to_numpy(u)


UNITS = {
    "dilatation": "um", "contact_area": "um^2", "area_fraction": "1", "n_contact_elements": "1",
    "n_clusters": "1", "n_clusters_8": "1", "mean_contact_radius": "um", "friction_coefficient": "1",
    "normal_force": "F* (0.2513 N)", "mean_force_per_contact": "F* (0.2513 N)", "iterations": "1",
    "gap_residual": "um", "min_free_gap": "um", "max_plastic_shortening": "um",
}


def log_times(t_end: float, t_first: float, per_decade: int) -> np.ndarray:
    """Log-spaced step end times from ``t_first`` to ``t_end`` (ours: the paper prints no step)."""
    if not (t_end > t_first > 0):
        raise ParameterError(f"need t_end > t_first > 0, got t_end = {t_end!r}, t_first = {t_first!r}")
    n = max(int(math.ceil(per_decade * math.log10(t_end / t_first))), 1)
    return np.geomspace(t_first, t_end, n + 1)


def run_static(model: RoughContact, heights: np.ndarray, W: float, *, t_end: float = 1e3,
               t_first: float | None = None, per_decade: int = 40, snapshot_times: tuple = (),
               pdf_bins: np.ndarray | None = None, vp_max_dup: float = 0.02, sigma: float = 1.0,
               z0: np.ndarray | None = None, numerics: SolverOptions | None = None) -> xr.Dataset:
    r"""Static hold (ageing): instantaneous load at :math:`t=0^+`, then constant ``W``.

    Parameters
    ----------
    model : RoughContact
        Parameters (SI; recorded in ``attrs`` as given, the kernel reads their
        :meth:`~RoughContact.kernel_parameters`).
    heights : ndarray (nx, ny)
        Rigid surface under the patch [L*].
    W : float
        Total load [F*] (see :func:`load_from_pressure`).
    t_end : float
        Final time [T*].
    t_first : float, optional
        First step end; default :math:`10^{-4}/\lambda_{max}` (viscoplastic: ``1e-2``).
    per_decade : int
        Log-spaced steps per decade (default 40, ours).
    snapshot_times : tuple of float
        Times at which contact-force maps and force PDFs are stored (nearest step at or after;
        ``0`` = the :math:`t=0^+` state).
    pdf_bins : ndarray, optional
        Force-PDF bin edges [F*] (default: (0, 1e-6], 40 log bins on [1e-6, 1], last edge max(1, W)).
    vp_max_dup : float
        Viscoplastic step control: substeps keep :math:`\max|\Delta u^p|\le` ``vp_max_dup`` σ.
    numerics : SolverOptions, optional
        Contact solver, tolerance ``tol``, backend, FFT settings (default :class:`SolverOptions`).

    Returns
    -------
    xarray.Dataset
        Over ``time`` [s]: ``friction_coefficient``, ``dilatation``, ``contact_area``,
        ``area_fraction``, ``n_clusters``, ``mean_contact_radius``, ``iterations``, residuals ...;
        over ``(snapshot, x, y)``: ``contact_force`` maps, ``first_contact_time``; over
        ``(snapshot, force_bin)``: ``force_pdf``. Parameters in ``attrs``.
    """
    sim = RoughContactSim(model, heights, W, z0=z0, numerics=numerics)
    if t_first is None:
        t_first = 1e-4 / max(model.lams) if model.material == "viscoelastic" else 1e-2
    times = log_times(t_end, t_first, per_decade)
    if pdf_bins is None:
        # log bins on [1e-6, 1] plus an edge bin (0, 1e-6] and a top edge >= W: every force is counted
        bins = np.concatenate([[0.0], np.geomspace(1e-6, 1.0, 41)])
        bins[-1] = max(1.0, W)
    else:
        bins = np.asarray(pdf_bins, dtype=float)
    snaps = sorted(float(s) for s in snapshot_times)
    rec: list[dict[str, float]] = []
    tt: list[float] = []
    snap_maps, snap_pdf, snap_t = [], [], []

    def take_snaps(t_now: float) -> None:
        while snaps and snaps[0] <= t_now * (1 + 1e-12):
            snaps.pop(0)
            pn = sim.be.to_numpy(sim.p)
            snap_maps.append(pn.astype(np.float32))
            snap_pdf.append(force_pdf(pn, bins))
            snap_t.append(t_now)

    sim.initial_load()
    rec.append(sim.observe())
    tt.append(0.0)
    take_snaps(0.0)
    t_prev = 0.0
    for t_next in times:
        dt = t_next - t_prev
        if sim.vp is not None:
            # substeps limiting the plastic increment (our step control)
            while sim.t < t_next * (1 - 1e-12):
                Fy = sim.vp.yield_force(sim.u_acc)
                rate = float(sim.be.to_numpy(-sim.vp.rate(sim.p, Fy)).max())
                h_max = vp_max_dup * sigma / rate if rate > 0 else math.inf
                h = min(t_next - sim.t, h_max)
                if sim.n_steps > 0 and sim.last is not None:
                    h = min(h, 1.25 * max(getattr(sim, "_last_dt", h), 1e-300))
                sim._last_dt = h
                sim.step(h)
        else:
            sim.step(dt)
        t_prev = t_next
        rec.append(sim.observe())
        tt.append(t_next)
        take_snaps(t_next)
    data = {k: np.array([r[k] for r in rec]) for k in rec[0]}
    ds = xr.Dataset(coords={"time": ("time", np.asarray(tt), {"units": "s"})})
    for k, v in data.items():
        ds[k] = ("time", v, {"units": UNITS[k]})
    if snap_maps:
        ds = ds.assign_coords(snapshot_time=("snapshot", np.asarray(snap_t), {"units": "s"}))
        ds["contact_force"] = (("snapshot", "x", "y"), np.stack(snap_maps), {"units": "F* (0.2513 N)"})
        centres = np.sqrt(bins[:-1] * bins[1:])
        centres[bins[:-1] == 0] = 0.5 * bins[1:][bins[:-1] == 0]
        ds = ds.assign_coords(force_bin=("force_bin", centres, {"units": "F* (0.2513 N)"}))
        ds["force_pdf"] = (("snapshot", "force_bin"), np.stack(snap_pdf), {"units": "1/F*"})
        ds["force_bin_width"] = ("force_bin", np.diff(bins), {"units": "F* (0.2513 N)"})
    ft = sim.first_contact.copy()
    ds["first_contact_time"] = (("x", "y"), ft, {"units": "s", "description": "inf = never in contact"})
    if sim.vp is not None:
        ds["plastic_shortening"] = (("x", "y"), sim.be.to_numpy(sim.u_p), {"units": "um"})
    ds.attrs.update({k: (str(v) if isinstance(v, (bool, str)) else (list(v) if isinstance(v, tuple) else v))
                     for k, v in model.to_dict().items()})
    ds.attrs.update(sim.numerics.attrs())
    ds.attrs.update({"W": W, "nx": sim.nx, "ny": sim.ny, "model": "rough_contact",
                     "units_note": "non-dimensional: L*=1 um, T*=1 s, F*=0.2513 N (paper eq. 6)",
                     "total_solver_iterations": float(data["iterations"].sum()), "n_steps": sim.n_steps})
    for k, v in list(ds.attrs.items()):
        if isinstance(v, list):
            ds.attrs[k] = np.asarray(v, dtype=float)
    return ds


# --- compiled helpers -----------------------------------------------------------------------------
from numba import njit  # noqa: E402


@njit(cache=True)
def _nb_count_clusters(mask, conn8):  # pragma: no cover - compiled
    """Number of 4- (``conn8`` False) or 8-connected clusters of ``mask`` (non-periodic, as
    :func:`contact_clusters`), by a depth-first search from every unvisited contact element."""
    nx, ny = mask.shape
    seen = np.zeros((nx, ny), np.uint8)
    stack = np.empty(nx * ny, np.int64)
    count = 0
    for i0 in range(nx):
        for j0 in range(ny):
            if not mask[i0, j0] or seen[i0, j0] != 0:
                continue
            count += 1
            seen[i0, j0] = 1
            stack[0] = i0 * ny + j0
            top = 1
            while top > 0:
                top -= 1
                u = stack[top]
                iu = u // ny
                ju = u - iu * ny
                for di in range(-1, 2):
                    iv = iu + di
                    if iv < 0 or iv >= nx:
                        continue
                    for dj in range(-1, 2):
                        if (di == 0 and dj == 0) or (not conn8 and di != 0 and dj != 0):
                            continue
                        jv = ju + dj
                        if jv < 0 or jv >= ny:
                            continue
                        if mask[iv, jv] and seen[iv, jv] == 0:
                            seen[iv, jv] = 1
                            stack[top] = iv * ny + jv
                            top += 1
    return count


@njit(cache=True)
def _nb_known_field(z0, h, Kq, Kp, E, aw, g):  # pragma: no cover - compiled
    """``g = (z0 + h) - sum_k (E_k Kq_k + aw_k Kp)``, the terms added in the order of ``k``."""
    nx, ny = g.shape
    for i in range(nx):
        for j in range(ny):
            acc = E[0] * Kq[0, i, j] + aw[0] * Kp[i, j]
            for k in range(1, E.size):
                acc = acc + (E[k] * Kq[k, i, j] + aw[k] * Kp[i, j])
            g[i, j] = (z0[i, j] + h[i, j]) - acc


@njit(cache=True)
def _nb_ve_advance(q, fn, fn1, E, A, w0, b):  # pragma: no cover - compiled
    """``q[k] = E_k q[k] + A_k (w0_k fn + b_k fn1)`` in place (exponential integration of eq. 5)."""
    nx, ny = fn.shape
    for k in range(E.size):
        for i in range(nx):
            for j in range(ny):
                q[k, i, j] = E[k] * q[k, i, j] + A[k] * (w0[k] * fn[i, j] + b[k] * fn1[i, j])

# the drivers of simulate, imported at the first lookup of one
declare_drivers(RoughContact, ".driver")
declare_drivers(RoughContact, ".relaxed")
