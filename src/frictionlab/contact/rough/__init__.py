"""Rough-surface asperity-ensemble contact (Hulikal, Lapusta & Bhattacharya), part 1.

Modules::

    surface       Gaussian rough surfaces (FFT filtering), statistics, measured height maps, x-shifts.
    elasticity    Boussinesq interaction as an exact zero-padded FFT convolution; mean field.
    constitutive  Multi-rate viscoelastic recursions; viscoplastic power-law creep.
    solver        Polonsky-Keer constrained CG (load / displacement control), exact mean-field solve,
                  the paper's Algorithm 1.
    model         ``RoughContact`` parameters, ``RoughContactSim`` stepping, ``run_static`` ageing driver.
    backend       numpy / CuPy / PyTorch array backends.
    self_affine   Self-affine (Persson PSD) surfaces in physical units; rms height/slope, radial PSD.
    physical      ``solve_contact``: elastic contact in SI units (E, nu, pixel size) at a load or loads.
"""

from .constitutive import Viscoelastic, Viscoplastic
from .elasticity import BoussinesqFFT, MeanField, StepOperator
from .model import (F_STAR, STRESS_STAR, TAU_S_BAR, RoughContact, RoughContactSim, contact_clusters, force_pdf,
                    load_from_pressure, run_static)
from .solver import SolveResult, alg1_solve, meanfield_solve, pk_solve, pk_solve_disp
from .physical import ContactSolution, solve_contact
from .self_affine import radial_psd, rms_height, rms_slope, self_affine_surface
from .surface import HeightMap, load_height_map, make_surface, shift_x, surface_stats

__all__ = ["Viscoelastic", "Viscoplastic", "BoussinesqFFT", "MeanField", "StepOperator", "RoughContact",
           "RoughContactSim", "run_static", "load_from_pressure", "contact_clusters", "force_pdf", "F_STAR",
           "STRESS_STAR", "TAU_S_BAR", "SolveResult", "pk_solve", "pk_solve_disp", "meanfield_solve", "alg1_solve",
           "HeightMap", "load_height_map", "make_surface", "shift_x", "surface_stats", "ContactSolution",
           "solve_contact", "self_affine_surface", "rms_height", "rms_slope", "radial_psd"]

from . import driver  # noqa: E402,F401  (registers the drivers of frictionlab.simulate)
