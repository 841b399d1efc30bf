r"""Numerical settings of a rough-contact run: contact solver, tolerances, array backend, FFT.

These are not physics: they choose *how* each step's complementarity problem (Hulikal et al.
2015, eqs. 16-17) is solved, not what it is. They are options of the drivers
(:mod:`frictionlab.contact.rough.driver`, ``[integrator]`` of a configuration) and an
argument of the low-level loops (:func:`~frictionlab.contact.rough.model.run_static`,
:func:`~frictionlab.contact.rough.sliding.run_sliding`,
:class:`~frictionlab.contact.rough.model.RoughContactSim`); the model
(:class:`~frictionlab.contact.rough.model.RoughContact`) holds physics and geometry only.

*Tolerances* (convergence study, ``frictionlab bench rough_sliding`` section "tolerance study"
and ``bench rough_contact`` section "tolerance study"): the contact set -- hence
:math:`\bar A` and :math:`\mu` -- settles long before the forces do. Static 256^2 solve
(100 MPa): the contact area is identical from tol 1e-12 to 1e-4, the dilatation changes by
3e-11 at 1e-8 and 2e-7 at 1e-5; static ageing 128^2 (1e-4..1e2 s): mu(t) identical to 1e-10
down to tol 1e-5, dilatation within 7e-7. Sliding 128^2 (v = 10, 80 steps, viscoelastic history
carried): mu and area of every step identical to 1e-10 down to tol 1e-5; at 1e-4 one element
differs in one step (mu by 1.6e-3). Defaults keep a factor 100 (static, 1e-8) and 10 (sliding,
1e-6) below the first tolerance that changes any recorded mu or area; they cost ~2/3 (static)
and ~0.58x (sliding) of the iterations at 1e-10.

*Single precision in the sliding steps* (``sliding_fft_precision = "single"``; issue 17 item 4;
``python -m frictionlab.benchmarks.bench_rough_sliding precision 128 256 512 steps=300``: Table 1 VE, 100 MPa,
v = 10, 0.25 um/step, tol_sliding 1e-6, one FFT thread, the two runs interleaved, shared 2-core
machine at load 3-7): CPU s per steady sliding step double/single 0.0091/0.0082 (128^2),
0.051/0.042 and 0.038/0.033 (256^2, two runs), 0.261/0.209 (512^2, 1.25x); PK iterations per step
unchanged (mean 5.5, 6.7, 7.9; max 7, 8, 9 in both), the convergence test is the same and a
solve that does not reach ``tol_sliding`` in ``max_iter`` raises as in double precision.
Differences over the 300 steps: 128^2 and 512^2 identical mu, contact area and mean contact
radius, dilatation within 2e-8 and 1e-7 um; 256^2 three steps with one or two contact elements
flipped at the solver tolerance (mu by <= 8e-4, area by 2 um^2, dilatation 1e-5 um), the mean mu
over the steps unchanged. The gain is less than the 2.2x of a padded product because the
float32 path copies through scipy.fft and the rest of the step (projection, preconditioner,
history) stays float64. The paper-size Figs. 13 and 14 use it with a double-precision control
run checked in the same run (``rough-contact`` ``_sliding.PRECISION_CONTROL``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

from ...core.errors import ConfigError

__all__ = ["SolverOptions", "SOLVER_OPTION_NAMES"]

_CHOICES = {"solver": ("auto", "pk", "exact", "alg1", "alg1_consistent"), "backend": ("numpy", "cupy", "torch"),
            "fft_precision": ("double", "single"), "sliding_fft_precision": ("double", "single")}


@dataclass(frozen=True)
class SolverOptions:
    """How each step's contact problem is solved.

    Parameters
    ----------
    solver : {"auto", "pk", "exact", "alg1", "alg1_consistent"}
        ``auto``: exact sorted solve for the mean field, Polonsky-Keer CG otherwise.
    tol : float
        Solver tolerance of static solves and holds (relative L1 change of ``p`` per PK
        iteration; 1e-8, see the module notes).
    tol_sliding : float
        Solver tolerance of the sliding steps (``v != 0``) (1e-6).
    max_iter : int
        Iteration cap of the PK solver (reaching it raises, naming the step and time).
    backend : {"numpy", "cupy", "torch"}
    fft_precision : {"double", "single"}
        Precision of the FFT convolution (the solver's vectors stay float64); ``"single"``
        needs ``tol`` and ``tol_sliding`` >= 1e-6. Measured (issue 17; ``bench rough_sliding``
        "single-precision" row): a 512^2 padded product 2.2x faster (scipy.fft float32), a
        256^2 sliding step 1.3x; mu and contact area of 40 steps identical, dilatation within
        6e-8.
    sliding_fft_precision : {"double", "single"}
        Precision of the FFT convolution in the *sliding* steps only (``v != 0``; the loading,
        holds and static solves keep ``fft_precision``, so that their tolerance ``tol`` may stay
        1e-8); ``"single"`` needs ``tol_sliding`` >= 1e-6. The sliding steps are single when
        either option is ``"single"``. Measured (``bench rough_sliding`` "sliding single
        precision" rows): 512^2 steps 1.25x faster, mu and area of 300 steps identical (see
        the module notes).
    fft_workers : int
        FFT threads: 0 = auto (1 below
        :data:`~frictionlab.contact.rough.elasticity.FFT_THREAD_CROSSOVER` transform points,
        2 above), -1 = all cores, or a count.
    """

    solver: str = "auto"
    tol: float = 1e-8
    tol_sliding: float = 1e-6
    max_iter: int = 5000
    backend: str = "numpy"
    fft_precision: str = "double"
    sliding_fft_precision: str = "double"
    fft_workers: int = 0

    def __post_init__(self) -> None:
        for name, choices in _CHOICES.items():
            if getattr(self, name) not in choices:
                raise ConfigError(f"solver option {name} = {getattr(self, name)!r} is not one of {list(choices)}")
        for name in ("tol", "tol_sliding"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not (0 < v <= 1e-2 and math.isfinite(v)):
                raise ConfigError(f"solver option {name} = {v!r} must lie in (0, 1e-2]")
        if isinstance(self.max_iter, bool) or int(self.max_iter) != self.max_iter or self.max_iter < 1:
            raise ConfigError(f"solver option max_iter = {self.max_iter!r} must be a whole number >= 1")
        if isinstance(self.fft_workers, bool) or int(self.fft_workers) != self.fft_workers or self.fft_workers < -1:
            raise ConfigError(f"solver option fft_workers = {self.fft_workers!r} must be -1, 0 (auto) or a count")
        object.__setattr__(self, "max_iter", int(self.max_iter))
        object.__setattr__(self, "fft_workers", int(self.fft_workers))
        if self.fft_precision == "single" and min(self.tol, self.tol_sliding) < 1e-6:
            raise ConfigError("solver option fft_precision = 'single' needs tol and tol_sliding >= 1e-6 (float32 "
                              "products carry ~1e-7 relative round-off)")
        if self.sliding_fft_precision == "single" and self.backend != "numpy":
            raise ConfigError("solver option sliding_fft_precision = 'single' needs backend = 'numpy' (the float32 "
                              "transforms are scipy.fft's)")
        if self.sliding_fft_precision == "single" and self.tol_sliding < 1e-6:
            raise ConfigError("solver option sliding_fft_precision = 'single' needs tol_sliding >= 1e-6 (float32 "
                              "products carry ~1e-7 relative round-off)")

    def precision_for(self, sliding: bool) -> str:
        """FFT precision of a solve: :attr:`sliding_fft_precision` (or ``fft_precision`` when that
        is single) for a sliding step, ``fft_precision`` otherwise."""
        if sliding and self.sliding_fft_precision == "single":
            return "single"
        return self.fft_precision

    def check_for(self, interaction: str) -> None:
        """Refuse a solver that does not apply to the model's interaction."""
        if self.solver == "exact" and interaction != "meanfield":
            raise ConfigError("solver option solver = 'exact' applies only to interaction = 'meanfield'")
        if self.sliding_fft_precision == "single" and interaction == "meanfield":
            raise ConfigError("solver option sliding_fft_precision = 'single' applies only to interaction = "
                              "'boussinesq' (the mean field has no FFT convolution)")

    def resolved_solver(self, interaction: str) -> str:
        """The solver ``auto`` stands for: ``exact`` (mean field) or ``pk``."""
        if self.solver != "auto":
            return self.solver
        return "exact" if interaction == "meanfield" else "pk"

    @property
    def workers(self) -> int | str:
        """FFT thread count for :class:`~frictionlab.contact.rough.elasticity.BoussinesqFFT`."""
        return "auto" if self.fft_workers == 0 else self.fft_workers

    def attrs(self) -> dict[str, Any]:
        """The settings as result attributes."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> SolverOptions:
        """Build from the drivers' options (only the names of this class are read)."""
        return cls(**{k: options[k] for k in SOLVER_OPTION_NAMES if k in options})


#: the option names, in order
SOLVER_OPTION_NAMES = tuple(f.name for f in fields(SolverOptions))
